"""Pirates and their Record Sheets: recruits, Fame, Wounds, Destiny, Unconscious and revived, Curses, items, Port
services, Time Units, the masters' Approval."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from quartermaster.events.base import Event
from quartermaster.events.skull_tales.cards import (
    GUNNER_VALUES,
    ActionPoints,
    DestinyPoints,
    Health,
    PrintedAttributes,
    Salary,
)

Hand = Literal["left", "right"]

Master = Literal["Grace Jennings", "Maggie", "Marie Laveau", "Jerôme Feuilet", "Francisco Carranza", "Gerrit Jensen"]

PortService = Literal["charity", "rest", "luxury_treatment"]

Penance = Literal["greedy", "wroth", "prideful"]


# The Pirate an event is about, and the table's reason for it, as most events of the crew name them.
PirateId = Annotated[str, Meta(description="The Pirate, by id.")]
Reason = Annotated[str, Meta(description="Why, in the table's words.")]
# The Pirate who hands Coins or an item to another.
Giver = Annotated[str, Meta(description="The Pirate who gives, by id.")]
# An amount of Coins paid, brought or an item is worth, never below 0; each field says which.
Coins = Annotated[int, msgspec.Meta(ge=0)]
# What something costs in Coins (an upgrade, a Group of Pirates, a Feat).
CostInCoins = Annotated[int, Meta(description="Its cost in Coins.")]
# What an Assignment or a Rumor pays in Coins and gives in Fame (negative: what it costs).
RewardCoins = Annotated[int, Meta(description="Coins it pays (or costs).")]
RewardFame = Annotated[int, Meta(description="Fame it gives (or costs).")]
# Whose Coins pay: the Pirate's own, or the Crew's Booty.
PaidFrom = Annotated[Literal["personal", "crew_booty"], Meta(description="`personal` or `crew_booty`.")]


class PirateRecruited(Event, kw_only=True, tag="pirate.recruited"):
    """A Pirate joined the crew: a player took a Character Card and a Record Sheet, or a new Pirate replaced a
    retired one.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: The Characters, Pirates; Permanent Injuries and Retirement, Character Retirement.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate's id in this campaign (`anne`).")]
    name: Annotated[str, Meta(description="The Pirate's name.")]
    archetype: Annotated[str, Meta(description="The Character Card's archetype (`Captain's Daughter`).")]
    player: Annotated[str, Meta(description="Who plays the Pirate.")] = ""
    classes: Annotated[list[str], Meta(description="The Pirate's classes (`Duelist`), which price skills.")]
    dominant_hand: Annotated[Hand, Meta(description="`left` or `right`.")] = "right"
    attributes: PrintedAttributes
    action_points: ActionPoints
    health: Health
    destiny_points: DestinyPoints
    salary: Salary
    skills: Annotated[list[str], Meta(description="Starting skills: they never use Special Skill capacity.")] = []
    starting_gear: Annotated[list[str], Meta(description="Starting gear, which is never lost or sold.")] = []
    special_skill_capacity: Annotated[
        int | None, Meta(description="The Fame Dial's printed Special Skill capacity; none takes the campaign option.")
    ] = None
    campaigns_completed: Annotated[int, Meta(description="Campaigns this Pirate already completed.")] = 0
    replaces: Annotated[str | None, Meta(description="The retired Pirate this one replaces, by id.")] = None

    EXAMPLES = (
        {
            "pirate_id": "ned",
            "name": "Ned",
            "archetype": "Gunner",
            "player": "joe",
            "classes": ["Rowdy"],
            **GUNNER_VALUES,
        },
    )
    VIEWS = ("pirates", "pirate", "turn")


class FameChanged(Event, kw_only=True, tag="fame.changed"):
    """A Pirate gained or lost Fame outside the costs the fold computes itself: Enemies, Goals, Search cards,
    Events.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Adventure Phase, End of the Adventure.
    Fame gained during a phase is at risk until the phase ends.
    """

    pirate_id: PirateId
    amount: Annotated[int, Meta(description="Fame gained (negative: lost).")]
    source: Annotated[str, Meta(description="Where it came from: `enemy`, `goal`, `search_card`, `event`...")]

    EXAMPLES = ({"pirate_id": "anne", "amount": 6, "source": "enemy"},)
    VIEWS = ("pirates", "pirate", "turn")


class WoundsChanged(Event, kw_only=True, tag="wounds.changed"):
    """A Pirate suffered Wounds, or recovered from them.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Adventure Phase, Suffering Wounds; Wounds and Revival.
    """

    pirate_id: PirateId
    amount: Annotated[int, Meta(description="Wounds suffered (negative: recovered).")]
    reason: Reason = ""

    EXAMPLES = ({"pirate_id": "mary", "amount": 2, "reason": "a Cannibal's attack"},)
    VIEWS = ("pirates", "pirate", "turn")


class DestinyChanged(Event, kw_only=True, tag="destiny.changed"):
    """A Pirate gained or spent Destiny Points; spent with `plus_one`, each die of the next roll gets +1.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: The Characters, Pirates (Destiny Points); Dice Rolls.
    """

    pirate_id: PirateId
    amount: Annotated[int, Meta(description="Destiny Points gained (negative: spent).")]
    reason: Reason = ""
    plus_one: Annotated[bool, Meta(description="Spent for +1 to each die of the Pirate's next roll.")] = False

    EXAMPLES = ({"pirate_id": "anne", "amount": -1, "plus_one": True, "reason": "Revive"},)
    VIEWS = ("pirates", "pirate", "turn")


class PirateUnconscious(Event, kw_only=True, tag="pirate.unconscious"):
    """A Pirate fell Unconscious; what it costs depends on the phase.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Character and Enemy States, Unconscious; Book II: Port Phase, Important Concepts; Book III: Voyage
    Phase, Unconscious / Incapacitated.
    """

    pirate_id: PirateId
    lost_item: Annotated[
        str | None, Meta(description="Adventure: the random non-starting Gear card or Legendary item lost.")
    ] = None
    roll: Annotated[
        int | None, Meta(description="Admiral Port setting: the die; an even roll ends the Port Phase for the Pirate.")
    ] = None

    EXAMPLES = ({"pirate_id": "mary"},)
    VIEWS = ("pirates", "pirate", "turn")


class PirateRevived(Event, kw_only=True, tag="pirate.revived"):
    """An Unconscious Pirate was revived, or left the «Sickbay» in a Voyage; a reviver gains 1 Destiny Point.

    Out of the «Sickbay» before the Voyage ends, the Pirate is not Unconscious when it ends and keeps all their Fame;
    there the Character whose 'Assist' succeeded gains 1 Trust Point (the Captain none) rather than a Destiny Point.
    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Character Actions, Revive; Book III: Voyage Phase, Voyage
    Posts/Stations (Sickbay).
    """

    pirate_id: Annotated[str, Meta(description="The Pirate revived, by id.")]
    reviver_id: Annotated[
        str | None,
        Meta(description="The Pirate who revived them (or, in a Voyage, made the successful 'Assist'), by id."),
    ] = None
    single_wound: Annotated[
        bool,
        Meta(
            description="Voyage: left the «Sickbay» on a successful Intelligence 4 roll, which discards a single "
            "Wound; a Revive or an 'Assist' discards them all."
        ),
    ] = False

    EXAMPLES = ({"pirate_id": "mary", "reviver_id": "anne"},)
    VIEWS = ("pirates", "pirate", "turn")


class CurseGained(Event, kw_only=True, tag="curse.gained"):
    """A Pirate was Cursed.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Character and Enemy States, Cursed.
    """

    pirate_id: PirateId

    EXAMPLES = ({"pirate_id": "mary"},)
    VIEWS = ("pirates", "pirate", "turn")


class PenanceChosen(Event, kw_only=True, tag="penance.chosen"):
    """A Cursed Pirate took a penance at the Chapel (Atonement): 1 Time Unit and its Coins (Greedy 40, Wroth 20,
    Prideful 30).

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Saint Telmo's Chapel (Atonement).
    """

    pirate_id: PirateId
    penance: Annotated[Penance, Meta(description="`greedy`, `wroth` or `prideful`.")]

    EXAMPLES = ({"pirate_id": "mary", "penance": "wroth"},)
    VIEWS = ("pirates", "pirate", "ledger", "turn")


class CurseRemoved(Event, kw_only=True, tag="curse.removed"):
    """A Pirate's Curse was lifted: Atonement fulfilled at the Chapel in a later Port, or a Purge.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Saint Telmo's Chapel (Atonement); Feats, Classes and Skills (Purge).
    A Purge is logged as `purge.used`, which carries its Charisma die; `by: "purge"` here still replays campaigns
    recorded before, read as a successful Purge whose die was not logged.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate freed, by id.")]
    by: Annotated[Literal["atonement", "purge"], Meta(description="`atonement` or `purge`.")]
    purger_id: Annotated[str | None, Meta(description="For a Purge, the Pirate who used it (+3 Fame).")] = None

    EXAMPLES = ({"pirate_id": "mary", "by": "atonement"},)
    VIEWS = ("pirates", "pirate", "turn")


class PurgeUsed(Event, kw_only=True, tag="purge.used"):
    """A Pirate used Purge (a Charisma 5 roll, once per Voyage Phase); on a success a Cursed Character loses the
    Curse and the user gains 3 Fame.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Feats, Classes and Skills (Purge); Book I: Dice Rolls, Charisma rolls.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate who uses Purge, by id.")]
    roll: Annotated[int, Meta(description="The Charisma die.")]
    cursed_id: Annotated[str | None, Meta(description="The Cursed Pirate freed on a success, by id.")] = None

    EXAMPLES = ({"pirate_id": "anne", "roll": 4, "cursed_id": "mary"},)
    VIEWS = ("pirates", "pirate", "turn")


class ItemGained(Event, kw_only=True, tag="item.gained"):
    """A Pirate writes a non-starting Gear card, Legendary item or Item token on their Record Sheet.

    Room for starting gear plus 3 items, Rum and Brew taking half a space; what the item is worth is kept, so that
    Haggle can sell it later for half (what was paid for it, else its card's price).
    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Adventure Phase, Cards; Book II: Locations, Market Square.
    """

    pirate_id: Annotated[str, msgspec.Meta(description="The Pirate whose Record Sheet lists the item.")]
    item: Annotated[str, msgspec.Meta(description="The card or token's name.")]
    kind: Annotated[
        Literal["gear", "legendary", "item_token"],
        msgspec.Meta(description="A Gear card, one of the 5 Legendary items, or an Item Goal token."),
    ] = "gear"
    half_space: Annotated[bool, msgspec.Meta(description="Rum and Brew cards take half a space.")] = False
    equipped: Annotated[bool, msgspec.Meta(description="Gear with the Equipped icon takes no space.")] = False
    price: Annotated[
        Coins,
        msgspec.Meta(
            description="The card's Coins cost when bought in Port; 0 when found or given. The fold adds what the "
            "rules add (the Black Market's half, a setting's 5) and halves it for a Grifter."
        ),
    ] = 0
    black_market: Annotated[
        bool,
        msgspec.Meta(
            description="Bought from the Black Market ('Search for Equipment'): its cost plus half, rounded up "
            "(Book II: Locations, Market Square)."
        ),
    ] = False
    value: (
        Annotated[
            Coins,
            msgspec.Meta(
                description="The card's printed Coins cost, for an item not bought (found, looted, given); what "
                "Haggle sells it for half of. A bought item is worth what was paid."
            ),
        ]
        | None
    ) = None

    VIEWS = ("pirates", "pirate", "ledger", "turn")
    EXAMPLES = (
        {"pirate_id": "anne", "item": "Cutlass", "value": 20},
        {"pirate_id": "mary", "item": "Rum", "half_space": True, "price": 5},
    )


class ItemLost(Event, kw_only=True, tag="item.lost"):
    """A Pirate's item leaves the Record Sheet: lost, discarded, or sold at the Market Square with Haggle.

    Haggle sells non-starting Gear for half its value, rounded up: the fold computes the Coins from what the item
    is worth (what was paid for it, else its card's price). `sold_for` replays logs written before it did.
    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Market Square (Haggle); Book I: How to start.
    """

    pirate_id: Annotated[str, msgspec.Meta(description="The Pirate who loses the item.")]
    item: Annotated[str, msgspec.Meta(description="The card or token's name, as the Record Sheet lists it.")]
    sold_for: Annotated[
        Coins, msgspec.Meta(description="Coins a sale brought, as logs written before `haggled` recorded them.")
    ] = 0
    haggled: Annotated[
        bool, msgspec.Meta(description="Sold at the Market Square with Haggle, for half its value rounded up.")
    ] = False
    value: (
        Annotated[
            Coins,
            msgspec.Meta(
                description="The card's printed Coins cost, when the Record Sheet does not know what the item is "
                "worth (an item gained before values were kept)."
            ),
        ]
        | None
    ) = None

    VIEWS = ("pirates", "pirate", "ledger", "turn")
    EXAMPLES = ({"pirate_id": "anne", "item": "Cutlass", "haggled": True}, {"pirate_id": "mary", "item": "Rum"})


class ItemGiven(Event, kw_only=True, tag="item.given"):
    """A Pirate gave an item to another Pirate.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Honor among thieves.
    """

    from_pirate: Giver
    to_pirate: Annotated[str, Meta(description="The Pirate who receives, by id.")]
    item: Annotated[str, Meta(description="The item, as the Record Sheet lists it.")]

    EXAMPLES = ({"from_pirate": "anne", "to_pirate": "mary", "item": "Cutlass"},)
    VIEWS = ("pirates", "pirate", "turn")


class PortServiceBought(Event, kw_only=True, tag="port.service_bought"):
    """A Pirate took a Port service: Charity at the Chapel (2 Coins), Rest at the Docks (the Captain, free) or a
    Luxury Treatment at the Manor (10 Coins).

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Saint Telmo's Chapel; Docks; Madame Claude's Manor.
    """

    pirate_id: PirateId
    service: Annotated[PortService, Meta(description="`charity`, `rest` or `luxury_treatment`.")]
    wounds: Annotated[int, Meta(description="Wounds recovered.")] = 0
    destiny: Annotated[
        int, Meta(description="Destiny Points affected (their direction follows the campaign option).")
    ] = 0
    times: Annotated[int, Meta(description="How many times: Rest at the Docks repeats, 1 Time Unit each.")] = 1

    EXAMPLES = ({"pirate_id": "mary", "service": "charity", "destiny": 1},)
    VIEWS = ("pirates", "pirate", "ledger", "turn")


class ManorEntered(Event, kw_only=True, tag="manor.entered"):
    """A Pirate entered Madame Claude's Manor.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Madame Claude's Manor.
    """

    pirate_id: PirateId

    EXAMPLES = ({"pirate_id": "anne"},)
    VIEWS = ("pirates", "pirate", "ledger", "turn")


class TimeSpent(Event, kw_only=True, tag="time.spent"):
    """A Pirate spent Port Time Units moving, or on an action the fold does not price itself.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Port Phase, Important Concepts (Time Units).
    """

    pirate_id: PirateId
    amount: Annotated[int, Meta(description="Time Units spent.")]
    purpose: Annotated[str, Meta(description="What for: `move` or the action.")] = "move"

    EXAMPLES = ({"pirate_id": "jack", "amount": 2, "purpose": "move"},)
    VIEWS = ("pirates", "pirate", "turn")


class ApprovalGiven(Event, kw_only=True, tag="approval.given"):
    """A master gave a Pirate their Approval or Disapproval, until the end of the Port Phase unless permanent.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Port Phase, Important Concepts (Approval and Disapproval).
    """

    pirate_id: PirateId
    master: Annotated[Master, Meta(description="The master.")]
    kind: Annotated[Literal["approval", "disapproval"], Meta(description="`approval` or `disapproval`.")]
    permanent: Annotated[bool, Meta(description="Whether it lasts beyond this Port Phase.")] = False

    EXAMPLES = ({"pirate_id": "mary", "master": "Maggie", "kind": "approval"},)
    VIEWS = ("pirates", "pirate", "turn")


class CampaignCompleted(Event, kw_only=True, tag="campaign.completed"):
    """The crew finished a campaign; the Fame Feat counts them.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Feats, Classes and Skills, Feats.
    """

    campaign: Annotated[str, Meta(description="The campaign completed.")] = "Shadows of the Caribbean"

    EXAMPLES = ({"campaign": "Shadows of the Caribbean"},)
    VIEWS = ("pirates", "pirate", "turn")


__all__ = [
    "ApprovalGiven",
    "CampaignCompleted",
    "CurseGained",
    "CurseRemoved",
    "DestinyChanged",
    "FameChanged",
    "Hand",
    "ItemGained",
    "ItemGiven",
    "ItemLost",
    "ManorEntered",
    "Master",
    "Penance",
    "PenanceChosen",
    "PirateRecruited",
    "PirateRevived",
    "PirateUnconscious",
    "PortService",
    "PortServiceBought",
    "PurgeUsed",
    "TimeSpent",
    "WoundsChanged",
]
