"""A database a newer Quartermaster migrated is refused by this one: by `migrate`, `serve` and `verify` with one
sentence naming the newest migration this version knows and the one it found, by /readyz with 503, and nothing is
written to it."""

from __future__ import annotations

import signal
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from litestar.testing import TestClient

from quartermaster.service.app import create_app
from quartermaster.service.cli import main
from quartermaster.service.platform.migrate import NewerDatabase, available, known_columns, migrate
from quartermaster.service.platform.settings import Settings
from tests.faults.servers import free_port

NEWER = "0099_from_a_newer_release"


@pytest.fixture
def database(server_url: str) -> Iterator[str]:
    name = f"qm_newer_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # a generated identifier, not input
    yield psycopg.conninfo.make_conninfo(server_url, dbname=name)
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _ledger(url: str) -> list[str]:
    with psycopg.connect(url) as conn:
        return [row[0] for row in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]


def _columns(url: str) -> set[tuple[str, str]]:
    with psycopg.connect(url) as conn:
        return set(
            conn.execute(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            ).fetchall()
        )


def _newer_migration_applied(url: str) -> None:
    migrate(url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_migrations (version, checksum) VALUES (%s, 'newer')", (NEWER,))


def _sentence_names_both(text: str, found: str) -> None:
    newest = available()[-1].version
    assert f"the newest this version knows is {newest}" in text or f"the newest it knows is {newest}" in text
    assert found in text
    assert "Nothing was changed" in text and "Traceback" not in text


def test_a_freshly_migrated_database_has_exactly_the_columns_this_version_lists(database):
    migrate(database)
    made = {pair for pair in _columns(database) if pair[0] in {table for table, _ in known_columns()}}
    assert made == known_columns(), (
        "migrations/columns.txt must list every column the migrations make: add "
        f"{sorted(made - known_columns())}, remove {sorted(known_columns() - made)}"
    )


def test_migrate_refuses_a_database_holding_a_migration_it_does_not_ship_and_applies_nothing(database):
    # Given a database migrated up to 0008 by this version, then by a newer one that recorded a migration of its own
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE schema_migrations (version text PRIMARY KEY, checksum text NOT NULL, "
            "applied_at timestamptz NOT NULL DEFAULT now())"
        )
        for migration in available()[:8]:
            conn.execute(migration.sql)
            conn.execute("INSERT INTO schema_migrations VALUES (%s, %s)", (migration.version, migration.checksum))
        conn.execute("INSERT INTO schema_migrations (version, checksum) VALUES (%s, 'newer')", (NEWER,))
    before = _columns(database)
    # When this version migrates it
    with pytest.raises(NewerDatabase) as refused:
        migrate(database)
    # Then it says which migration it found and which it knows, and applied none of its own
    _sentence_names_both(str(refused.value), NEWER)
    assert _ledger(database) == sorted([m.version for m in available()[:8]] + [NEWER])
    assert _columns(database) == before


def test_migrate_refuses_a_column_no_migration_makes_and_undoes_what_it_applied_with_it(database):
    # Given a database at 0009 whose events table has a column a newer release added
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE schema_migrations (version text PRIMARY KEY, checksum text NOT NULL, "
            "applied_at timestamptz NOT NULL DEFAULT now())"
        )
        for migration in available()[:9]:
            conn.execute(migration.sql)
            conn.execute("INSERT INTO schema_migrations VALUES (%s, %s)", (migration.version, migration.checksum))
        conn.execute("ALTER TABLE events ADD COLUMN signed_by text")
    # When this version migrates it
    with pytest.raises(NewerDatabase) as refused:
        migrate(database)
    # Then the column is named, and the migrations it would have applied are not
    assert "table events has a column signed_by" in str(refused.value)
    _sentence_names_both(str(refused.value), "signed_by")
    assert _ledger(database) == [m.version for m in available()[:9]]
    assert ("members", "revoked_at") not in _columns(database)


def test_an_operators_own_table_beside_the_services_is_not_refused(database):
    migrate(database)
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute("CREATE TABLE table_nights (night date, place text)")
    assert migrate(database) == []


def test_readyz_never_answers_200_for_a_newer_database(database):
    _newer_migration_applied(database)
    with TestClient(create_app(Settings(pool_min=1, pool_max=2), database)) as client:
        answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.headers["content-type"].startswith("application/problem+json")
    _sentence_names_both(answer.json()["detail"], NEWER)


def test_readyz_never_answers_200_for_a_column_it_does_not_know(database):
    migrate(database)
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute("ALTER TABLE members ADD COLUMN badge text")
    with TestClient(create_app(Settings(pool_min=1, pool_max=2), database)) as client:
        answer = client.get("/readyz")
    assert answer.status_code == 503
    assert "table members has a column badge" in answer.json()["detail"]


def test_the_migrate_command_refuses_a_newer_database_in_one_sentence(database, capsys):
    _newer_migration_applied(database)
    with pytest.raises(SystemExit) as left:
        main(["migrate", "--database-url", database])
    _, err = capsys.readouterr()
    assert left.value.code == 2
    _sentence_names_both(err, NEWER)
    assert len(err.strip().splitlines()) == 1


def test_the_verify_command_refuses_a_newer_database_before_reading_it(database, capsys):
    _newer_migration_applied(database)
    status = main(["verify", "--quiet", "--database-url", database])
    out, err = capsys.readouterr()
    assert status == 2
    _sentence_names_both(err, NEWER)
    assert "Checked" not in out


def test_serve_refuses_to_start_on_a_newer_database(database, capsys):
    _newer_migration_applied(database)
    handlers = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGINT)}
    try:
        with pytest.raises(SystemExit) as left:
            main(["serve", "--port", str(free_port()), "--database-url", database])
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
    out, err = capsys.readouterr()
    assert left.value.code == 2
    _sentence_names_both(err, NEWER)
    assert "listens on" not in out
    assert _ledger(database) == sorted([m.version for m in available()] + [NEWER])
