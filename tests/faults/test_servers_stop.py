"""A fault test that fails half way leaves no server running (tests/faults/conftest.py)."""

from __future__ import annotations

import pytest

from tests.faults.servers import STARTED, running, serve, stop_left_running

pytestmark = pytest.mark.slow


def test_a_server_left_running_by_its_test_is_stopped_and_only_those_since(tmp_path, database_url):
    outer = serve(tmp_path, args=("--help",))  # started before: not this call's to stop
    outer.process.wait(30)
    before = len(STARTED)
    left = serve(tmp_path, database_url=database_url)
    left.wait_ready()

    stop_left_running(before)

    assert not running(left.process.pid) and left.process.returncode is not None
    assert STARTED[-1] is outer
