"""Reading: the current state, the state at any position, and the log itself (history, export)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import msgspec
import psycopg
from psycopg.rows import tuple_row

from quartermaster.events.base import Event
from quartermaster.projections.game import Game, Meta, fold
from quartermaster.projections.registry import decode_event, game as game_by_id
from quartermaster.projections.timeline import MARKER_TYPES, Marker, safe_start, undone_as_of
from quartermaster.projections.undo import Entry
from quartermaster.service.store.cache import state_decoder
from quartermaster.service.store.memory import Memory
from quartermaster.service.store.records import Campaign, CampaignNotFound, Recorded, recorded_from_row
from quartermaster.service.store.snapshots import POSITION_OF, SNAPSHOT, snapshot_positions

_FOLD_CHUNK = 5000
END = 2**62  # a position past any log, for "up to now"

_POSITION = f"SELECT {POSITION_OF} FROM campaigns c WHERE campaign_id = %s"
_CAMPAIGN = f"SELECT campaign_id, game, name, created_at, {POSITION_OF} FROM campaigns c WHERE campaign_id = %s"

MARKERS = """
SELECT position, type, (data->'targets')::text FROM events
WHERE campaign_id = %s AND type = ANY(%s) AND position <= %s ORDER BY position
"""

ENTRIES = """
SELECT position, batch_id, type, data::text, actor, occurred_at, override FROM events
WHERE campaign_id = %s AND position > %s AND position <= %s ORDER BY position
"""

# A batch's events follow each other (one statement writes them at current+1..last; an import refuses a batch split
# by another), so a batch is the run of its id around any one of its events. Its readers (undo and redo, the answer
# to a retried Idempotency-Key) find one of its events, then PostgreSQL walks the primary key from it to one event
# past each end of the run and reads what lies between: there is no index on batch_id (migration 0007 says why).

# The whole batch holding position `at`, which is of batch `batch` (an idempotency key is kept on its batch's first
# event).
BATCH_AT = """
WITH run AS (
    SELECT coalesce((SELECT position FROM events WHERE campaign_id = %(campaign)s AND position < %(at)s
                       AND batch_id <> %(batch)s ORDER BY position DESC LIMIT 1), 0) AS after,
           coalesce((SELECT position FROM events WHERE campaign_id = %(campaign)s AND position > %(at)s
                       AND batch_id <> %(batch)s ORDER BY position LIMIT 1), %(end)s) AS before
)
SELECT position, event_id, batch_id, type, schema_version, data::text, actor, recorded_at, occurred_at,
       override
FROM run, events WHERE campaign_id = %(campaign)s AND position > run.after AND position < run.before
ORDER BY position
"""

# The whole batch of the latest event that is of batch `batch` (any batch when NULL), of none of the types
# `not_types`, at none of the positions `not_at`, and recorded by `actor` (anyone when NULL): the latest effective
# batch for undo, or a batch named by its id. The walk back to a named batch is as long as the log after it, which
# undoing or redoing that batch reads and folds again anyway.
LATEST_BATCH = """
WITH latest AS (
    SELECT position, batch_id FROM events
    WHERE campaign_id = %(campaign)s AND (%(batch)s::uuid IS NULL OR batch_id = %(batch)s::uuid)
      AND NOT (type = ANY(%(not_types)s::text[])) AND NOT (position = ANY(%(not_at)s::bigint[]))
      AND (%(actor)s::text IS NULL OR actor = %(actor)s::text)
    ORDER BY position DESC LIMIT 1
), run AS (
    SELECT coalesce((SELECT e.position FROM events e WHERE e.campaign_id = %(campaign)s
                       AND e.position < latest.position AND e.batch_id <> latest.batch_id
                     ORDER BY e.position DESC LIMIT 1), 0) AS after,
           coalesce((SELECT e.position FROM events e WHERE e.campaign_id = %(campaign)s
                       AND e.position > latest.position AND e.batch_id <> latest.batch_id
                     ORDER BY e.position LIMIT 1), %(end)s) AS before
    FROM latest
)
SELECT position, event_id, batch_id, type, schema_version, data::text, actor, recorded_at, occurred_at,
       override
FROM run, events WHERE campaign_id = %(campaign)s AND position > run.after AND position < run.before
ORDER BY position
"""


def latest_batch(
    campaign_id: uuid.UUID,
    *,
    batch: uuid.UUID | None = None,
    not_types: Sequence[str] = (),
    not_at: Sequence[int] = (),
    actor: str | None = None,
) -> dict[str, Any]:
    """The parameters of LATEST_BATCH."""
    return {
        "campaign": campaign_id,
        "batch": batch,
        "not_types": list(not_types),
        "not_at": list(not_at),
        "actor": actor,
        "end": END,
    }


_ROWS = """
SELECT position, event_id, batch_id, type, schema_version, data::text, actor, recorded_at, occurred_at,
       override
FROM events WHERE campaign_id = %s AND position > %s AND position <= %s ORDER BY position
"""

# The data only where the reader wants it: its types, its positions, and of the skimmed types only the events whose
# data contains the JSON given for that type (looked up by the type's place among the skimmed types; jsonb
# containment reads the stored binary form, so the events skipped are never turned into text).
_CHUNK = """
SELECT position, type,
       CASE WHEN type = ANY(%s) OR position = ANY(%s)
                 OR (type = ANY(%s) AND data @> (%s::jsonb[])[array_position(%s::text[], type)])
            THEN data::text END,
       actor
FROM events WHERE campaign_id = %s AND position > %s AND position <= %s ORDER BY position
"""

# The events in a stretch of the log recorded with an override (few: no index but the primary key's walk).
_OVERRIDDEN = """
SELECT position, type, actor, override FROM events
WHERE campaign_id = %s AND position > %s AND position <= %s AND override IS NOT NULL ORDER BY position
"""

# Filters are optional: a NULL parameter switches its clause off, so the statement stays one fixed string.
_HISTORY = """
SELECT position, event_id, batch_id, type, schema_version, data::text, actor, recorded_at, occurred_at,
       override
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

# _HISTORY without its filters, for the page most readers ask: every live feed's, each new event's.
_PAGE = """
SELECT position, event_id, batch_id, type, schema_version, data::text, actor, recorded_at, occurred_at,
       override
FROM events WHERE campaign_id = %s AND position > %s ORDER BY position LIMIT %s
"""

# The marker types as an SQL literal, so the statements below need no parameter for them.
_MARKER_TYPES = "'{" + ",".join(MARKER_TYPES) + "}'::text[]"
assert all(t.replace(".", "").replace("_", "").isalnum() for t in MARKER_TYPES), "the literal above quotes nothing"


def _and_markers(page: str) -> str:
    """A page's statement (its parameters first, then the campaign's id once more) and every undo and redo marker of
    the campaign (MARKERS' rows, their targets where the page has its data) in one statement, so a page costs one
    round trip: the last column tells a marker's row from the page's, and the page's rows come in position order
    after the markers'."""
    return f"""
SELECT * FROM (
    SELECT *, false AS marker FROM ({page}) AS page
    UNION ALL
    SELECT position, NULL, NULL, type, NULL, (data->'targets')::text, NULL, NULL, NULL, NULL, true FROM events
    WHERE campaign_id = %s AND type = ANY({_MARKER_TYPES})
) AS both_ ORDER BY marker DESC, position
"""


_HISTORY_AND_MARKERS = _and_markers(_HISTORY)
_PAGE_AND_MARKERS = _and_markers(_PAGE)


class Reader:
    """Reads campaigns, states and the log, remembering states and games in the process's memory."""

    def __init__(self, pool: Any, memory: Memory) -> None:
        self.pool = pool
        self.memory = memory

    async def campaign(self, campaign_id: uuid.UUID) -> Campaign:
        async with self.pool.connection() as conn:
            row = await (await conn.execute(_CAMPAIGN, (campaign_id,))).fetchone()
        if row is None:
            raise CampaignNotFound(campaign_id)
        return Campaign(*row)

    async def game_of(self, campaign_id: uuid.UUID) -> Game[Any]:
        """The game a campaign plays. It never changes, so each process asks the database once per campaign (while
        its memory keeps it)."""
        game_id: str | None = self.memory.games.get(campaign_id.int)
        if game_id is None:
            game_id = (await self.campaign(campaign_id)).game
            self.memory.games[campaign_id.int] = game_id
        return game_by_id(game_id)

    async def projection(self, campaign_id: uuid.UUID, game: Game[Any]) -> tuple[int, Any]:
        """The campaign's current state and its position."""
        return await self.state_at(campaign_id, game, None)

    async def positions(self, campaign_ids: list[uuid.UUID]) -> dict[uuid.UUID, int]:
        """The current position of each of these campaigns (live updates poll it)."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                f"SELECT campaign_id, {POSITION_OF} FROM campaigns c WHERE campaign_id = ANY(%s)", (campaign_ids,)
            )
            return dict(await cur.fetchall())

    async def state_at(self, campaign_id: uuid.UUID, game: Game[Any], at: int | None) -> tuple[int, Any]:
        """The state right after position `at` (the current state when None or beyond the end).

        The current state comes from the process cache when it holds the campaign's position, else from the latest
        snapshot and the events after it (and is then kept): one query when cached, whoever wrote last.
        """
        remembered = self.memory.states.latest(campaign_id)  # before the position's snapshot: see Memory.behind
        async with self.pool.connection() as conn:
            row = await (await conn.execute(_POSITION, (campaign_id,))).fetchone()
            self.memory.behind(campaign_id, remembered, row and row[0])
            if row is None:
                raise CampaignNotFound(campaign_id)
            position = row[0]
            if at is not None and at < position:
                return at, await self.fold_at(conn, campaign_id, game, at)
            state = self.memory.states.get(campaign_id, position)
            if state is not None:
                return position, state
            state = await self.fold_at(conn, campaign_id, game, position)
        # Every event up to `position` is committed (positions are gapless and in commit order), so this state is
        # the fold of the log at `position` for good.
        self.memory.states.put(campaign_id, position, state)
        return position, state

    async def state_now_at(self, campaign_id: uuid.UUID, game: Game[Any], at: int) -> Any:
        """The state right after position `at` as the log stands now: what was undone since, even by a later
        marker, left out (the audit's reports count what counts now; `state_at` is what the table saw then)."""
        async with self.pool.connection() as conn:
            return await self.fold_at(conn, campaign_id, game, at, as_of=END)

    async def fold_at(
        self,
        conn: psycopg.AsyncConnection[Any],
        campaign_id: uuid.UUID,
        game: Game[Any],
        at: int,
        as_of: int | None = None,
    ) -> Any:
        """The fold up to `at`, leaving out what markers up to `as_of` (default: `at` itself) had undone."""
        seen = at if as_of is None else as_of
        markers = await self._markers(conn, campaign_id, seen)
        snapshots = await snapshot_positions(conn, campaign_id, at)
        return await self.fold_from(conn, campaign_id, game, at, markers, snapshots, as_of)

    async def fold_from(
        self,
        conn: psycopg.AsyncConnection[Any],
        campaign_id: uuid.UUID,
        game: Game[Any],
        at: int,
        markers: Sequence[Marker],
        snapshots: Sequence[int],
        as_of: int | None = None,
    ) -> Any:
        """fold_at, given the campaign's markers and snapshot positions (any beyond `at` or `as_of` are passed over).

        In pipeline mode the snapshot and the first events after it travel in one round trip."""
        seen = at if as_of is None else as_of
        markers = [m for m in markers if m.position <= seen]
        # The latest snapshot no marker up to `seen` reaches behind (0: the beginning).
        start = safe_start([s for s in snapshots if s <= at], markers, seen)
        skip = undone_as_of(markers, seen)
        stored = await conn.execute(SNAPSHOT, (campaign_id, start)) if start else None
        # A chunk at a time, so folding far back (an old undo, a marker met during a rebuild) keeps memory flat.
        after, upto = start, min(at, start + _FOLD_CHUNK)
        rows = await conn.execute(ENTRIES, (campaign_id, after, upto)) if after < at else None
        state = state_decoder(game).decode((await stored.fetchall())[0][0]) if stored is not None else None
        while rows is not None:
            state = fold(game, [(e.event, e.meta) for e in entries_from(game, await rows.fetchall(), skip)], state)
            after, upto = upto, min(at, upto + _FOLD_CHUNK)
            rows = await conn.execute(ENTRIES, (campaign_id, after, upto)) if after < at else None
        return state

    async def _markers(self, conn: psycopg.AsyncConnection[Any], campaign_id: uuid.UUID, at: int) -> list[Marker]:
        cur = await conn.execute(MARKERS, (campaign_id, list(MARKER_TYPES), at))
        return markers_from(await cur.fetchall())

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
        game: Game[Any] | None = None,
    ) -> list[Recorded]:
        """A page of the log after a position, oldest first, each with the position that undid it if any.

        One round trip (the page and the markers in one statement), but for an episode, whose ranges need the
        markers first."""
        async with self.pool.connection() as conn:
            cur = conn.cursor(row_factory=tuple_row)
            filters = [list(types) or None, list(types) or None, character, character, actor, actor]
            if episode is None:
                if types or character is not None or actor is not None:
                    statement = _HISTORY_AND_MARKERS
                    parameters = (campaign_id, after, *filters, None, None, None, limit, campaign_id)
                else:
                    statement, parameters = _PAGE_AND_MARKERS, (campaign_id, after, limit, campaign_id)
                await cur.execute(statement, parameters)
                rows = await cur.fetchall()
                count = sum(1 for row in rows if row[10])
                undone = undone_as_of(markers_from([(row[0], row[3], row[5]) for row in rows[:count]]), END)
                return [recorded_from_row((*row[:10], undone.get(row[0]))) for row in rows[count:]]
            assert game is not None, "filtering by episode needs the game"
            undone = undone_as_of(await self._markers(conn, campaign_id, END), END)
            ranges = await self._episode_ranges(conn, campaign_id, game, episode, undone)
            if not ranges:
                return []
            firsts, lasts = [r[0] for r in ranges], [r[1] for r in ranges]
            await cur.execute(_HISTORY, (campaign_id, after, *filters, firsts, firsts, lasts, limit))
            return [recorded_from_row((*row, undone.get(row[0]))) for row in await cur.fetchall()]

    async def _episode_ranges(
        self,
        conn: psycopg.AsyncConnection[Any],
        campaign_id: uuid.UUID,
        game: Game[Any],
        name: str,
        undone: dict[int, int],
    ) -> list[tuple[int, int]]:
        """The (first, last) positions of every time the named episode was played; the last one may be open."""
        episodes = game.episodes
        if episodes is None:
            return []
        cur = await conn.execute(
            "SELECT position, type, data->>%s FROM events WHERE campaign_id = %s AND type = ANY(%s) ORDER BY position",
            (episodes.name, campaign_id, [episodes.started, *episodes.ended]),
        )
        ranges: list[tuple[int, int]] = []
        opened: int | None = None
        for position, type_, value in await cur.fetchall():
            if position in undone:
                continue
            if opened is not None:
                ranges.append((opened, position if type_ in episodes.ended else position - 1))
                opened = None
            if type_ == episodes.started and value == name:
                opened = position
        if opened is not None:
            ranges.append((opened, END))
        return ranges

    async def effective_of_types(
        self, campaign_id: uuid.UUID, game: Game[Any], types: Sequence[str], chunk: int = 5000
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

    async def undone_now(self, campaign_id: uuid.UUID) -> dict[int, int]:
        """Every position undone as the log stands now, with the position of the marker that undid it."""
        async with self.pool.connection() as conn:
            return undone_as_of(await self._markers(conn, campaign_id, END), END)

    async def log_chunks(
        self,
        campaign_id: uuid.UUID,
        after: int,
        upto: int,
        *,
        data_of: Sequence[str] = (),
        also: Sequence[int] = (),
        skim: Mapping[str, dict[str, Any]] | None = None,
        chunk: int = 5000,
    ) -> AsyncIterator[list[tuple[int, str, str | None, str]]]:
        """(position, type, data, actor) of every event in (after, upto], a chunk at a time, for readers that walk
        a long stretch of the log (the audit). Only the events of the types in `data_of`, at the positions in
        `also`, or of a type in `skim` whose data contains that type's fields (`{"verb": "banish"}`), carry their
        data; the others carry None: a walk pays for carrying and decoding only what it reads."""
        skimmed = list(skim or {})
        needles = [msgspec.json.encode((skim or {})[t]).decode() for t in skimmed]
        while after < upto:
            async with self.pool.connection() as conn:
                cur = await conn.execute(
                    _CHUNK,
                    (
                        list(data_of),
                        list(also),
                        skimmed,
                        needles,
                        skimmed,
                        campaign_id,
                        after,
                        min(upto, after + chunk),
                    ),
                )
                page = await cur.fetchall()
            if not page:
                return
            yield page
            after = page[-1][0]

    async def overridden(self, campaign_id: uuid.UUID, after: int, upto: int) -> list[tuple[int, str, str, str]]:
        """(position, type, actor, reason) of every event in (after, upto] logged against a rule of the game."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(_OVERRIDDEN, (campaign_id, after, min(upto, END)))
            return list(await cur.fetchall())

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
                yield recorded_from_row(row)
            after = page[-1][0]


def markers_from(rows: Sequence[Sequence[Any]]) -> list[Marker]:
    """The undo and redo markers read by MARKERS."""
    return [Marker(p, t, msgspec.json.decode(targets)) for p, t, targets in rows]


def entries_from(game: Game[Any], rows: Sequence[Sequence[Any]], skip: Mapping[int, int] | set[int]) -> list[Entry]:
    """The events read by ENTRIES that count (neither markers nor in `skip`), decoded."""
    return [
        Entry(position, batch, type_, decode_event(game.id, type_, data), Meta(position, actor, occurred_at, override))
        for position, batch, type_, data, actor, occurred_at, override in rows
        if type_ not in MARKER_TYPES and position not in skip
    ]
