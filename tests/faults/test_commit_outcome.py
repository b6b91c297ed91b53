"""A connection lost around COMMIT: the answer says nothing was written only when the server knows.

A proxy between the service and a throwaway PostgreSQL cuts the connection at a chosen moment: before the
campaign's write lock is asked for (the transaction never reached COMMIT: PostgreSQL rolls it back), or once PostgreSQL
has the write and its COMMIT and starts to answer (it may well have committed). A retry with the same event ids
then answers what was recorded, so the client ends with its events recorded exactly once either way.
"""

from __future__ import annotations

import uuid

import psycopg
import pytest
from litestar.testing import TestClient

from quartermaster.service.app import create_app
from quartermaster.service.platform.migrate import migrate
from quartermaster.service.platform.settings import Settings
from tests.conftest import Api
from tests.faults.proxy import Cut, CuttingProxy
from tests.faults.servers import ThrowawayPostgres

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cut")
    folder.chmod(0o755)  # the cluster runs as its own user when the tests run as root
    throwaway = ThrowawayPostgres(folder)
    migrate(throwaway.url)
    yield throwaway
    throwaway.close()


@pytest.fixture(scope="module")
def api(cluster):
    """Another process on the same database, straight to PostgreSQL: it makes campaigns and reads logs."""
    with TestClient(create_app(Settings(pool_min=1, pool_max=2, rate_limit="off"), cluster.url)) as client:
        yield Api(client)


@pytest.fixture
def through_proxy(cluster):
    cutting = CuttingProxy("127.0.0.1", cluster.port)
    url = psycopg.conninfo.make_conninfo(cluster.url, port=cutting.port)
    with TestClient(create_app(Settings(pool_min=1, pool_max=2, rate_limit="off"), url)) as client:
        yield cutting, client
    cutting.close()


def _note(text: str) -> dict:
    return {"events": [{"type": "note.added", "id": str(uuid.uuid4()), "data": {"text": text}}]}


def _log(api, campaign) -> list[dict]:
    return api.get(campaign, "/events", limit=1000).json()["events"]


def _is_503(answer, kind: str) -> dict:
    assert answer.status_code == 503, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert int(answer.headers["retry-after"]) > 0
    problem = answer.json()
    assert problem["type"].endswith(f"/{kind}"), problem
    return problem


def test_a_connection_cut_once_the_fast_write_reached_postgresql_is_an_unknown_outcome_and_a_retry_records_once(
    api, through_proxy
):
    cutting, client = through_proxy
    created = client.post("/v1/campaigns", json={"name": "Cut", "game": "pacg-skull-and-shackles"}).json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    batch = _note("The powder magazine caught fire.")
    # This process created the campaign, so it knows its state and appends with one statement (its own commit).
    cutting.arm(Cut(b"pg_try_advisory_xact_lock_shared", before_sending=False))  # WRITE_ONE

    cut = client.post(f"/v1/campaigns/{created['id']}/events", json=batch, headers=headers)

    problem = _is_503(cut, "outcome-unknown")
    assert "cannot tell whether" in problem["detail"] and "nothing was written" not in problem["detail"]
    assert cutting.cuts == 1
    retried = client.post(f"/v1/campaigns/{created['id']}/events", json=batch, headers=headers)
    assert retried.status_code in (200, 201), retried.text
    ids = [e["id"] for e in client.get(f"/v1/campaigns/{created['id']}/events", headers=headers).json()["events"]]
    assert ids.count(batch["events"][0]["id"]) == 1


def test_a_connection_cut_after_commit_was_sent_is_an_unknown_outcome_and_a_retry_records_once(api, through_proxy):
    cutting, client = through_proxy
    campaign = api.new_campaign()  # made by another process: this one takes the locking path, with COMMIT
    batch = _note("Anne fell overboard.")
    cutting.arm(Cut(b"COMMIT", before_sending=False))

    cut = client.post(f"/v1/campaigns/{campaign.id}/events", json=batch, headers=campaign.headers)

    _is_503(cut, "outcome-unknown")
    retried = client.post(f"/v1/campaigns/{campaign.id}/events", json=batch, headers=campaign.headers)
    assert retried.status_code in (200, 201), retried.text
    assert [e["id"] for e in _log(api, campaign)].count(batch["events"][0]["id"]) == 1


def test_a_connection_cut_before_commit_was_sent_says_nothing_was_written_and_nothing_was(api, through_proxy):
    cutting, client = through_proxy
    campaign = api.new_campaign()
    before = _log(api, campaign)
    cutting.arm(Cut(b"pg_advisory_xact_lock(", before_sending=True))  # the locking path's HOLD

    cut = client.post(f"/v1/campaigns/{campaign.id}/events", json=_note("Never recorded."), headers=campaign.headers)

    problem = _is_503(cut, "database-unavailable")
    assert "nothing was written" in problem["detail"]
    assert cutting.cuts == 1 and _log(api, campaign) == before
