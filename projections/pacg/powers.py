"""The cards' printed powers the fold applies, as data (events.pacg.CardPower): by kind, never by a card's name.

Ships and Henchmen notes; Skull & Shackles Rulebook, Ships and Plunder. A power of kind `by_hand` is one the tracker
cannot apply: the views list it so the table applies it itself.
"""

from __future__ import annotations

from collections.abc import Iterable

from quartermaster.events.pacg import CardPower, ShipCard
from quartermaster.projections.pacg.state import State


def of_kind(powers: Iterable[CardPower], *kinds: str) -> list[CardPower]:
    return [power for power in powers if power.kind in kinds]


def party_ship(state: State) -> ShipCard | None:
    fleet = state.fleet
    return fleet.ships.get(fleet.current or "")


def ship_in_force(state: State) -> list[CardPower]:
    """The party ship's powers in force now: When Commanding while intact, When Commanding (Wrecked) once wrecked."""
    card = party_ship(state)
    if card is None:
        return []
    when = "wrecked" if state.fleet.wrecked else "commanding"
    return [power for power in card.powers if power.when == when]


def enemy_ship(state: State, ship: str) -> list[CardPower]:
    """An enemy ship's When Encountering powers."""
    card = state.fleet.ships.get(ship)
    return [power for power in card.powers if power.when == "encountering"] if card else []


def structural(state: State, dealt: int) -> tuple[int, list[CardPower]]:
    """Structural damage after the party ship's powers that change it (never below 0), and those powers."""
    changing = of_kind(ship_in_force(state), "structural_damage")
    return max(0, dealt + sum(power.amount for power in changing)), changing


def card_powers(state: State, card: str) -> tuple[CardPower, ...]:
    info = state.cards.get(card)
    return info.powers if info is not None else ()


def by_hand(powers: Iterable[CardPower]) -> list[str]:
    """The printed powers the table applies itself."""
    return [power.text for power in powers if power.kind == "by_hand"]


__all__ = ["by_hand", "card_powers", "enemy_ship", "of_kind", "party_ship", "ship_in_force", "structural"]
