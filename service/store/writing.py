"""The one statement that writes events: the events row declared once, the statements derived from it, and `write`.

`EVENT` declares the row of `events` the store writes: each column's name, its PostgreSQL type, and what stands in
when an event leaves it out. Everything that spells the row is derived from it: WRITE's insert (the events travel as
one JSON array of arrays, each read by index), WRITE_ONE's (one event, plain parameters), the arrays the encoders
build (`appended`, `imported`) and WRITE_ONE's parameters (`one_parameters`). A new column is one line here, where
its value comes from, and a migration (tests/integration/test_events_row.py checks the table against `EVENT`).

WRITE inserts the events at positions current+1.. and stores the state at each checkpoint (a snapshot, and the last
one as the projection row), all in one statement. The primary key (campaign_id, position) is what orders writers: a
position is taken once, and a writer can only take N+1 once it has seen N committed, so positions are gapless and in
commit order. A campaign's position is the highest of its events' (locks.HEAD); nothing else records it.
"""

from __future__ import annotations

import os
import struct
import time
import uuid
from collections.abc import Sequence
from datetime import datetime
from itertools import repeat
from operator import attrgetter
from typing import Any, NamedTuple

import msgspec
import psycopg

from quartermaster.projections.game import Game
from quartermaster.service.store.keys import Keyed
from quartermaster.service.store.locks import WRITES, write_lock
from quartermaster.service.store.outcome import statement
from quartermaster.service.store.records import PreparedEvent, Row
from quartermaster.service.store.snapshots import PROJECTION, SNAPSHOT_EVERY

_encode = msgspec.json.Encoder().encode
_ID_OF = attrgetter("id")  # an event's id, read in C (a generator would be a Python frame per batch)


class Column(NamedTuple):
    """A column of `events` the store writes."""

    name: str
    type: str  # its PostgreSQL type, as a cast spells it
    # The batch's value (a parameter of the statement, named so) where an event leaves the column out: an append
    # gives one batch and actor for all its events, an import each event's own.
    batch: str | None = None
    # SQL for the value where an event leaves the column out and the batch gives none.
    otherwise: str | None = None


# In the order of each event's array: what every append gives first, what only an import or a rare event gives
# last, so that a common event's array stops early (the columns it leaves out are read as NULL).
EVENT = (
    Column("position", "bigint"),
    Column("type", "text"),
    Column("data", "jsonb"),  # spliced into the array as it was encoded (msgspec.Raw), never parsed again here
    Column("event_id", "uuid"),
    Column("occurred_at", "timestamptz"),
    Column("character_id", "text"),
    Column("batch_id", "uuid", batch="batch"),
    Column("actor", "text", batch="actor"),
    Column("schema_version", "smallint", otherwise="1"),
    Column("recorded_at", "timestamptz", otherwise="now()"),  # the statement's time, which WRITE answers
    Column("idempotency_key", "text"),  # with the digest, only on a keyed batch's first event (store/keys.py)
    Column("request_digest", "text"),
    Column("override", "text"),
)
# The columns PostgreSQL fills itself (migration 0001): never written by the store.
BY_THE_DATABASE = ("global_position", "tx_id")

AT = {column.name: index for index, column in enumerate(EVENT)}
POSITION, TYPE, DATA, EVENT_ID, OCCURRED_AT, CHARACTER = (
    AT[name] for name in ("position", "type", "data", "event_id", "occurred_at", "character_id")
)
BATCH, ACTOR, VERSION, RECORDED_AT = (AT[name] for name in ("batch_id", "actor", "schema_version", "recorded_at"))
KEY, DIGEST, OVERRIDE = (AT[name] for name in ("idempotency_key", "request_digest", "override"))
# The length of an appended event's array: the columns every append gives.
APPENDED = 1 + max(POSITION, TYPE, DATA, EVENT_ID, OCCURRED_AT, CHARACTER)
# The order in which `appended` writes them, which must be EVENT's: a new column among them, or a reordering, is
# refused here, at import, rather than writing a value into another column.
_APPENDED_ORDER = ("position", "type", "data", "event_id", "occurred_at", "character_id")
if tuple(column.name for column in EVENT[:APPENDED]) != _APPENDED_ORDER:
    raise RuntimeError(f"appended() writes {_APPENDED_ORDER}, but EVENT begins otherwise: change them together.")


def _from_array(index: int, column: Column) -> str:
    read = f"e->{index}" if column.type == "jsonb" else f"(e->>{index})::{column.type}"
    if column.batch is not None:
        return f"coalesce({read}, %({column.batch})s::{column.type})"
    return read if column.otherwise is None else f"coalesce({read}, {column.otherwise})"


def _from_parameter(column: Column) -> str:
    cast = f"%s::{column.type}"
    return cast if column.otherwise is None else f"coalesce({cast}, {column.otherwise})"


_COLUMNS = ", ".join(column.name for column in EVENT)


def _spelt(statement: str, values: str) -> str:
    """A write statement with its columns, their values and the write lock's class (a constant) written in."""
    return statement.replace("{columns}", _COLUMNS).replace("{values}", values).replace("{writes}", str(WRITES))


# `held` has its row when the writer holds the campaign's write lock (`locked`), or else could take it shared at once
# (store/locks.py), and every other part writes only when it has (CASE: the lock is tried only when not held); an
# event whose position is taken fails the whole statement on the primary key. A writer without the lock (the fast
# path) writes only where the log ends: the campaign's last committed event must be at `current`. (The primary key
# refuses a position already taken, but not one past the log's end: a log that lost commits, by a failover to a
# standby that had not received them or a restore of an older copy, would take the event at that position and leave
# a gap before it.) The probe asks for the last position, not whether `current` is there: max() reads it backward
# along the primary key, the only index in position order, so no plan can read another index. Asked by
# (campaign_id, position), PostgreSQL's generic plan on a table without statistics (a new database's, until
# autovacuum first analyses it) read the campaign's every entry of events_by_type or of the event-id key instead, on
# every append. A log found moved on, or behind, writes nothing, and the locking path, which reads where the log
# ends, decides. The checkpoints' states travel as one JSON array, in the order of their positions; each is stored as
# a snapshot, and the last as the projection row (the latest snapshot with the version of the fold that made it)
# unless `projection` is NULL. No NOTIFY: PostgreSQL serialises notifying commits (service/application/live.py says
# how followers
# learn of appends instead).
WRITE = _spelt(
    """
WITH held AS MATERIALIZED (
    SELECT now() AS now
    WHERE CASE WHEN %(locked)s THEN true
               ELSE (SELECT max(position) FROM events WHERE campaign_id = %(campaign)s) = %(current)s
                    AND pg_try_advisory_xact_lock_shared({writes}, %(lock)s) END
), recorded AS (
    INSERT INTO events (campaign_id, {columns})
    SELECT %(campaign)s, {values}
    FROM held, jsonb_array_elements(%(events)s::jsonb) AS e
), given AS (
    SELECT (%(checkpoints)s::bigint[])[checkpoint.n] AS position, checkpoint.state
    FROM held, jsonb_array_elements(%(states)s::jsonb) WITH ORDINALITY AS checkpoint(state, n)
), projected AS (
    INSERT INTO projections (campaign_id, name, position, state, fold_version)
    SELECT %(campaign)s, %(projection)s, position, state, %(fold_version)s FROM given
    WHERE %(projection)s::text IS NOT NULL ORDER BY position DESC LIMIT 1
    ON CONFLICT (campaign_id, name) DO UPDATE SET position = excluded.position, state = excluded.state,
        fold_version = excluded.fold_version
), snapshot AS (
    INSERT INTO snapshots (campaign_id, position, state)
    SELECT %(campaign)s, position, state FROM given
    ON CONFLICT (campaign_id, position) DO NOTHING
)
SELECT now FROM held
""",
    ", ".join(_from_array(index, column) for index, column in enumerate(EVENT)),
)

# WRITE for the most common append, one event and no checkpoint: the same lock, probe and insert, with the event's
# fields as plain parameters (reading one row out of the JSON costs the backend more). The probe reads the campaign
# from the row itself, so it is one parameter, sent and encoded once; the position it expects is a parameter of its
# own. A bare insert: nothing but the time comes back, the ids having been drawn by the encoder.
WRITE_ONE = _spelt(
    """
INSERT INTO events (campaign_id, {columns})
SELECT * FROM (SELECT %s::uuid AS campaign_id, {values}) AS e
WHERE CASE WHEN %s THEN true
           ELSE (SELECT max(logged.position) FROM events AS logged WHERE logged.campaign_id = e.campaign_id) = %s
                AND pg_try_advisory_xact_lock_shared({writes}, %s) END
RETURNING recorded_at
""",
    ", ".join(f"{_from_parameter(column)} AS {column.name}" for column in EVENT),
)


class Checkpoint(msgspec.Struct, frozen=True):
    """A state to store at a position: a snapshot, and the projection row when it is a write's last."""

    position: int
    state: bytes  # its JSON


class Write(msgspec.Struct, frozen=True):
    """What one WRITE writes after position `current` of a campaign (a Struct: every append makes one, and it is
    made in C)."""

    campaign: uuid.UUID
    current: int
    # Whether this transaction holds the campaign's write lock (locks.lock); else the statement tries to take it
    # shared, and writes only where the log ends.
    locked: bool
    # Each event's array in EVENT's order (`appended`, `imported`).
    events: list[list[Any]]
    # The batch's values for the events that leave them out (Column.batch).
    batch: uuid.UUID | None = None
    actor: str | None = None
    checkpoints: Sequence[Checkpoint] = ()
    # The version of the fold that made the checkpoints, for the projection row; None leaves that row alone (a
    # rebuild folding without the lock: service/application/refold.py).
    fold_version: str | None = None

    @property
    def one(self) -> bool:
        """Whether WRITE_ONE writes it: one event and no checkpoint."""
        return len(self.events) == 1 and not self.checkpoints


def _widened(array: list[Any], index: int, value: Any) -> None:
    if len(array) <= index:
        array.extend([None] * (index + 1 - len(array)))
    array[index] = value


def appended(
    events: Sequence[PreparedEvent],
    current: int,
    game: Game[Any],
    keyed: Keyed | None = None,
    batch: uuid.UUID | None = None,
) -> tuple[list[list[Any]], list[uuid.UUID], uuid.UUID]:
    """The arrays of an append's events at positions current+1.., their ids and the batch's (each drawn where the
    client gave none, all in one draw): the batch's id and actor are the Write's. A key and its request's digest go
    on the first event."""
    given = [*map(_ID_OF, events), batch]
    # with_ids(given), its commonest case (no id given: all drawn) read here rather than called for.
    ids = with_ids(given) if any(given) else time_ordered_ids(len(given))
    batch = ids.pop()
    arrays = []
    for i, p in enumerate(events):
        # The APPENDED columns in EVENT's order (_APPENDED_ORDER), as a list literal: one list made per event, where
        # a list of None and a store per column took twice the Python steps.
        array: list[Any] = [
            current + 1 + i,
            p.type,
            msgspec.Raw(p.data),
            ids[i],
            p.occurred_at,
            game.character_of(p.event),
        ]
        if p.override is not None:
            _widened(array, OVERRIDE, p.override)
        arrays.append(array)
    if keyed is not None and arrays:
        _widened(arrays[0], KEY, keyed.key)
        _widened(arrays[0], DIGEST, keyed.digest)
    return arrays, ids, batch


def imported(rows: Sequence[Row], characters: Sequence[str | None]) -> list[list[Any]]:
    """The arrays of recorded events folded again into a log (an import), each with its own envelope."""
    ids = with_ids([r.id for r in rows])
    arrays = []
    for i, (r, character) in enumerate(zip(rows, characters, strict=True)):
        array: list[Any] = [None] * (1 + max(AT.values()))
        array[POSITION] = r.position
        array[TYPE] = r.type
        array[DATA] = msgspec.Raw(r.data)
        array[EVENT_ID] = ids[i]
        array[OCCURRED_AT] = r.occurred_at
        array[CHARACTER] = character
        array[BATCH] = r.batch
        array[ACTOR] = r.actor
        array[VERSION] = r.schema_version
        array[RECORDED_AT] = r.recorded_at
        array[OVERRIDE] = r.override
        arrays.append(array)
    return arrays


# What one_parameters adds to an event's array of n columns to make it EVENT's length, made once for each n.
_PADDING = [[None] * (len(EVENT) - n) for n in range(len(EVENT) + 1)]


def one_parameters(w: Write) -> list[Any]:
    """WRITE_ONE's parameters for a Write of one event, in its order."""
    values = w.events[0]
    values = values + _PADDING[len(values)]
    values[DATA] = bytes(values[DATA]).decode()  # text, for a plain parameter
    if values[BATCH] is None:
        values[BATCH] = w.batch
    if values[ACTOR] is None:
        values[ACTOR] = w.actor
    return [w.campaign, *values, w.locked, w.current, write_lock(w.campaign)[1]]


def parameters(w: Write) -> dict[str, Any]:
    """WRITE's parameters."""
    return {
        "campaign": w.campaign,
        "locked": w.locked,
        "current": w.current,
        "lock": write_lock(w.campaign)[1],
        "batch": w.batch,
        "actor": w.actor,
        "events": _encode(w.events).decode(),
        "checkpoints": [c.position for c in w.checkpoints] or None,
        "states": (b"[" + b",".join(c.state for c in w.checkpoints) + b"]").decode() if w.checkpoints else None,
        "projection": PROJECTION if w.fold_version is not None else None,
        "fold_version": w.fold_version,
    }


async def write(conn: psycopg.AsyncConnection[Any], w: Write) -> datetime | None:
    """Run WRITE (WRITE_ONE for one event and no checkpoint) on the caller's connection: the statement's time, or
    None when the campaign's write lock is held exclusive by another transaction, or the log does not end at
    `w.current` (nothing is written). A position already taken raises psycopg.errors.UniqueViolation (on the primary
    key), as does an event id already recorded."""
    cur = _cursor(conn)
    if w.one:
        await cur.execute(WRITE_ONE, one_parameters(w), prepare=True)
    else:
        await cur.execute(WRITE, parameters(w))
    row = await cur.fetchone()
    return None if row is None else row[0]


# A cursor per connection for `write`, made at its first write there and kept on the connection, so that it goes
# when the connection goes: psycopg's `conn.execute` makes a new cursor, and with it a copy of the connection's
# adapters map, on every call, for every append. A connection serves one caller at a time, so its cursor does too.
_CURSOR = "_quartermaster_cursor"


def _cursor(conn: psycopg.AsyncConnection[Any]) -> psycopg.AsyncCursor[Any]:
    cur: psycopg.AsyncCursor[Any] | None = getattr(conn, _CURSOR, None)
    if cur is None:
        cur = conn.cursor()
        setattr(conn, _CURSOR, cur)
    return cur


async def write_alone(pool: Any, w: Write) -> datetime | None:
    """`write` in its own implicit transaction on a pooled connection (a lost connection raises
    CommitOutcomeUnknown: the statement and its commit are one): one round trip, WRITE_ONE prepared by psycopg."""
    async with statement(pool) as conn:
        return await write(conn, w)


def with_ids(given: list[uuid.UUID | None]) -> list[uuid.UUID]:
    """The ids given, and for each one missing a new one (time_ordered_ids)."""
    if not any(given):  # none given (a UUID is never false), as in most appends: all drawn, with no merging
        return time_ordered_ids(len(given))
    missing = [n for n, i in enumerate(given) if i is None]
    drawn = iter(time_ordered_ids(len(missing)))
    return [i if i is not None else next(drawn) for i in given]


_ids = msgspec.msgpack.Decoder(list[uuid.UUID]).decode
_id_bytes = struct.Struct(">2sQQ").pack  # a msgpack bin of 16 bytes: its header, then the id's two halves


def time_ordered_ids(count: int) -> list[uuid.UUID]:
    """`count` new event ids in the layout of UUIDv7 (RFC 9562): the time in milliseconds, then random bits, the
    last 62 of them counted up from a random start, so a batch's ids rise with its positions.

    Why not random (gen_random_uuid): the unique index on (campaign_id, event_id) then takes a batch's thousand ids
    at a thousand random places in the campaign's part of the index, and after a checkpoint writes each leaf page
    it touches whole to the WAL; time-ordered ids are appended at its right edge, and PostgreSQL draws no random
    bytes per event. Why here and not in SQL: PostgreSQL 15 has no uuidv7(), and building one per row from bytes
    cost more than the index saved. Why a msgpack array: msgspec makes the UUIDs from it in C. (The ledger in
    benchmarks/README.md has the figures.)
    """
    millis = time.time_ns() // 1_000_000
    # The random bits in one read of the system's source (what `secrets` reads, in one call rather than two: a
    # one-event append draws two ids): 12 after the version, and 61 that leave room to count up by any batch's
    # length without carrying into the variant bits.
    drawn = int.from_bytes(os.urandom(10))
    high = (millis & (2**48 - 1)) << 16 | 0x7 << 12 | drawn >> 68
    low = 0b10 << 62 | drawn & (2**61 - 1)
    array = b"\xdd" + count.to_bytes(4, "big")  # a msgpack array of `count` items
    # Each id packed by `map` in C, with no Python frame of its own (a comprehension makes a function and calls it).
    packed = map(_id_bytes, repeat(b"\xc4\x10", count), repeat(high, count), range(low, low + count))
    ids: list[uuid.UUID] = _ids(array + b"".join(packed))
    return ids


def checkpoints(before: int, after: int) -> list[int]:
    """Where a batch from `before` to `after` leaves the state: at its end when it is the campaign's first batch or
    crosses a multiple of SNAPSHOT_EVERY, and at every multiple it crosses at least SNAPSHOT_EVERY before its end
    (the end's stands for the last one), so that a read at any position folds fewer than 2 * SNAPSHOT_EVERY events
    after a snapshot, however long the batches. (Undo and redo markers leave one too.) An append and a refold
    (service/application/refold.py) leave them at the same positions, which `verify` compares."""
    if before // SNAPSHOT_EVERY == after // SNAPSHOT_EVERY:
        return [after] if before == 0 else []
    first = (before // SNAPSHOT_EVERY + 1) * SNAPSHOT_EVERY
    return [*range(first, after - SNAPSHOT_EVERY + 1, SNAPSHOT_EVERY), after]
