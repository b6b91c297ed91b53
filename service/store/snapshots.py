"""Snapshots and the projection row: reading them, and what folding a whole log again reads and clears.

Both are derived: the fold of the effective log up to their position, by the code named in `fold_version`. They are
written by the one write statement (appending.WRITE) and may be thrown away and folded again at any time.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncGenerator

import psycopg

from quartermaster.projections.registry import fold_version
from quartermaster.service.store.records import Row

# A campaign's position, for a query over `campaigns c`: the highest of its events' positions, the last entry of the
# primary key for the campaign. Nothing else records it: the primary key is what orders writers (store/appending.py).
POSITION_OF = "(SELECT coalesce(max(e.position), 0) FROM events e WHERE e.campaign_id = c.campaign_id)"

PROJECTION = "state"
# A batch that crosses a multiple of this many positions leaves snapshots (store/writing.py, checkpoints).
SNAPSHOT_EVERY = 100
# Rows of a refold travel in chunks: an await per row costs more than folding the row.
CHUNK = 2000


async def stored_projection(conn: psycopg.AsyncConnection, campaign_id: uuid.UUID) -> tuple[int, str, str] | None:
    """(position, state as JSON, fold_version) of the stored projection, or None."""
    return await (
        await conn.execute(
            "SELECT position, state::text, fold_version FROM projections WHERE campaign_id = %s AND name = %s",
            (campaign_id, PROJECTION),
        )
    ).fetchone()


SNAPSHOT_POSITIONS = "SELECT position FROM snapshots WHERE campaign_id = %s AND position <= %s ORDER BY position"
SNAPSHOT = "SELECT state::text FROM snapshots WHERE campaign_id = %s AND position = %s"


async def snapshot_positions(conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, at: int) -> list[int]:
    cur = await conn.execute(SNAPSHOT_POSITIONS, (campaign_id, at))
    return [row[0] for row in await cur.fetchall()]


async def snapshots(conn: psycopg.AsyncConnection, campaign_id: uuid.UUID) -> dict[int, str]:
    """Every snapshot of a campaign: position to state as JSON."""
    cur = await conn.execute("SELECT position, state::text FROM snapshots WHERE campaign_id = %s", (campaign_id,))
    return dict(await cur.fetchall())


async def drop_snapshots(conn: psycopg.AsyncConnection, campaign_id: uuid.UUID) -> None:
    """Forget a campaign's snapshots, before folding its log again writes new ones."""
    await conn.execute("DELETE FROM snapshots WHERE campaign_id = %s", (campaign_id,))


async def stale_campaigns(conn: psycopg.AsyncConnection) -> list[tuple[str, uuid.UUID, int]]:
    """(game, campaign, position) of every campaign whose projection was folded by other code than this version's,
    oldest first within each game."""
    cur = await conn.execute("SELECT DISTINCT game FROM campaigns")
    stale: list[tuple[str, uuid.UUID, int]] = []
    for (game_id,) in await cur.fetchall():
        cur = await conn.execute(
            f"SELECT c.campaign_id, {POSITION_OF} FROM campaigns c JOIN projections p"
            " ON p.campaign_id = c.campaign_id AND p.name = %s"
            " WHERE c.game = %s AND p.fold_version <> %s ORDER BY c.created_at",
            (PROJECTION, game_id, fold_version(game_id)),
        )
        stale += [(game_id, *row) for row in await cur.fetchall()]
    return stale


async def campaigns_to_fold(
    conn: psycopg.AsyncConnection, campaign_id: str | None
) -> list[tuple[uuid.UUID, str, str, int]]:
    """(campaign, game, name, position) of one campaign, or of all oldest first, for verify and rebuild."""
    cur = await conn.execute(
        f"SELECT campaign_id, game, name, {POSITION_OF} FROM campaigns c"
        " WHERE %s::uuid IS NULL OR campaign_id = %s::uuid ORDER BY created_at",
        (campaign_id, campaign_id),
    )
    return await cur.fetchall()


async def logged_rows(
    conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, after: int = 0
) -> AsyncGenerator[list[Row], None]:
    """What folding a campaign's log again needs (the events after position `after`), in order, in chunks, through a
    server-side cursor (flat memory).

    Only the columns the fold reads: turning ids and times no fold looks at into Python objects cost a rebuild
    more than folding did. Batches come as text, compared for equality only.
    """
    async with conn.cursor(name=f"refold_{uuid.uuid4().hex}") as cur:
        await cur.execute(
            "SELECT position, batch_id::text, type, data::text, actor, occurred_at, override"
            " FROM events WHERE campaign_id = %s AND position > %s ORDER BY position",
            (campaign_id, after),
        )
        while chunk := await cur.fetchmany(CHUNK):
            yield [Row(p, None, b, t, 1, d.encode(), a, None, o, v) for p, b, t, d, a, o, v in chunk]
