"""Skull Tales: Full Sail! — the fold over a campaign's events, and its views.

Rules come from the Skull Tales: Full Sail! rulebook; comments and refusals cite its book and section ("Book II:
Locations, Docks"). Every point the rulebook leaves unclear, or contradicts itself on, is a campaign option with a
documented default (`projections/skull_tales/options.py`, listed for players in the catalogue README).
"""

from __future__ import annotations

from quartermaster.events.base import Event
from quartermaster.projections.game import Episodes, Game, View, own_types
from quartermaster.projections.skull_tales import cards, dice, display, turn
from quartermaster.projections.skull_tales.fold import _HANDLERS, apply, initial
from quartermaster.projections.skull_tales.sentences import SENTENCES
from quartermaster.projections.skull_tales.state import SkullTales
from quartermaster.projections.skull_tales.views import chapter_view, ledger_view, pirate_view, pirates_view, ship_view


def character_of(event: Event) -> str | None:
    """The pirate an event concerns, for history filters."""
    for field in ("pirate_id", "character_id", "from_pirate", "instigator", "retired_id", "ally_id"):
        value = getattr(event, field, None)
        if isinstance(value, str):
            return value
    return None


_TURN = turn.TurnView(_HANDLERS)

GAME: Game[SkullTales] = Game(
    id="skull-tales-full-sail",
    title="Skull Tales: Full Sail!",
    state_type=SkullTales,
    event_types=own_types(_HANDLERS),
    handlers=_HANDLERS,
    initial=initial,
    apply=apply,
    views={
        "pirates": View("pirates", pirates_view),
        "pirate": View("pirate", pirate_view),
        "ship": View("ship", ship_view),
        "ledger": View("ledger", ledger_view),
        "chapter": View("chapter", chapter_view),
        "cards": View("cards", cards.view),
        "turn": View("turn", _TURN),
    },
    character_of=character_of,
    episodes=Episodes("chapter.started", "number", ("chapter.ended",)),
    sentences=SENTENCES,
    read_roll=dice.read,
    players_may_override=lambda state: state.options.overrides == "players",
    display=display.display(_TURN),
)
