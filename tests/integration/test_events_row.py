"""The events row is declared once (service/store/writing.py, EVENT): the statements derived from the declaration
are the table's, in a migrated database, so a column a migration adds and the store does not declare fails here."""

from __future__ import annotations

import re
import uuid

import psycopg

from quartermaster.service.store.writing import BY_THE_DATABASE, EVENT, WRITE, WRITE_ONE, Write, parameters


def _table(conn: psycopg.Connection) -> dict[str, str]:
    """Every column of `events` in the migrated database, with its type as PostgreSQL names it."""
    rows = conn.execute(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = 'events' ORDER BY ordinal_position"
    ).fetchall()
    return dict(rows)


def _inserted(statement: str) -> list[str]:
    """The columns a statement's INSERT INTO events names, in order."""
    found = re.search(r"INSERT INTO events \(([^)]*)\)", statement)
    assert found is not None, statement
    return [name.strip() for name in found.group(1).split(",")]


def test_every_column_of_the_events_table_is_declared_with_its_type_or_filled_by_the_database(database_url):
    with psycopg.connect(database_url) as conn:
        table = _table(conn)
        declared = {c.name: conn.execute("SELECT %s::regtype::text", (c.type,)).fetchone()[0] for c in EVENT}
    assert set(table) - {"campaign_id"} - set(BY_THE_DATABASE) == set(declared), (
        "a column of events is not declared in service/store/writing.py (EVENT), or one declared is not in the table"
    )
    assert {name: table[name] for name in declared} == declared


def test_both_write_statements_insert_every_declared_column_in_the_declared_order():
    names = ["campaign_id", *(c.name for c in EVENT)]
    assert _inserted(WRITE) == names and _inserted(WRITE_ONE) == names


def _numbered(query: str) -> str:
    """The statement with PostgreSQL's numbered placeholders ($1, $2, ...) for psycopg's `%s`, for a bare PREPARE."""
    count = iter(range(1, query.count("%s") + 1))
    return re.sub(r"%s", lambda _: f"${next(count)}", query)


def test_both_write_statements_are_accepted_by_the_migrated_table(database_url):
    with psycopg.connect(database_url) as conn, conn.transaction(force_rollback=True):
        # PostgreSQL plans them against the table: every column's name and type must be right.
        conn.execute(f"PREPARE write_one AS {_numbered(WRITE_ONE)}")
        nowhere = uuid.uuid4()  # no campaign: without the lock, nothing is written
        row = conn.execute(WRITE, parameters(Write(nowhere, 1, locked=False, events=[]))).fetchone()
    assert row is None
