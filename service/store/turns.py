"""A campaign's share of the process's connections: one busy campaign never takes the whole pool.

Writers of one campaign take turns on its write lock (store/appending.py), each holding a pooled connection while it
waits. Without a limit, enough requests for a campaign whose lock is held a while (a long undo, an import's fold)
take every connection, and requests for every other campaign wait for the pool until they fail. So the paths that
wait for the lock first take one of the campaign's `share` places in this process, waiting at most `seconds` (the
lock timeout: the same bound as the wait for the lock itself), else `CampaignBusy`, which answers 503 with
Retry-After (service/http/outage.py). The fast path takes no place: it never waits for the lock.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class CampaignBusy(Exception):
    """The campaign already has its share of this process's connections, and none was freed in time."""

    def __init__(self, campaign_id: uuid.UUID) -> None:
        super().__init__(f"campaign {campaign_id} is busy")
        self.campaign_id = campaign_id


class Turns:
    """At most `share` places per campaign (None: no limit), each waited for at most `seconds`."""

    def __init__(self, share: int | None = None, seconds: float = 2.0) -> None:
        self.share = share
        self.seconds = seconds
        # A campaign's places, and how many requests hold or wait for one; dropped when none does.
        self._places: dict[int, tuple[asyncio.Semaphore, list[int]]] = {}

    @asynccontextmanager
    async def turn(self, campaign_id: uuid.UUID) -> AsyncIterator[None]:
        if self.share is None:
            yield
            return
        key = campaign_id.int
        entry = self._places.get(key)
        if entry is None:
            entry = self._places[key] = (asyncio.Semaphore(self.share), [0])
        places, users = entry
        users[0] += 1
        try:
            try:
                async with asyncio.timeout(self.seconds):
                    await places.acquire()
            except TimeoutError:
                raise CampaignBusy(campaign_id) from None
            try:
                yield
            finally:
                places.release()
        finally:
            users[0] -= 1
            if not users[0]:
                del self._places[key]
