"""PostgreSQL stopped and started under a running server: quick 503s while it is down, ready soon after it is back.

The database here is a throwaway cluster of the test's own (never the machine's shared server), stopped and started
with pg_ctl while `quartermaster serve` keeps running against it.
"""

from __future__ import annotations

import signal
import time

import httpx
import pytest

from quartermaster.service.platform.migrate import migrate
from tests.faults.servers import ThrowawayPostgres, serve

pytestmark = pytest.mark.slow

NOTE = {"events": [{"type": "note.added", "data": {"text": "The storm took the mainmast."}}]}


@pytest.fixture
def throwaway(tmp_path):
    tmp_path.chmod(0o755)  # the cluster runs as its own user when the tests run as root
    cluster = ThrowawayPostgres(tmp_path)
    migrate(cluster.url)
    yield cluster
    cluster.close()


def _timed(call):
    started = time.monotonic()
    answer = call()
    return answer, time.monotonic() - started


def test_while_the_database_is_down_requests_get_503_within_2_s_and_it_is_ready_within_5_s_of_its_return(
    tmp_path, throwaway
):
    server = serve(tmp_path, database_url=throwaway.url)
    server.wait_ready()
    client = httpx.Client(base_url=server.url, timeout=30)
    campaign = client.post("/v1/campaigns", json={"name": "Outage", "game": "pacg-skull-and-shackles"}).json()
    headers = {"Authorization": f"Bearer {campaign['token']}"}
    events = f"/v1/campaigns/{campaign['id']}/events"

    throwaway.stop()
    down_since = time.monotonic()
    answers = []
    while time.monotonic() - down_since < 8:  # past the pool's own reconnect attempts
        answers.append(_timed(lambda: client.post(events, json=NOTE, headers=headers)))
        answers.append(_timed(lambda: client.get(events, headers=headers)))
        answers.append(_timed(lambda: client.get("/readyz")))

    for answer, seconds in answers:
        assert answer.status_code == 503, answer.text
        assert seconds < 2, f"{answer.request.method} {answer.request.url.path} took {seconds:.2f} s to answer 503"
        assert answer.headers["content-type"].startswith("application/problem+json")
        assert int(answer.headers["retry-after"]) > 0 and answer.json()["detail"].endswith(".")

    throwaway.start()
    back = time.monotonic()
    while client.get("/readyz").status_code != 200:
        assert time.monotonic() - back < 5, "not ready 5 s after the database came back"
        time.sleep(0.05)
    recovered = time.monotonic() - back
    written = client.post(events, json=NOTE, headers=headers)
    assert written.status_code == 201, written.text
    print(
        f"ready {recovered:.2f} s after PostgreSQL came back; slowest 503 while down: "
        f"{max(s for _, s in answers):.2f} s over {len(answers)} requests"
    )

    assert server.signal(signal.SIGTERM) == 0
