"""Reads wait their turn for a connection (service/store/queue.py): past the pool's short timeout while every
connection is lent, in a bounded queue; refused at once only when that queue is full; and an outage still answered
within the pool's timeout."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from quartermaster.service.platform.database import configure
from quartermaster.service.store import Store
from quartermaster.service.store.queue import Saturated

POOL_TIMEOUT = 0.3
STALL = 1.0


async def _stalled(pool: AsyncConnectionPool, seconds: float) -> None:
    """Every connection of the pool lent for `seconds`, as during a long stall of the process."""

    async def hold() -> None:
        async with pool.connection():
            await asyncio.sleep(seconds)

    await asyncio.gather(*(hold() for _ in range(pool.max_size)))


def _pool(url: str) -> AsyncConnectionPool:
    return AsyncConnectionPool(
        url, min_size=2, max_size=2, timeout=POOL_TIMEOUT, open=False, configure=configure, kwargs={"autocommit": True}
    )


def test_a_read_waits_its_turn_past_the_pools_timeout_while_every_connection_is_lent(database_url):
    async def scenario():
        async with _pool(database_url) as pool:
            await pool.wait()
            store = Store(pool)
            stall = asyncio.create_task(_stalled(pool, STALL))
            await asyncio.sleep(0.05)
            started = time.monotonic()
            positions = await store.positions([uuid.uuid4()])
            waited = time.monotonic() - started
            await stall
            return positions, waited

    positions, waited = asyncio.run(scenario())

    assert positions == {}
    assert STALL - 0.2 < waited < STALL + 2  # it waited for a connection to come back, well past POOL_TIMEOUT


def test_reads_beyond_the_queue_are_refused_at_once_with_a_pool_timeout(database_url):
    async def scenario():
        async with _pool(database_url) as pool:
            await pool.wait()
            store = Store(pool)
            store.reader.pool.queue = 2
            stall = asyncio.create_task(_stalled(pool, STALL))
            await asyncio.sleep(0.05)
            reads = await asyncio.gather(*(store.positions([uuid.uuid4()]) for _ in range(5)), return_exceptions=True)
            await stall
            return reads

    reads = asyncio.run(scenario())

    refused = [r for r in reads if isinstance(r, Exception)]
    assert len(refused) == 3 and all(isinstance(r, Saturated) and isinstance(r, PoolTimeout) for r in refused)
    assert [r for r in reads if not isinstance(r, Exception)] == [{}, {}]


def test_during_an_outage_a_read_is_answered_within_the_pools_timeout():
    async def scenario():
        # Nothing listens there: the pool never holds a connection, so it is not busy but broken.
        pool = AsyncConnectionPool(
            "postgresql://postgres@127.0.0.1:9/postgres", min_size=0, max_size=2, timeout=POOL_TIMEOUT, open=False
        )
        await pool.open(wait=False)
        try:
            store = Store(pool)
            started = time.monotonic()
            with pytest.raises(PoolTimeout) as refused:
                await store.positions([uuid.uuid4()])
            return time.monotonic() - started, refused.value
        finally:
            await pool.close()

    waited, refused = asyncio.run(scenario())

    assert waited < POOL_TIMEOUT + 0.7
    assert not isinstance(refused, Saturated)
