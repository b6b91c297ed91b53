"""What the tests of a log gone back share: a store on a pool of its own, a campaign, notes, and the log cut back the
way a restore of an older copy leaves it."""

from __future__ import annotations

import asyncio
import uuid

from psycopg_pool import AsyncConnectionPool

from quartermaster.events.campaign import CampaignStarted, MemberJoined, NoteAdded
from quartermaster.projections.registry import game
from quartermaster.service.http.intake import prepared_event
from quartermaster.service.platform import tokens
from quartermaster.service.store import PreparedEvent, Store

GAME = "pacg-skull-and-shackles"


def note(text: str) -> PreparedEvent:
    return prepared_event(NoteAdded(text=text))


def run(database_url: str, scenario, pool_size: int = 4):
    """Run `scenario(store, pool)` on a Store over a pool of its own."""

    async def main():
        async with AsyncConnectionPool(
            database_url, min_size=1, max_size=pool_size, open=False, kwargs={"autocommit": True}
        ) as pool:
            return await scenario(Store(pool), pool)

    return asyncio.run(main())


async def new_campaign(store: Store) -> uuid.UUID:
    """A campaign at position 2 (campaign.started, member.joined)."""
    campaign_id, owner = uuid.uuid4(), uuid.uuid4()
    _, token_hash = tokens.new_token(owner)
    await store.create_campaign(
        campaign_id=campaign_id,
        game=game(GAME),
        name="A log gone back",
        options={},
        owner_id=owner,
        owner_name="Owner",
        token_hash=token_hash,
        start=[
            prepared_event(CampaignStarted(name="A log gone back", game=GAME)),
            prepared_event(MemberJoined(member_id=str(owner), name="Owner", role="owner")),
        ],
    )
    return campaign_id


async def notes(store: Store, campaign_id: uuid.UUID, count: int, batch: int = 1) -> None:
    for n in range(count):
        await store.append(campaign_id, [note(f"note {n}.{i}") for i in range(batch)], actor="t")


async def positions(pool, campaign_id: uuid.UUID) -> list[int]:
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT position FROM events WHERE campaign_id = %s ORDER BY position", (campaign_id,))
        return [row[0] for row in await cur.fetchall()]


async def cut_back(pool, campaign_id: uuid.UUID, to: int) -> None:
    """The campaign's log as an older copy of the database holds it: nothing after position `to`."""
    async with pool.connection() as conn:
        # The log is immutable to every writer (migration 0001's triggers); a restore replaces the files under it.
        await conn.execute("SET session_replication_role = replica")
        for table in ("events", "snapshots", "projections"):
            await conn.execute(f"DELETE FROM {table} WHERE campaign_id = %s AND position > %s", (campaign_id, to))
        await conn.execute("RESET session_replication_role")


async def gone(pool, campaign_id: uuid.UUID) -> None:
    """The campaign as an older copy holds it: not yet created."""
    async with pool.connection() as conn:
        await conn.execute("SET session_replication_role = replica")
        for table in ("events", "snapshots", "projections", "members", "campaigns"):
            await conn.execute(f"DELETE FROM {table} WHERE campaign_id = %s", (campaign_id,))
        await conn.execute("RESET session_replication_role")
