"""The write statements' plans: the fast path's probe of where the log ends reads the primary key, whatever the
table's statistics say.

A prepared statement runs on PostgreSQL's generic plan from its sixth execution on a connection, and the store
prepares WRITE_ONE on every pooled connection. A probe asked by (campaign_id, position) was planned, on a table
without statistics (a new database's, until autovacuum first analyses it), as a scan of the campaign's every entry in
another index that begins with campaign_id: each append read more than the one before. These tests plan both
statements generically on a new database, before and after ANALYZE, and read which index the probe uses.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec
import psycopg
import pytest

from quartermaster.service.platform.migrate import migrate
from quartermaster.service.store.writing import WRITE, WRITE_ONE, Write, one_parameters, parameters

CAMPAIGNS = 3


@pytest.fixture
def new_database(server_url: str, events: int) -> Iterator[str]:
    """A migrated database of its own, with campaigns of `events` events each and no statistics yet."""
    name = f"qm_plans_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # a generated identifier, not input
    url = psycopg.conninfo.make_conninfo(server_url, dbname=name)
    try:
        migrate(url)
        with psycopg.connect(url, autocommit=True) as conn:
            # No autovacuum analyse while a test plans: the table keeps the statistics the test gives it.
            conn.execute("ALTER TABLE events SET (autovacuum_enabled = false)")
            for _ in range(CAMPAIGNS):
                campaign = uuid.uuid4()
                conn.execute(
                    "INSERT INTO campaigns (campaign_id, game, name) VALUES (%s, 'pacg-skull-and-shackles', 'Plans')",
                    (campaign,),
                )
                conn.execute(
                    "INSERT INTO events (campaign_id, position, event_id, batch_id, type, data, actor, recorded_at)"
                    " SELECT %s, n, gen_random_uuid(), gen_random_uuid(), 'note.added', '{}', 'owner', now()"
                    " FROM generate_series(1, %s) AS n",
                    (campaign, events),
                )
        yield url
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _generic_plan(conn: psycopg.Connection[Any], query: str, values: Sequence[Any]) -> str:
    """The generic plan of a statement with numbered placeholders, for these values (as literals)."""
    conn.execute("DEALLOCATE ALL")
    conn.execute(f"PREPARE probed AS {query}")
    conn.execute("SET plan_cache_mode = force_generic_plan")
    literals = psycopg.ClientCursor(conn).mogrify(", ".join(["%s"] * len(values)), values)
    return "\n".join(row[0] for row in conn.execute(f"EXPLAIN EXECUTE probed({literals})"))


def _numbered(query: str) -> str:
    """A statement's `%s` placeholders numbered ($1, $2, ...), as PREPARE takes them."""
    count = iter(range(1, query.count("%s") + 1))
    return re.sub(r"%s", lambda _: f"${next(count)}", query)


def _named(query: str, given: dict[str, Any]) -> tuple[str, list[Any]]:
    """WRITE's `%(name)s` placeholders numbered in the order they first appear, and their values in that order."""
    order: list[str] = []

    def number(match: re.Match[str]) -> str:
        if match[1] not in order:
            order.append(match[1])
        return f"${order.index(match[1]) + 1}"

    return re.sub(r"%\((\w+)\)s", number, query), [given[name] for name in order]


def _events_scans(plan: str) -> list[str]:
    return [line.strip() for line in plan.splitlines() if re.search(r"Scan.* on events\b", line)]


def _write(campaign: uuid.UUID, current: int, count: int) -> Write:
    events = [
        [current + 1 + i, "note.added", msgspec.Raw(b'{"text": "probe"}'), uuid.uuid4(), None, None]
        for i in range(count)
    ]
    return Write(campaign, current, locked=False, events=events, batch=uuid.uuid4(), actor="owner")


# (Analysed with a page of events or two, a sequential scan is the cheaper plan, and PostgreSQL plans again once
# autovacuum analyses a larger table.)
@pytest.mark.parametrize(
    ("events", "statistics"), [(1, "none yet"), (20, "none yet"), (400, "none yet"), (400, "analysed")]
)
def test_the_fast_paths_probe_reads_the_primary_key_whatever_the_statistics(new_database, events, statistics):
    with psycopg.connect(new_database, autocommit=True) as conn:
        if statistics == "analysed":
            conn.execute("ANALYZE events")
        campaign = conn.execute("SELECT campaign_id FROM campaigns LIMIT 1").fetchone()[0]

        one = _write(campaign, events, 1)
        assert one.one
        plans = {"WRITE_ONE": _generic_plan(conn, _numbered(WRITE_ONE), one_parameters(one))}
        query, values = _named(WRITE, parameters(_write(campaign, events, 3)))
        plans["WRITE"] = _generic_plan(conn, query, values)

    for name, plan in plans.items():
        # The probe is the statement's one read of events: the last entry of the campaign's part of the primary key.
        scans = _events_scans(plan)
        assert len(scans) == 1, f"{name} with {statistics} statistics:\n{plan}"
        assert " using events_pkey on events " in scans[0], f"{name} with {statistics} statistics:\n{plan}"
