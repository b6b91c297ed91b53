"""With the fast lane off, an append never reaches the wire (service/store/wire.py): the same statement goes
through psycopg's cursor, prepared by psycopg, and answers the same."""

from __future__ import annotations

import asyncio

import msgspec
import pytest
from psycopg_pool import AsyncConnectionPool

from quartermaster.events.campaign import NoteAdded
from quartermaster.service.http.intake import prepared_event
from quartermaster.service.store import Store, wire
from quartermaster.service.store.wire import numbered
from quartermaster.service.store.writing import WRITE_ONE
from tests.integration.logs import new_campaign

# Each test here chooses its side itself (conftest.py).
BOTH_WAYS = False


class WireReached(AssertionError):
    pass


def _refuse(*args, **kwargs):
    raise WireReached("the append reached service/store/wire.py")


def _notes(store_fast_lane: bool, database_url: str, count: int):
    async def main():
        async with AsyncConnectionPool(
            database_url, min_size=1, max_size=1, open=False, kwargs={"autocommit": True}
        ) as pool:
            store = Store(pool, fast_lane=store_fast_lane)
            campaign_id = await new_campaign(store)
            appended = [
                await store.append(campaign_id, [prepared_event(NoteAdded(text=f"note {i}"))], actor="t")
                for i in range(count)
            ]
            async with pool.connection() as conn:  # the pool's one connection, where the appends went
                prepared = await (
                    await conn.execute("SELECT statement FROM pg_prepared_statements WHERE name NOT LIKE 'qm_%%'")
                ).fetchall()
            return appended, [" ".join(row[0].split()) for row in prepared], await store.history(campaign_id)

    return asyncio.run(main())


def test_without_the_fast_lane_an_append_never_reaches_the_wire_and_psycopg_prepares_the_statement(
    database_url, monkeypatch
):
    monkeypatch.setattr(wire.Prepared, "first_row", _refuse)
    appended, prepared, history = _notes(False, database_url, 3)
    assert [a.last_position for a in appended] == [3, 4, 5]
    assert [(r.position, r.id, msgspec.json.decode(r.data)) for r in history[2:]] == [
        (a.last_position, a.events[0].id, {"text": f"note {i}"}) for i, a in enumerate(appended)
    ]
    assert " ".join(numbered(WRITE_ONE).split()) in prepared


def test_with_the_fast_lane_the_same_append_goes_through_the_wire(database_url, monkeypatch):
    monkeypatch.setattr(wire.Prepared, "first_row", _refuse)
    with pytest.raises(WireReached):
        _notes(True, database_url, 1)
