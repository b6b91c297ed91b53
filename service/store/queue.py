"""Reads wait their turn: the pool as the reader sees it, with a bounded queue rather than a short timeout.

The pool answers a request for a connection within `pool_timeout` (1.5 s), or fails it (PoolTimeout, a 503), so that
during an outage a request is answered soon. After a long stall of the process (a collector's pass, a slow disk), the
reads queued meanwhile (the page's own, and each followed campaign's feed reading its new events and views) met
that timeout with every connection merely lent, not broken, and failed by the hundred, and their retries made the
queue longer (benchmarks/README.md, "Capacity").

A read first waits as the pool says. If none was free in that time while the pool holds every connection it may
open and lends them all (busy, not broken), it waits on, its turn in the pool's own queue, for up to
`READ_WAIT` seconds; a pool that has lost connections (an outage) answers as before. Only when `READ_QUEUE` reads
already wait so does a read fail at once (`Saturated`, a PoolTimeout: 503 with Retry-After).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from psycopg_pool import PoolTimeout

# How long a read may wait its turn once the pool's own timeout has passed with every connection lent.
READ_WAIT = 10.0
# Reads that may wait so at once; one more is refused.
READ_QUEUE = 1000


class Saturated(PoolTimeout):
    """Every connection is lent and `READ_QUEUE` reads already wait their turn."""


class Queued:
    """The pool as the reader sees it (module docstring)."""

    def __init__(self, pool: Any, wait: float = READ_WAIT, queue: int = READ_QUEUE) -> None:
        self.pool = pool
        self.wait = wait
        self.queue = queue
        self.waiting = 0

    def busy(self) -> bool:
        """Whether the pool lends every connection it may open (so a read waits for one to come back)."""
        stats = self.pool.get_stats()
        return bool(stats.get("pool_size", 0) >= self.pool.max_size and not stats.get("pool_available", 0))

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Any]:
        """A connection as the pool's own `connection()` lends one (the transaction ended on the way out, the
        connection given back), got as the module docstring says."""
        conn = await self._get()
        try:
            async with conn:
                yield conn
        finally:
            await self.pool.putconn(conn)

    async def _get(self) -> Any:
        try:
            return await self.pool.getconn()
        except Saturated:
            raise
        except PoolTimeout:
            if not self.busy():
                raise
        if self.waiting >= self.queue:
            raise Saturated(f"{self.waiting} reads already wait for a connection") from None
        self.waiting += 1
        try:
            return await self.pool.getconn(timeout=self.wait)
        finally:
            self.waiting -= 1
