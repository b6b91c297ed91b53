"""A campaign's write lock: what orders the writers of one campaign, and the two statements that take it.

The write lock is a transaction-scoped advisory lock per campaign (`write_lock`). The fast path's statement takes it
shared, without waiting: a statement that cannot have it writes nothing, and its writer goes the locking way. The
locking path, undo, redo, an import and a refold take it exclusive before they read, then write `locked` (a
transaction holding it exclusive cannot also take it shared while another waits for it). So while one of those holds
it, no event slips in, and the position it read stays the end of the log until it commits (migration 0008 says why
no row of `campaigns` records the position instead).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import psycopg

from quartermaster.projections.game import Game
from quartermaster.projections.registry import game as game_by_id
from quartermaster.service.store.records import CampaignNotFound
from quartermaster.service.store.snapshots import POSITION_OF

# The locking path's two statements, sent together in pipeline mode. HOLD waits for the campaign's write lock (held
# shared by every WRITE in flight, exclusive by another locking writer) and keeps it until commit. HEAD runs after it
# has it, with a snapshot of its own (read committed), so the end of the log it reads is final until commit: every
# event a writer committed before the lock was granted, and none that can come after. (In one statement the snapshot
# would be taken before the wait, and could miss an event committed during it.)
HOLD = "SELECT pg_advisory_xact_lock(%s, %s)"
HEAD = f"SELECT game, {POSITION_OF}, now() FROM campaigns c WHERE campaign_id = %s"

# The first key of every campaign's write lock: its class, so that it shares no key with any other advisory lock.
WRITES = 0x71_6D_77_00  # "qmw"


def write_lock(campaign_id: uuid.UUID) -> tuple[int, int]:
    """The two keys of a campaign's write lock: WRITES, and its id folded to 32 bits. Two campaigns whose ids fold
    alike share a lock, which only makes their writers take turns."""
    folded = campaign_id.int
    folded ^= folded >> 64
    folded ^= folded >> 32
    return WRITES, (folded & 0xFFFF_FFFF) - (1 << 32 if folded & 0x8000_0000 else 0)


async def lock(conn: psycopg.AsyncConnection[Any], campaign_id: uuid.UUID) -> tuple[Game[Any], int, datetime]:
    """Take the campaign's write lock until commit; answer its game, position and the transaction's time."""
    return await head(await hold(conn, campaign_id), campaign_id)


async def hold(conn: psycopg.AsyncConnection[Any], campaign_id: uuid.UUID) -> psycopg.AsyncCursor[Any]:
    """Send HOLD and HEAD: take the campaign's write lock until commit, then read where its log ends. In pipeline
    mode neither is waited for; `head` reads the answer."""
    await conn.execute(HOLD, write_lock(campaign_id))
    return await conn.execute(HEAD, (campaign_id,))


async def head(heading: psycopg.AsyncCursor[Any], campaign_id: uuid.UUID) -> tuple[Game[Any], int, datetime]:
    """HEAD's answer (from `hold`): the campaign's game, position and the transaction's time."""
    row = await heading.fetchone()
    if row is None:
        raise CampaignNotFound(campaign_id)
    return game_by_id(row[0]), row[1], row[2]
