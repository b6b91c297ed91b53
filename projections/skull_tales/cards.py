"""The group's own Character Cards: the values printed on a card, typed once and kept in the campaign to recruit with;
and each Gear card's Coins cost, typed once when it is first bought or valued and offered again at its next purchase.

The rulebook prints no card's values (attributes, Health, Action and Destiny Points, Salary, starting skills and
gear: Skull Tales: Full Sail! rulebook, Book I: The Characters, Pirates), so the campaign keeps what the group
recorded, and a Pirate recruited from a recorded card carries that card's values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from msgspec.structs import replace

from quartermaster.events.skull_tales import CharacterCardRecorded, ItemGained, PirateRecruited
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.skull_tales.state import ATTRIBUTES, GearCard, SkullTales


def check_values(
    card: CharacterCardRecorded | PirateRecruited, attribute_refused: Callable[[str, int], str], values_refused: str
) -> None:
    """A Character Card's printed values, as recorded or as a recruit carries them: every attribute at least 1,
    Health and Action Points at least 1, Destiny Points and Salary not below 0; each refusal in its caller's words."""
    for name in ATTRIBUTES:
        value = getattr(card.attributes, name)
        if value < 1:
            raise Rejection(attribute_refused(name, value))
    if card.health < 1 or card.action_points < 1 or card.destiny_points < 0 or card.salary < 0:
        raise Rejection(values_refused)


def card_recorded(state: SkullTales, event: CharacterCardRecorded) -> SkullTales:
    if not event.archetype.strip():
        raise Rejection("A Character Card needs its archetype.")
    if not event.classes:
        raise Rejection(f"The {event.archetype} card needs the class or classes printed on it.")
    if len(set(event.classes)) != len(event.classes):
        raise Rejection(f"The {event.archetype} card lists a class twice: {', '.join(event.classes)}.")
    check_values(
        event,
        lambda attribute, value: f"The {event.archetype} card cannot print {attribute.capitalize()} {value}.",
        f"The {event.archetype} card's values (Health, Action Points, Destiny Points, Salary) are not possible.",
    )
    for what, names in (("starting skill", event.skills), ("piece of starting gear", event.starting_gear)):
        if any(not n.strip() for n in names):
            raise Rejection(f"The {event.archetype} card lists a {what} without a name.")
        if len(set(names)) != len(names):
            raise Rejection(f"The {event.archetype} card lists a {what} twice: {', '.join(names)}.")
    return replace(state, character_cards={**state.character_cards, event.archetype: event})


def _values(event: CharacterCardRecorded | PirateRecruited) -> dict[str, Any]:
    return {
        "classes": sorted(event.classes),
        "attributes": msgspec.to_builtins(event.attributes),
        "action_points": event.action_points,
        "health": event.health,
        "destiny_points": event.destiny_points,
        "salary": event.salary,
        "skills": sorted(event.skills),
        "starting_gear": sorted(event.starting_gear),
    }


_WORDS = {
    "classes": "classes",
    "attributes": "attributes",
    "action_points": "Action Points",
    "health": "Health",
    "destiny_points": "Destiny Points",
    "salary": "Salary",
    "skills": "starting skills",
    "starting_gear": "starting gear",
}


def check_recruited(state: SkullTales, event: PirateRecruited) -> None:
    """A Pirate recruited from an archetype whose card the group recorded carries that card's values."""
    card = state.character_cards.get(event.archetype)
    if card is None:
        return
    kept, given = _values(card), _values(event)
    differ = [_WORDS[key] for key in kept if kept[key] != given[key]]
    if differ:
        # A card the group recorded wrongly is recorded again; a table that plays a card otherwise on purpose
        # overrides this rule.
        broken(
            f"{event.name}'s {_listing(differ)} must be the {event.archetype} card's, as the group recorded it: "
            "recruit with the card's values, or record the card again."
        )


def _listing(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def view(state: SkullTales) -> dict[str, Any]:
    """The Character Cards the group recorded, by archetype, as their events carry them."""
    cards = []
    for _, card in sorted(state.character_cards.items()):
        data: dict[str, Any] = msgspec.to_builtins(card)
        data.pop("type", None)
        cards.append(data)
    return {"character_cards": cards}


def gear_priced(state: SkullTales, event: ItemGained) -> SkullTales:
    """The Gear card's printed cost kept for the campaign (the rulebook prints no Gear prices: Book II: Locations,
    Market Square), with the space it takes; a card priced again keeps the newer reading."""
    printed = event.price or event.value
    if event.kind != "gear" or not printed:
        return state
    card = GearCard(price=printed, half_space=event.half_space, equipped=event.equipped)
    return replace(state, gear_cards={**state.gear_cards, event.item: card})
