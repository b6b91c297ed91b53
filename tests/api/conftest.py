"""Two apps on the session's database, one with the fast lane and one without, for the tests that compare them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import pytest
from litestar.testing import TestClient

from quartermaster.service.app import create_app
from quartermaster.service.platform.settings import Settings


@dataclass
class Lanes:
    """A client of the app with the fast lane (`on`) and one of the app Litestar's documentation builds (`off`)."""

    on: TestClient
    off: TestClient


@pytest.fixture(scope="session")
def lanes(api, database_url: str, app_settings: Settings) -> Iterator[Lanes]:
    # The session's own app is asked first, so that its way of counting requests is the first a scrape shows: a
    # process that builds both apps (this one) scrapes both sets of request families, and tests that read /metrics
    # read the session's app's, the first of each name.
    api.client.get("/healthz")
    with (
        TestClient(create_app(replace(app_settings, fast_lane=True), database_url)) as on,
        TestClient(create_app(replace(app_settings, fast_lane=False), database_url)) as off,
    ):
        yield Lanes(on, off)
