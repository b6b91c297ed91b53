"""Undo and redo: leave a batch out of the effective log, or count it again, by appending a marker.

Nothing recorded is ever deleted. A marker is checked like any append: the log after the target is folded again with
the new exclusions (projections.undo.recheck), and the marker is refused if a later event would no longer hold.

An undo is a conversation with PostgreSQL under the campaign's write lock (store/appending.py), so its time is mostly
round trips. It runs in pipeline mode and sends what does not depend on an answer together: the lock with the
position, the markers and the snapshot positions; the snapshot with the events after it; five round trips in all
(BEGIN, lock and reads; the target; the snapshot and events; the write; COMMIT) where each read once took its own.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec
import psycopg

from quartermaster.events.campaign import EventRedone, EventUndone
from quartermaster.projections.game import Game
from quartermaster.projections.registry import fold_version
from quartermaster.projections.timeline import MARKER_TYPES, REDONE, UNDONE, Marker, safe_start, undone_as_of
from quartermaster.projections.undo import recheck
from quartermaster.service.store.appending import Writer
from quartermaster.service.store.cache import state_decoder
from quartermaster.service.store.keys import Keyed, replay
from quartermaster.service.store.locks import head, hold
from quartermaster.service.store.outcome import transaction
from quartermaster.service.store.reading import (
    END,
    ENTRIES,
    LATEST_BATCH,
    MARKERS,
    entries_from,
    latest_batch,
    markers_from,
)
from quartermaster.service.store.records import Appended, PreparedEvent, Recorded, UndoConflict, UndoRefused
from quartermaster.service.store.snapshots import SNAPSHOT, SNAPSHOT_POSITIONS
from quartermaster.service.store.turns import Turns
from quartermaster.service.store.writing import Checkpoint, Write, appended, write

_encode = msgspec.json.Encoder().encode

# Undoing these would leave members or the campaign itself without the event that made them.
_NOT_UNDOABLE = frozenset({"campaign.started", "member.joined"})


@dataclass(frozen=True)
class Held:
    """A locked campaign and what every undo and redo reads first."""

    game: Game[Any]
    current: int
    markers: list[Marker]
    snapshots: list[int]


@dataclass(frozen=True)
class Target:
    """The recorded events an undo or redo is about."""

    batch: uuid.UUID
    positions: list[int]
    types: list[str]
    actor: str


def _target(rows: list[tuple[Any, ...]]) -> Target:
    """The Target of a batch's rows as LATEST_BATCH reads them."""
    return Target(batch=rows[0][2], positions=[r[0] for r in rows], types=[r[3] for r in rows], actor=rows[0][6])


# What an undo or redo chooses, once the campaign is held: the batch it is about, and the positions that then count as
# undone.
Choose = Callable[[psycopg.AsyncConnection[Any], dict[int, int]], Awaitable[tuple[Target, set[int]]]]


class Markers:
    """Undo and redo: each chooses its target, and `_mark` does the rest the same way for both."""

    def __init__(self, pool: Any, turns: Turns, writer: Writer) -> None:
        self.pool = pool
        self.turns = turns
        self.writer = writer

    async def undo(
        self,
        campaign_id: uuid.UUID,
        *,
        batch: uuid.UUID | None,
        cascade: bool,
        reason: str | None,
        actor: str,
        only_own: bool,
        mine: bool = False,
        keyed: Keyed | None = None,
    ) -> Appended:
        """Leave a batch out of the effective log by appending `event.undone`; nothing is deleted.

        The latest effective batch when `batch` is None, or with `mine` the latest effective batch `actor` recorded.
        Raises UndoRefused when there is nothing to undo or the batch is not the caller's, UndoConflict when later
        events would be refused (and `cascade` is off).
        """

        async def choose(conn: psycopg.AsyncConnection[Any], undone: dict[int, int]) -> tuple[Target, set[int]]:
            if batch is None:
                target = await _latest_effective_batch(conn, campaign_id, undone, actor if mine else None)
            else:
                target = await _batch(conn, campaign_id, batch)
                if all(p in undone for p in target.positions):
                    raise UndoRefused(f"Batch {batch} is already undone (by position {undone[target.positions[0]]}).")
            return target, set(undone) | set(target.positions)

        return await self._mark(campaign_id, UNDONE, choose, cascade, reason, actor, only_own, keyed)

    async def redo(
        self,
        campaign_id: uuid.UUID,
        *,
        batch: uuid.UUID | None,
        reason: str | None,
        actor: str,
        only_own: bool,
        mine: bool = False,
        keyed: Keyed | None = None,
    ) -> Appended:
        """Count an undone batch again by appending `event.redone`, checked by the fold like any append.

        With `mine` and no `batch`: the batches of `actor` that the most recent undo of them left out."""

        async def choose(conn: psycopg.AsyncConnection[Any], undone: dict[int, int]) -> tuple[Target, set[int]]:
            if batch is None:
                candidates = undone
                if mine:
                    # Only the caller's own undone events: a player redoes her own batch, whoever undid it.
                    candidates = {p: undone[p] for p in await _recorded_by(conn, campaign_id, list(undone), actor)}
                # The most recently undone batch that is still undone.
                latest = max(candidates.values(), default=None)
                if latest is None:
                    raise UndoRefused("There is nothing to redo: no batch is undone.")
                # Everything that marker undid and is still undone: a cascade comes back whole.
                target = await _positions(conn, campaign_id, sorted(p for p, m in candidates.items() if m == latest))
            else:
                target = await _batch(conn, campaign_id, batch)
                candidates = undone
            if not any(p in candidates for p in target.positions):
                raise UndoRefused(f"Batch {target.batch} is not undone, so there is nothing to redo.")
            # Everyone else's undone events stay undone.
            return target, set(undone) - set(target.positions)

        return await self._mark(campaign_id, REDONE, choose, False, reason, actor, only_own, keyed)

    async def _mark(
        self,
        campaign_id: uuid.UUID,
        kind: str,
        choose: Choose,
        cascade: bool,
        reason: str | None,
        actor: str,
        only_own: bool,
        keyed: Keyed | None,
    ) -> Appended:
        """Under the campaign's write lock: answer a retried request, choose the target, check that the caller may
        mark it, re-check the log with the new exclusions, and record the marker and the new state (or raise
        UndoConflict)."""
        async with self.turns.turn(campaign_id), transaction(self.pool, pipeline=True) as conn:
            held = await _hold(conn, campaign_id)
            # Sent again with its Idempotency-Key: what it did the first time, not another batch undone or redone.
            done = await replay(conn, campaign_id, keyed)
            if done is not None:
                return done
            target, excluded = await choose(conn, undone_as_of(held.markers, held.current))
            _check_undoable(target, actor, only_own, "undo" if kind == UNDONE else "redo")
            marked = await _marked(
                conn, campaign_id, held, kind, excluded, target.positions, cascade, reason, actor, keyed
            )
        return self.writer.committed(campaign_id, marked)


async def _hold(conn: psycopg.AsyncConnection[Any], campaign_id: uuid.UUID) -> Held:
    """Take the campaign's write lock until commit, and read its position, markers and snapshot positions in the
    same round trip.

    The reads run after the lock is granted, each with a snapshot of its own (read committed), so they see every
    event and snapshot up to the position read and none beyond it: no append writes while this lock is held.
    """
    heading = await hold(conn, campaign_id)
    marking = await conn.execute(MARKERS, (campaign_id, list(MARKER_TYPES), END))
    snapping = await conn.execute(SNAPSHOT_POSITIONS, (campaign_id, END))
    game, current, _ = await head(heading, campaign_id)
    markers = markers_from(await marking.fetchall())
    snapshots = [r[0] for r in await snapping.fetchall()]
    return Held(game, current, markers, snapshots)


async def _latest_effective_batch(
    conn: psycopg.AsyncConnection[Any], campaign_id: uuid.UUID, undone: dict[int, int], actor: str | None = None
) -> Target:
    """The latest batch that still counts (with an actor: that this member recorded)."""
    cur = await conn.execute(
        LATEST_BATCH, latest_batch(campaign_id, not_types=MARKER_TYPES, not_at=list(undone), actor=actor)
    )
    rows = await cur.fetchall()
    if not rows:
        raise UndoRefused("There is nothing of yours to undo." if actor else "There is nothing to undo.")
    return _target(rows)


async def _recorded_by(
    conn: psycopg.AsyncConnection[Any], campaign_id: uuid.UUID, positions: list[int], actor: str
) -> list[int]:
    """Which of these positions this member recorded."""
    cur = await conn.execute(
        "SELECT position FROM events WHERE campaign_id = %s AND position = ANY(%s) AND actor = %s",
        (campaign_id, positions, actor),
    )
    return [row[0] for row in await cur.fetchall()]


async def _batch(conn: psycopg.AsyncConnection[Any], campaign_id: uuid.UUID, batch: uuid.UUID) -> Target:
    cur = await conn.execute(LATEST_BATCH, latest_batch(campaign_id, batch=batch))
    rows = await cur.fetchall()
    if not rows:
        raise UndoRefused(f"This campaign has no batch {batch}.", status=404)
    return _target(rows)


async def _positions(conn: psycopg.AsyncConnection[Any], campaign_id: uuid.UUID, positions: list[int]) -> Target:
    cur = await conn.execute(
        "SELECT position, type, actor, batch_id FROM events WHERE campaign_id = %s AND position = ANY(%s)"
        " ORDER BY position",
        (campaign_id, positions),
    )
    rows = await cur.fetchall()
    actors = {r[2] for r in rows}
    # Several batches (a cascade) count as the caller's only when every one of them is.
    return Target(
        batch=rows[0][3],
        positions=[r[0] for r in rows],
        types=[r[1] for r in rows],
        actor=actors.pop() if len(actors) == 1 else "",
    )


def _check_undoable(target: Target, actor: str, only_own: bool, doing: str) -> None:
    if set(target.types) & set(MARKER_TYPES):
        raise UndoRefused(f"Batch {target.batch} is itself an undo or redo; use redo or undo instead.")
    if set(target.types) & _NOT_UNDOABLE:
        raise UndoRefused(f"Batch {target.batch} started the campaign or added a member; that cannot be undone.")
    if only_own and target.actor != actor:
        raise UndoRefused(
            f"A player may only {doing} what they recorded themselves; batch {target.batch} was "
            "recorded by someone else.",
            status=403,
        )


async def _marked(
    conn: psycopg.AsyncConnection[Any],
    campaign_id: uuid.UUID,
    held: Held,
    kind: str,
    excluded: set[int],
    targets: list[int],
    cascade: bool,
    reason: str | None,
    actor: str,
    keyed: Keyed | None,
) -> Appended:
    """Re-check the log with the new exclusions; record the marker and the new state, or raise UndoConflict."""
    game, current = held.game, held.current
    position = current + 1
    # The snapshot and the events after it travel in one round trip.
    start = safe_start(held.snapshots, [*held.markers, Marker(position, kind, targets)], position)
    stored = await conn.execute(SNAPSHOT, (campaign_id, start)) if start else None
    rows = await conn.execute(ENTRIES, (campaign_id, start, current))
    state = state_decoder(game).decode((await stored.fetchall())[0][0]) if stored is not None else None
    entries = entries_from(game, await rows.fetchall(), set())
    result = recheck(game, state, entries, excluded, cascade=cascade)
    if result.conflicts:
        raise UndoConflict(result.conflicts)
    # With cascade, the marker names every position that now drops out, the target's and its dependents'.
    marked = sorted(set(targets) | (set(result.excluded) - excluded)) if kind == UNDONE else sorted(targets)
    marker = (EventUndone if kind == UNDONE else EventRedone)(targets=marked, reason=reason)
    fields = msgspec.to_builtins(marker)
    fields.pop("type")
    data = _encode(fields)
    events, ids, batch = appended([PreparedEvent(event=marker, type=kind, data=data)], current, game, keyed)
    # A marker changes what counted before it, so no earlier snapshot can start a fold past it: leave one here.
    encoded = _encode(result.state)
    now = await write(
        conn,
        Write(
            campaign_id,
            current,
            locked=True,
            events=events,
            batch=batch,
            actor=actor,
            checkpoints=[Checkpoint(position, encoded)],
            fold_version=fold_version(game.id),
        ),
    )
    if now is None:
        raise RuntimeError(f"Campaign {campaign_id}'s write lock was taken from under its holder.")
    recorded = Recorded(position, ids[0], batch, kind, 1, msgspec.Raw(data), actor, now)
    return Appended(
        batch=batch,
        first_position=position,
        last_position=position,
        events=[recorded],
        state=result.state,
        size=len(encoded),
    )
