"""A lost answer cannot hang a campaign: with the connection still open and PostgreSQL's answer never arriving, a
write answers 503 (its outcome unknown) within a bound, the connection is closed rather than lent to the next
request, and the retry with the same event ids answers 200 from the log.

A proxy between a freshly started server process and PostgreSQL swallows the answer to one message: on the locking
path (the process holds no state of the campaign, made by another process), the answer to COMMIT; on the fast path
(the process made the campaign, so it appends with one statement), the answer to that statement.
"""

from __future__ import annotations

import time
import uuid

import httpx
import psycopg
import pytest

from tests.faults.proxy import Cut, CuttingProxy
from tests.faults.servers import serve

pytestmark = pytest.mark.slow

STATEMENT_SECONDS = 1  # the server gives up waiting for an answer a second after this


@pytest.fixture
def proxied(tmp_path, database_url):
    params = psycopg.conninfo.conninfo_to_dict(database_url)
    cutting = CuttingProxy(params.get("host") or "127.0.0.1", int(params.get("port") or 5432))
    url = psycopg.conninfo.make_conninfo(database_url, host="127.0.0.1", port=cutting.port)
    served = serve(
        tmp_path,
        database_url=url,
        env={"QUARTERMASTER_RATE_LIMIT": "off", "QUARTERMASTER_STATEMENT_TIMEOUT": str(STATEMENT_SECONDS)},
    )
    served.wait_ready()
    yield cutting, served
    served.process.terminate()
    served.process.wait(15)
    cutting.close()


def _note(text: str) -> dict:
    return {"events": [{"type": "note.added", "id": str(uuid.uuid4()), "data": {"text": text}}]}


def _lost_then_recorded(url: str, campaign: str, headers: dict[str, str], batch: dict) -> None:
    started = time.monotonic()
    lost = httpx.post(f"{url}/v1/campaigns/{campaign}/events", json=batch, headers=headers, timeout=30)
    waited = time.monotonic() - started
    assert lost.status_code == 503, lost.text
    assert lost.json()["type"].endswith("/outcome-unknown") and int(lost.headers["retry-after"]) > 0
    # Bounded: the answer's wait (the statement timeout and a second), not the client's 30 s.
    assert waited < STATEMENT_SECONDS + 1 + 5, waited
    retried = httpx.post(f"{url}/v1/campaigns/{campaign}/events", json=batch, headers=headers, timeout=30)
    assert retried.status_code == 200, retried.text  # what the log holds: it was recorded the first time
    assert [e["id"] for e in retried.json()["events"]] == [batch["events"][0]["id"]]
    log = httpx.get(f"{url}/v1/campaigns/{campaign}/events", headers=headers, params={"limit": 1000}).json()
    assert [e["id"] for e in log["events"]].count(batch["events"][0]["id"]) == 1


def test_an_answer_to_commit_lost_on_the_locking_path_is_a_503_then_a_retry_answers_200_from_the_log(proxied, api):
    cutting, served = proxied
    campaign = api.new_campaign()  # made by another process: this fresh one takes the locking path
    cutting.arm(Cut(b"COMMIT", before_sending=False, swallow=True))

    _lost_then_recorded(served.url, campaign.id, campaign.headers, _note("Anne fell overboard."))
    assert cutting.cuts == 1


def test_an_answer_lost_on_the_one_statement_path_is_a_503_then_a_retry_answers_200_from_the_log(proxied):
    cutting, served = proxied
    created = httpx.post(
        f"{served.url}/v1/campaigns", json={"name": "Lost", "game": "pacg-skull-and-shackles"}
    ).json()  # made here: the process knows its state and appends with one statement
    headers = {"Authorization": f"Bearer {created['token']}"}
    text = f"The powder magazine caught fire ({uuid.uuid4().hex})."
    cutting.arm(Cut(text.encode(), before_sending=False, swallow=True))  # only in that statement's parameters

    _lost_then_recorded(served.url, created["id"], headers, _note(text))
    assert cutting.cuts == 1
