"""Appending: the one statement that writes events, and the two ways to reach it.

An append folds the batch onto the campaign's current state with the game's fold (refusing the whole batch on any
rejection), then runs `WRITE`: it inserts the events at positions current+1.. and, at a checkpoint, the state (a
snapshot and the projection row), all in one statement (`WRITE_ONE` for a single event and no checkpoint: the same,
with plain parameters). The primary key (campaign_id, position) is what orders writers: a position is taken once,
and a writer can only take N+1 once it has seen N committed, so positions are gapless and in commit order. A campaign's
position is the highest of its events' (`HEAD`); nothing else records it.

The fast path folds onto the state this process last committed and sends `WRITE` alone, in its own implicit
transaction: one round trip. If another writer came first, the insert meets its position in the primary key (waiting
for it to commit, if it has not), nothing is written, and the locking path decides: it takes the campaign's write lock
(`HOLD`), reads where the log ends (`HEAD`), answers a retried batch with what was recorded, folds onto the current
state (the cache's, or the latest snapshot's and the events after it), and sends the same `WRITE`.

The write lock is a transaction-scoped advisory lock per campaign (`write_lock`). The fast path's `WRITE` takes it
shared, without waiting: a statement that cannot have it writes nothing, and its writer goes the locking way. The
locking path, undo, redo, an import and a refold take it exclusive before they read, then write `locked` (a
transaction holding it exclusive cannot also take it shared while another waits for it). So while one of those holds
it, no event slips in, and the position it read stays the end of the log until it commits: what the campaign's row
lock gave when every append also moved a position kept in that row, an update that cost a one-event append a tenth
to a fifth of its time (migration 0008).
"""

from __future__ import annotations

import os
import struct
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import msgspec
import psycopg

from projections.game import BatchRejected, Game, Meta, Rejection, fold_batch, step
from projections.registry import fold_version, game as game_by_id
from projections.timeline import MARKER_TYPES
from service import metrics
from service.store.keys import Keyed, replay
from service.store.outcome import one_row, statement, transaction
from service.store.reading import END, MARKERS, markers_from
from service.store.records import (
    Appended,
    CampaignNotFound,
    IdReused,
    Override,
    PreparedEvent,
    Recorded,
    Row,
    StalePosition,
    recorded_from_row,
)
from service.store.snapshots import POSITION_OF, PROJECTION, SNAPSHOT_EVERY, SNAPSHOT_POSITIONS
from service.store.wire import Prepared

_encode = msgspec.json.Encoder().encode

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


# The statement that inserts events (with WRITE_ONE below, its form for one event). The events travel as one JSON
# array (msgspec encodes it in one call, and each event's data is spliced in as it was encoded, never parsed again);
# binary arrays cost a Python loop per column. Each event is an array too (`write` gives the order), read by index:
# a third less JSON to send and parse than objects, and less work per row than jsonb_to_recordset's record building
# (a 1,000-event insert with all indexes, PostgreSQL 15 here, 100 interleaved rounds: 10.2 ms with objects through
# jsonb_to_recordset, 9.8 ms with arrays).
# Per-event envelope fields (batch, actor, schema version, recorded_at) are in it only when folding an export again;
# an append leaves them out and passes the batch's values. `held` has its row when the writer holds the campaign's
# write lock (`locked`), or else could take it shared at once (module docstring), and every other part writes only
# when it has (CASE: the lock is tried only when not held); an event whose position is taken fails the whole
# statement on the primary key. A writer without the lock (the fast path) writes only where the log ends: the event
# at `current` must be there (END_OF_LOG below says why). At a checkpoint the state is parsed once and stored as a
# snapshot and as the projection row, which is the latest snapshot with the version of the fold that made it. No
# NOTIFY: PostgreSQL serialises notifying commits (service/live.py says how followers learn of appends instead).
# Every event arrives with its id: a client's, else one drawn here in time order (time_ordered_ids).
WRITE = """
WITH held AS MATERIALIZED (
    SELECT now() AS now
    WHERE CASE WHEN %(locked)s THEN true
               ELSE EXISTS (SELECT FROM events WHERE campaign_id = %(campaign)s AND position = %(current)s)
                    AND pg_try_advisory_xact_lock_shared(%(writes)s, %(lock)s) END
), recorded AS (
    INSERT INTO events (campaign_id, position, event_id, batch_id, type, schema_version, data, actor, recorded_at,
                        occurred_at, character_id, idempotency_key, request_digest, override)
    SELECT %(campaign)s, (e->>0)::bigint, (e->>3)::uuid, coalesce((e->>6)::uuid, %(batch)s::uuid),
           e->>1, coalesce((e->>8)::smallint, 1), e->2, coalesce(e->>7, %(actor)s::text),
           coalesce((e->>9)::timestamptz, held.now), (e->>4)::timestamptz, e->>5, e->>10, e->>11, e->>12
    FROM held, jsonb_array_elements(%(events)s::jsonb) AS e
), given AS (
    SELECT %(state)s::jsonb AS state FROM held WHERE %(checkpoint)s::bigint IS NOT NULL
), projected AS (
    INSERT INTO projections (campaign_id, name, position, state, fold_version)
    SELECT %(campaign)s, %(projection)s, %(checkpoint)s, state, %(fold_version)s FROM given
    WHERE %(projection)s::text IS NOT NULL
    ON CONFLICT (campaign_id, name) DO UPDATE SET position = excluded.position, state = excluded.state,
        fold_version = excluded.fold_version
), snapshot AS (
    INSERT INTO snapshots (campaign_id, position, state)
    SELECT %(campaign)s, %(checkpoint)s, state FROM given
    ON CONFLICT (campaign_id, position) DO NOTHING
)
SELECT now FROM held
"""

# END_OF_LOG: the fast path folds onto the state this process last committed, at the position it last committed. The
# primary key refuses a position already taken, but not one past the log's end: a log that lost commits (a failover
# to a standby that had not received them, a restore of an older copy) would take the event at that position and
# leave a gap before it. So the statement also asks for the event at `current` (one probe of the primary key, on a
# page the append before it has just written); without it nothing is written and the locking path, which reads where
# the log ends, decides. A log at or past `current` keeps being checked by the primary key as before.
# WRITE for the most common append, one event and no checkpoint: the same lock and insert, with the event's fields as
# plain parameters (reading one row out of the JSON in a CTE cost about 40 µs of backend CPU more). It is a bare
# insert, as the floor's is: while every append also moved `campaigns.last_position` in the same statement, that
# update cost a one-event append a tenth to a fifth of its time (PostgreSQL 15 here, the statement alone on one
# connection, 30 rounds taking turns, in four sittings: 356 against 314 µs with the try-lock, and 387, 424 and 365
# against 323, 327 and 343 µs; backend CPU 158 against 122 µs).
# The event and batch ids come drawn, in time order as WRITE's (time_ordered_ids), so nothing is drawn or returned
# but the time.
WRITE_ONE = """
INSERT INTO events (campaign_id, position, event_id, batch_id, type, data, actor, recorded_at, occurred_at,
                    character_id, idempotency_key, request_digest, override)
SELECT %s, %s, %s::uuid, %s::uuid, %s::text, %s::jsonb, %s::text, now(), %s::timestamptz, %s::text, %s::text,
       %s::text, %s::text
WHERE CASE WHEN %s THEN true
           ELSE EXISTS (SELECT FROM events WHERE campaign_id = %s AND position = %s)
                AND pg_try_advisory_xact_lock_shared(%s, %s) END
RETURNING recorded_at
"""
# The fast path sends it prepared through libpq (service/store/wire.py); the locking path through psycopg, in its
# pipeline.
WRITE_ONE_PREPARED = Prepared("qm_write_one", WRITE_ONE)


def write_one_parameters(
    campaign_id: uuid.UUID,
    current: int,
    event_id: uuid.UUID,
    batch: uuid.UUID | None,
    one: PreparedEvent,
    actor: str | None,
    game: Game,
    keyed: Keyed | None = None,
    *,
    locked: bool,
) -> tuple[Any, ...]:
    """WRITE_ONE's parameters, in its order: both callers (`write` and the one-event fast path) build them here."""
    return (
        campaign_id,
        current + 1,
        event_id,
        batch,
        one.type,
        one.data.decode(),
        actor,
        one.occurred_at,
        game.character_of(one.event),
        keyed.key if keyed is not None else None,
        keyed.digest if keyed is not None else None,
        one.override,
        locked,
        campaign_id,
        current,
        *write_lock(campaign_id),
    )


_BY_EVENT_IDS = """
SELECT position, event_id, batch_id, type, schema_version, data::text, actor, recorded_at, occurred_at, override
FROM events WHERE campaign_id = %s AND event_id = ANY(%s) ORDER BY position
"""


async def write(
    conn: psycopg.AsyncConnection,
    campaign_id: uuid.UUID,
    *,
    current: int,
    locked: bool,
    events: Sequence[PreparedEvent] = (),
    game: Game | None = None,
    batch: uuid.UUID | None = None,
    actor: str | None = None,
    rows: Sequence[Row] = (),
    characters: Sequence[str | None] = (),
    checkpoint: int | None = None,
    state: bytes | None = None,
    keyed: Keyed | None = None,
    project: bool = True,
) -> tuple[datetime, list[uuid.UUID]] | None:
    """Run WRITE: insert `events` (an append) after position `current`, or `rows` with their `characters` (an
    import, at the rows' positions), and at a `checkpoint` position store `state` (its JSON) as a snapshot and the
    projection; answer the statement's time and the events' ids (drawn here when not given), or None when the
    campaign's write lock is held exclusive by another transaction (nothing is written).

    An append's events take positions current+1.. and share `batch`, `actor` and the statement's time. A position
    already taken raises psycopg.errors.UniqueViolation (on the primary key), as does an event id already recorded.
    `locked`: this transaction holds the campaign's write lock (`lock`); else the statement tries to take it shared.
    Without `project`, a checkpoint is stored as a snapshot only, and the projection row is left alone (a rebuild
    folding without the lock: service/refold.py).
    """
    if len(events) == 1 and checkpoint is None:
        assert game is not None
        one = events[0]
        event_id = one.id or time_ordered_ids(1)[0]
        row = await (
            await conn.execute(
                WRITE_ONE,
                write_one_parameters(campaign_id, current, event_id, batch, one, actor, game, keyed, locked=locked),
            )
        ).fetchone()
        return None if row is None else (row[0], [event_id])
    # Each event as WRITE reads it: [position, type, data, event_id, occurred_at, character_id, batch_id, actor,
    # schema_version, recorded_at, idempotency_key, request_digest, override], the fields left out at its end NULL.
    # The envelope (batch_id to recorded_at) only when folding an export again; the key and digest only on the first
    # event of a batch written under an Idempotency-Key (service/store/keys.py); the override only on an event that
    # has one (rare, so the common event stays six fields). Tuples: msgspec encodes them as arrays, and makes them
    # faster than structs.
    if events:
        assert game is not None
        ids = _with_ids([p.id for p in events])
        written: list[tuple[Any, ...]] = [
            (current + 1 + i, p.type, msgspec.Raw(p.data), ids[i], p.occurred_at, game.character_of(p.event))
            for i, p in enumerate(events)
        ]
    else:
        ids = _with_ids([r.id for r in rows])
        written = [
            (
                r.position,
                r.type,
                msgspec.Raw(r.data),
                ids[i],
                r.occurred_at,
                c,
                r.batch,
                r.actor,
                r.schema_version,
                r.recorded_at,
            )
            for i, (r, c) in enumerate(zip(rows, characters, strict=True))
        ]
    if keyed is not None and written:
        written[0] = (*written[0], *[None] * (10 - len(written[0])), keyed.key, keyed.digest)
    overrides = [p.override for p in events] if events else [r.override for r in rows]
    for i, override in enumerate(overrides):
        if override is not None:
            written[i] = (*written[i], *[None] * (12 - len(written[i])), override)
    row = await (
        await conn.execute(
            WRITE,
            {
                "campaign": campaign_id,
                "locked": locked,
                "current": current,
                "writes": WRITES,
                "lock": write_lock(campaign_id)[1],
                "batch": batch,
                "actor": actor,
                "events": _encode(written).decode(),
                "checkpoint": checkpoint,
                "state": state.decode() if state is not None else None,
                "projection": PROJECTION if project else None,
                "fold_version": fold_version(game.id) if checkpoint is not None and game is not None else None,
            },
        )
    ).fetchone()
    return None if row is None else (row[0], ids)


def _with_ids(given: list[uuid.UUID | None]) -> list[uuid.UUID]:
    """The ids given, and for each one missing a new one (time_ordered_ids)."""
    missing = [n for n, i in enumerate(given) if i is None]
    ids: list[uuid.UUID] = given  # type: ignore[assignment]
    for n, drawn in zip(missing, time_ordered_ids(len(missing)), strict=True):
        ids[n] = drawn
    return ids


_ids = msgspec.msgpack.Decoder(list[uuid.UUID]).decode
_id_bytes = struct.Struct(">2sQQ").pack  # a msgpack bin of 16 bytes: its header, then the id's two halves


def time_ordered_ids(count: int) -> list[uuid.UUID]:
    """`count` new event ids in the layout of UUIDv7 (RFC 9562): the time in milliseconds, then random bits, the
    last 62 of them counted up from a random start, so a batch's ids rise with its positions.

    Why not random (gen_random_uuid): the unique index on (campaign_id, event_id) then takes a batch's thousand ids
    at a thousand random places in the campaign's part of the index, and after a checkpoint writes each leaf page
    it touches whole to the WAL; time-ordered ids are appended at its right edge, and PostgreSQL draws no random
    bytes per event. Measured on PostgreSQL 15 here, a 1,000-event insert with all of events' indexes: 12.2 ms with
    random ids, 8.5 ms with these (scratch tables, 60 interleaved rounds). Why here and not in SQL: PostgreSQL 15 has
    no uuidv7(), and building one per row from bytes cost more than the index saved (13.9 ms). Why a msgpack array:
    msgspec makes the UUIDs from it in C, 0.22 ms for 1,000 against 0.73 ms for UUID(int=...) each, and about what
    psycopg took to load the ids PostgreSQL drew.
    """
    millis = time.time_ns() // 1_000_000
    # The random bits in one read of the system's source (what `secrets` reads, in one call rather than two: a
    # one-event append draws two ids, and the second read was a tenth of its ids' cost): 12 after the version, and 61
    # that leave room to count up by any batch's length without carrying into the variant bits.
    drawn = int.from_bytes(os.urandom(10))
    high = (millis & (2**48 - 1)) << 16 | 0x7 << 12 | drawn >> 68
    low = 0b10 << 62 | drawn & (2**61 - 1)
    array = b"\xdd" + count.to_bytes(4, "big")  # a msgpack array of `count` items
    return _ids(array + b"".join([_id_bytes(b"\xc4\x10", high, low + i) for i in range(count)]))


def checkpoint_due(before: int, after: int) -> int | None:
    """Where a batch from `before` to `after` leaves a checkpoint: at its end, when it is the campaign's first batch
    or crosses a multiple of SNAPSHOT_EVERY. (Undo and redo markers leave one too.)"""
    return after if before == 0 or before // SNAPSHOT_EVERY != after // SNAPSHOT_EVERY else None


class Appending:
    """Store methods that append batches."""

    cache: Any
    pool: Any
    turns: Any  # service.store.turns.Turns: this campaign's share of the pool
    behind: Any  # Store.behind
    on_commit: list[Callable[[uuid.UUID, int], None]]

    async def append(
        self,
        campaign_id: uuid.UUID,
        events: Sequence[PreparedEvent],
        *,
        actor: str,
        expected_position: int | None = None,
        batch_id: uuid.UUID | None = None,
        conn: psycopg.AsyncConnection | None = None,
        keyed: Keyed | None = None,
    ) -> Appended:
        """Append a batch atomically. Pass `conn` to append inside a transaction the caller controls; `keyed` for a
        request with an Idempotency-Key (it takes the locking path, where the key is looked up under the lock)."""
        if conn is not None:
            # The caller commits (or not): the process cache learns nothing from this append.
            async with conn.transaction():
                return await self._append_locked(
                    conn, campaign_id, events, actor=actor, expected_position=expected_position, batch_id=batch_id
                )
        if keyed is None:
            if len(events) == 1:
                fast = await self._append_one(campaign_id, events[0], actor, expected_position, batch_id)
            else:
                fast = await self._append_known(campaign_id, events, actor, expected_position, batch_id)
            if fast is not None:
                return self._committed(campaign_id, fast)
        # Pipeline mode: BEGIN, the lock and the retry look-up go in one round trip; after the fold, the write and
        # COMMIT in one more. When this process's state may be stale (the fast path was tried and failed, or it holds
        # none), what folding from the latest snapshot needs is read in that first round trip too.
        stale = not keyed or self.cache.latest(campaign_id) is None
        async with self.turns.turn(campaign_id), transaction(self.pool, pipeline=True) as conn:
            appended = await self._append_locked(
                conn,
                campaign_id,
                events,
                actor=actor,
                expected_position=expected_position,
                batch_id=batch_id,
                keyed=keyed,
                stale=stale,
            )
        return self._committed(campaign_id, appended)

    def _known(self, campaign_id: uuid.UUID, expected_position: int | None) -> tuple[int, Any] | None:
        """The position and state this process last committed for the campaign, where the fast path can start from
        them: None when it holds none, or the client expects another position (the locking path then decides)."""
        cached = self.cache.latest(campaign_id)
        if cached is None or (expected_position is not None and expected_position != cached[0]):
            return None
        return cached

    async def _append_one(
        self,
        campaign_id: uuid.UUID,
        one: PreparedEvent,
        actor: str,
        expected_position: int | None,
        batch_id: uuid.UUID | None,
    ) -> Appended | None:
        """The fast path for the most common append, one event: `_append_known` in fewer steps.

        The same checks and the same statement; each step here runs once per append, so the fold is one `step`
        and the statement runs without a context manager (outcome.one_row).
        """
        known = self._known(campaign_id, expected_position)
        if known is None:
            return None
        current, state = known
        last = current + 1
        if current == 0 or last % SNAPSHOT_EVERY == 0:  # a checkpoint (checkpoint_due): WRITE with the state
            return await self._append_known(campaign_id, [one], actor, expected_position, batch_id)
        game = await self.game_of(campaign_id)
        try:
            state = step(game, state, one.event, Meta(last, actor, one.occurred_at, one.override))
        except Rejection:
            return None  # on a state that may be stale: the locking path refuses it, or not
        drawn = time_ordered_ids(2)  # the event's id and the batch's, where the client gave none
        event_id, batch = one.id or drawn[0], batch_id or drawn[1]
        try:
            row = await one_row(
                self.pool,
                WRITE_ONE_PREPARED,
                write_one_parameters(campaign_id, current, event_id, batch, one, actor, game, locked=False),
            )
        except psycopg.errors.UniqueViolation:
            return None  # an event id already recorded: a retry, or an id reused; the locking path tells which
        if row is None:
            return None  # another writer came first
        recorded_at = row[0]
        recorded = Recorded(
            last,
            event_id,
            batch,
            one.type,
            1,
            msgspec.Raw(one.data),
            actor,
            recorded_at,
            one.occurred_at,
            override=None if one.override is None else Override(one.override),
        )
        return Appended(batch=batch, first_position=last, last_position=last, events=[recorded], state=state)

    async def _append_known(
        self,
        campaign_id: uuid.UUID,
        events: Sequence[PreparedEvent],
        actor: str,
        expected_position: int | None,
        batch_id: uuid.UUID | None,
    ) -> Appended | None:
        """The fast path: fold onto the state this process last committed, and WRITE in its own transaction.

        Answers None when it cannot be sure (no cached state, another writer came first, the fold refused on a
        state that may be stale, or an event id is already recorded); the locking path then decides.
        """
        known = self._known(campaign_id, expected_position)
        if known is None:
            return None
        current, state = known
        game = await self.game_of(campaign_id)
        try:
            state = _fold(game, state, current, events, actor)
        except BatchRejected:
            return None
        async with statement(self.pool) as conn:
            try:
                return await _write_batch(
                    conn, campaign_id, game, current, events, actor, batch_id, state, locked=False
                )
            except psycopg.errors.UniqueViolation:
                # An event id already recorded: a retry, or an id reused. The locking path tells which.
                return None

    def _committed(self, campaign_id: uuid.UUID, appended: Appended) -> Appended:
        """Remember the state of a committed append. Never before commit: a rolled-back position can be taken
        again by another writer with other events, and the cache trusts a position to name one state."""
        if not appended.replayed:
            self.cache.put(campaign_id, appended.last_position, appended.state, appended.size)
            metrics.appended(len(appended.events))
            for listener in self.on_commit:
                listener(campaign_id, appended.last_position)
        return appended

    async def _append_locked(
        self,
        conn: psycopg.AsyncConnection,
        campaign_id: uuid.UUID,
        events: Sequence[PreparedEvent],
        *,
        actor: str,
        expected_position: int | None = None,
        batch_id: uuid.UUID | None = None,
        keyed: Keyed | None = None,
        stale: bool = False,
    ) -> Appended:
        # The write lock serialises the writers of one campaign (and only of that one) until commit, and HEAD names
        # the game, so an append needs no separate look-up. In pipeline mode the look-up of retried ids (and, for a
        # `stale` state, of the markers and snapshot positions) is sent with them and runs after them, under the
        # lock: one round trip for all. Under the lock no event or snapshot lies beyond the position HEAD reads.
        remembered = self.cache.latest(campaign_id)  # before HEAD's snapshot: see Store.behind
        heading = await hold(conn, campaign_id)
        ids = [p.id for p in events if p.id is not None]
        prior = await conn.execute(_BY_EVENT_IDS, (campaign_id, ids)) if ids else None
        marking = await conn.execute(MARKERS, (campaign_id, list(MARKER_TYPES), END)) if stale else None
        snapping = await conn.execute(SNAPSHOT_POSITIONS, (campaign_id, END)) if stale else None
        try:
            game, current, _ = await head(heading, campaign_id)
        except CampaignNotFound:
            self.behind(campaign_id, remembered, None)
            raise
        self.behind(campaign_id, remembered, current)

        # A retried request with its Idempotency-Key answers what it recorded, even if the log has moved since.
        keyed_replay = await replay(conn, campaign_id, keyed)
        if keyed_replay is not None:
            return keyed_replay
        replay_ = _replayed(events, await prior.fetchall() if prior is not None else [])
        if replay_ is not None:
            return replay_
        if expected_position is not None and expected_position != current:
            raise StalePosition(expected_position, current)

        state = self.cache.get(campaign_id, current) if current else None
        if state is None and current:
            # Another process wrote since, or this one never held the campaign: the latest snapshot and the events
            # after it, read under the write lock.
            if marking is not None and snapping is not None:
                markers = markers_from(await marking.fetchall())
                snapshots = [r[0] for r in await snapping.fetchall()]
                state = await self.fold_from(conn, campaign_id, game, current, markers, snapshots)  # type: ignore[attr-defined]
            else:
                state = await self.fold_at(conn, campaign_id, game, current)  # type: ignore[attr-defined]
        state = _fold(game, state, current, events, actor)  # raises BatchRejected
        appended = await _write_batch(
            conn, campaign_id, game, current, events, actor, batch_id, state, keyed, locked=True
        )
        if appended is None:
            raise RuntimeError(f"Campaign {campaign_id}'s write lock was taken from under its holder.")
        return appended


async def lock(conn: psycopg.AsyncConnection, campaign_id: uuid.UUID) -> tuple[Game, int, datetime]:
    """Take the campaign's write lock until commit; answer its game, position and the transaction's time."""
    return await head(await hold(conn, campaign_id), campaign_id)


async def hold(conn: psycopg.AsyncConnection, campaign_id: uuid.UUID) -> psycopg.AsyncCursor[Any]:
    """Send HOLD and HEAD: take the campaign's write lock until commit, then read where its log ends. In pipeline
    mode neither is waited for; `head` reads the answer."""
    await conn.execute(HOLD, write_lock(campaign_id))
    return await conn.execute(HEAD, (campaign_id,))


async def head(heading: psycopg.AsyncCursor[Any], campaign_id: uuid.UUID) -> tuple[Game, int, datetime]:
    """HEAD's answer (from `hold`): the campaign's game, position and the transaction's time."""
    row = await heading.fetchone()
    if row is None:
        raise CampaignNotFound(campaign_id)
    return game_by_id(row[0]), row[1], row[2]


def _fold(game: Game, state: Any, current: int, events: Sequence[PreparedEvent], actor: str) -> Any:
    metas = [Meta(current + 1 + i, actor, p.occurred_at, p.override) for i, p in enumerate(events)]
    return fold_batch(game, state, zip((p.event for p in events), metas, strict=True))


async def _write_batch(
    conn: psycopg.AsyncConnection,
    campaign_id: uuid.UUID,
    game: Game,
    current: int,
    events: Sequence[PreparedEvent],
    actor: str,
    batch_id: uuid.UUID | None,
    state: Any,
    keyed: Keyed | None = None,
    *,
    locked: bool,
) -> Appended | None:
    """WRITE one folded batch; the Appended to answer, or None if another writer holds the write lock (`write`).

    The state is written only at a checkpoint (checkpoint_due): the campaign's first batch and every
    SNAPSHOT_EVERY positions. In between it lives in the process cache, and any other reader folds the events after
    the latest snapshot (Reading.fold_at).
    """
    last = current + len(events)
    batch = batch_id or uuid.uuid4()
    at = checkpoint_due(current, last)
    encoded = _encode(state) if at is not None else None
    # Ids the client did not choose are drawn by `write`, in time order.
    written = await write(
        conn,
        campaign_id,
        current=current,
        locked=locked,
        events=events,
        game=game,
        batch=batch,
        actor=actor,
        checkpoint=at,
        state=encoded,
        keyed=keyed,
    )
    if written is None:
        return None
    now, ids = written
    events_recorded = [
        Recorded(
            position=current + 1 + i,
            id=ids[i],
            batch=batch,
            type=p.type,
            schema_version=1,
            data=msgspec.Raw(p.data),
            actor=actor,
            recorded_at=now,
            occurred_at=p.occurred_at,
            override=None if p.override is None else Override(p.override),
        )
        for i, p in enumerate(events)
    ]
    return Appended(
        batch=batch,
        first_position=current + 1,
        last_position=last,
        events=events_recorded,
        state=state,
        size=len(encoded) if encoded is not None else None,
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
