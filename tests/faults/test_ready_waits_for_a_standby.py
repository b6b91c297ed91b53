"""/readyz says not ready while the database would hold every commit for a synchronous standby that is not there
(what a new leader does under Patroni's strict synchronous mode until a standby connects), and names that wait."""

from __future__ import annotations

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
