"""What the live tests share: a campaign made through the store, one server process's live updates (a pool, its
store and its wake-ups), and reading what a stream sends."""

from __future__ import annotations

import json
import uuid
from contextlib import asynccontextmanager

from psycopg_pool import AsyncConnectionPool

from quartermaster.events.campaign import CampaignStarted, MemberJoined, NoteAdded
from quartermaster.projections.registry import game
from quartermaster.service.application.live import Wakeups
from quartermaster.service.http.intake import prepared_event
from quartermaster.service.platform import tokens
from quartermaster.service.platform.database import configure
from quartermaster.service.store import PreparedEvent, Store

GAME = "pacg-skull-and-shackles"


def note(text: str) -> PreparedEvent:
    return prepared_event(NoteAdded(text=text))


async def new_campaign(store: Store) -> uuid.UUID:
    """A campaign at position 2: started, and its owner joined."""
    campaign_id, owner = uuid.uuid4(), uuid.uuid4()
    _, token_hash = tokens.new_token(owner)
    await store.create_campaign(
        campaign_id=campaign_id,
        game=game(GAME),
        name="Live test",
        options={},
        owner_id=owner,
        owner_name="Owner",
        token_hash=token_hash,
        start=[
            prepared_event(CampaignStarted(name="Live test", game=GAME)),
            prepared_event(MemberJoined(member_id=str(owner), name="Owner", role="owner")),
        ],
    )
    return campaign_id


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
