"""Where the tests find PostgreSQL, and the fixtures every integration and API test shares.

The database comes from TEST_DATABASE_URL; else a Docker engine through testcontainers when one answers; else an
embedded PostgreSQL started once for the session. Each session works in a database of its own, created here and
dropped at the end, and tests isolate themselves by fresh campaign ids rather than by truncating tables.
"""

from __future__ import annotations

import os
import socket
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
from hypothesis import settings
from litestar.testing import TestClient

from quartermaster.service.app import create_app
from quartermaster.service.platform.migrate import migrate
from quartermaster.service.platform.settings import Settings

# Hypothesis's default deadline (200 ms an example) measures how busy the machine is, not a law: on two cores shared
# with a server, a browser and PostgreSQL, a pure fold can miss it and fail a build that has nothing wrong with it.
# Tests keep their own example counts; only the deadline goes.
settings.register_profile("quartermaster", deadline=None)
settings.load_profile("quartermaster")


def _docker_answers() -> bool:
    host = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
    if host.startswith("unix://"):
        path = host.removeprefix("unix://")
        if not Path(path).exists():
            return False
        try:
            with socket.socket(socket.AF_UNIX) as sock:
                sock.settimeout(1)
                sock.connect(path)
        except OSError:
            return False
    try:
        import docker

        docker.from_env(timeout=3).ping()
        return True
    except Exception:  # any failure to reach the engine means "no Docker here"
        return False


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    """A PostgreSQL server the test session may create a database on."""
    configured = os.environ.get("TEST_DATABASE_URL")
    if configured:
        yield configured
    elif _docker_answers():
        from testcontainers.postgres import PostgresContainer

        with PostgresContainer("postgres:16-alpine", driver=None) as container:
            yield container.get_connection_url()
    else:
        from quartermaster.service.platform import embedded

        with tempfile.TemporaryDirectory(prefix="quartermaster-test-") as folder:
            yield embedded.start(Path(folder), keep=False)


@pytest.fixture(scope="session")
def database_url(server_url: str) -> Iterator[str]:
    """A fresh, migrated database for this test session."""
    name = f"qm_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # a generated identifier, not input
    url = psycopg.conninfo.make_conninfo(server_url, dbname=name)
    migrate(url)
    yield url
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class CampaignHandle:
    """A campaign created for a test, with its owner's token."""

    id: str
    token: str
    member_id: str
    game: str
    tokens: dict[str, str] = field(default_factory=dict)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Api:
    """A client for the real app on the test database, with shortcuts for the steps every test takes."""

    client: TestClient

    def new_campaign(
        self, game: str = "pacg-skull-and-shackles", name: str = "Test voyage", options: dict[str, Any] | None = None
    ) -> CampaignHandle:
        answer = self.client.post("/v1/campaigns", json={"name": name, "game": game, "options": options or {}})
        assert answer.status_code == 201, answer.text
        body = answer.json()
        return CampaignHandle(id=body["id"], token=body["token"], member_id=body["member_id"], game=game)

    def add_member(self, campaign: CampaignHandle, role: str, name: str | None = None) -> str:
        answer = self.client.post(
            f"/v1/campaigns/{campaign.id}/members", json={"name": name or role, "role": role}, headers=campaign.headers
        )
        assert answer.status_code == 201, answer.text
        return answer.json()["token"]

    def append(
        self, campaign: CampaignHandle, events: list[dict[str, Any]], token: str | None = None, **body: Any
    ) -> Any:
        """POST a batch; events are `{type, data}` dicts. Answers the response (not asserted)."""
        headers = {"Authorization": f"Bearer {token or campaign.token}"}
        return self.client.post(f"/v1/campaigns/{campaign.id}/events", json={"events": events, **body}, headers=headers)

    def get(self, campaign: CampaignHandle, path: str, token: str | None = None, **params: Any) -> Any:
        headers = {"Authorization": f"Bearer {token or campaign.token}"}
        return self.client.get(f"/v1/campaigns/{campaign.id}{path}", params=params, headers=headers)


@pytest.fixture(scope="session")
def app_settings() -> Settings:
    # Every test calls from the same address and many start campaigns; the limits themselves have tests of their own.
    return Settings(
        max_body_bytes=256 * 1024, pool_min=1, pool_max=8, rate_limit="100000/minute", wrong_tokens="100000/minute"
    )


@pytest.fixture(scope="session")
def api(database_url: str, app_settings: Settings) -> Iterator[Api]:
    """The real app on the test database. `api.new_campaign(game)` gives a fresh campaign with its owner token;
    `api.append(campaign, [{"type": ..., "data": {...}}])` posts a batch; `api.get(campaign, "/fleet", at=3)` reads.
    """
    with TestClient(create_app(app_settings, database_url)) as client:
        yield Api(client)
