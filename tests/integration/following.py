"""What the live tests share: one server process's live updates (a pool, its store and its wake-ups), and reading
what a stream sends; a campaign and a note as the log tests make them (tests/integration/logs.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import asynccontextmanager
from typing import Any

from psycopg_pool import AsyncConnectionPool

from quartermaster.service.application.live import Wakeups
from quartermaster.service.platform.database import configure
from quartermaster.service.store import Store
from tests.integration.logs import GAME, new_campaign, note

__all__ = ["GAME", "collect", "events_of", "failing", "new_campaign", "note", "process"]


@asynccontextmanager
async def process(database_url: str, pool_size: int = 4):
    """What one server process has for live updates: a pool, its store and its wake-ups."""
    async with AsyncConnectionPool(
        database_url, min_size=1, max_size=pool_size, open=False, configure=configure, kwargs={"autocommit": True}
    ) as pool:
        store = Store(pool)
        wakeups = Wakeups(store)
        await wakeups.start()
        try:
            yield store, wakeups, pool
        finally:
            await wakeups.stop()


def events_of(chunk: bytes) -> list[tuple[str, dict]]:
    """The (event, data) of each message in a chunk of the stream."""
    found = []
    for block in chunk.decode().split("\r\n\r\n"):
        fields = dict(line.split(": ", 1) for line in block.split("\r\n") if ": " in line and not line.startswith(":"))
        if "event" in fields:
            found.append((fields["event"], json.loads(fields["data"])))
    return found


async def collect(stream, until: int, views: list | None = None) -> list[dict]:
    """The events a follower receives up to position `until`."""
    got: list[dict] = []
    async for chunk in stream:
        for event, data in events_of(chunk):
            if event == "event":
                got.append(data)
            elif event == "views" and views is not None:
                views.append(data)
        if got and got[-1]["position"] >= until:
            return got
    return got


def failing(real: Callable[..., Any], failed: list[bool], times: int = 1) -> Callable[..., Any]:
    """`real`, but its first `times` calls raise a RuntimeError (a bug of ours, not the database's), each noted in
    `failed`."""

    def once(*args: Any) -> Any:
        if len(failed) < times:
            failed.append(True)
            raise RuntimeError("a bug in telling one event")
        return real(*args)

    return once
