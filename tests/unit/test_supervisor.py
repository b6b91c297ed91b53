"""The supervisor's backoff: a start that fails is tried again after waits that double up to a bound, each logged;
and starts of one data folder, by two processes or two threads, one at a time."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
import time
from pathlib import Path

from quartermaster.service.platform.embedded import Supervisor, starting


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


def test_starts_of_one_data_folder_wait_for_each_other_across_threads_and_processes(tmp_path):
    order: list[str] = []

    def start_in_a_thread() -> None:
        with starting(tmp_path):
            order.append("thread")

    script = (
        "from pathlib import Path\n"
        "from quartermaster.service.platform.embedded import starting\n"
        f"with starting(Path({str(tmp_path)!r})):\n"
        "    print('process')\n"
    )
    with starting(tmp_path):
        thread = threading.Thread(target=start_in_a_thread)
        thread.start()
        other = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        time.sleep(1.0)
        assert order == [] and other.poll() is None  # both wait while this start holds the folder
        order.append("first")
    thread.join(5)
    out, _ = other.communicate(timeout=30)
    assert order == ["first", "thread"] and out.strip() == "process"
