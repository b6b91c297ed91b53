"""A report of one scenario or chapter: what happened in it, walked from the log a chunk at a time.

The walk is the same for every game: each effective event of the episode goes to the game's tally in order; an
undone one is listed apart (with the member who undid it) and counts for nothing. Numbers the fold computes (Fame
and Coins after costs and banking, the cards a character holds) are read from the state at the episode's start
and at its end, never worked out a second time here.
"""

from __future__ import annotations

import uuid
from typing import Any, Protocol

import msgspec

from quartermaster.projections.game import Game
from quartermaster.projections.registry import decode_event
from quartermaster.projections.timeline import MARKER_TYPES
from quartermaster.service.application.audit.chapter_report import ChapterTally
from quartermaster.service.application.audit.episodes import Episode, effective
from quartermaster.service.application.audit.scenario_report import REWARD_TYPES, ScenarioTally
from quartermaster.service.store import Store
from quartermaster.service.store.reading import END

# What a game's episodes are called, in the report's words and its query parameter.
WORDS = {"pacg-skull-and-shackles": "scenario", "skull-tales-full-sail": "chapter"}
# The events, besides the episode's start and end, that say how an episode went, for the list.
OUTCOMES = {"pacg-skull-and-shackles": (), "skull-tales-full-sail": ("phase.ended",)}


class Tally(Protocol):
    """What one game counts in an episode."""

    reads: frozenset[str]  # the event types it is given decoded; the others arrive as None
    skim: dict[str, dict[str, str]]  # of these types, only the events whose data holds these fields are read

    def add(self, position: int, type_: str, event: Any) -> None: ...

    def result(self, before: Any, after: Any) -> dict[str, Any]: ...


def names_of(game: Game[Any], *states: Any) -> dict[str, str]:
    """The characters' (or pirates') names by id, as the states know them."""
    names: dict[str, str] = {}
    for state in states:
        if state is None:
            continue
        people = state.characters if game.id == "pacg-skull-and-shackles" else state.pirates
        names.update({key: person.name for key, person in people.items()})
    return names


def tally_for(game: Game[Any], names: dict[str, str], episode: Episode) -> Tally:
    if game.id == "pacg-skull-and-shackles":
        return ScenarioTally(names, episode.name)
    return ChapterTally(names, episode.name)


async def undoers(
    store: Store, campaign_id: uuid.UUID, markers: set[int], members: dict[str, str]
) -> dict[int, dict[str, Any]]:
    """Who recorded each undo marker, and why, by its position."""
    found: dict[int, dict[str, Any]] = {}
    if not markers:
        return found
    async for recorded in effective(store, campaign_id, MARKER_TYPES, after=min(markers) - 1, upto=max(markers)):
        if recorded.position in markers:
            reason = msgspec.json.decode(recorded.data).get("reason")
            found[recorded.position] = {"by": members.get(recorded.actor, recorded.actor), "reason": reason}
    return found


async def report(
    store: Store,
    campaign_id: uuid.UUID,
    game: Game[Any],
    episode: Episode,
    members: dict[str, str],
    next_first: int | None,
) -> dict[str, Any]:
    """The whole report of one episode: its header, the game's tally, and the undone entries apart."""
    # What counts now, even where an undo came after the episode: the same events the walk below counts.
    before = await store.state_now_at(campaign_id, game, episode.first - 1)
    after = await store.state_now_at(campaign_id, game, episode.last)
    names = names_of(game, before, after)
    tally = tally_for(game, names, episode)
    undone_now = await store.undone_now(campaign_id)
    undone_here = [p for p in undone_now if episode.first <= p <= episode.last]
    undone: list[dict[str, Any]] = []
    recorders: dict[str, int] = {}
    counted = 0
    skim = tally.skim
    reads = [t for t in tally.reads if t not in skim]
    async for chunk in store.log_chunks(
        campaign_id, episode.first - 1, episode.last, data_of=reads, also=undone_here, skim=skim
    ):
        for position, type_, data, actor in chunk:
            if type_ in MARKER_TYPES:
                continue
            if position in undone_now:
                undone.append(
                    {
                        "position": position,
                        "type": type_,
                        "recorded_by": members.get(actor, actor),
                        "data": msgspec.json.decode(data or "{}"),
                        "undone_at": undone_now[position],
                    }
                )
                continue
            counted += 1
            recorders[actor] = recorders.get(actor, 0) + 1
            tally.add(position, type_, None if data is None else decode_event(game.id, type_, data))
    if isinstance(tally, ScenarioTally) and episode.ended:
        # Rewards come after the scenario's end, before the next scenario starts (Skull & Shackles Rulebook, After
        # the Scenario).
        async for recorded in effective(store, campaign_id, REWARD_TYPES, after=episode.last, upto=next_first):
            if recorded.undone_by is None and (next_first is None or recorded.position < next_first):
                tally.reward(recorded.position, recorded.type, decode_event(game.id, recorded.type, recorded.data))
    # Logged against a rule of the game: the episode's own events, and a scenario's rewards after its end.
    overridden = [
        {"position": position, "type": type_, "recorded_by": members.get(actor, actor), "reason": reason}
        for position, type_, actor, reason in await store.overridden(
            campaign_id, episode.first - 1, (next_first - 1 if next_first else END) if episode.ended else episode.last
        )
        if position not in undone_now
        and (position <= episode.last or (isinstance(tally, ScenarioTally) and type_ in REWARD_TYPES))
    ]
    who_undid = await undoers(store, campaign_id, {u["undone_at"] for u in undone}, members)
    for entry in undone:
        marker = who_undid.get(entry["undone_at"], {})
        entry["undone_by"] = marker.get("by")
        entry["reason"] = marker.get("reason")
    word = WORDS[game.id]
    return {
        "game": game.id,
        word: episode.name if word == "scenario" else int(episode.name),
        "play": episode.play,
        "first": episode.first,
        "last": episode.last,
        "ended": episode.ended,
        "started_at": episode.started_at,
        "ended_at": episode.ended_at,
        "recorded_by": {members.get(actor, actor): count for actor, count in recorders.items()},
        "events": counted,
        **tally.result(before, after),
        "undone": undone,
        "overridden": overridden,
    }
