"""The events between two positions that count now, each told in its sentence, a chunk at a time.

Each sentence is told from the state right before its event (so it names characters as the table knew them then),
folded here from the state at the first position as the log stands now: undone events are left out of both the
account and the fold, and undo and redo markers are not events of the game.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from quartermaster.events.base import Event
from quartermaster.projections.game import Game, Rejection, step_noted
from quartermaster.projections.registry import decode_event
from quartermaster.projections.sentences import against_the_rules, tell
from quartermaster.projections.timeline import MARKER_TYPES
from quartermaster.service.application.audit.episodes import effective
from quartermaster.service.store import Recorded, Store, meta_of


@dataclass(frozen=True)
class Told:
    recorded: Recorded
    event: Event
    sentence: str
    before: Any  # the state the event was folded onto


async def account(store: Store, campaign_id: uuid.UUID, game: Game[Any], after: int, upto: int) -> AsyncIterator[Told]:
    """Every event in (after, upto] that counts now, in order, with its sentence and the state before it."""
    state = await store.state_now_at(campaign_id, game, after)
    async for recorded in effective(store, campaign_id, after=after, upto=upto):
        if recorded.type in MARKER_TYPES or recorded.undone_by is not None:
            continue
        event = decode_event(game.id, recorded.type, recorded.data)
        before, sentence = state, tell(game.sentences, state, event)
        broken: list[str] = []
        try:
            state, broken = step_noted(game, state, event, meta_of(recorded))
        except Rejection:
            # Accepted when appended; only rules changed since refuse it now. The names it added are the loss.
            pass
        reason = recorded.override.reason if recorded.override is not None else None
        yield Told(recorded, event, against_the_rules(sentence, reason, broken), before)


async def state_after(store: Store, campaign_id: uuid.UUID, game: Game[Any], upto: int) -> Any:
    """The state at the end of an account: what counts now, up to `upto`."""
    return await store.state_now_at(campaign_id, game, upto)
