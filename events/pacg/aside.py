"""A character set aside between scenarios, her deck written down and its cards back in the box, and brought back."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from quartermaster.events.base import Event
from quartermaster.events.pacg.cards import CharacterId


class CharacterSetAside(Event, kw_only=True, tag="character.set_aside"):
    """A character was set aside: her deck was written down and its cards returned to the box until she plays again.

    Rulebook: Skull & Shackles Rulebook, Between Games ("write down the cards in the previous character's deck ... and
    return the cards to the box until you want to play that character again").
    `cards` is the list written down: every card she holds, in every one of her zones, one entry per copy.
    """

    character_id: CharacterId
    cards: Annotated[
        list[str], Meta(description="Every card she holds, by name, one entry per copy: the deck written down.")
    ]

    EXAMPLES = (
        {
            "character_id": "lirianne",
            "cards": [
                *["Blessing of the Gods"] * 4,
                "Buckler",
                "Carver",
                "Cat-o'-Nine-Tails",
                "Dagger",
                "Leather Armor",
                "Light Crossbow",
                "Lookout",
                "Master Gunner",
                "Pistol",
                "Pistol",
                "Potion of Glibness",
                "Powder Horn",
                "Rum Bottle",
                "Speed",
            ],
        },
    )
    VIEWS = ("character", "vault", "pull_list")


class CharacterBroughtBack(Event, kw_only=True, tag="character.brought_back"):
    """A character set aside came back: the cards of her deck as written down were taken out of the box again.

    Rulebook: Skull & Shackles Rulebook, Between Games.
    Copies another deck now holds stay where they are (the table logs it anyway with an override), and she rebuilds.
    """

    character_id: CharacterId

    EXAMPLES = ({"character_id": "lirianne"},)
    VIEWS = ("character", "vault", "pull_list")


__all__ = ["CharacterBroughtBack", "CharacterSetAside"]
