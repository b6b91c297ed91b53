"""The store's integration tests run both ways: with the fast lane (the one-event statement through libpq itself,
service/store/wire.py) and without it (psycopg's cursor), as Settings.fast_lane switches it in the app.

Every module that makes a Store runs each of its tests twice, with every Store made without a `fast_lane` argument
taking one side, so a test written once checks both (tests/integration/test_fast_lane_off.py checks that the side
without it never reaches the wire).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from quartermaster.service.store import Store


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    module = vars(metafunc.module)
    if "Store" in module and module.get("BOTH_WAYS", True) and "fast_lane" not in metafunc.fixturenames:
        metafunc.fixturenames.append("fast_lane")
        metafunc.parametrize("fast_lane", [True, False], ids=["fast lane on", "fast lane off"], indirect=True)


@pytest.fixture
def fast_lane(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[bool]:
    """Which side this test runs on: the default of every Store made in it without a `fast_lane` argument."""
    on = bool(request.param)
    defaults = Store.__init__.__kwdefaults__ or {}
    monkeypatch.setattr(Store.__init__, "__kwdefaults__", {**defaults, "fast_lane": on})
    yield on
