"""The fast path's statement through libpq (service/store/wire.py) answers and fails as psycopg would, on real
PostgreSQL, and never lends a connection out mid-answer."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import UTC, datetime, timedelta, timezone

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from psycopg_pool import AsyncConnectionPool

from quartermaster.service.store.outcome import CommitOutcomeUnknown, one_row
from quartermaster.service.store.wire import Prepared, numbered

COLUMNS = "id uuid PRIMARY KEY, n bigint, word text, flag boolean, at timestamptz, doc jsonb"
INSERT = "INSERT INTO {table} VALUES (%s::uuid, %s, %s::text, %s, %s::timestamptz, %s::jsonb) RETURNING *"


@pytest.fixture
def table(database_url: str):
    name = f"wire_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"CREATE TABLE {name} ({COLUMNS})")  # a generated name, not input
    yield name
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"DROP TABLE {name}")


def run(database_url: str, scenario, max_size: int = 2):
    async def main():
        async with AsyncConnectionPool(
            database_url, min_size=1, max_size=max_size, open=False, kwargs={"autocommit": True}
        ) as pool:
            return await scenario(pool)

    return asyncio.run(main())


def test_placeholders_are_numbered_in_order_and_other_placeholders_are_refused():
    assert numbered("SELECT %s, %s::uuid WHERE x = %s") == "SELECT $1, $2::uuid WHERE x = $3"
    with pytest.raises(ValueError):
        numbered("SELECT %(name)s")
    with pytest.raises(ValueError):
        numbered("SELECT '100%%', %s")


rows = st.tuples(
    st.uuids(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.one_of(st.none(), st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)))),
    st.booleans(),
    st.one_of(
        st.none(),
        st.datetimes(
            min_value=datetime(1900, 1, 1),
            max_value=datetime(2200, 1, 1),
            timezones=st.sampled_from([UTC, timezone(timedelta(hours=-5, minutes=-30))]),
        ),
    ),
    st.one_of(
        st.none(),
        st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",))).map(
            lambda text: json.dumps({"text": text})
        ),
    ),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(row=rows)
def test_every_parameter_type_is_written_and_read_back_as_psycopg_writes_and_reads_it(database_url, table, row):
    prepared = Prepared(f"wire_{uuid.uuid4().hex[:8]}", INSERT.format(table=table))

    async def scenario(pool):
        answered = await one_row(pool, prepared, row)
        async with pool.connection() as conn:
            cur = await conn.execute(f"SELECT * FROM {table} WHERE id = %s", (row[0],))
            stored = await cur.fetchone()
            await conn.execute(f"DELETE FROM {table}")
        return answered, stored

    answered, stored = run(database_url, scenario)
    assert answered == stored
    assert stored[:5] == row[:5]


def test_a_statement_deallocated_on_its_connection_is_prepared_again(database_url, table):
    prepared = Prepared("wire_dealloc", INSERT.format(table=table))

    async def scenario(pool):
        async with pool.connection() as conn:
            first = await prepared.first_row(conn, (uuid.uuid4(), 1, "a", True, None, None))
            await conn.execute("DEALLOCATE ALL")
            second = await prepared.first_row(conn, (uuid.uuid4(), 2, "b", False, None, None))
            return first, second, conn.info.transaction_status

    first, second, status = run(database_url, scenario)
    assert (first[1], second[1]) == (1, 2)
    assert status == psycopg.pq.TransactionStatus.IDLE


def test_an_error_of_postgresql_raises_as_psycopg_raises_it_and_leaves_the_connection_idle(database_url, table):
    prepared = Prepared("wire_unique", INSERT.format(table=table))
    same = uuid.uuid4()

    async def scenario(pool):
        async with pool.connection() as conn:
            await prepared.first_row(conn, (same, 1, "a", True, None, None))
            with pytest.raises(psycopg.errors.UniqueViolation) as raised:
                await prepared.first_row(conn, (same, 2, "b", True, None, None))
            after = await prepared.first_row(conn, (uuid.uuid4(), 3, "c", True, None, None))
            return raised.value, after, conn.info.transaction_status

    error, after, status = run(database_url, scenario)
    assert error.diag.constraint_name == f"{prepared.query.split()[2]}_pkey"
    assert after[1] == 3
    assert status == psycopg.pq.TransactionStatus.IDLE


def test_text_with_a_nul_is_refused_before_anything_is_sent(database_url, table):
    prepared = Prepared("wire_nul", INSERT.format(table=table))

    async def scenario(pool):
        with pytest.raises(psycopg.DataError):
            await one_row(pool, prepared, (uuid.uuid4(), 1, "cut\x00here", True, None, None))
        async with pool.connection() as conn:
            return await (await conn.execute(f"SELECT count(*) FROM {table}")).fetchone()

    assert run(database_url, scenario) == (0,)


def test_a_statement_cancelled_in_flight_closes_its_connection_and_the_pool_lends_a_sound_one(database_url):
    slow = Prepared("wire_slow", "SELECT pg_sleep(%s::float8), 1")

    async def scenario(pool):
        async with pool.connection() as conn:
            task = asyncio.create_task(slow.first_row(conn, (5,)))
            await asyncio.sleep(0.2)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            closed = conn.closed
        answered = await one_row(pool, slow, (0,))
        return closed, answered

    closed, answered = run(database_url, scenario, max_size=1)
    assert closed
    assert answered[1] == 1


def test_a_connection_lost_during_the_statement_is_an_unknown_outcome(database_url):
    prepared = Prepared("wire_lost", "SELECT pg_terminate_backend(pg_backend_pid())")

    async def scenario(pool):
        with pytest.raises(CommitOutcomeUnknown):
            await one_row(pool, prepared, ())
        return await one_row(pool, Prepared("wire_after", "SELECT %s::int"), (7,))

    assert run(database_url, scenario, max_size=1) == (7,)
