"""The event store: every SQL statement about campaigns, events, projections and snapshots.

An append is one transaction: lock the campaign row, refuse a stale `expected_position`, answer a retried batch
with what was recorded, fold the batch onto the current state with the game's fold (refusing the whole batch on any
rejection), insert the events, write the projection row, commit. The row lock is what makes positions gapless and
in commit order: whoever holds position N commits before anyone can take N+1.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import msgspec
import psycopg
from psycopg.rows import tuple_row

from events.base import Event
from events.campaign import EventRedone, EventUndone
from projections.game import BatchRejected, Game, Meta, fold, fold_batch
from projections.registry import decode_event, fold_version, game as game_by_id
from projections.timeline import MARKER_TYPES, REDONE, UNDONE, Marker, safe_start, undone_as_of
from projections.undo import Conflict, Entry, recheck

PROJECTION = "state"
NOTIFY_CHANNEL = "quartermaster_events"
_MEMBERS_KEPT = 10_000
_FOLD_CHUNK = 5000
_END = 2**62  # a position past any log, for "up to now"
# A snapshot is written whenever an append crosses a multiple of this many positions.
SNAPSHOT_EVERY = 1000

_encode = msgspec.json.Encoder().encode


class Recorded(msgspec.Struct, frozen=True):
    """An event as the log holds it."""

    position: int
    id: uuid.UUID
    batch: uuid.UUID
    type: str
    schema_version: int
    data: msgspec.Raw
    actor: str
    recorded_at: datetime
    occurred_at: datetime | None = None
    undone_by: int | None = None


@dataclass(frozen=True)
class Pending:
    """An event about to be appended: already decoded, catalogue names already expanded."""

    event: Event
    type: str
    data: bytes  # the event's fields as JSON, without the type
    id: uuid.UUID | None = None
    occurred_at: datetime | None = None


class CampaignNotFound(LookupError):
    pass


class UndoRefused(Exception):
    """Undo or redo cannot start: nothing to undo, a batch that is not the caller's, a batch that is not there."""

    def __init__(self, reason: str, status: int = 409) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


class UndoConflict(Exception):
    """Later events the fold would refuse if the undo or redo went ahead."""

    def __init__(self, conflicts: list[Conflict]) -> None:
        super().__init__("; ".join(c.reason for c in conflicts))
        self.conflicts = conflicts


@dataclass(frozen=True)
class Target:
    batch: uuid.UUID
    positions: list[int]
    types: list[str]
    actor: str


# Undoing these would leave members or the campaign itself without the event that made them.
_NOT_UNDOABLE = frozenset({"campaign.started", "member.joined"})


class StalePosition(Exception):
    """The client's expected position is not the campaign's position."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(f"expected position {expected}, but the campaign is at {current}")
        self.expected = expected
        self.current = current


class IdReused(Exception):
    """An event id already recorded with different content, or a batch partly recorded."""

    def __init__(self, reasons: list[tuple[int, str]]) -> None:
        super().__init__("; ".join(r for _, r in reasons))
        self.reasons = reasons


@dataclass(frozen=True)
class Appended:
    batch: uuid.UUID
    first_position: int
    last_position: int
    events: list[Recorded]
    replayed: bool = False  # True when this was a retry answered from what was already recorded
    # The folded state after the batch, for the process cache once the transaction has committed.
    state: Any = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Campaign:
    id: uuid.UUID
    game: str
    name: str
    created_at: datetime
    position: int


class StateCache:
    """The last folded state of recently written campaigns, so an append need not decode its projection row.

    Only trusted when its position equals the campaign's position read under the row lock; any other writer
    (another server, an undo) moves the position and the entry is simply ignored.
    """

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._entries: OrderedDict[uuid.UUID, tuple[int, Any]] = OrderedDict()

    def get(self, campaign_id: uuid.UUID, position: int) -> Any | None:
        entry = self._entries.get(campaign_id)
        if entry is None or entry[0] != position:
            return None
        self._entries.move_to_end(campaign_id)
        return entry[1]

    def latest(self, campaign_id: uuid.UUID) -> tuple[int, Any] | None:
        """The last committed (position, state) this process saw, which may since have been overtaken."""
        entry = self._entries.get(campaign_id)
        if entry is not None:
            self._entries.move_to_end(campaign_id)
        return entry

    def put(self, campaign_id: uuid.UUID, position: int, state: Any) -> None:
        self._entries[campaign_id] = (position, state)
        self._entries.move_to_end(campaign_id)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)


_decoders: dict[str, msgspec.json.Decoder] = {}


def state_decoder(game: Game) -> msgspec.json.Decoder:
    decoder = _decoders.get(game.id)
    if decoder is None:
        decoder = _decoders[game.id] = msgspec.json.Decoder(game.state_type)
    return decoder


_ROWS = """
SELECT position, event_id, batch_id, type, schema_version, data::text, actor, recorded_at, occurred_at
FROM events WHERE campaign_id = %s AND position > %s AND position <= %s ORDER BY position
"""

# Filters are optional: a NULL parameter switches its clause off, so the statement stays one fixed string.
_HISTORY = """
SELECT position, event_id, batch_id, type, schema_version, data::text, actor, recorded_at, occurred_at
FROM events
WHERE campaign_id = %s AND position > %s
  AND (%s::text[] IS NULL OR type = ANY(%s::text[]))
  AND (%s::text IS NULL OR character_id = %s::text)
  AND (%s::text IS NULL OR actor = %s::text)
  AND (%s::bigint[] IS NULL
       OR EXISTS (SELECT 1 FROM unnest(%s::bigint[], %s::bigint[]) AS episode(first, last)
                  WHERE position BETWEEN episode.first AND episode.last))
ORDER BY position
LIMIT %s
"""

_LOCK = "SELECT game, last_position, now() FROM campaigns WHERE campaign_id = %s FOR UPDATE"

_INSERT_EVENT = (
    "INSERT INTO events (campaign_id, position, event_id, batch_id, type, data, actor, recorded_at, occurred_at,"
    " character_id) VALUES (%s, %s, %s, %s, %s, %s::jsonb, %s, %s, %s, %s)"
)

# The fast path's one statement. Its arrays travel in binary (%b): text arrays would escape every element. The UPDATE takes the campaign row's lock (held to the implicit commit, so positions
# stay gapless and in commit order) and matches only if nobody moved the position; every other part writes only
# when it matched. The notification is delivered at commit.
_APPEND_KNOWN = """
WITH moved AS (
    UPDATE campaigns SET last_position = %s WHERE campaign_id = %s AND last_position = %s
    RETURNING now() AS now, pg_notify(%s, %s)
), recorded AS (
    INSERT INTO events (campaign_id, position, event_id, batch_id, type, data, actor, recorded_at, occurred_at,
                        character_id)
    SELECT %s, e.position, coalesce(e.event_id, gen_random_uuid()), %s, e.type, e.data::jsonb, %s, moved.now,
           e.occurred_at, e.character_id
    FROM moved, unnest(%b::bigint[], %b::uuid[], %b::text[], %b::text[], %b::timestamptz[], %b::text[])
        AS e(position, event_id, type, data, occurred_at, character_id)
    RETURNING event_id, position
), projected AS (
    INSERT INTO projections (campaign_id, name, position, state, fold_version)
    SELECT %s, %s, %s, %s::jsonb, %s FROM moved
    ON CONFLICT (campaign_id, name) DO UPDATE SET position = excluded.position, state = excluded.state,
        fold_version = excluded.fold_version
), snapshot AS (
    INSERT INTO snapshots (campaign_id, position, state)
    SELECT %s, %s, %s::jsonb FROM moved WHERE %s
    ON CONFLICT DO NOTHING
)
SELECT now, (SELECT array_agg(event_id ORDER BY position) FROM recorded) FROM moved
"""

_BY_EVENT_IDS = """
SELECT position, event_id, batch_id, type, schema_version, data::text, actor, recorded_at, occurred_at
FROM events WHERE campaign_id = %s AND event_id = ANY(%s) ORDER BY position
"""


def _recorded(row: Sequence[Any]) -> Recorded:
    position, event_id, batch_id, type_, version, data, actor, recorded_at, occurred_at = row[:9]
    undone_by = row[9] if len(row) > 9 else None
    return Recorded(
        position=position,
        id=event_id,
        batch=batch_id,
        type=type_,
        schema_version=version,
        data=msgspec.Raw(data.encode() if isinstance(data, str) else data),
        actor=actor,
        recorded_at=recorded_at,
        occurred_at=occurred_at,
        undone_by=undone_by,
    )


class Store:
    """The event store over one async connection pool."""

    def __init__(self, pool: Any, cache: StateCache | None = None) -> None:
        self.pool = pool
        self.cache = cache or StateCache()
        self._games: dict[uuid.UUID, str] = {}
        self._members: dict[uuid.UUID, tuple[uuid.UUID, str, str, bytes]] = {}

    # -- campaigns -----------------------------------------------------------------------------------------

    async def create_campaign(
        self,
        *,
        campaign_id: uuid.UUID,
        game: Game,
        name: str,
        options: dict[str, Any],
        owner_id: uuid.UUID,
        owner_name: str,
        token_hash: bytes,
        start: Sequence[Pending],
    ) -> Appended:
        """Create a campaign with its owner and record its first batch (campaign.started, member.joined)."""
        async with self.pool.connection() as conn, conn.pipeline(), conn.transaction():
            await conn.execute(
                "INSERT INTO campaigns (campaign_id, game, name) VALUES (%s, %s, %s)",
                (campaign_id, game.id, name),
            )
            await conn.execute(
                "INSERT INTO members (member_id, campaign_id, name, role, token_hash) VALUES (%s, %s, %s, 'owner', %s)",
                (owner_id, campaign_id, owner_name, token_hash),
            )
            appended = await self._append_locked(
                conn, campaign_id, start, actor=str(owner_id), expected_position=0
            )
        return self._committed(campaign_id, appended)

    async def campaign(self, campaign_id: uuid.UUID) -> Campaign:
        async with self.pool.connection() as conn:
            row = await (
                await conn.execute(
                    "SELECT campaign_id, game, name, created_at, last_position FROM campaigns WHERE campaign_id = %s",
                    (campaign_id,),
                )
            ).fetchone()
        if row is None:
            raise CampaignNotFound(campaign_id)
        return Campaign(*row)

    async def game_of(self, campaign_id: uuid.UUID) -> Game:
        """The game a campaign plays. It never changes, so each process asks the database once per campaign."""
        game_id = self._games.get(campaign_id)
        if game_id is None:
            game_id = self._games[campaign_id] = (await self.campaign(campaign_id)).game
        return game_by_id(game_id)

    async def members(self, campaign_id: uuid.UUID) -> list[tuple[uuid.UUID, str, str, datetime]]:
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT member_id, name, role, created_at FROM members WHERE campaign_id = %s ORDER BY created_at, name",
                (campaign_id,),
            )
            return await cur.fetchall()

    async def member_credentials(self, member_id: uuid.UUID) -> tuple[uuid.UUID, str, str, bytes] | None:
        """(campaign_id, name, role, token_hash) of a member, or None.

        Member rows are never updated or deleted, so what was read once stays true and is kept per process; the
        token is still compared against the hash on every request. (Revoking members would need to clear this.)
        """
        known = self._members.get(member_id)
        if known is not None:
            return known
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT campaign_id, name, role, token_hash FROM members WHERE member_id = %s", (member_id,)
            )
            row = await cur.fetchone()
        if row is not None:
            if len(self._members) >= _MEMBERS_KEPT:
                self._members.pop(next(iter(self._members)))
            self._members[member_id] = row
        return row

    async def add_member(
        self,
        campaign_id: uuid.UUID,
        *,
        member_id: uuid.UUID,
        name: str,
        role: str,
        token_hash: bytes,
        joined: Pending,
        actor: str,
    ) -> Appended:
        """Add a member and record member.joined in the same transaction."""
        async with self.pool.connection() as conn, conn.pipeline(), conn.transaction():
            await conn.execute(
                "INSERT INTO members (member_id, campaign_id, name, role, token_hash) VALUES (%s, %s, %s, %s, %s)",
                (member_id, campaign_id, name, role, token_hash),
            )
            appended = await self._append_locked(conn, campaign_id, [joined], actor=actor)
        return self._committed(campaign_id, appended)

    # -- appending -----------------------------------------------------------------------------------------

    async def append(
        self,
        campaign_id: uuid.UUID,
        events: Sequence[Pending],
        *,
        actor: str,
        expected_position: int | None = None,
        batch_id: uuid.UUID | None = None,
        conn: psycopg.AsyncConnection | None = None,
    ) -> Appended:
        """Append a batch atomically. Pass `conn` to append inside a transaction the caller controls."""
        if conn is not None:
            # The caller commits (or not): the process cache learns nothing from this append.
            async with conn.transaction():
                return await self._append_locked(
                    conn, campaign_id, events, actor=actor, expected_position=expected_position,
                    batch_id=batch_id,
                )
        fast = await self._append_known(campaign_id, events, actor, expected_position, batch_id)
        if fast is not None:
            return self._committed(campaign_id, fast)
        # Pipeline mode: BEGIN, the lock and the retry look-up go in one round trip; after the fold, the writes and
        # COMMIT in one more.
        async with self.pool.connection() as conn, conn.pipeline(), conn.transaction():
            appended = await self._append_locked(
                conn, campaign_id, events, actor=actor, expected_position=expected_position, batch_id=batch_id
            )
        return self._committed(campaign_id, appended)

    async def _append_known(
        self, campaign_id: uuid.UUID, events: Sequence[Pending], actor: str, expected_position: int | None,
        batch_id: uuid.UUID | None,
    ) -> Appended | None:
        """The fast path: fold onto the state this process last committed, and write in one statement.

        The statement advances the campaign's position only if it is still the cached one, and writes the events,
        projection and snapshot only if it did, all in one implicit transaction: one round trip. Answers None when
        it cannot be sure (no cached state, another writer came first, the fold refused on a state that may be
        stale, or an event id is already recorded); the locking path then decides, authoritatively.
        """
        cached = self.cache.latest(campaign_id)
        if cached is None:
            return None
        current, state = cached
        if expected_position is not None and expected_position != current:
            return None
        game = await self.game_of(campaign_id)
        first = current + 1
        metas = [Meta(position=first + i, actor=actor, occurred_at=p.occurred_at) for i, p in enumerate(events)]
        try:
            state = fold_batch(game, state, zip((p.event for p in events), metas, strict=True))
        except BatchRejected:
            return None
        last = current + len(events)
        batch = batch_id or uuid.uuid4()
        # Ids the client did not choose are drawn by PostgreSQL (gen_random_uuid) and come back with the row.
        ids = [p.id for p in events]
        encoded = _encode(state).decode()
        snapshot = current // SNAPSHOT_EVERY != last // SNAPSHOT_EVERY
        async with self.pool.connection() as conn:
            try:
                row = await (await conn.execute(_APPEND_KNOWN, (
                    last, campaign_id, current, NOTIFY_CHANNEL, str(campaign_id),
                    campaign_id, batch, actor,
                    list(range(first, last + 1)), ids, [p.type for p in events], [p.data.decode() for p in events],
                    [p.occurred_at for p in events], [game.character_of(p.event) for p in events],
                    campaign_id, PROJECTION, last, encoded, fold_version(game.id),
                    # The state is sent (and parsed) a second time only when a snapshot is due.
                    campaign_id, last, encoded if snapshot else None, snapshot,
                ))).fetchone()
            except psycopg.errors.UniqueViolation:
                # An event id already recorded: a retry, or an id reused. The locking path tells which.
                return None
        if row is None:
            return None
        now, ids = row
        recorded = [
            Recorded(position=first + i, id=ids[i], batch=batch, type=p.type, schema_version=1,
                     data=msgspec.Raw(p.data), actor=actor, recorded_at=now, occurred_at=p.occurred_at)
            for i, p in enumerate(events)
        ]
        return Appended(batch=batch, first_position=first, last_position=last, events=recorded, state=state)

    def _committed(self, campaign_id: uuid.UUID, appended: Appended) -> Appended:
        """Remember the state of a committed append. Never before commit: a rolled-back position can be taken
        again by another writer with other events, and the cache trusts a position to name one state."""
        if not appended.replayed:
            self.cache.put(campaign_id, appended.last_position, appended.state)
        return appended

    async def _append_locked(
        self,
        conn: psycopg.AsyncConnection,
        campaign_id: uuid.UUID,
        events: Sequence[Pending],
        *,
        actor: str,
        expected_position: int | None = None,
        batch_id: uuid.UUID | None = None,
    ) -> Appended:
        # The row lock serialises writers of one campaign (and only of that one) until commit. It also names the
        # game, so an append needs no separate look-up. In pipeline mode the look-up of retried ids is sent with
        # it and runs after it, under the lock: one round trip for both.
        locking = await conn.execute(_LOCK, (campaign_id,))
        ids = [p.id for p in events if p.id is not None]
        prior = await conn.execute(_BY_EVENT_IDS, (campaign_id, ids)) if ids else None
        row = await locking.fetchone()
        if row is None:
            raise CampaignNotFound(campaign_id)
        game, current, now = game_by_id(row[0]), row[1], row[2]

        replay = self._replayed(events, await prior.fetchall() if prior is not None else [])
        if replay is not None:
            return replay
        if expected_position is not None and expected_position != current:
            raise StalePosition(expected_position, current)

        state = await self._current_state(conn, campaign_id, game, current)
        first = current + 1
        metas = [Meta(position=first + i, actor=actor, occurred_at=p.occurred_at) for i, p in enumerate(events)]
        state = fold_batch(game, state, zip((p.event for p in events), metas, strict=True))  # raises BatchRejected

        batch = batch_id or uuid.uuid4()
        last = current + len(events)
        rows = [
            (
                campaign_id,
                first + i,
                p.id or uuid.uuid4(),
                batch,
                p.type,
                p.data.decode(),
                actor,
                now,
                p.occurred_at,
                game.character_of(p.event),
            )
            for i, p in enumerate(events)
        ]
        async with conn.cursor() as cur:
            await cur.executemany(_INSERT_EVENT, rows)
        await self._write_state(conn, campaign_id, game, state, current, last)
        recorded = [
            Recorded(
                position=r[1], id=r[2], batch=batch, type=r[4], schema_version=1, data=msgspec.Raw(events[i].data),
                actor=actor, recorded_at=now, occurred_at=r[8],
            )
            for i, r in enumerate(rows)
        ]
        return Appended(batch=batch, first_position=first, last_position=last, events=recorded, state=state)

    @staticmethod
    def _replayed(events: Sequence[Pending], rows: Sequence[Sequence[Any]]) -> Appended | None:
        """The recorded answer to a retried batch, None for a new one, IdReused when ids clash."""
        found = {row[1]: row for row in rows}
        if not found:
            return None
        reasons: list[tuple[int, str]] = []
        for index, p in enumerate(events):
            row = found.get(p.id) if p.id else None
            if row is None:
                reasons.append((index, "This batch was partly recorded before under other ids; "
                                       "send the recorded events' ids again or new ids for all."))
            elif row[3] != p.type or msgspec.json.decode(row[5]) != msgspec.json.decode(p.data):
                reasons.append((index, f"Event id {p.id} is already recorded at position {row[0]} "
                                       f"with different content; use a new id for a new event."))
        if reasons:
            raise IdReused(reasons)
        recorded = [_recorded(row) for row in found.values()]
        batches = {r.batch for r in recorded}
        if len(batches) != 1 or len(recorded) != len(events):
            raise IdReused([(0, "These event ids were recorded in different batches; a retry must resend one batch "
                                "exactly as it was sent.")])
        return Appended(
            batch=recorded[0].batch, first_position=recorded[0].position, last_position=recorded[-1].position,
            events=recorded, replayed=True,
        )

    async def _current_state(
        self, conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, game: Game, position: int
    ) -> Any:
        if position == 0:
            return None
        cached = self.cache.get(campaign_id, position)
        if cached is not None:
            return cached
        row = await (
            await conn.execute(
                "SELECT position, state::text, fold_version FROM projections WHERE campaign_id = %s AND name = %s",
                (campaign_id, PROJECTION),
            )
        ).fetchone()
        if row is None or row[0] != position or row[2] != fold_version(game.id):
            # The service folds stale campaigns again when it starts; only a server of another version writing
            # meanwhile can leave one behind.
            raise RuntimeError(
                f"The projection of campaign {campaign_id} is at {row and row[0]} (folded by fold "
                f"{row and row[2]!r}), its log at {position} (fold {fold_version(game.id)!r}); "
                "run `quartermaster rebuild`."
            )
        return state_decoder(game).decode(row[1])

    async def _write_state(
        self, conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, game: Game, state: Any, before: int, after: int
    ) -> None:
        encoded = _encode(state).decode()
        await conn.execute(
            "INSERT INTO projections (campaign_id, name, position, state, fold_version) VALUES (%s, %s, %s, %s::jsonb, %s)"
            " ON CONFLICT (campaign_id, name) DO UPDATE SET position = excluded.position, state = excluded.state,"
            " fold_version = excluded.fold_version",
            (campaign_id, PROJECTION, after, encoded, fold_version(game.id)),
        )
        # The notification is delivered at commit, so a woken reader finds the events there.
        await conn.execute(
            "UPDATE campaigns SET last_position = %s WHERE campaign_id = %s RETURNING pg_notify(%s, %s)",
            (after, campaign_id, NOTIFY_CHANNEL, str(campaign_id)),
        )
        if before // SNAPSHOT_EVERY != after // SNAPSHOT_EVERY:
            await conn.execute(
                "INSERT INTO snapshots (campaign_id, position, state) VALUES (%s, %s, %s::jsonb)"
                " ON CONFLICT DO NOTHING",
                (campaign_id, after, encoded),
            )

    # -- reading -------------------------------------------------------------------------------------------

    async def projection(self, campaign_id: uuid.UUID, game: Game) -> tuple[int, Any]:
        """The campaign's current state and its position."""
        async with self.pool.connection() as conn:
            row = await (
                await conn.execute(
                    "SELECT position, state::text FROM projections WHERE campaign_id = %s AND name = %s",
                    (campaign_id, PROJECTION),
                )
            ).fetchone()
        if row is None:
            raise CampaignNotFound(campaign_id)
        position, text = row
        cached = self.cache.get(campaign_id, position)
        return position, cached if cached is not None else state_decoder(game).decode(text)

    async def state_at(self, campaign_id: uuid.UUID, game: Game, at: int | None) -> tuple[int, Any]:
        """The state right after position `at` (the current state when None or beyond the end)."""
        if at is None:
            return await self.projection(campaign_id, game)
        async with self.pool.connection() as conn:
            row = await (await conn.execute(
                "SELECT last_position FROM campaigns WHERE campaign_id = %s", (campaign_id,)
            )).fetchone()
            if row is None:
                raise CampaignNotFound(campaign_id)
            if at < row[0]:
                return at, await self.fold_at(conn, campaign_id, game, at)
        return await self.projection(campaign_id, game)

    async def fold_at(self, conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, game: Game, at: int) -> Any:
        markers = await self._markers(conn, campaign_id, at)
        start, state = await self._start(conn, campaign_id, game, markers, at)
        skip = undone_as_of(markers, at)
        # A chunk at a time, so folding far back (an old undo, a marker met during a rebuild) keeps memory flat.
        after = start
        while after < at:
            upto = min(at, after + _FOLD_CHUNK)
            state = fold(game, await self._effective(conn, campaign_id, game, after, upto, skip), state)
            after = upto
        return state

    async def _start(
        self, conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, game: Game, markers: list[Marker], at: int
    ) -> tuple[int, Any]:
        """The latest snapshot that folding up to `at` may start from, and its state (0 and None: the beginning)."""
        cur = await conn.execute(
            "SELECT position FROM snapshots WHERE campaign_id = %s AND position <= %s ORDER BY position",
            (campaign_id, at),
        )
        start = safe_start([row[0] for row in await cur.fetchall()], markers, at)
        if not start:
            return 0, None
        row = await (await conn.execute(
            "SELECT state::text FROM snapshots WHERE campaign_id = %s AND position = %s", (campaign_id, start)
        )).fetchone()
        return start, state_decoder(game).decode(row[0])

    async def _markers(self, conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, at: int) -> list[Marker]:
        cur = await conn.execute(
            "SELECT position, type, (data->'targets')::text FROM events"
            " WHERE campaign_id = %s AND type = ANY(%s) AND position <= %s ORDER BY position",
            (campaign_id, list(MARKER_TYPES), at),
        )
        return [Marker(p, t, msgspec.json.decode(targets)) for p, t, targets in await cur.fetchall()]

    async def _effective(
        self, conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, game: Game, after: int, upto: int,
        skip: dict[int, int] | set[int],
    ) -> list[tuple[Event, Meta]]:
        """The events in (after, upto] that count, decoded and ready to fold."""
        return [(e.event, e.meta) for e in await self._entries(conn, campaign_id, game, after, upto, skip)]

    async def _entries(
        self, conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, game: Game, after: int, upto: int,
        skip: dict[int, int] | set[int],
    ) -> list[Entry]:
        cur = await conn.execute(
            "SELECT position, batch_id, type, data::text, actor, occurred_at FROM events"
            " WHERE campaign_id = %s AND position > %s AND position <= %s ORDER BY position",
            (campaign_id, after, upto),
        )
        return [
            Entry(position, batch, type_, decode_event(game.id, type_, data), Meta(position, actor, occurred_at))
            for position, batch, type_, data, actor, occurred_at in await cur.fetchall()
            if type_ not in MARKER_TYPES and position not in skip
        ]

    # -- undo and redo -------------------------------------------------------------------------------------

    async def undo(
        self, campaign_id: uuid.UUID, *, batch: uuid.UUID | None, cascade: bool, reason: str | None, actor: str,
        only_own: bool,
    ) -> Appended:
        """Leave a batch out of the effective log by appending `event.undone`; nothing is deleted.

        The latest effective batch when `batch` is None. Raises UndoRefused when there is nothing to undo or the
        batch is not the caller's, UndoConflict when later events would be refused (and `cascade` is off).
        """
        async with self.pool.connection() as conn, conn.transaction():
            game, current, now = await self._lock(conn, campaign_id)
            markers = await self._markers(conn, campaign_id, current)
            undone = undone_as_of(markers, current)
            if batch is None:
                target = await self._latest_effective_batch(conn, campaign_id, undone)
            else:
                target = await self._batch(conn, campaign_id, batch)
                if all(p in undone for p in target.positions):
                    raise UndoRefused(f"Batch {batch} is already undone (by position {undone[target.positions[0]]}).")
            self._check_undoable(target, actor, only_own, "undo")
            marked = await self._mark(
                conn, campaign_id, game, current, now, markers, UNDONE, set(undone) | set(target.positions),
                target.positions, cascade=cascade, reason=reason, actor=actor,
            )
        return self._committed(campaign_id, marked)

    async def redo(
        self, campaign_id: uuid.UUID, *, batch: uuid.UUID | None, reason: str | None, actor: str, only_own: bool
    ) -> Appended:
        """Count an undone batch again by appending `event.redone`, checked by the fold like any append."""
        async with self.pool.connection() as conn, conn.transaction():
            game, current, now = await self._lock(conn, campaign_id)
            markers = await self._markers(conn, campaign_id, current)
            undone = undone_as_of(markers, current)
            if batch is None:
                # The most recently undone batch that is still undone.
                latest = max((m for p, m in undone.items()), default=None)
                if latest is None:
                    raise UndoRefused("There is nothing to redo: no batch is undone.")
                # Everything that marker undid and is still undone: a cascade comes back whole.
                target = await self._positions(conn, campaign_id, sorted(p for p, m in undone.items() if m == latest))
            else:
                target = await self._batch(conn, campaign_id, batch)
            if not any(p in undone for p in target.positions):
                raise UndoRefused(f"Batch {target.batch} is not undone, so there is nothing to redo.")
            self._check_undoable(target, actor, only_own, "redo")
            marked = await self._mark(
                conn, campaign_id, game, current, now, markers, REDONE, set(undone) - set(target.positions),
                target.positions, cascade=False, reason=reason, actor=actor,
            )
        return self._committed(campaign_id, marked)

    async def _lock(self, conn: psycopg.AsyncConnection, campaign_id: uuid.UUID) -> tuple[Game, int, datetime]:
        row = await (await conn.execute(_LOCK, (campaign_id,))).fetchone()
        if row is None:
            raise CampaignNotFound(campaign_id)
        return game_by_id(row[0]), row[1], row[2]

    async def _latest_effective_batch(
        self, conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, undone: dict[int, int]
    ) -> Target:
        # PostgreSQL walks the primary key backwards and stops at the first event that still counts.
        row = await (await conn.execute(
            "SELECT batch_id FROM events WHERE campaign_id = %s AND NOT (type = ANY(%s)) AND NOT (position = ANY(%s))"
            " ORDER BY position DESC LIMIT 1",
            (campaign_id, list(MARKER_TYPES), list(undone)),
        )).fetchone()
        if row is None:
            raise UndoRefused("There is nothing to undo.")
        return await self._batch(conn, campaign_id, row[0])

    async def _batch(self, conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, batch: uuid.UUID) -> Target:
        cur = await conn.execute(
            "SELECT position, type, actor FROM events WHERE campaign_id = %s AND batch_id = %s ORDER BY position",
            (campaign_id, batch),
        )
        rows = await cur.fetchall()
        if not rows:
            raise UndoRefused(f"This campaign has no batch {batch}.", status=404)
        return Target(batch=batch, positions=[r[0] for r in rows], types=[r[1] for r in rows], actor=rows[0][2])

    async def _positions(self, conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, positions: list[int]) -> Target:
        cur = await conn.execute(
            "SELECT position, type, actor, batch_id FROM events WHERE campaign_id = %s AND position = ANY(%s)"
            " ORDER BY position",
            (campaign_id, positions),
        )
        rows = await cur.fetchall()
        actors = {r[2] for r in rows}
        # Several batches (a cascade) count as the caller's only when every one of them is.
        return Target(batch=rows[0][3], positions=[r[0] for r in rows], types=[r[1] for r in rows],
                      actor=actors.pop() if len(actors) == 1 else "")

    @staticmethod
    def _check_undoable(target: Target, actor: str, only_own: bool, doing: str) -> None:
        if set(target.types) & set(MARKER_TYPES):
            raise UndoRefused(f"Batch {target.batch} is itself an undo or redo; use redo or undo instead.")
        if set(target.types) & _NOT_UNDOABLE:
            raise UndoRefused(f"Batch {target.batch} started the campaign or added a member; that cannot be undone.")
        if only_own and target.actor != actor:
            raise UndoRefused(f"A player may only {doing} what they recorded themselves; batch {target.batch} was "
                              "recorded by someone else.", status=403)

    async def _mark(
        self, conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, game: Game, current: int, now: datetime,
        markers: list[Marker], kind: str, excluded: set[int], targets: list[int], *, cascade: bool,
        reason: str | None, actor: str,
    ) -> Appended:
        """Re-check the log with the new exclusions; record the marker and the new state, or raise UndoConflict."""
        position = current + 1
        start, state = await self._start(conn, campaign_id, game, [*markers, Marker(position, kind, targets)], position)
        entries = await self._entries(conn, campaign_id, game, start, current, ())
        result = recheck(game, state, entries, excluded, cascade=cascade)
        if result.conflicts:
            raise UndoConflict(result.conflicts)
        # With cascade, the marker names every position that now drops out, the target's and its dependents'.
        marked = sorted(set(targets) | (set(result.excluded) - excluded)) if kind == UNDONE else sorted(targets)
        marker = (EventUndone if kind == UNDONE else EventRedone)(targets=marked, reason=reason)
        fields = msgspec.to_builtins(marker)
        fields.pop("type")
        data = _encode(fields)
        batch, event_id = uuid.uuid4(), uuid.uuid4()
        await conn.execute(
            "INSERT INTO events (campaign_id, position, event_id, batch_id, type, data, actor, recorded_at)"
            " VALUES (%s, %s, %s, %s, %s, %s::jsonb, %s, %s)",
            (campaign_id, position, event_id, batch, kind, data.decode(), actor, now),
        )
        await self._write_state(conn, campaign_id, game, result.state, current, position)
        recorded = Recorded(position=position, id=event_id, batch=batch, type=kind, schema_version=1,
                            data=msgspec.Raw(data), actor=actor, recorded_at=now)
        return Appended(batch=batch, first_position=position, last_position=position, events=[recorded],
                        state=result.state)

    async def history(
        self,
        campaign_id: uuid.UUID,
        *,
        after: int = 0,
        limit: int = 100,
        types: Sequence[str] = (),
        character: str | None = None,
        actor: str | None = None,
        episode: str | None = None,
        game: Game | None = None,
    ) -> list[Recorded]:
        """A page of the log after a position, oldest first, each with the position that undid it if any."""
        async with self.pool.connection() as conn:
            undone = undone_as_of(await self._markers(conn, campaign_id, _END), _END)
            firsts = lasts = None
            if episode is not None:
                assert game is not None, "filtering by episode needs the game"
                ranges = await self._episode_ranges(conn, campaign_id, game, episode, undone)
                if not ranges:
                    return []
                firsts, lasts = [r[0] for r in ranges], [r[1] for r in ranges]
            cur = conn.cursor(row_factory=tuple_row)
            await cur.execute(
                _HISTORY,
                (campaign_id, after, list(types) or None, list(types) or None, character, character, actor, actor,
                 firsts, firsts, lasts, limit),
            )
            return [_recorded((*row, undone.get(row[0]))) for row in await cur.fetchall()]

    async def _episode_ranges(
        self, conn: psycopg.AsyncConnection, campaign_id: uuid.UUID, game: Game, name: str, undone: dict[int, int]
    ) -> list[tuple[int, int]]:
        """The (first, last) positions of every time the named episode was played; the last one may be open."""
        episodes = game.episodes
        if episodes is None:
            return []
        cur = await conn.execute(
            "SELECT position, type, data->>%s FROM events WHERE campaign_id = %s AND type = ANY(%s) ORDER BY position",
            (episodes.name, campaign_id, [episodes.started, *episodes.ended]),
        )
        ranges, opened = [], None
        for position, type_, value in await cur.fetchall():
            if position in undone:
                continue
            if opened is not None:
                ranges.append((opened, position if type_ in episodes.ended else position - 1))
                opened = None
            if type_ == episodes.started and value == name:
                opened = position
        if opened is not None:
            ranges.append((opened, _END))
        return ranges

    async def effective_of_types(
        self, campaign_id: uuid.UUID, game: Game, types: Sequence[str], chunk: int = 5000
    ) -> AsyncIterator[Event]:
        """Every event of these types that counts now (undone ones left out), oldest first, read in chunks."""
        after = 0
        while True:
            page = await self.history(campaign_id, after=after, limit=chunk, types=types)
            for recorded in page:
                if recorded.undone_by is None:
                    yield decode_event(game.id, recorded.type, recorded.data)
            if len(page) < chunk:
                return
            after = page[-1].position

    async def rows(self, campaign_id: uuid.UUID, upto: int, chunk: int = 5000) -> AsyncIterator[Recorded]:
        """Every recorded event from position 1 to `upto`, in order, a chunk at a time (export)."""
        after = 0
        while after < upto:
            async with self.pool.connection() as conn:
                cur = await conn.execute(_ROWS, (campaign_id, after, min(upto, after + chunk)))
                page = await cur.fetchall()
            if not page:
                return
            for row in page:
                yield _recorded(row)
            after = page[-1][0]


__all__ = [
    "Appended",
    "BatchRejected",
    "Campaign",
    "CampaignNotFound",
    "IdReused",
    "Pending",
    "Recorded",
    "StalePosition",
    "Store",
]
