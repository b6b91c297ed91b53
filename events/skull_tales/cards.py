"""The Character Cards: their printed attributes, and a card the group records from its box."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from quartermaster.events.base import Event


# gc=False: a folded state keeps these for as long as its campaign is followed; frozen, holding only strings,
# numbers and other such values, they can form no reference cycle, so the collector need not walk them
# (msgspec's documented condition; projections.game.StateStruct says the same of the states).
class Attributes(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The seven attributes printed on a Character Card."""

    melee: Annotated[int, Meta(description="Melee: hand-to-hand combat.")]
    ranged: Annotated[int, Meta(description="Ranged: firearms and thrown weapons.")]
    strength: Annotated[int, Meta(description="Strength.")]
    agility: Annotated[int, Meta(description="Agility.")]
    intelligence: Annotated[int, Meta(description="Intelligence.")]
    perception: Annotated[int, Meta(description="Perception.")]
    charisma: Annotated[int, Meta(description="Charisma: leadership, hiring, Charisma rolls.")]


# The values printed on a Character Card, as the group records the card and as a Pirate recruited from it carries them.
PrintedAttributes = Annotated[Attributes, Meta(description="The attributes printed on the card.")]
ActionPoints = Annotated[int, Meta(description="Action Points per round.")]
Health = Annotated[int, Meta(description="Health: Wounds the Pirate can take.")]
DestinyPoints = Annotated[int, Meta(description="The card's maximum of Destiny Points.")]
Salary = Annotated[int, Meta(description="The Salary collected at the Docks.")]

# The Gunner's printed values, for the examples of both.
GUNNER_VALUES = {
    "attributes": {
        "melee": 3,
        "ranged": 4,
        "strength": 3,
        "agility": 3,
        "intelligence": 2,
        "perception": 3,
        "charisma": 2,
    },
    "action_points": 4,
    "health": 5,
    "destiny_points": 2,
    "salary": 15,
}


class CharacterCardRecorded(Event, kw_only=True, tag="character_card.recorded", gc=False):
    """The group recorded a Character Card from its box: the values printed on it, kept to recruit its Pirate with.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: The Characters, Pirates.
    The rulebook prints no card's values, so the group types its own card once; a Pirate recruited later from that
    archetype carries the same values. Recording the same archetype again replaces the card the campaign kept.
    """

    archetype: Annotated[str, Meta(description="The Character Card's archetype (`Gunner`).")]
    classes: Annotated[list[str], Meta(description="The classes printed on the card (`Rowdy`).")]
    attributes: PrintedAttributes
    action_points: ActionPoints
    health: Health
    destiny_points: DestinyPoints
    salary: Salary
    skills: Annotated[list[str], Meta(description="The starting skills printed on the card.")] = []
    starting_gear: Annotated[list[str], Meta(description="The starting gear printed on the card.")] = []

    EXAMPLES = ({"archetype": "Gunner", "classes": ["Rowdy"], **GUNNER_VALUES},)
    APPENDED_BY = ("owner", "player")
    VIEWS = ("cards",)


__all__ = ["Attributes", "CharacterCardRecorded"]
