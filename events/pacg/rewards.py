"""Rewards: feats, roles, loot, ships and hero points."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from quartermaster.events.base import Event
from quartermaster.events.pacg.cards import CHARACTER, CharacterId, RewardOf, ShipFacts

# ----------------------------------------------------------------------------------------------- rewards


class FeatGained(Event, kw_only=True, tag="feat.gained"):
    """A character gained a skill, power or card feat and checked its box.

    Rulebook: Skull & Shackles Rulebook, Your Character: Feats.
    """

    character_id: CharacterId
    kind: Annotated[Literal["skill", "power", "card"], Meta(description="`skill`, `power` or `card`.")]
    feat: Annotated[
        str,
        Meta(
            description='The box, as "<skill, power or card type> <box label>": `Dexterity +1`, `Light Armors`, '
            "`weapon 3`."
        ),
    ]
    reward_of: RewardOf = None

    EXAMPLES = ({"character_id": "lirianne", "kind": "skill", "feat": "Dexterity +1", "reward_of": "Dangerous Waters"},)
    VIEWS = CHARACTER


class RoleChosen(Event, kw_only=True, tag="role.chosen"):
    """A character chose one side of her role card.

    Rulebook: Skull & Shackles Rulebook, Your Character: Role Cards.
    """

    character_id: CharacterId
    role: Annotated[str, Meta(description="The side chosen, by name.")]
    powers: Annotated[
        dict[str, list[str]] | None,
        Meta(description="The side's power feat boxes, when the character card does not carry them."),
    ] = None

    EXAMPLES = ({"character_id": "lirianne", "role": "Wave Rider"},)
    VIEWS = CHARACTER


class LootAwarded(Event, kw_only=True, tag="loot.awarded"):
    """A loot card, or a won plunder card, went to a character's deck or to the vault.

    Rulebook: Skull & Shackles Rulebook, Plunder Cards; After the Scenario.
    """

    card: Annotated[str, Meta(description="The card, by name.")]
    to: Annotated[str, Meta(description="The character whose deck it joins, by id, or `vault`.")]
    source: Annotated[
        Literal["vault", "plunder"],
        Meta(description="`vault` for a loot card, `plunder` for a plunder card from under the ship."),
    ] = "vault"
    reward_of: RewardOf = None

    EXAMPLES = ({"card": "Cutlass +1", "to": "seltyiel", "reward_of": "Dangerous Waters"},)
    VIEWS = ("character", "vault", "fleet")


class ShipAwarded(Event, kw_only=True, tag="ship.awarded"):
    """The party earned a ship for its fleet.

    Rulebook: Skull & Shackles Rulebook, After the Scenario.
    """

    ship: Annotated[str, Meta(description="The ship earned.")]
    ship_card: ShipFacts = None
    reward_of: RewardOf = None

    EXAMPLES = ({"ship": "Wormwood", "reward_of": "Dangerous Waters"},)
    VIEWS = ("fleet",)


class HeroPointAwarded(Event, kw_only=True, tag="hero_point.awarded"):
    """A character earned a hero point.

    Rulebook: Pathfinder Adventure Card Game Core Rules FAQ, Hero Points.
    """

    character_id: CharacterId

    EXAMPLES = ({"character_id": "alahazra"},)
    VIEWS = CHARACTER


class HeroPointSpent(Event, kw_only=True, tag="hero_point.spent"):
    """A character spent a hero point: to reroll a check, for a feat, or to return from death.

    Rulebook: Pathfinder Adventure Card Game Core Rules FAQ, Hero Points.
    """

    character_id: CharacterId
    for_: Annotated[
        Literal["reroll", "feat", "return_from_death"], Meta(description="`reroll`, `feat` or `return_from_death`.")
    ] = msgspec.field(name="for")

    EXAMPLES = ({"character_id": "alahazra", "for": "reroll"},)
    VIEWS = CHARACTER


__all__ = ["FeatGained", "HeroPointAwarded", "HeroPointSpent", "LootAwarded", "RoleChosen", "ShipAwarded"]
