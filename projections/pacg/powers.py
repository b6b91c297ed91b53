"""The cards' printed powers the fold applies, as data (events.pacg.CardPower): by kind, never by a card's name.

Ships and Henchmen notes; Skull & Shackles Rulebook, Ships and Plunder. A power of kind `by_hand` is one the tracker
cannot apply: the views list it so the table applies it itself.
"""

from __future__ import annotations

import re
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


def raised_by(powers: Iterable[CardPower], number: int) -> tuple[int, list[CardPower]]:
    """How much a card's own powers raise the difficulty of the check to defeat it in a scenario of this adventure
    deck number ("increased by 2", "by twice the adventure deck number, if any"), and those powers."""
    raising = of_kind(powers, "difficulty")
    return sum(power.amount + power.per_adventure * number for power in raising), raising


_OPTION = re.compile(r"(?P<skills>[A-Za-z][A-Za-z ]*?)\s+(?P<difficulty>\d+)")


def printed_checks(to_defeat: str | None) -> dict[str, int]:
    """A check as a ship card prints it ("Wisdom or Survival 5, or Perception 7"), as each skill's difficulty."""
    found: dict[str, int] = {}
    for option in _OPTION.finditer(to_defeat or ""):
        for skill in re.split(r",|\bor\b|\bthen\b", option["skills"]):
            if skill.strip():
                found.setdefault(skill.strip().lower(), int(option["difficulty"]))
    return found


def by_hand(powers: Iterable[CardPower]) -> list[str]:
    """The printed powers the table applies itself."""
    return [power.text for power in powers if power.kind == "by_hand"]


__all__ = [
    "by_hand",
    "card_powers",
    "enemy_ship",
    "of_kind",
    "party_ship",
    "printed_checks",
    "raised_by",
    "ship_in_force",
    "structural",
]
