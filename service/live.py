"""Live updates: a wake-up for readers following a campaign.

Appends send `NOTIFY quartermaster_events, '<campaign id>'` inside their transaction, so the wake-up arrives only
after the events are visible. One LISTEN connection per process fans it out to every waiting stream. NOTIFY is a
wake-up only: readers always read by position (`position > N`), and they also wake on a timer, so a lost
notification costs a delay, never an event.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import defaultdict

import psycopg

from service.store import NOTIFY_CHANNEL

CHANNEL = NOTIFY_CHANNEL
log = logging.getLogger("quartermaster.live")


class Wakeups:
    """Per-campaign wake-ups fed by one listening connection."""

    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo
        self._waiters: dict[uuid.UUID, set[asyncio.Event]] = defaultdict(set)
        self._task: asyncio.Task | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _listen(self) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")  # a constant channel name, not input
                    async for notice in conn.notifies():
                        self._wake(notice.payload)
            except asyncio.CancelledError:
                raise
            except psycopg.Error as error:
                # Streams keep polling on their timer meanwhile; nothing is lost, only delayed.
                log.warning("live updates: the listening connection failed (%s); retrying", error)
                await asyncio.sleep(1)

    def _wake(self, payload: str) -> None:
        try:
            campaign_id = uuid.UUID(payload)
        except ValueError:
            return
        for event in self._waiters.get(campaign_id, ()):
            event.set()

    async def wait(self, campaign_id: uuid.UUID, timeout: float) -> None:
        """Return when the campaign may have new events, or after `timeout` seconds."""
        event = asyncio.Event()
        self._waiters[campaign_id].add(event)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout)
        finally:
            self._waiters[campaign_id].discard(event)
            if not self._waiters[campaign_id]:
                del self._waiters[campaign_id]
