"""Ships and plunder: ships damaged, repaired, seized, encountered, anchored; plunder stashed, banished."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from quartermaster.events.base import Event
from quartermaster.events.pacg.cards import ShipFacts

# The ship the commander encountered, as the events of that encounter name it.
EnemyShip = Annotated[str, Meta(description="The enemy ship.")]

# ----------------------------------------------------------------------------------------------- ships


class ShipDamaged(Event, kw_only=True, tag="ship.damaged"):
    """The party's ship was dealt Structural damage.

    Rulebook: Skull & Shackles Rulebook, Structural Damage.
    The amount is after the powers that change it; `prevented` by cards discarded from hands next.
    """

    amount: Annotated[int, Meta(description="The Structural damage after the powers that change it.")]
    prevented: Annotated[int, Meta(description="How much of it cards discarded from hands prevent next.")] = 0
    wrecked: Annotated[
        bool | None, Meta(description="Whether the ship ends wrecked, as the table saw it; the fold checks it.")
    ] = None
    dealt: Annotated[
        int | None,
        Meta(
            description="The Structural damage as the card dealt it, before the party ship's own powers: given, the "
            "fold applies them (Reduce Structural damage by N) and `amount` must be what they leave."
        ),
    ] = None

    EXAMPLES = ({"amount": 2, "prevented": 0, "wrecked": True},)
    VIEWS = ("fleet", "scenario")


class ShipRepaired(Event, kw_only=True, tag="ship.repaired"):
    """The commander repaired the wrecked ship at the start of her move step.

    Rulebook: Skull & Shackles Rulebook, Wrecked Ships; Commanding and Moving Ships.
    """

    character_id: Annotated[
        str | None, Meta(description="The commander who repaired it, by id: the character whose turn it is.")
    ] = None

    EXAMPLES = ({"character_id": "lirianne"},)
    VIEWS = ("fleet",)


class ShipSeized(Event, kw_only=True, tag="ship.seized"):
    """The party seized a ship it defeated; it replaces their ship, which is banished.

    Rulebook: Skull & Shackles Rulebook, Seizing Ships.
    """

    ship: Annotated[str, Meta(description="The ship seized.")]
    ship_card: ShipFacts = None

    EXAMPLES = ({"ship": "Wormwood"},)
    VIEWS = ("fleet",)


class ShipEncountered(Event, kw_only=True, tag="ship.encountered"):
    """The commander encountered an enemy ship.

    Rulebook: Skull & Shackles Rulebook, Encountering Ships.
    Only the character commanding the party's ship encounters another ship; anyone else banishes it
    (ship.banished). The encounter ends with ship.evaded, ship.defeated, or the Structural damage of a failed check.
    """

    ship: EnemyShip
    ship_card: ShipFacts = None
    character_id: Annotated[
        str | None, Meta(description="The commander who encounters it; the character whose turn it is when left out.")
    ] = None

    EXAMPLES = ({"ship": "Shackles Pirate Ship", "character_id": "lirianne"},)
    VIEWS = ("fleet",)


class ShipEvaded(Event, kw_only=True, tag="ship.evaded"):
    """The commander evaded the enemy ship she encountered; it returns where it came from.

    Rulebook: Skull & Shackles Rulebook, Encountering Ships.
    """

    ship: EnemyShip

    EXAMPLES = ({"ship": "Shackles Pirate Ship"},)
    VIEWS = ("fleet",)


class ShipDefeated(Event, kw_only=True, tag="ship.defeated"):
    """The commander defeated the enemy ship; unless the party seizes it, it returns where it came from.

    Rulebook: Skull & Shackles Rulebook, Encountering Ships; Seizing Ships.
    If the party's ship is not wrecked, a plunder card is stashed next (plunder.stashed).
    """

    ship: EnemyShip

    EXAMPLES = ({"ship": "Shackles Pirate Ship"},)
    VIEWS = ("fleet",)


class ShipBanished(Event, kw_only=True, tag="ship.banished"):
    """A ship that a character not commanding the party's ship would have encountered was banished.

    Rulebook: Skull & Shackles Rulebook, Encountering Ships: "If you are not commanding a ship, banish any ship you
    would encounter."
    """

    ship: Annotated[str, Meta(description="The ship banished.")]
    character_id: Annotated[str, Meta(description="The character who would have encountered it.")]

    EXAMPLES = ({"ship": "Shackles Pirate Ship", "character_id": "seltyiel"},)
    VIEWS = ("fleet",)


class ShipAnchored(Event, kw_only=True, tag="ship.anchored"):
    """The party's ship dropped anchor at a location.

    Rulebook: Skull & Shackles Rulebook, Commanding and Moving Ships.
    """

    location: Annotated[str, Meta(description="Where the ship is anchored.")]

    EXAMPLES = ({"location": "Fog Bank"},)
    VIEWS = ("fleet",)


class PlunderStashed(Event, kw_only=True, tag="plunder.stashed"):
    """A face-down card of the rolled type went under the ship as plunder.

    Rulebook: Skull & Shackles Rulebook, Plunder Cards (Plunder Table: d6 1 weapon, 2 spell, 3 armor, 4 item,
    5 ally, 6 choose).
    """

    roll: Annotated[int | None, Meta(description="The d6 on the Plunder Table.")] = None
    card_type: Annotated[str | None, Meta(description="The type chosen on a 6, or the type without a roll.")] = None

    EXAMPLES = ({"roll": 2},)
    VIEWS = ("fleet", "vault")


class PlunderBanished(Event, kw_only=True, tag="plunder.banished"):
    """A plunder card went from under the ship back to the vault.

    Rulebook: Skull & Shackles Rulebook, Plunder Cards.
    """

    card_type: Annotated[str, Meta(description="The plunder card's type.")]
    card: Annotated[str | None, Meta(description="Its name, when someone looked.")] = None

    EXAMPLES = ({"card_type": "spell", "card": "Find Traps"},)
    VIEWS = ("fleet", "vault")


__all__ = [
    "PlunderBanished",
    "PlunderStashed",
    "ShipAnchored",
    "ShipBanished",
    "ShipDamaged",
    "ShipDefeated",
    "ShipEncountered",
    "ShipEvaded",
    "ShipRepaired",
    "ShipSeized",
]
