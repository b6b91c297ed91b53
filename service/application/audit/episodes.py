"""The scenarios (Skull & Shackles) and chapters (Skull Tales) a campaign has played, read from the log.

An episode runs from its `started` event to its `ended` event, or to the event before the next `started` when the
table never recorded an end, or to the end of the log while it is still being played: the same ranges the
history's `?scenario=` filter reads. Undone events count for nothing, here as everywhere in the audit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import msgspec

from quartermaster.projections.game import Game
from quartermaster.service.store import Recorded, Store

CHUNK = 5000


@dataclass
class Episode:
    """One time a scenario or chapter was played."""

    name: str  # the scenario's name, or the chapter's number as text
    play: int  # 1 the first time this name was played, 2 the second...
    first: int
    last: int  # the ended event, the event before the next start, or the log's position while it is played
    started_at: datetime
    ended_at: datetime | None = None
    ended: bool = False
    # What the table recorded about how it went: scenario.ended's data, or each phase's phase.ended data.
    outcomes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


def count_in(stretches: list[dict[str, Any]], position: int) -> dict[str, Any]:
    """Count the event at `position` in the latest stretch of an episode (a turn, a phase): its first and last
    positions and how many events it holds; answer that stretch."""
    stretch = stretches[-1]
    if stretch["first"] is None:
        stretch["first"] = position
    stretch["last"] = position
    stretch["events"] += 1
    return stretch


async def effective(
    store: Store,
    campaign_id: Any,
    types: Sequence[str] = (),
    *,
    after: int = 0,
    upto: int | None = None,
    chunk: int = CHUNK,
) -> AsyncIterator[Recorded]:
    """Every recorded event after `after` (up to `upto`), of these types when given, a page at a time, undone ones
    included (they carry `undone_by`): the store's history, read to the end."""
    while upto is None or after < upto:
        limit = chunk if upto is None else min(chunk, upto - after)
        page = await store.history(campaign_id, after=after, limit=limit, types=types)
        for recorded in page:
            if upto is not None and recorded.position > upto:
                return
            yield recorded
        if len(page) < limit:
            return
        after = page[-1].position


async def episodes(
    store: Store, campaign_id: Any, game: Game[Any], position: int, outcome_types: Sequence[str] = ()
) -> list[Episode]:
    """Every episode played, in order, with what the table recorded about how each went."""
    marks = game.episodes
    if marks is None:
        return []
    found: list[Episode] = []
    plays: dict[str, int] = {}
    opened: Episode | None = None
    async for recorded in effective(store, campaign_id, [marks.started, *marks.ended, *outcome_types]):
        if recorded.undone_by is not None:
            continue
        data = msgspec.json.decode(recorded.data)
        if recorded.type == marks.started:
            if opened is not None:
                opened.last = recorded.position - 1
                found.append(opened)
            name = str(data.get(marks.name))
            plays[name] = plays.get(name, 0) + 1
            opened = Episode(
                name=name, play=plays[name], first=recorded.position, last=position, started_at=recorded.recorded_at
            )
        elif opened is None:
            continue
        elif recorded.type in marks.ended:
            opened.last, opened.ended_at, opened.ended = recorded.position, recorded.recorded_at, True
            opened.outcomes.append((recorded.type, data))
            found.append(opened)
            opened = None
        else:
            opened.outcomes.append((recorded.type, data))
    if opened is not None:
        found.append(opened)
    return found


def pick(found: list[Episode], name: str, play: int | None) -> Episode | None:
    """The named episode's `play`-th time (its latest when None)."""
    matching = [e for e in found if e.name == name]
    if not matching:
        return None
    if play is None:
        return matching[-1]
    return matching[play - 1] if 1 <= play <= len(matching) else None


def played_by(game_id: str, at_start: Any, at_end: Any) -> list[dict[str, str]]:
    """Who played an episode: the scenario's party as it started, or every pirate not retired before the chapter."""
    return played_by_from(game_id, starting(game_id, at_start), at_end)


def starting(game_id: str, at_start: Any) -> Any:
    """What `played_by` reads of the state as an episode started: the party (Skull & Shackles), or the pirates
    already retired (Skull Tales)."""
    if game_id == "pacg-skull-and-shackles":
        # Tuples of strings: a live feed keeps this, and the collector stops tracking such tuples.
        party = at_start.scenario.party if at_start is not None and at_start.scenario is not None else []
        return tuple((c, at_start.characters[c].name, at_start.characters[c].player) for c in party)
    before = at_start.pirates.values() if at_start is not None else ()
    return frozenset(sheet.id for sheet in before if sheet.status == "retired")


def ends_matter(game_id: str) -> bool:
    """Whether who played an episode depends on the state as it ended (Skull Tales: the pirates of the chapter's
    end), not only as it started."""
    return game_id != "pacg-skull-and-shackles"


def played_by_from(game_id: str, start: Any, at_end: Any) -> list[dict[str, str]]:
    """`played_by`, from what `starting` read of the state as the episode started."""
    if not ends_matter(game_id):
        return [{"id": id_, "name": name, "player": player} for id_, name, player in start]
    pirates = at_end.pirates.values() if at_end is not None else ()
    return [{"id": p.id, "name": p.name, "player": p.player} for p in pirates if p.id not in start]


def outcome(game_id: str, episode: Episode) -> Any:
    """How an episode went, as the table recorded it: won or lost (or still playing); each phase's outcome."""
    if game_id == "pacg-skull-and-shackles":
        ended = [data.get("result") for type_, data in episode.outcomes if type_ == "scenario.ended"]
        return ended[-1] if ended else "playing"
    return {
        data.get("phase"): data.get("outcome", "success") for type_, data in episode.outcomes if type_ == "phase.ended"
    }
