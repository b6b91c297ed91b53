"""Appending: one route from a batch to the write statement (store/writing.py), decided in `Writer.append`.

An append folds the batch onto the campaign's current state with the game's fold (refusing the whole batch on any
rejection), then writes its events and, at its checkpoints (`writing.checkpoints`), the state. There are two ways to
the same statement, and `Writer.append` chooses between them in one place:

- the fast path, when this process holds the state it last committed for the campaign (the client expecting that
  position, if it says, and sending no Idempotency-Key): fold onto that state and send the write alone, in its own
  implicit transaction, one round trip, taking the write lock shared without waiting and writing only where the log
  ends (store/locks.py). If another writer came first (the insert meets its position in the primary key, waiting
  for it to commit if it has not), the lock is held exclusive, the log does not end there, the fold refuses on a
  state that may be stale, or an event id is already recorded, nothing is written and the locking path decides;
- the locking path: take the campaign's write lock (HOLD), read where the log ends (HEAD), answer a retried batch
  with what was recorded, check the expected position, fold onto the current state (the cache's, or the latest
  snapshot's and the events after it), and send the same write in that transaction.

Either way the state is remembered, and the commit listeners called, only after commit (`Writer.committed`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import psycopg

from quartermaster.projections.game import BatchRejected, Game, Meta, Rejection, step, step_noted
from quartermaster.projections.registry import fold_version
from quartermaster.projections.timeline import MARKER_TYPES
from quartermaster.service.platform import metrics
from quartermaster.service.store.keys import Keyed, replay
from quartermaster.service.store.locks import HEAD, HOLD, WRITES, head, hold, lock, write_lock
from quartermaster.service.store.memory import Memory
from quartermaster.service.store.outcome import transaction
from quartermaster.service.store.reading import END, MARKERS, Reader, markers_from
from quartermaster.service.store.records import (
    Appended,
    CampaignNotFound,
    IdReused,
    Override,
    PreparedEvent,
    Recorded,
    StalePosition,
    Step,
    recorded_from_row,
)
from quartermaster.service.store.snapshots import SNAPSHOT_POSITIONS
from quartermaster.service.store.turns import Turns
from quartermaster.service.store.writing import (
    Checkpoint,
    Write,
    appended,
    checkpoints,
    time_ordered_ids,
    write,
    write_alone,
)

# Where the tests and the refold have always found the write lock and the ids.
__all__ = ["HEAD", "HOLD", "WRITES", "Writer", "head", "hold", "lock", "time_ordered_ids", "write_lock"]

_encode = msgspec.json.Encoder().encode

_BY_EVENT_IDS = """
SELECT position, event_id, batch_id, type, schema_version, data::text, actor, recorded_at, occurred_at, override
FROM events WHERE campaign_id = %s AND event_id = ANY(%s) ORDER BY position
"""

# Called with the campaign and what was appended, after each append this process commits (live updates tell its
# events without reading them back).
Listener = Callable[[uuid.UUID, Appended], None]


class Folded(msgspec.Struct, frozen=True):
    """A batch folded onto a state: the state after it, the states to store at its checkpoints, and each event's
    step (the live feeds tell the events from them, without folding them again)."""

    state: Any
    checkpoints: list[Checkpoint]
    steps: list[Step]


def fold(game: Game[Any], state: Any, current: int, events: Sequence[PreparedEvent], actor: str) -> Folded:
    """Fold a batch after position `current` as projections.game.fold_batch does (every rejection collected, the
    whole batch refused with BatchRejected), keeping the state at each of its checkpoints (encoded)."""
    due = checkpoints(current, current + len(events))
    kept: list[Checkpoint] = []
    errors: list[tuple[int, str]] = []
    kinds: list[str] = []
    steps: list[Step] = []
    position = current
    for p in events:
        position += 1
        before = state
        try:
            meta = Meta(position, actor, p.occurred_at, p.override)
            noted: Sequence[str] = ()
            if p.override is None:
                state = step(game, state, p.event, meta)
            else:
                state, noted = step_noted(game, state, p.event, meta)
            steps.append(Step(p.event, before, state, noted))
        except Rejection as rejection:
            errors.append((position - current - 1, rejection.reason))
            kinds.append(rejection.kind)
        if due and position == due[len(kept)] and not errors:
            kept.append(Checkpoint(position, _encode(state)))
    if errors:
        raise BatchRejected(errors, kinds)
    return Folded(state, kept, steps)


class Writer:
    """Appends batches (module docstring); the undo and redo markers and the members' batches commit through it."""

    def __init__(self, pool: Any, memory: Memory, turns: Turns, reader: Reader, on_commit: list[Listener]) -> None:
        self.pool = pool
        self.memory = memory
        self.turns = turns
        self.reader = reader
        self.on_commit = on_commit

    async def append(
        self,
        campaign_id: uuid.UUID,
        events: Sequence[PreparedEvent],
        *,
        actor: str,
        expected_position: int | None = None,
        batch_id: uuid.UUID | None = None,
        conn: psycopg.AsyncConnection[Any] | None = None,
        keyed: Keyed | None = None,
        game: Game[Any] | None = None,
    ) -> Appended:
        """Append a batch atomically. Pass `conn` to append inside a transaction the caller controls; `keyed` for a
        request with an Idempotency-Key (it takes the locking path, where the key is looked up under the lock);
        `game`, the game the campaign plays, when the caller has already looked it up (`Reader.game_of`: the route
        needs it to read the batch), so the fast path does not look it up again. The locking path reads the game
        with the write lock (HEAD) either way."""
        if conn is not None:
            # The caller commits (or not): the process's memory learns nothing from this append.
            async with conn.transaction():
                return await self.locked(
                    conn, campaign_id, events, actor=actor, expected_position=expected_position, batch_id=batch_id
                )
        known = self.memory.states.latest(campaign_id)
        if keyed is None and known is not None and expected_position in (None, known[0]):
            # The fast path, from the state this process last committed (written out here, not called: this is every
            # append's way). Anything it cannot be sure of leaves it for the locking path below.
            current, state = known
            if game is None:
                game = await self.reader.game_of(campaign_id)
            try:
                folded: Folded | None = fold(game, state, current, events, actor)
            except BatchRejected:
                folded = None  # on a state that may be stale: the locking path refuses it, or not
            if folded is not None:
                try:
                    fast = await self._record(campaign_id, game, current, events, actor, batch_id, folded, None, None)
                except psycopg.errors.UniqueViolation:
                    fast = None  # an event id already recorded: a retry, or an id reused; the locking path tells which
                if fast is not None:
                    return self.committed(campaign_id, fast)
        # Pipeline mode: BEGIN, the lock and the retry look-up go in one round trip; after the fold, the write and
        # COMMIT in one more. When this process's state may be stale (the fast path was tried and failed, or it holds
        # none), what folding from the latest snapshot needs is read in that first round trip too.
        stale = not keyed or known is None
        async with self.turns.turn(campaign_id), transaction(self.pool, pipeline=True) as conn:
            done = await self.locked(
                conn,
                campaign_id,
                events,
                actor=actor,
                expected_position=expected_position,
                batch_id=batch_id,
                keyed=keyed,
                stale=stale,
            )
        return self.committed(campaign_id, done)

    def committed(self, campaign_id: uuid.UUID, done: Appended) -> Appended:
        """Remember the state of a committed append and tell the listeners. Never before commit: a rolled-back
        position can be taken again by another writer with other events, and the memory trusts a position to name
        one state."""
        if not done.replayed:
            self.memory.states.put(campaign_id, done.last_position, done.state, done.size)
            metrics.appended(len(done.events))
            for listener in self.on_commit:
                listener(campaign_id, done)
        return done

    async def locked(
        self,
        conn: psycopg.AsyncConnection[Any],
        campaign_id: uuid.UUID,
        events: Sequence[PreparedEvent],
        *,
        actor: str,
        expected_position: int | None = None,
        batch_id: uuid.UUID | None = None,
        keyed: Keyed | None = None,
        stale: bool = False,
    ) -> Appended:
        """The locking path, in the caller's transaction (pipeline mode lets it send its reads together)."""
        # The write lock serialises the writers of one campaign (and only of that one) until commit, and HEAD names
        # the game, so an append needs no separate look-up. In pipeline mode the look-up of retried ids (and, for a
        # `stale` state, of the markers and snapshot positions) is sent with them and runs after them, under the
        # lock: one round trip for all. Under the lock no event or snapshot lies beyond the position HEAD reads.
        remembered = self.memory.states.latest(campaign_id)  # before HEAD's snapshot: see Memory.behind
        heading = await hold(conn, campaign_id)
        ids = [p.id for p in events if p.id is not None]
        prior = await conn.execute(_BY_EVENT_IDS, (campaign_id, ids)) if ids else None
        marking = await conn.execute(MARKERS, (campaign_id, list(MARKER_TYPES), END)) if stale else None
        snapping = await conn.execute(SNAPSHOT_POSITIONS, (campaign_id, END)) if stale else None
        try:
            game, current, _ = await head(heading, campaign_id)
        except CampaignNotFound:
            self.memory.behind(campaign_id, remembered, None)
            raise
        self.memory.behind(campaign_id, remembered, current)

        # A retried request with its Idempotency-Key answers what it recorded, even if the log has moved since.
        keyed_replay = await replay(conn, campaign_id, keyed)
        if keyed_replay is not None:
            return keyed_replay
        replay_ = _replayed(events, await prior.fetchall() if prior is not None else [])
        if replay_ is not None:
            return replay_
        if expected_position is not None and expected_position != current:
            raise StalePosition(expected_position, current)

        state = self.memory.states.get(campaign_id, current) if current else None
        if state is None and current:
            # Another process wrote since, or this one never held the campaign: the latest snapshot and the events
            # after it, read under the write lock.
            if marking is not None and snapping is not None:
                markers = markers_from(await marking.fetchall())
                snapshots = [r[0] for r in await snapping.fetchall()]
                state = await self.reader.fold_from(conn, campaign_id, game, current, markers, snapshots)
            else:
                state = await self.reader.fold_at(conn, campaign_id, game, current)
        folded = fold(game, state, current, events, actor)  # raises BatchRejected
        done = await self._record(campaign_id, game, current, events, actor, batch_id, folded, conn, keyed)
        if done is None:
            raise RuntimeError(f"Campaign {campaign_id}'s write lock was taken from under its holder.")
        return done

    async def _record(
        self,
        campaign_id: uuid.UUID,
        game: Game[Any],
        current: int,
        events: Sequence[PreparedEvent],
        actor: str,
        batch_id: uuid.UUID | None,
        folded: Folded,
        conn: psycopg.AsyncConnection[Any] | None,
        keyed: Keyed | None,
    ) -> Appended | None:
        """Write a folded batch: on `conn` under its write lock, or alone (the fast path) when None. The Appended to
        answer, or None when another writer came first (`writing.write`)."""
        arrays, ids, batch = appended(events, current, game, keyed, batch_id)
        w = Write(
            campaign_id,
            current,
            locked=conn is not None,
            events=arrays,
            batch=batch,
            actor=actor,
            checkpoints=folded.checkpoints,
            fold_version=fold_version(game.id) if folded.checkpoints else None,
        )
        now = await (write(conn, w) if conn is not None else write_alone(self.pool, w))
        if now is None:
            return None
        # A loop, not a comprehension: a comprehension is a function of its own, called on every append.
        recorded = []
        for i, p in enumerate(events):
            override = None if p.override is None else Override(p.override)
            recorded.append(
                Recorded(
                    current + 1 + i,
                    ids[i],
                    batch,
                    p.type,
                    1,
                    msgspec.Raw(p.data),
                    actor,
                    now,
                    p.occurred_at,
                    override=override,
                )
            )
        return Appended(
            batch=batch,
            first_position=current + 1,
            last_position=current + len(events),
            events=recorded,
            state=folded.state,
            size=len(folded.checkpoints[-1].state) if folded.checkpoints else None,
            steps=folded.steps,
        )


def _replayed(events: Sequence[PreparedEvent], rows: Sequence[Sequence[Any]]) -> Appended | None:
    """The recorded answer to a retried batch, None for a new one, IdReused when ids clash."""
    found = {row[1]: row for row in rows}
    if not found:
        return None
    reasons: list[tuple[int, str]] = []
    for index, p in enumerate(events):
        row = found.get(p.id) if p.id else None
        if row is None:
            reasons.append(
                (
                    index,
                    "This batch was partly recorded before under other ids; "
                    "send the recorded events' ids again or new ids for all.",
                )
            )
        elif row[3] != p.type or msgspec.json.decode(row[5]) != msgspec.json.decode(p.data) or row[9] != p.override:
            reasons.append(
                (
                    index,
                    f"Event id {p.id} is already recorded at position {row[0]} "
                    f"with different content; use a new id for a new event.",
                )
            )
    if reasons:
        raise IdReused(reasons)
    answer = [recorded_from_row(row) for row in found.values()]
    batches = {r.batch for r in answer}
    if len(batches) != 1 or len(answer) != len(events):
        raise IdReused(
            [
                (
                    0,
                    "These event ids were recorded in different batches; a retry must resend one batch "
                    "exactly as it was sent.",
                )
            ]
        )
    return Appended(
        batch=answer[0].batch,
        first_position=answer[0].position,
        last_position=answer[-1].position,
        events=answer,
        replayed=True,
    )
