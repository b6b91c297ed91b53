"""Recorded events told as sentences, each from the state it was folded in.

A page of history is told by folding from the state just before its first event: every event in between counts as
it did when it was appended, and an undo or redo marker on the way folds the state again as of that marker, so a
sentence always reads the names the table knew at that moment. Each event is decoded once, for its sentence and its
fold alike; an event this process has just appended is told from the append's own fold (`told_from`), without being
decoded or folded again.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import msgspec

from quartermaster.events.base import Event
from quartermaster.projections.game import Game, Rejection, step_noted
from quartermaster.projections.registry import decode_event
from quartermaster.projections.sentences import against_the_rules, tell
from quartermaster.projections.timeline import MARKER_TYPES
from quartermaster.service.store import Recorded, Step, Store, meta_of

# Folding across a gap longer than this costs more than folding again from the nearest snapshot.
_JUMP = 1000
_CHUNK = 1000


class Told(Recorded, frozen=True, kw_only=True):
    """A recorded event with its sentence, as history pages answer it."""

    sentence: str


async def narrate(store: Store, campaign_id: uuid.UUID, game: Game[Any], page: Sequence[Recorded]) -> list[Told]:
    """The page's events, each with its sentence, in the page's order."""
    if not page:
        return []
    wanted = {recorded.position for recorded in page}
    sentences: dict[int, str] = {}
    position, state = await _state_before(store, campaign_id, game, page[0].position)
    last = page[-1].position
    for target in sorted(wanted):
        if target - position > _JUMP:
            position, state = await _state_before(store, campaign_id, game, target)
        while position < target - 1:
            between = await store.history(campaign_id, after=position, limit=min(_CHUNK, target - 1 - position))
            for recorded in between:
                state = await _after(store, campaign_id, game, state, recorded)
                position = recorded.position
            if not between:
                break
        recorded = next(r for r in page if r.position == target)
        event = decode_event(game.id, recorded.type, recorded.data)
        sentence = tell(game.sentences, state, event)
        broken: list[str] = []
        state = await _after(store, campaign_id, game, state, recorded, broken, event)
        reason = recorded.override.reason if recorded.override is not None else None
        sentences[target] = against_the_rules(sentence, reason, broken)
        position = target
        if position >= last:
            break
    return [Told(**msgspec.structs.asdict(r), sentence=sentences[r.position]) for r in page]


async def _state_before(store: Store, campaign_id: uuid.UUID, game: Game[Any], position: int) -> tuple[int, Any]:
    _, state = await store.state_at(campaign_id, game, position - 1)
    return position - 1, state


async def _after(
    store: Store,
    campaign_id: uuid.UUID,
    game: Game[Any],
    state: Any,
    recorded: Recorded,
    broken: list[str] | None = None,
    event: Event | None = None,
) -> Any:
    """The state after `recorded` (its `event`, when the caller has decoded it); the rules it broke under its
    override are added to `broken`."""
    if recorded.type in MARKER_TYPES:
        # An undo or redo changes which earlier events count: fold again as of the marker.
        return (await store.state_at(campaign_id, game, recorded.position))[1]
    try:
        if event is None:
            event = decode_event(game.id, recorded.type, recorded.data)
        state, noted = step_noted(game, state, event, meta_of(recorded))
        if broken is not None:
            broken.extend(noted)
        return state
    except Rejection:
        # The rules changed since it was appended; the names it would have added are the only loss.
        return state


async def narrate_on(
    store: Store, campaign_id: uuid.UUID, game: Game[Any], page: Sequence[Recorded], start: tuple[int, Any] | None
) -> tuple[list[Told], tuple[int, Any]]:
    """`narrate` for a reader that keeps the state where it stopped: `start` is (position, state) of the last page
    it told, which saves folding again when the next page follows on from it. Answers the page told and the state
    after its last event."""
    if start is not None and start[0] == page[0].position - 1:
        position, state = start
    else:
        position, state = await _state_before(store, campaign_id, game, page[0].position)
    told = []
    for recorded in page:
        if recorded.position != position + 1:
            position, state = await _state_before(store, campaign_id, game, recorded.position)
        event = decode_event(game.id, recorded.type, recorded.data)
        sentence = tell(game.sentences, state, event)
        broken: list[str] = []
        state = await _after(store, campaign_id, game, state, recorded, broken, event)
        reason = recorded.override.reason if recorded.override is not None else None
        position = recorded.position
        told.append(Told(**msgspec.structs.asdict(recorded), sentence=against_the_rules(sentence, reason, broken)))
    return told, (position, state)


def told_from(game: Game[Any], recorded: Recorded, step: Step) -> Told:
    """An event this process has just appended, told from the append's own fold of it: no decoding, no folding."""
    sentence = tell(game.sentences, step.before, step.event)
    reason = recorded.override.reason if recorded.override is not None else None
    return Told(**msgspec.structs.asdict(recorded), sentence=against_the_rules(sentence, reason, list(step.noted)))
