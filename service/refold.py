"""Folding a whole log again: import (rows from an export), rebuild and verify (rows from the database).

One pass, in position order, holding one chunk of rows at a time: memory stays flat in the length of the log.
Snapshots are written where appends write them (at the end of a batch that crosses a multiple of SNAPSHOT_EVERY),
and an undo or redo marker is folded the way the store folds it: from the latest snapshot it does not reach behind.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

import msgspec
import psycopg

from projections.game import Game, Meta, Rejection, step
from projections.registry import decode_event, fold_version
from projections.timeline import MARKER_TYPES
from service.store import PROJECTION, SNAPSHOT_EVERY, Store, state_decoder

_encode = msgspec.json.Encoder().encode
FLUSH_EVERY = 1000
# Rows travel in chunks: an await per row costs more than folding the row.
CHUNK = 2000


class Row(NamedTuple):
    """A recorded event to fold again (a tuple: a rebuild makes one per event, so it must be cheap)."""

    position: int
    id: uuid.UUID | None  # None when only folding (a rebuild): the fold never reads it
    batch: uuid.UUID | str  # compared for equality only
    type: str
    schema_version: int
    data: bytes  # JSON of the event's fields
    actor: str
    recorded_at: datetime | None  # None when only folding
    occurred_at: datetime | None


class RefoldError(Exception):
    """An event the fold refuses while folding the log again."""

    def __init__(self, position: int, reason: str) -> None:
        super().__init__(f"position {position}: {reason}")
        self.position = position
        self.reason = reason


async def refold(
    store: Store,
    conn: psycopg.AsyncConnection,
    campaign_id: uuid.UUID,
    game: Game,
    rows: AsyncIterator[list[Row]],
    *,
    insert: bool,
    progress: Callable[[int], None] | None = None,
) -> tuple[int, Any]:
    """Fold every row onto an empty state, writing snapshots and the projection; answer (position, state).

    With `insert`, the rows are new (an import) and are inserted as they are folded. The caller owns the
    transaction, so a refusal anywhere leaves nothing behind.
    """
    state: Any = None
    position = 0
    batch: uuid.UUID | str | None = None
    before_batch = 0
    buffer: list[tuple] = []

    async def flush() -> None:
        if buffer:
            async with conn.cursor() as cur:
                await cur.executemany(
                    "INSERT INTO events (campaign_id, position, event_id, batch_id, type, schema_version, data, actor,"
                    " recorded_at, occurred_at, character_id) VALUES (%s, %s, %s, %s, %s, %s, %s::jsonb, %s, %s, %s, %s)",
                    buffer,
                )
            buffer.clear()

    async def batch_ended(last: int) -> None:
        if before_batch // SNAPSHOT_EVERY != last // SNAPSHOT_EVERY:
            await conn.execute(
                "INSERT INTO snapshots (campaign_id, position, state) VALUES (%s, %s, %s::jsonb)"
                " ON CONFLICT (campaign_id, position) DO UPDATE SET state = excluded.state",
                (campaign_id, last, _encode(state).decode()),
            )

    async for chunk in rows:
        for row in chunk:
            if row.position != position + 1:
                raise RefoldError(row.position, f"positions must follow each other; {position + 1} was expected.")
            if row.batch != batch:
                if batch is not None:
                    await batch_ended(position)
                batch, before_batch = row.batch, position
            position = row.position
            if row.type in MARKER_TYPES:
                event = None
            else:
                try:
                    event = decode_event(game.id, row.type, row.data)
                except (KeyError, msgspec.ValidationError) as error:
                    raise RefoldError(position, f"{row.type} cannot be read: {error}") from None
            if insert:
                buffer.append((campaign_id, position, row.id, row.batch, row.type, row.schema_version, row.data.decode(),
                               row.actor, row.recorded_at, row.occurred_at, event and game.character_of(event)))
            try:
                if event is None:
                    # A marker changes what counts before it; fold as the store does, from the log written so far.
                    await flush()
                    state = await store.fold_at(conn, campaign_id, game, position)
                else:
                    state = step(game, state, event, Meta(position, row.actor, row.occurred_at))
            except Rejection as rejection:
                raise RefoldError(position, rejection.reason) from None
            if len(buffer) >= FLUSH_EVERY:
                await flush()
        if progress:
            progress(len(chunk))
    await flush()
    if batch is not None:
        await batch_ended(position)
    await conn.execute(
        "INSERT INTO projections (campaign_id, name, position, state, fold_version) VALUES (%s, %s, %s, %s::jsonb, %s)"
        " ON CONFLICT (campaign_id, name) DO UPDATE SET position = excluded.position, state = excluded.state,"
        " fold_version = excluded.fold_version",
        (campaign_id, PROJECTION, position, _encode(state).decode(), fold_version(game.id)),
    )
    await conn.execute("UPDATE campaigns SET last_position = %s WHERE campaign_id = %s", (position, campaign_id))
    return position, state


async def logged_rows(conn: psycopg.AsyncConnection, campaign_id: uuid.UUID) -> AsyncIterator[list[Row]]:
    """What folding a campaign's log again needs, in order, in chunks, through a server-side cursor (flat memory).

    Only the columns the fold reads: turning ids and times no fold looks at into Python objects cost a rebuild
    more than folding did. Batches come as text, compared for equality only.
    """
    async with conn.cursor(name=f"refold_{uuid.uuid4().hex}") as cur:
        await cur.execute(
            "SELECT position, batch_id::text, type, data::text, actor, occurred_at"
            " FROM events WHERE campaign_id = %s ORDER BY position",
            (campaign_id,),
        )
        while chunk := await cur.fetchmany(CHUNK):
            yield [Row(p, None, b, t, 1, d.encode(), a, None, o) for p, b, t, d, a, o in chunk]


@dataclass(frozen=True)
class Drift:
    campaign_id: uuid.UUID
    what: str


async def rebuild_campaign(
    store: Store, conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, game: Game, *, keep: bool,
    progress: Callable[[int], None] | None = None,
) -> list[Drift]:
    """Fold a campaign's log again and compare with what is stored; with `keep`, store the result.

    The campaign row is locked for the duration so no append slips in between.
    """
    drift: list[Drift] = []
    async with conn.transaction(force_rollback=not keep):
        await conn.execute("SELECT 1 FROM campaigns WHERE campaign_id = %s FOR UPDATE", (campaign_id,))
        stored = await (await conn.execute(
            "SELECT position, state::text, fold_version FROM projections WHERE campaign_id = %s AND name = %s",
            (campaign_id, PROJECTION),
        )).fetchone()
        snapshots = dict(await (await conn.execute(
            "SELECT position, state::text FROM snapshots WHERE campaign_id = %s", (campaign_id,)
        )).fetchall())
        await conn.execute("DELETE FROM snapshots WHERE campaign_id = %s", (campaign_id,))
        position, state = await refold(store, conn, campaign_id, game, logged_rows(conn, campaign_id), insert=False,
                                       progress=progress)
        decode = state_decoder(game).decode
        if stored is None:
            drift.append(Drift(campaign_id, "no projection was stored"))
        elif stored[2] != fold_version(game.id):
            drift.append(Drift(campaign_id, f"the stored projection was folded by other code (fold {stored[2]!r}, "
                                            f"now {fold_version(game.id)!r})"))
        elif stored[0] != position or decode(stored[1]) != state:
            drift.append(Drift(campaign_id, f"the stored projection (at {stored[0]}) differs from the fold of the log "
                                            f"(at {position})"))
        rebuilt = dict(await (await conn.execute(
            "SELECT position, state::text FROM snapshots WHERE campaign_id = %s", (campaign_id,)
        )).fetchall())
        stale = stored is not None and stored[2] != fold_version(game.id)
        for at in sorted(set(snapshots) | set(rebuilt)):
            # Snapshots folded by other code are replaced wholesale; they may not even decode into today's state.
            if stale or at not in rebuilt or at not in snapshots or decode(snapshots[at]) != decode(rebuilt[at]):
                drift.append(Drift(campaign_id, f"the snapshot at position {at} differs from the fold of the log"))
    if keep:
        store.cache.put(campaign_id, position, state)
    return drift


async def refresh_stale(store: Store, conn: psycopg.AsyncConnection, progress: Callable[[int, int], Any] | None = None
                        ) -> list[uuid.UUID]:
    """Fold again every campaign whose projection was folded by other code than this version's; answer them.

    `progress(total_events, campaigns)` is called once before work starts, and must answer a callable taking the
    events done (or None).
    """
    from projections.registry import game as game_by_id

    stale = []
    for game_id in await _games(conn):
        cur = await conn.execute(
            "SELECT c.campaign_id, c.last_position FROM campaigns c JOIN projections p"
            " ON p.campaign_id = c.campaign_id AND p.name = %s"
            " WHERE c.game = %s AND p.fold_version <> %s ORDER BY c.created_at",
            (PROJECTION, game_id, fold_version(game_id)),
        )
        stale += [(game_id, *row) for row in await cur.fetchall()]
    if not stale:
        return []
    advance = progress(sum(r[2] for r in stale), len(stale)) if progress else None
    for game_id, campaign_id, _ in stale:
        await rebuild_campaign(store, conn, campaign_id, game_by_id(game_id), keep=True, progress=advance)
    return [campaign_id for _, campaign_id, _ in stale]


async def _games(conn: psycopg.AsyncConnection) -> list[str]:
    cur = await conn.execute("SELECT DISTINCT game FROM campaigns")
    return [row[0] for row in await cur.fetchall()]
