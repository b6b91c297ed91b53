"""/readyz says not ready while the database would hold every commit for a synchronous standby that is not there
(what a new leader does under Patroni's strict synchronous mode until a standby connects), and names that wait; so
do the 503s of the appends made meanwhile, rather than blaming a long change of the campaign."""

from __future__ import annotations

import concurrent.futures
import time
import uuid

import psycopg
import pytest
from litestar.testing import TestClient

from quartermaster.service.app import create_app
from quartermaster.service.platform.migrate import migrate
from quartermaster.service.platform.settings import Settings
from tests.faults.servers import ThrowawayPostgres

pytestmark = pytest.mark.slow


def _synchronous(url: str, names: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"ALTER SYSTEM SET synchronous_standby_names = '{names}'")  # a constant of this test
        conn.execute("SELECT pg_reload_conf()")


def test_ready_only_while_a_commit_can_complete(tmp_path):
    tmp_path.chmod(0o755)  # the cluster runs as its own user when the tests run as root
    cluster = ThrowawayPostgres(tmp_path)
    try:
        migrate(cluster.url)
        with TestClient(create_app(Settings(pool_min=1, pool_max=2, rate_limit="off"), cluster.url)) as client:
            assert client.get("/readyz").status_code == 200
            _synchronous(cluster.url, "*")
            waiting = client.get("/readyz")
            assert waiting.status_code == 503
            assert "confirms no commit until a synchronous standby streams to it" in waiting.json()["detail"]
            _synchronous(cluster.url, "")
            assert client.get("/readyz").status_code == 200
    finally:
        cluster.close()


def _note(text: str) -> dict:
    return {"events": [{"type": "note.added", "id": str(uuid.uuid4()), "data": {"text": text}}]}


def test_appends_while_commits_wait_for_a_standby_say_so_and_none_is_lost(tmp_path):
    tmp_path.chmod(0o755)
    cluster = ThrowawayPostgres(tmp_path)
    settings = Settings(pool_min=1, pool_max=4, rate_limit="off", statement_timeout=1.0, lock_timeout=1.0)
    try:
        migrate(cluster.url)
        with TestClient(create_app(settings, cluster.url)) as client:
            created = client.post("/v1/campaigns", json={"name": "Becalmed", "game": "pacg-skull-and-shackles"}).json()
            path, owner = f"/v1/campaigns/{created['id']}/events", {"Authorization": f"Bearer {created['token']}"}
            assert client.post(path, json=_note("before"), headers=owner).status_code == 201
            _synchronous(cluster.url, "*")
            bodies = [_note(f"while waiting {n}") for n in range(3)]
            with concurrent.futures.ThreadPoolExecutor(3) as pool:
                answers = list(pool.map(lambda body: client.post(path, json=body, headers=owner), bodies))
            time.sleep(0.5)  # the background check of the first failures has had its time
            later = client.post(path, json=bodies[0], headers=owner)
            _synchronous(cluster.url, "")
            statuses = [answer.status_code for answer in [*answers, later]]
            waits = [a.json()["detail"] for a in [*answers, later] if a.status_code == 503]
            assert waits, f"no append was held for the standby: {statuses}"
            assert any("until a synchronous standby streams to it" in detail for detail in waits), waits
            assert not any("a rebuild, a long undo" in detail for detail in waits), waits
            # What a retry with the same ids finds, once commits complete, is what was recorded: at most once each.
            for body in bodies:
                retried = client.post(path, json=body, headers=owner)
                assert retried.status_code in (200, 201), retried.text
            texts = [
                entry["data"].get("text")
                for entry in client.get(f"/v1/campaigns/{created['id']}/events", headers=owner).json()["events"]
            ]
            assert sorted(t for t in texts if t and t.startswith("while")) == sorted(
                b["events"][0]["data"]["text"] for b in bodies
            )
    finally:
        cluster.close()
