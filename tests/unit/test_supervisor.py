"""The supervisor's backoff: a start that fails is tried again after waits that double up to a bound, each logged."""

from __future__ import annotations

import logging
import subprocess
from pathlib import Path

from quartermaster.service.platform.embedded import Supervisor


class Refusing:
    """A server whose start fails `failures` times (as pg_ctl does while the old shared memory is still held)."""

    def __init__(self, pgdata: Path, failures: int) -> None:
        self.pgdata = pgdata
        self.failures = failures
        self.tries = 0

    def get_uri(self) -> str:
        return f"postgresql://postgres@/quartermaster?host={self.pgdata}"

    def ensure_postgres_running(self) -> None:
        self.tries += 1
        if self.tries <= self.failures:
            raise subprocess.CalledProcessError(1, ["pg_ctl", "start"], stderr="pg_ctl: could not start server")


def test_failed_starts_are_retried_with_a_doubling_wait_bounded_and_logged(tmp_path, caplog):
    server = Refusing(tmp_path, failures=5)
    supervisor = Supervisor(server, first=0.01, longest=0.04)  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING, logger="quartermaster.embedded"):
        supervisor._start_again()
    assert server.tries == 6
    waits = [r.args[2] for r in caplog.records if r.levelno == logging.ERROR]
    assert waits == [0.01, 0.02, 0.04, 0.04, 0.04]
    assert "running again" in caplog.records[-1].getMessage()
    assert "after 6 attempt(s)" in caplog.records[-1].getMessage()


def test_a_supervisor_stopping_gives_up_retrying(tmp_path):
    server = Refusing(tmp_path, failures=1000)
    supervisor = Supervisor(server, first=0.01, longest=0.01)  # type: ignore[arg-type]
    supervisor._stopping.set()
    assert supervisor._start_again() is None
    assert server.tries == 0
