"""Fault tests start real servers; none may outlive what started it, whether its test passed or not."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.faults.servers import STARTED, stop_left_running


@pytest.fixture(autouse=True)
def _no_server_outlives_its_test() -> Iterator[None]:
    # A server of a wider fixture (a module's, say) was started before this one was set up, and is that fixture's.
    before = len(STARTED)
    yield
    stop_left_running(before)


def pytest_sessionfinish() -> None:
    stop_left_running()
