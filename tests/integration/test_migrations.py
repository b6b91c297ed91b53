"""Migrations apply once, in order, even when two servers start at the same moment."""

from __future__ import annotations

import threading
import uuid

import psycopg
import pytest

from quartermaster.service.platform.migrate import available, migrate


@pytest.fixture
def empty_database(server_url):
    name = f"qm_migrate_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield psycopg.conninfo.make_conninfo(server_url, dbname=name)
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_two_servers_migrating_at_once_apply_each_migration_exactly_once(empty_database):
    results: list[list[str]] = []
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def server():
        start.wait()
        try:
            results.append(migrate(empty_database))
        except BaseException as error:  # surfaced below
            errors.append(error)

    threads = [threading.Thread(target=server) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    every = [m.version for m in available()]
    assert sorted(results, key=len) == [[], every]
    with psycopg.connect(empty_database) as conn:
        recorded = [row[0] for row in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
    assert recorded == every


def test_migrating_an_up_to_date_database_applies_nothing(empty_database):
    migrate(empty_database)
    assert migrate(empty_database) == []
