"""A benchmark's own database: made fresh on a server, migrated, and dropped when the benchmark ends."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

from quartermaster.service.platform.migrate import migrate


@contextmanager
def scratch_database(server_url: str, prefix: str) -> Iterator[str]:
    """A database `<prefix>_<random>` on `server_url`, with this checkout's migrations applied: its URL. Dropped
    afterwards, whatever is still connected to it."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # a generated identifier, not input
    try:
        url = psycopg.conninfo.make_conninfo(server_url, dbname=name)
        migrate(url)
        yield url
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
