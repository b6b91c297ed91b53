"""The table display: what a tablet or a TV in the middle of the table shows, in one read.

The game's part is the fold's (`Game.display`, read from the game's own views); the last entries are the log's, told
in the sentences the history gives them. Nothing here decides a rule.
"""

from __future__ import annotations

import uuid
from typing import Any

import msgspec

from quartermaster.service.application.narration import narrate
from quartermaster.service.store import Store

# How many of the log's latest entries the screen shows: what fits under the game at a size read from two metres.
LAST_ENTRIES = 5


class Entry(msgspec.Struct):
    """One of the log's latest entries, in its sentence; `undone` once an undo took it back."""

    position: int
    sentence: str
    undone: bool


class TableDisplay(msgspec.Struct):
    """What the table display shows as of `position`: the game's part (`table`, the fold's display view of the
    campaign's game) and the log's latest entries, newest last."""

    campaign: str
    game: str
    title: str
    position: int
    table: dict[str, Any]
    last: list[Entry]


class NoDisplay(Exception):
    """The campaign's game has no table display."""


async def table_display(store: Store, campaign_id: uuid.UUID, entries: int = LAST_ENTRIES) -> TableDisplay:
    """The table display of a campaign now."""
    found = await store.campaign(campaign_id)
    game = await store.game_of(campaign_id)
    if game.display is None:
        raise NoDisplay(f"{game.title} has no table display.")
    position, state = await store.state_at(campaign_id, game, None)
    page = await store.history(campaign_id, after=max(0, position - entries), limit=entries)
    told = await narrate(store, campaign_id, game, page)
    return TableDisplay(
        campaign=found.name,
        game=game.id,
        title=game.title,
        position=position,
        table=game.display(state),
        last=[Entry(position=t.position, sentence=t.sentence, undone=t.undone_by is not None) for t in told],
    )
