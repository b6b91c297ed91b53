"""Folding a whole log again: import (rows from an export), rebuild and verify (rows from the database).

One pass, in position order, holding one chunk of rows at a time: memory stays flat in the length of the log.
Snapshots are written where appends write them (at the end of a batch that crosses a multiple of SNAPSHOT_EVERY),
and an undo or redo marker is folded the way the store folds it: from the latest snapshot it does not reach behind.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import aclosing
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypedDict, Unpack

import msgspec
import psycopg

from quartermaster.projections.game import Game, Meta, Rejection, step
from quartermaster.projections.registry import decode_event, fold_version, game as game_by_id
from quartermaster.projections.timeline import MARKER_TYPES
from quartermaster.service.store import CHUNK, PROJECTION, SNAPSHOT_EVERY, Row, Store, insert_campaign, state_decoder
from quartermaster.service.store.locks import HEAD, head, lock
from quartermaster.service.store.outcome import transaction
from quartermaster.service.store.records import Override
from quartermaster.service.store.snapshots import (
    drop_snapshots,
    logged_rows,
    snapshots,
    stale_campaigns,
    stored_projection,
)
from quartermaster.service.store.writing import Checkpoint, Write, checkpoints, imported, write

_encode = msgspec.json.Encoder().encode
FLUSH_EVERY = 1000

__all__ = [
    "CHUNK",
    "RefoldError",
    "Row",
    "logged_rows",
    "new_campaign_from_log",
    "rebuild_campaign",
    "refold",
    "refresh_stale",
]


class RefoldError(Exception):
    """An event the fold refuses while folding the log again: its position, and the fold's reason."""

    def __init__(self, position: int, reason: str) -> None:
        super().__init__(f"position {position}: {reason}")
        self.position, self.reason = position, reason


class Founding(TypedDict):
    """A new campaign and its owner, as the store inserts them (service.store.insert_campaign)."""

    campaign_id: uuid.UUID
    name: str
    owner_id: uuid.UUID
    owner_name: str
    token_hash: bytes


async def new_campaign_from_log(
    store: Store, *, game: Game[Any], rows: AsyncIterator[list[Row]], **founding: Unpack[Founding]
) -> int:
    """A new campaign, owned by a new member, whose log is these rows folded again (an import, a fork); its
    position. One transaction: a row the fold refuses (RefoldError) leaves nothing behind."""
    async with transaction(store.pool) as conn:
        await insert_campaign(conn, game_id=game.id, **founding)
        position, _ = await refold(store, conn, founding["campaign_id"], game, rows, insert=True)
    return position


async def refold(
    store: Store,
    conn: psycopg.AsyncConnection,
    campaign_id: uuid.UUID,
    game: Game[Any],
    rows: AsyncIterator[list[Row]],
    *,
    insert: bool,
    logged: int = 0,
    progress: Callable[[int], object] | None = None,
    start: tuple[int, Any] = (0, None),
    project: bool = True,
) -> tuple[int, Any]:
    """Fold every row onto an empty state (or onto `start`, the state at a position where a batch ended), writing
    snapshots and the projection; answer (position, state).

    With `insert`, the rows are new (an import) and are inserted as they are folded; without, they are the log of
    a campaign at position `logged`. The caller owns the transaction, so a refusal anywhere leaves nothing behind.
    """
    position, state = start
    written = max(logged, position)
    batch: uuid.UUID | str | None = None
    before_batch = 0
    marked = False  # the batch is an undo or redo marker
    buffer: list[Row] = []
    characters: list[str | None] = []
    # Batches already ended, for an import: the store reads a batch as the run of its id (store/reading.py).
    ended: set[uuid.UUID | str] = set()

    # The states at the multiples of SNAPSHOT_EVERY the current batch has passed, for its checkpoints.
    passed: dict[int, Any] = {}

    async def flush(due: Sequence[tuple[int, Any]] = ()) -> None:
        nonlocal written
        # Only an import has rows to insert; a rebuild's positions are already there, so nothing moves.
        last = buffer[-1].position if buffer else written
        w = Write(
            campaign_id,
            written,
            locked=True,  # an import's (insert_campaign) or a refold's (lock)
            events=imported(buffer, characters),
            checkpoints=[Checkpoint(at, _encode(folded)) for at, folded in due],
            fold_version=fold_version(game.id) if project and due else None,
        )
        if await write(conn, w) is None:
            raise RuntimeError(f"Campaign {campaign_id}'s write lock was taken while its log was folded again.")
        written = last
        buffer.clear()
        characters.clear()

    async def batch_ended(last: int) -> None:
        # Where appends leave checkpoints (a snapshot, and the projection row at the last): after the first batch,
        # inside and after a batch that crosses multiples of SNAPSHOT_EVERY (store/writing.py, checkpoints), and at
        # every marker.
        due = [last] if marked else checkpoints(before_batch, last)
        if due:
            await flush([(at, passed[at] if at != last else state) for at in due])
        passed.clear()

    async for chunk in rows:
        for row in chunk:
            if row.position != position + 1:
                raise RefoldError(row.position, f"positions must follow each other; {position + 1} was expected.")
            if row.batch != batch:
                if batch is not None:
                    await batch_ended(position)
                    if insert:
                        ended.add(batch)
                if row.batch in ended:
                    raise RefoldError(
                        row.position,
                        f"batch {row.batch} ended before this position; a batch's events follow each other.",
                    )
                batch, before_batch, marked = row.batch, position, False
            position = row.position
            if row.type in MARKER_TYPES:
                event, marked = None, True
            else:
                try:
                    event = decode_event(game.id, row.type, row.data)
                except (KeyError, msgspec.ValidationError) as error:
                    raise RefoldError(position, f"{row.type} cannot be read: {error}") from None
            if insert:
                buffer.append(row)
                characters.append(game.character_of(event) if event is not None else None)
            try:
                if event is None:
                    # A marker changes what counts before it; fold as the store does, from the log written so far.
                    if buffer:
                        await flush()
                    state = await store.fold_at(conn, campaign_id, game, position)
                else:
                    state = step(game, state, event, Meta(position, row.actor, row.occurred_at, row.override))
            except Rejection as rejection:
                raise RefoldError(position, rejection.reason) from None
            if position % SNAPSHOT_EVERY == 0:
                passed[position] = state
            if len(buffer) >= FLUSH_EVERY:
                await flush()
        if progress:
            progress(len(chunk))
    if batch is not None:
        await batch_ended(position)
    if buffer:
        await flush()
    return position, state


# The projection row is the latest snapshot, with the version of the fold that made it.
_PROJECT_LATEST = """
INSERT INTO projections (campaign_id, name, position, state, fold_version)
SELECT campaign_id, %s, position, state, %s FROM snapshots WHERE campaign_id = %s ORDER BY position DESC LIMIT 1
ON CONFLICT (campaign_id, name) DO UPDATE SET position = excluded.position, state = excluded.state,
    fold_version = excluded.fold_version
"""


class Logged(Protocol):
    """An event as a log or an export holds it: what its row is made of besides its position and its data."""

    @property
    def id(self) -> uuid.UUID: ...
    @property
    def batch(self) -> uuid.UUID: ...
    @property
    def type(self) -> str: ...
    @property
    def schema_version(self) -> int: ...
    @property
    def actor(self) -> str: ...
    @property
    def recorded_at(self) -> datetime: ...
    @property
    def occurred_at(self) -> datetime | None: ...
    @property
    def override(self) -> Override | None: ...


def row_of(event: Logged, position: int, data: bytes) -> Row:
    """The row, at `position` in a new log, of an event recorded elsewhere (another campaign's log, an export)."""
    override = event.override.reason if event.override is not None else None
    return Row(
        position,
        event.id,
        event.batch,
        event.type,
        event.schema_version,
        data,
        event.actor,
        event.recorded_at,
        event.occurred_at,
        override,
    )


@dataclass(frozen=True)
class Drift:
    campaign_id: uuid.UUID
    what: str


async def rebuild_campaign(
    store: Store,
    conn: psycopg.AsyncConnection,
    campaign_id: uuid.UUID,
    game: Game[Any],
    *,
    keep: bool,
    progress: Callable[[int], object] | None = None,
) -> list[Drift]:
    """Fold a campaign's log again and compare with what is stored; with `keep`, store the result.

    The campaign's write lock is not held while the log is folded, which takes seconds for a long campaign and would
    keep every writer of the campaign waiting: the log up to the position read at the start never changes, so it is
    folded (its snapshots and projection written) without the lock, in this one transaction. Then the lock is taken,
    the events appended meanwhile are folded onto that state, the snapshots they left are replaced, and the
    transaction commits: the lock is held only for that tail. The fold writes snapshots only; the projection row,
    which every append that crosses a checkpoint writes too, is written once, under the lock, from the latest
    snapshot, so no append waits on a row this transaction holds.
    """
    drift: list[Drift] = []
    async with conn.transaction(force_rollback=not keep):
        _, logged, _ = await head(await conn.execute(HEAD, (campaign_id,)), campaign_id)
        stored = await stored_projection(conn, campaign_id)
        before = await snapshots(conn, campaign_id)
        await drop_snapshots(conn, campaign_id)
        # The cursor reads the log as it is when it starts: at least `logged`, maybe a few batches more.
        # Each cursor is closed before the transaction ends, whatever the fold says: a refusal left the generator (and
        # its server-side cursor) open, to be closed by the collector later, inside the next campaign's transaction,
        # which that failed CLOSE then aborted (InFailedSqlTransaction for every campaign after it).
        async with aclosing(logged_rows(conn, campaign_id)) as rows:
            folded, state = await refold(
                store, conn, campaign_id, game, rows, insert=False, logged=logged, progress=progress, project=False
            )
        _, current, _ = await lock(conn, campaign_id)
        position = folded
        if current > folded:
            await conn.execute("DELETE FROM snapshots WHERE campaign_id = %s AND position > %s", (campaign_id, folded))
            async with aclosing(logged_rows(conn, campaign_id, after=folded)) as rows:
                position, state = await refold(
                    store,
                    conn,
                    campaign_id,
                    game,
                    rows,
                    insert=False,
                    logged=folded,
                    progress=progress,
                    start=(folded, state),
                    project=False,
                )
        await conn.execute(_PROJECT_LATEST, (PROJECTION, fold_version(game.id), campaign_id))
        rebuilt = await snapshots(conn, campaign_id)
        # What was stored at the start is compared with the fold of the log as it was then: the projection row is the
        # latest checkpoint, the latest snapshot, with the version of the fold.
        latest = max((at for at in rebuilt if at <= logged), default=0)
        decode = state_decoder(game).decode
        if stored is None:
            drift.append(Drift(campaign_id, "no projection was stored"))
        elif stored[2] != fold_version(game.id):
            drift.append(
                Drift(
                    campaign_id,
                    f"the stored projection was folded by other code (fold {stored[2]!r}, "
                    f"now {fold_version(game.id)!r})",
                )
            )
        elif stored[0] != latest or decode(stored[1]) != decode(rebuilt[latest]):
            drift.append(
                Drift(
                    campaign_id,
                    f"the stored projection (at {stored[0]}) differs from the fold of the log (at {latest})",
                )
            )
        held = store.cache.get(campaign_id, position)
        if held is not None and held != state:
            drift.append(
                Drift(campaign_id, f"the state this process holds (at {position}) differs from the fold of the log")
            )
        # Snapshots folded by other code are replaced wholesale, as the drift above says; they may not even decode
        # into today's state, so they are not compared one by one.
        stale = stored is not None and stored[2] != fold_version(game.id)
        for at in sorted(a for a in set(before) | set(rebuilt) if a <= logged) if not stale else ():
            if at not in rebuilt or at not in before or decode(before[at]) != decode(rebuilt[at]):
                drift.append(Drift(campaign_id, f"the snapshot at position {at} differs from the fold of the log"))
    if keep:
        store.cache.put(campaign_id, position, state)
    return drift


async def refresh_stale(
    store: Store,
    conn: psycopg.AsyncConnection,
    progress: Callable[[int, int], Callable[[int], object] | None] | None = None,
) -> list[uuid.UUID]:
    """Fold again every campaign whose projection was folded by other code than this version's; answer them.

    `progress(total_events, campaigns)` is called once before work starts, and must answer a callable taking the
    events done (or None).
    """
    stale = await stale_campaigns(conn)
    if not stale:
        return []
    advance = progress(sum(r[2] for r in stale), len(stale)) if progress else None
    for game_id, campaign_id, _ in stale:
        await rebuild_campaign(store, conn, campaign_id, game_by_id(game_id), keep=True, progress=advance)
    return [campaign_id for _, campaign_id, _ in stale]
