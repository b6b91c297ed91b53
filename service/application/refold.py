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

from quartermaster.events.base import Event
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


class _Pass:
    """One pass over a log being folded again: where it has reached, the state there, the batch it is in, and what
    is still to be written (an import's rows; the checkpoints of the batch)."""

    def __init__(
        self,
        store: Store,
        conn: psycopg.AsyncConnection,
        campaign_id: uuid.UUID,
        game: Game[Any],
        *,
        insert: bool,
        logged: int,
        start: tuple[int, Any],
        project: bool,
    ) -> None:
        self.store, self.conn, self.campaign_id, self.game = store, conn, campaign_id, game
        self.insert, self.project = insert, project
        self.position, self.state = start
        self.written = max(logged, self.position)
        self.batch: uuid.UUID | str | None = None
        self.before_batch = 0
        self.marked = False  # the batch is an undo or redo marker
        self.buffer: list[Row] = []
        self.characters: list[str | None] = []
        # Batches already ended, for an import: the store reads a batch as the run of its id (store/reading.py).
        self.ended: set[uuid.UUID | str] = set()
        # The states at the multiples of SNAPSHOT_EVERY the current batch has passed, for its checkpoints.
        self.passed: dict[int, Any] = {}

    async def chunk(self, rows: Sequence[Row]) -> None:
        """Fold a chunk of the log's rows (inserting them, for an import), writing what falls due."""
        for row in rows:
            # Most rows follow on in the same batch: checked here, with no coroutine made for them.
            if row.position != self.position + 1 or row.batch != self.batch:
                await self._follow(row)
            self.position = row.position
            event = self._event(row)
            if self.insert:
                self.buffer.append(row)
                self.characters.append(self.game.character_of(event) if event is not None else None)
            if event is None:
                await self._marker()
            else:
                self._step(row, event)
            if self.position % SNAPSHOT_EVERY == 0:
                self.passed[self.position] = self.state
            if len(self.buffer) >= FLUSH_EVERY:
                await self.flush()

    async def finish(self) -> tuple[int, Any]:
        """End the last batch and write what is left; (position, state)."""
        if self.batch is not None:
            await self._batch_ended()
        if self.buffer:
            await self.flush()
        return self.position, self.state

    async def _follow(self, row: Row) -> None:
        """Check the row follows on from the last, in position and in batch; end the batch it leaves."""
        if row.position != self.position + 1:
            raise RefoldError(row.position, f"positions must follow each other; {self.position + 1} was expected.")
        if row.batch == self.batch:
            return
        if self.batch is not None:
            await self._batch_ended()
            if self.insert:
                self.ended.add(self.batch)
        if row.batch in self.ended:
            raise RefoldError(
                row.position, f"batch {row.batch} ended before this position; a batch's events follow each other."
            )
        self.batch, self.before_batch, self.marked = row.batch, self.position, False

    def _event(self, row: Row) -> Event | None:
        """The row's event, or None for an undo or redo marker."""
        if row.type in MARKER_TYPES:
            self.marked = True
            return None
        try:
            return decode_event(self.game.id, row.type, row.data)
        except (KeyError, msgspec.ValidationError) as error:
            raise RefoldError(row.position, f"{row.type} cannot be read: {error}") from None

    def _step(self, row: Row, event: Event) -> None:
        try:
            meta = Meta(self.position, row.actor, row.occurred_at, row.override)
            self.state = step(self.game, self.state, event, meta)
        except Rejection as rejection:
            raise RefoldError(self.position, rejection.reason) from None

    async def _marker(self) -> None:
        # A marker changes what counts before it; fold as the store does, from the log written so far.
        if self.buffer:
            await self.flush()
        try:
            self.state = await self.store.fold_at(self.conn, self.campaign_id, self.game, self.position)
        except Rejection as rejection:
            raise RefoldError(self.position, rejection.reason) from None

    async def _batch_ended(self) -> None:
        # Where appends leave checkpoints (a snapshot, and the projection row at the last): after the first batch,
        # inside and after a batch that crosses multiples of SNAPSHOT_EVERY (store/writing.py, checkpoints), and at
        # every marker.
        last = self.position
        due = [last] if self.marked else checkpoints(self.before_batch, last)
        if due:
            await self.flush([(at, self.passed[at] if at != last else self.state) for at in due])
        self.passed.clear()

    async def flush(self, due: Sequence[tuple[int, Any]] = ()) -> None:
        """Write the rows waiting (an import's; a rebuild's positions are already there) and the checkpoints due."""
        last = self.buffer[-1].position if self.buffer else self.written
        w = Write(
            self.campaign_id,
            self.written,
            locked=True,  # an import's (insert_campaign) or a refold's (lock)
            events=imported(self.buffer, self.characters),
            checkpoints=[Checkpoint(at, _encode(folded)) for at, folded in due],
            fold_version=fold_version(self.game.id) if self.project and due else None,
        )
        if await write(self.conn, w) is None:
            raise RuntimeError(f"Campaign {self.campaign_id}'s write lock was taken while its log was folded again.")
        self.written = last
        self.buffer.clear()
        self.characters.clear()


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
    folding = _Pass(store, conn, campaign_id, game, insert=insert, logged=logged, start=start, project=project)
    async for chunk in rows:
        await folding.chunk(chunk)
        if progress:
            progress(len(chunk))
    return await folding.finish()


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
    async with conn.transaction(force_rollback=not keep):
        _, logged, _ = await head(await conn.execute(HEAD, (campaign_id,)), campaign_id)
        stored = await stored_projection(conn, campaign_id)
        before = await snapshots(conn, campaign_id)
        await drop_snapshots(conn, campaign_id)
        position, state = await _fold_log(store, conn, campaign_id, game, logged, progress)
        await conn.execute(_PROJECT_LATEST, (PROJECTION, fold_version(game.id), campaign_id))
        rebuilt = await snapshots(conn, campaign_id)
        drift = _drifts(campaign_id, game, logged, stored, before, rebuilt)
        held = store.cache.get(campaign_id, position)
        if held is not None and held != state:
            drift.append(
                Drift(campaign_id, f"the state this process holds (at {position}) differs from the fold of the log")
            )
    if keep:
        store.cache.put(campaign_id, position, state)
    return drift


async def _fold_log(
    store: Store,
    conn: psycopg.AsyncConnection,
    campaign_id: uuid.UUID,
    game: Game[Any],
    logged: int,
    progress: Callable[[int], object] | None,
) -> tuple[int, Any]:
    """Fold the log up to where it was read (`logged`, or a few batches more) without the write lock, then take the
    lock and fold the events appended meanwhile, replacing the snapshots they left; (position, state)."""
    # The cursor reads the log as it is when it starts: at least `logged`, maybe a few batches more.
    # Each cursor is closed before the transaction ends, whatever the fold says: a refusal left the generator (and
    # its server-side cursor) open, to be closed by the collector later, inside the next campaign's transaction,
    # which that failed CLOSE then aborted (InFailedSqlTransaction for every campaign after it).
    async with aclosing(logged_rows(conn, campaign_id)) as rows:
        folded, state = await refold(
            store, conn, campaign_id, game, rows, insert=False, logged=logged, progress=progress, project=False
        )
    _, current, _ = await lock(conn, campaign_id)
    if current <= folded:
        return folded, state
    await conn.execute("DELETE FROM snapshots WHERE campaign_id = %s AND position > %s", (campaign_id, folded))
    async with aclosing(logged_rows(conn, campaign_id, after=folded)) as rows:
        return await refold(
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


def _drifts(
    campaign_id: uuid.UUID,
    game: Game[Any],
    logged: int,
    stored: tuple[int, str, str] | None,
    before: dict[int, str],
    rebuilt: dict[int, str],
) -> list[Drift]:
    """What was stored at the start (the projection row, the snapshots) against the fold of the log as it was then."""
    # The projection row is the latest checkpoint, the latest snapshot, with the version of the fold.
    latest = max((at for at in rebuilt if at <= logged), default=0)
    decode = state_decoder(game).decode
    drift: list[Drift] = []
    if stored is None:
        drift.append(Drift(campaign_id, "no projection was stored"))
    elif stored[2] != fold_version(game.id):
        drift.append(
            Drift(
                campaign_id,
                f"the stored projection was folded by other code (fold {stored[2]!r}, now {fold_version(game.id)!r})",
            )
        )
    elif stored[0] != latest or decode(stored[1]) != decode(rebuilt[latest]):
        drift.append(
            Drift(campaign_id, f"the stored projection (at {stored[0]}) differs from the fold of the log (at {latest})")
        )
    # Snapshots folded by other code are replaced wholesale, as the drift above says; they may not even decode
    # into today's state, so they are not compared one by one.
    stale = stored is not None and stored[2] != fold_version(game.id)
    for at in sorted(a for a in set(before) | set(rebuilt) if a <= logged) if not stale else ():
        if at not in rebuilt or at not in before or decode(before[at]) != decode(rebuilt[at]):
            drift.append(Drift(campaign_id, f"the snapshot at position {at} differs from the fold of the log"))
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
