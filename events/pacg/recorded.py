"""The group's own cards: a scenario card and a product's card list, typed once and kept to offer again."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from quartermaster.events.base import Event
from quartermaster.events.pacg.cards import LocationName, ProductCards

# ----------------------------------------------------------------------------------------------- the group's own cards
# The rulebooks print no scenario card and no product's card list: the group types what is on its own cards once,
# and the campaign keeps it to offer again (a replay, the next group that loads the file).


# gc=False: a folded state keeps these for as long as its campaign is followed; frozen, holding only strings,
# numbers and other such values, they can form no reference cycle, so the collector need not walk them
# (msgspec's documented condition; projections.game.StateStruct says the same of the states).
class RecordedLocation(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A location on the back of a scenario card, with the number of players printed beside it and its deck list."""

    name: LocationName
    players: Annotated[
        int, Meta(ge=1, le=6, description="The number of players printed beside it: used with this many or more.")
    ] = 1
    deck: Annotated[
        dict[str, int], Meta(description="Its deck list from the location card: how many cards of each type.")
    ] = {}


class ScenarioCardRecorded(Event, kw_only=True, tag="scenario.card_recorded", gc=False):
    """The group recorded a scenario card from its box: its villains, henchmen, and locations by number of players.

    Rulebook: Skull & Shackles Rulebook, Setting Up (Set Out the Locations; Add Villains and Henchmen).
    Recording the same scenario again replaces the card the campaign kept.
    """

    scenario: Annotated[str, Meta(description="The scenario's name as printed.")]
    adventure: Annotated[str | None, Meta(description="The adventure it belongs to, if any.")] = None
    number: Annotated[int, Meta(description="The adventure deck number (#); 0 for the base set.")] = 0
    villains: Annotated[list[str], Meta(description="Its villains, as listed on the front.")] = []
    henchmen: Annotated[list[str], Meta(description="Its henchmen, from the top of the list down.")] = []
    locations: Annotated[
        list[RecordedLocation], Meta(description="The locations on its back, each with its number of players.")
    ]
    anchored_at: Annotated[
        str | None, Meta(description="The location the ship is anchored at, when the card says so.")
    ] = None

    EXAMPLES = (
        {
            "scenario": "Dangerous Waters",
            "villains": ["Jemma Redclaw"],
            "henchmen": ["Buccaneer"],
            "locations": [
                {"name": "Cannibal Isle", "players": 1, "deck": {"monster": 1, "barrier": 1, "item": 1, "blessing": 1}},
                {"name": "Fog Bank", "players": 1, "deck": {"monster": 1, "spell": 1, "ally": 1, "blessing": 1}},
                {"name": "Raker Shoals", "players": 1, "deck": {"barrier": 1, "armor": 1, "blessing": 1}},
                {"name": "Shipwreck Graveyard", "players": 2, "deck": {"monster": 1, "weapon": 1, "item": 1}},
                {"name": "Tempest Cay", "players": 3, "deck": {"monster": 1, "weapon": 1, "blessing": 1}},
            ],
        },
    )
    APPENDED_BY = ("owner", "player")
    VIEWS = ("recorded",)


class ProductListRecorded(Event, kw_only=True, tag="product.list_recorded", gc=False):
    """The group recorded a product's card list from its box, to put into the vault once or again.

    Rulebook: Pathfinder Adventure Card Game Core Rules FAQ, the vault (the box).
    Recording the same product again replaces the list the campaign kept.
    """

    product: Annotated[str, Meta(description="The product's letter or number (B, C, 1).")]
    name: Annotated[str, Meta(description="The product's name as printed on its box.")] = ""
    cards: ProductCards

    EXAMPLES = (
        {
            "product": "P",
            "name": "Promotional cards",
            "cards": [{"name": "Blessing of Besmara", "type": "blessing", "count": 1, "traits": ["Basic"]}],
        },
    )
    APPENDED_BY = ("owner", "player")
    VIEWS = ("recorded",)


__all__ = ["ProductListRecorded", "RecordedLocation", "ScenarioCardRecorded"]
