"""Fault tests start real servers; none may outlive what started it, whether its test passed or not."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.faults.servers import STARTED, serve, stop_left_running


@pytest.fixture(autouse=True)
def _no_server_outlives_its_test() -> Iterator[None]:
    # A server of a wider fixture (a module's, say) was started before this one was set up, and is that fixture's.
    before = len(STARTED)
    yield
    stop_left_running(before)


def pytest_sessionfinish() -> None:
    stop_left_running()


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory, database_url):
    """Two `quartermaster serve` processes on one database, for the tests of what one hears of the other."""
    folder = tmp_path_factory.mktemp("two")
    servers = [serve(folder, database_url=database_url, env={"QUARTERMASTER_RATE_LIMIT": "off"}) for _ in range(2)]
    for served in servers:
        served.wait_ready()
    yield servers
    for served in servers:
        served.process.terminate()
        served.process.wait(15)
