"""Skull Tales: Full Sail! events: what happens to the pirates, their ship and their booty.

Events that name a catalogue thing (a skill, a feat, a ship type, an upgrade, a goods type, an injury roll, an
archetype) carry the facts the fold needs, filled in by `service/catalog/skull_tales.py` before recording, so a
recorded campaign replays without the catalogue. Each docstring names the rulebook section it follows.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec
from msgspec import Meta

from events.base import Event

Phase = Literal["port", "voyage", "adventure"]
Hand = Literal["left", "right"]
Degree = Literal["total_success", "partial_success", "failure"]
Outcome = Literal["success", "failure", "repeat"]
Master = Literal["Grace Jennings", "Maggie", "Marie Laveau", "Jerôme Feuilet", "Francisco Carranza", "Gerrit Jensen"]
Prosthesis = Literal["hook", "eye_patch", "peg_leg"]
PortService = Literal["charity", "rest", "luxury_treatment"]
Lender = Literal["manor", "market", "ship"]
Penance = Literal["greedy", "wroth", "prideful"]


class Attributes(msgspec.Struct, frozen=True, kw_only=True):
    """The seven attributes printed on a Character Card."""

    melee: Annotated[int, Meta(description="Melee: hand-to-hand combat.")]
    ranged: Annotated[int, Meta(description="Ranged: firearms and thrown weapons.")]
    strength: Annotated[int, Meta(description="Strength.")]
    agility: Annotated[int, Meta(description="Agility.")]
    intelligence: Annotated[int, Meta(description="Intelligence.")]
    perception: Annotated[int, Meta(description="Perception.")]
    charisma: Annotated[int, Meta(description="Charisma: leadership, hiring, Charisma rolls.")]


# --- pirates and record sheets ---------------------------------------------------------------------------------


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
    attributes: Annotated[Attributes, Meta(description="The attributes printed on the card.")]
    action_points: Annotated[int, Meta(description="Action Points per round.")]
    health: Annotated[int, Meta(description="Health: Wounds the Pirate can take.")]
    destiny_points: Annotated[int, Meta(description="The card's maximum of Destiny Points.")]
    salary: Annotated[int, Meta(description="The Salary collected at the Docks.")]
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
        },
    )
    VIEWS = ("pirates", "pirate")


class FameChanged(Event, kw_only=True, tag="fame.changed"):
    """A Pirate gained or lost Fame outside the costs the fold computes itself: Enemies, Goals, Search cards,
    Events.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Adventure Phase, End of the Adventure.
    Fame gained during a phase is at risk until the phase ends.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    amount: Annotated[int, Meta(description="Fame gained (negative: lost).")]
    source: Annotated[str, Meta(description="Where it came from: `enemy`, `goal`, `search_card`, `event`...")]

    EXAMPLES = ({"pirate_id": "anne", "amount": 6, "source": "enemy"},)
    VIEWS = ("pirates", "pirate")


class CoinsChanged(Event, kw_only=True, tag="coins.changed"):
    """A Pirate or an Ally found or lost Coins: a Search card, a Goal, a Fallen Enemy token, an Event, a Rumor,
    gambling, a purchase.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Adventure Phase, End of the Adventure; Book II: Port Phase, Important Concepts.
    `source` names where they came from (or went): it must be one the rules know.
    """

    pirate_id: Annotated[str | None, Meta(description="The Pirate, by id.")] = None
    ally_id: Annotated[str | None, Meta(description="Or the Ally, by id (half go to the hirer).")] = None
    amount: Annotated[int, Meta(description="Coins gained (negative: lost).")]
    source: Annotated[
        str,
        Meta(description="Where they came from or went: `search_card`, `goal`, `fallen_enemy`, `event`, `rumor`..."),
    ]

    EXAMPLES = ({"pirate_id": "anne", "amount": 10, "source": "search_card"},)
    VIEWS = ("pirates", "pirate", "ledger")


class CoinsGiven(Event, kw_only=True, tag="coins.given"):
    """A Pirate handed Coins to another Pirate, or donated them to the Crew's Booty.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Honor among thieves; Book II: Port Phase, Important Concepts.
    """

    from_pirate: Annotated[str, Meta(description="The Pirate who gives, by id.")]
    to: Annotated[str, Meta(description="The Pirate who receives, by id, or `crew_booty`.")]
    amount: Annotated[int, Meta(description="How many Coins.")]

    EXAMPLES = ({"from_pirate": "mary", "to": "crew_booty", "amount": 5},)
    VIEWS = ("pirates", "pirate", "ship", "ledger")


class WoundsChanged(Event, kw_only=True, tag="wounds.changed"):
    """A Pirate suffered Wounds, or recovered from them.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Adventure Phase, Suffering Wounds; Wounds and Revival.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    amount: Annotated[int, Meta(description="Wounds suffered (negative: recovered).")]
    reason: Annotated[str, Meta(description="Why, in the table's words.")] = ""

    EXAMPLES = ({"pirate_id": "mary", "amount": 2, "reason": "a Cannibal's attack"},)
    VIEWS = ("pirates", "pirate")


class DestinyChanged(Event, kw_only=True, tag="destiny.changed"):
    """A Pirate gained or spent Destiny Points; spent with `plus_one`, each die of the next roll gets +1.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: The Characters, Pirates (Destiny Points); Dice Rolls.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    amount: Annotated[int, Meta(description="Destiny Points gained (negative: spent).")]
    reason: Annotated[str, Meta(description="Why, in the table's words.")] = ""
    plus_one: Annotated[bool, Meta(description="Spent for +1 to each die of the Pirate's next roll.")] = False

    EXAMPLES = ({"pirate_id": "anne", "amount": -1, "plus_one": True, "reason": "Revive"},)
    VIEWS = ("pirates", "pirate")


class PirateUnconscious(Event, kw_only=True, tag="pirate.unconscious"):
    """A Pirate fell Unconscious; what it costs depends on the phase.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Character and Enemy States, Unconscious; Book II: Port Phase, Important Concepts; Book III: Voyage
    Phase, Unconscious / Incapacitated.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    lost_item: Annotated[
        str | None, Meta(description="Adventure: the random non-starting Gear card or Legendary item lost.")
    ] = None
    roll: Annotated[
        int | None, Meta(description="Admiral Port setting: the die; an even roll ends the Port Phase for the Pirate.")
    ] = None

    EXAMPLES = ({"pirate_id": "mary"},)
    VIEWS = ("pirates", "pirate")


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
    VIEWS = ("pirates", "pirate")


class InjurySuffered(Event, kw_only=True, tag="injury.suffered"):
    """A failed Revive left a Pirate with a Permanent Injury, rolled on the chart.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Permanent Injuries and Retirement, Permanent Injury Chart.
    Send `pirate_id` and `roll`: the chart's facts come from the catalogue.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    roll: Annotated[int, Meta(description="The die rolled on the Permanent Injury Chart.")]
    injury: Annotated[str, Meta(description="The injury (`Left eye`).")]
    pair: Annotated[str, Meta(description="The pair it belongs to: `eyes`, `hands` or `legs`.")]
    hand: Annotated[Hand | None, Meta(description="For a lost hand, which one.")] = None
    attribute_changes: Annotated[dict[str, int], Meta(description="Attribute changes, by attribute.")] = {}
    movement: Annotated[int, Meta(description="The change to movement.")] = 0

    EXAMPLES = ({"pirate_id": "mary", "roll": 4},)
    VIEWS = ("pirates", "pirate")


class PirateRetired(Event, kw_only=True, tag="pirate.retired"):
    """A Pirate left the campaign: both of a pair lost, or the Legendary Pirate Feat.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Permanent Injuries and Retirement, Character Retirement.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    reason: Annotated[
        Literal["injury", "legendary_pirate"], Meta(description="`injury` (a lost pair) or `legendary_pirate`.")
    ] = "injury"

    EXAMPLES = ({"pirate_id": "jack", "reason": "injury"},)
    VIEWS = ("pirates", "pirate", "ship")


class MatelotageDone(Event, kw_only=True, tag="matelotage.done"):
    """A retired Pirate gave the new one half their Coins and one non-starting item.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Permanent Injuries and Retirement, Character Retirement (Matelotage).
    """

    retired_id: Annotated[str, Meta(description="The retired Pirate, by id.")]
    new_id: Annotated[str, Meta(description="The Pirate who replaces them, by id.")]
    coins: Annotated[int, Meta(description="The Coins handed over: half the retired Pirate's.")]
    item: Annotated[str | None, Meta(description="The non-starting item handed over.")] = None
    free_skill: Annotated[
        str | None, Meta(description="Legendary Pirate: a skill of the retired Pirate the new one learns for free.")
    ] = None

    EXAMPLES = ({"retired_id": "jack", "new_id": "ned", "coins": 28},)
    VIEWS = ("pirates", "pirate", "ledger")


class ProsthesisBought(Event, kw_only=True, tag="prosthesis.bought"):
    """A Pirate bought a Hook, an Eye patch or a Peg leg: 1 Time Unit and 10 Coins.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Market Square.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    prosthesis: Annotated[Prosthesis, Meta(description="`hook`, `eye_patch` or `peg_leg`.")]

    EXAMPLES = ({"pirate_id": "mary", "prosthesis": "hook"},)
    VIEWS = ("pirates", "pirate", "ledger")


class CurseGained(Event, kw_only=True, tag="curse.gained"):
    """A Pirate was Cursed.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Character and Enemy States, Cursed.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]

    EXAMPLES = ({"pirate_id": "mary"},)
    VIEWS = ("pirates", "pirate")


class PenanceChosen(Event, kw_only=True, tag="penance.chosen"):
    """A Cursed Pirate took a penance at the Chapel (Atonement): 1 Time Unit and its Coins (Greedy 40, Wroth 20,
    Prideful 30).

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Saint Telmo's Chapel (Atonement).
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    penance: Annotated[Penance, Meta(description="`greedy`, `wroth` or `prideful`.")]

    EXAMPLES = ({"pirate_id": "mary", "penance": "wroth"},)
    VIEWS = ("pirates", "pirate", "ledger")


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
    VIEWS = ("pirates", "pirate")


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
        int,
        msgspec.Meta(
            ge=0,
            description="The card's Coins cost when bought in Port; 0 when found or given. The fold adds what the "
            "rules add (the Black Market's half, a setting's 5) and halves it for a Grifter.",
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
            int,
            msgspec.Meta(
                ge=0,
                description="The card's printed Coins cost, for an item not bought (found, looted, given); what "
                "Haggle sells it for half of. A bought item is worth what was paid.",
            ),
        ]
        | None
    ) = None

    VIEWS: ClassVar[tuple[str, ...]] = ("pirates", "pirate", "ledger")
    EXAMPLES: ClassVar[tuple[dict[str, Any], ...]] = (
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
        int, msgspec.Meta(ge=0, description="Coins a sale brought, as logs written before `haggled` recorded them.")
    ] = 0
    haggled: Annotated[
        bool, msgspec.Meta(description="Sold at the Market Square with Haggle, for half its value rounded up.")
    ] = False
    value: (
        Annotated[
            int,
            msgspec.Meta(
                ge=0,
                description="The card's printed Coins cost, when the Record Sheet does not know what the item is "
                "worth (an item gained before values were kept).",
            ),
        ]
        | None
    ) = None

    VIEWS: ClassVar[tuple[str, ...]] = ("pirates", "pirate", "ledger")
    EXAMPLES: ClassVar[tuple[dict[str, Any], ...]] = (
        {"pirate_id": "anne", "item": "Cutlass", "haggled": True},
        {"pirate_id": "mary", "item": "Rum"},
    )


class ItemGiven(Event, kw_only=True, tag="item.given"):
    """A Pirate gave an item to another Pirate.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Honor among thieves.
    """

    from_pirate: Annotated[str, Meta(description="The Pirate who gives, by id.")]
    to_pirate: Annotated[str, Meta(description="The Pirate who receives, by id.")]
    item: Annotated[str, Meta(description="The item, as the Record Sheet lists it.")]

    EXAMPLES = ({"from_pirate": "anne", "to_pirate": "mary", "item": "Cutlass"},)
    VIEWS = ("pirates", "pirate")


class PortServiceBought(Event, kw_only=True, tag="port.service_bought"):
    """A Pirate took a Port service: Charity at the Chapel (2 Coins), Rest at the Docks (the Captain, free) or a
    Luxury Treatment at the Manor (10 Coins).

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Saint Telmo's Chapel; Docks; Madame Claude's Manor.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    service: Annotated[PortService, Meta(description="`charity`, `rest` or `luxury_treatment`.")]
    wounds: Annotated[int, Meta(description="Wounds recovered.")] = 0
    destiny: Annotated[
        int, Meta(description="Destiny Points affected (their direction follows the campaign option).")
    ] = 0
    times: Annotated[int, Meta(description="How many times: Rest at the Docks repeats, 1 Time Unit each.")] = 1

    EXAMPLES = ({"pirate_id": "mary", "service": "charity", "destiny": 1},)
    VIEWS = ("pirates", "pirate", "ledger")


class ManorEntered(Event, kw_only=True, tag="manor.entered"):
    """A Pirate entered Madame Claude's Manor.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Madame Claude's Manor.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]

    EXAMPLES = ({"pirate_id": "anne"},)
    VIEWS = ("pirates", "pirate", "ledger")


class TimeSpent(Event, kw_only=True, tag="time.spent"):
    """A Pirate spent Port Time Units moving, or on an action the fold does not price itself.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Port Phase, Important Concepts (Time Units).
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    amount: Annotated[int, Meta(description="Time Units spent.")]
    purpose: Annotated[str, Meta(description="What for: `move` or the action.")] = "move"

    EXAMPLES = ({"pirate_id": "jack", "amount": 2, "purpose": "move"},)
    VIEWS = ("pirates", "pirate")


class ApprovalGiven(Event, kw_only=True, tag="approval.given"):
    """A master gave a Pirate their Approval or Disapproval, until the end of the Port Phase unless permanent.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Port Phase, Important Concepts (Approval and Disapproval).
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    master: Annotated[Master, Meta(description="The master.")]
    kind: Annotated[Literal["approval", "disapproval"], Meta(description="`approval` or `disapproval`.")]
    permanent: Annotated[bool, Meta(description="Whether it lasts beyond this Port Phase.")] = False

    EXAMPLES = ({"pirate_id": "mary", "master": "Maggie", "kind": "approval"},)
    VIEWS = ("pirates", "pirate")


class CampaignCompleted(Event, kw_only=True, tag="campaign.completed"):
    """The crew finished a campaign; the Fame Feat counts them.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Feats, Classes and Skills, Feats.
    """

    campaign: Annotated[str, Meta(description="The campaign completed.")] = "Shadows of the Caribbean"

    EXAMPLES = ({"campaign": "Shadows of the Caribbean"},)
    VIEWS = ("pirates", "pirate")


# --- skills and feats ---------------------------------------------------------------------------------------------


class SkillPrerequisites(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a Pirate needs before learning a skill."""

    attributes: Annotated[dict[str, int], Meta(description="Minimum attributes, by attribute.")] = {}
    skills: Annotated[list[str], Meta(description="Skills the Pirate must already know.")] = []
    special_skill_capacity: Annotated[int, Meta(description="Special Skill capacity needed.")] = 0
    not_captain: Annotated[bool, Meta(description="Not for the Captain.")] = False
    starting_only: Annotated[bool, Meta(description="Only as a starting skill.")] = False


class SkillLearned(Event, kw_only=True, tag="skill.learned"):
    """A Pirate learned a skill from its master in Port, for 7 Time Units and the Coins and Fame the fold computes.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Feats, Classes and Skills, Coins; Skill Cost.
    Send `pirate_id`, `skill` and, when a crew member already knows it, `master_id`: the rest comes from the
    catalogue.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate who learns, by id.")]
    skill: Annotated[str, Meta(description="The skill.")]
    skill_class: Annotated[str, Meta(description="The skill's class.")]
    teacher: Annotated[str, Meta(description="The master who teaches it.")]
    coins: Annotated[int, Meta(description="X: the single-class Coins of the skill's tier.")]
    fame: Annotated[int, Meta(description="X: the single-class Fame of the skill's tier.")]
    special: Annotated[bool, Meta(description="A Special Skill, which uses Special Skill capacity.")] = False
    voyage: Annotated[bool, Meta(description="A skill used in the Voyage Phase.")] = False
    unique: Annotated[bool, Meta(description="Only one Character may have it (Bosun, Constable).")] = False
    prerequisites: Annotated[SkillPrerequisites, Meta(description="What the Pirate needs first.")] = (
        SkillPrerequisites()
    )
    synergy: Annotated[list[str], Meta(description="Skills that take 10 Coins off the price.")] = []
    effects: Annotated[
        dict[str, int], Meta(description="Permanent changes: `charisma`, `action_points`, `destiny_points`, `salary`.")
    ] = {}
    master_id: Annotated[
        str | None, Meta(description="The crew member who already knew it (-15 Coins, -10 Fame; +5 Fame to them).")
    ] = None
    free: Annotated[
        bool, Meta(description="Learned through a game effect (Legendary Pirate's free skill): no Coins, Fame or Time.")
    ] = False

    EXAMPLES = ({"pirate_id": "mary", "skill": "Fencing", "master_id": "anne"},)
    VIEWS = ("pirates", "pirate", "ledger")


class FeatGained(Event, kw_only=True, tag="feat.gained"):
    """A Pirate bought a Feat in Port, anywhere and for no Time Units.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Feats, Classes and Skills, Feats.
    Send `pirate_id` and `feat`: the cost and prerequisites come from the catalogue.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    feat: Annotated[str, Meta(description="The Feat.")]
    coins: Annotated[int, Meta(description="Its cost in Coins.")]
    fame: Annotated[int, Meta(description="Its cost in Fame.")]
    requires: Annotated[
        dict[str, int],
        Meta(description="Counters and their minimum (`adventures_total_success`, `campaigns_completed`...)."),
    ] = {}

    EXAMPLES = ({"pirate_id": "anne", "feat": "Bravery"},)
    VIEWS = ("pirates", "pirate", "ledger")


class AssignmentTaken(Event, kw_only=True, tag="assignment.taken"):
    """The Captain drew an Assignment at the Docks (1 Time Unit); one is active at a time.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks.
    """

    pirate_id: Annotated[str, Meta(description="The Captain, by id.")]
    assignment: Annotated[str, Meta(description="The Assignment card.")]

    EXAMPLES = ({"pirate_id": "anne", "assignment": "Escort the Governor's Daughter"},)
    VIEWS = ("pirates", "pirate", "ship")


class AssignmentResolved(Event, kw_only=True, tag="assignment.resolved"):
    """An Assignment was resolved at Port setup; its results go to whoever was Captain when it was completed.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Port Phase, Setup.
    """

    pirate_id: Annotated[str, Meta(description="The Captain at completion, by id.")]
    success: Annotated[bool, Meta(description="Whether the Assignment was completed.")]
    coins: Annotated[int, Meta(description="Coins it pays (or costs).")] = 0
    fame: Annotated[int, Meta(description="Fame it gives (or costs).")] = 0
    coins_to: Annotated[
        Literal["personal", "crew_booty"], Meta(description="`crew_booty` or the Captain's `personal` booty.")
    ] = "crew_booty"

    EXAMPLES = ({"pirate_id": "anne", "success": True, "coins": 50, "fame": 10},)
    VIEWS = ("pirates", "pirate", "ship", "ledger")


# --- allies -------------------------------------------------------------------------------------------------------


class AllyHired(Event, kw_only=True, tag="ally.hired"):
    """A Pirate hired an Ally at the Tavern: 3 Time Units, its Salary and Fame cost, +3 Coins and +3 Fame per
    point of Charisma above the hirer's.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Tavern; Book I: The Characters, Allies.
    """

    pirate_id: Annotated[str, Meta(description="The hirer, by id.")]
    ally_id: Annotated[str, Meta(description="The Ally's id in this campaign.")]
    archetype: Annotated[str, Meta(description="The Ally's archetype (`Bosun`).")]
    charisma: Annotated[int, Meta(description="The Ally's Charisma.")]
    salary: Annotated[int, Meta(description="The Ally's Salary.")]
    fame_cost: Annotated[int, Meta(description="The Ally's Fame cost.")]
    paid_from: Annotated[Literal["personal", "crew_booty"], Meta(description="`personal` or `crew_booty`.")] = (
        "personal"
    )

    EXAMPLES = (
        {"pirate_id": "anne", "ally_id": "bosun", "archetype": "Bosun", "charisma": 2, "salary": 10, "fame_cost": 5},
    )
    VIEWS = ("pirates", "pirate", "ship", "ledger")


class AllyDrawn(Event, kw_only=True, tag="ally.drawn"):
    """An Ally drawn at random from the Ally bag, without pay: one of the Lone Pirate's three at the start of a Solo
    campaign, or of the three a stranded or marooned Captain plays «Castaways» with.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Game Modes, Lone Pirates ("In Solo Mode, you choose a Pirate
    as Captain and 3 random Allies"; "will draw three Allies at random to play the corresponding Adventure").
    """

    ally_id: Annotated[str, Meta(description="The Ally's id in this campaign.")]
    archetype: Annotated[str, Meta(description="The Ally's archetype (`Cook`).")]
    charisma: Annotated[int, Meta(description="The Ally's Charisma.")]
    salary: Annotated[int, Meta(description="The Ally's Salary, paid from the next Port on.")]
    fame_cost: Annotated[int, Meta(description="The Ally's Fame cost, paid from the next Port on.")]
    pirate_id: Annotated[str, Meta(description="The Pirate who leads it (the Lone Pirate, or the castaway).")]
    reason: Annotated[
        Literal["solo_start", "castaways"],
        Meta(description="`solo_start` (a Solo campaign's start) or `castaways` (a marooned Captain's Adventure)."),
    ] = "solo_start"

    EXAMPLES = (
        {"ally_id": "cook", "archetype": "Cook", "charisma": 2, "salary": 10, "fame_cost": 5, "pirate_id": "anne"},
    )
    VIEWS = ("pirates", "pirate", "ship")


class AllyUpkeepPaid(Event, kw_only=True, tag="ally.upkeep_paid"):
    """An Ally's Salary was paid for this Port.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: The Characters, Allies; Book II: Port Phase, Setup.
    """

    ally_id: Annotated[str, Meta(description="The Ally, by id.")]
    paid_from: Annotated[
        Literal["personal", "crew_booty"], Meta(description="`personal` (the hirer's) or `crew_booty`.")
    ] = "personal"

    EXAMPLES = ({"ally_id": "bosun"},)
    VIEWS = ("pirates", "pirate", "ship", "ledger")


class AllyDied(Event, kw_only=True, tag="ally.died"):
    """An Ally died.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Allies; Wounds and Revival.
    """

    ally_id: Annotated[str, Meta(description="The Ally, by id.")]

    EXAMPLES = ({"ally_id": "bosun"},)
    VIEWS = ("ship",)


class AllyDismissed(Event, kw_only=True, tag="ally.dismissed"):
    """An Ally was dismissed (or left).

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: The Characters, Allies.
    """

    ally_id: Annotated[str, Meta(description="The Ally, by id.")]

    EXAMPLES = ({"ally_id": "bosun"},)
    VIEWS = ("ship",)


# --- captaincy ----------------------------------------------------------------------------------------------------


class CaptainElected(Event, kw_only=True, tag="captain.elected"):
    """A Pirate became Captain after a successful Adventure with no Captain: the chapter's way, else the most
    Adventure Fame.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Adventure Phase, End of the Adventure.
    """

    pirate_id: Annotated[str, Meta(description="The new Captain, by id.")]
    method: Annotated[
        Literal["most_fame", "charisma_tie", "chapter"],
        Meta(description="`most_fame`, `charisma_tie` (a Charisma roll between tied Pirates) or `chapter`."),
    ] = "most_fame"

    EXAMPLES = ({"pirate_id": "anne", "method": "most_fame"},)
    VIEWS = ("pirates", "pirate", "ship", "chapter")


class TrustChanged(Event, kw_only=True, tag="trust.changed"):
    """A Pirate or an Ally gained or lost Voyage Trust Points (0 to 20).

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Trust Points.
    """

    character_id: Annotated[str, Meta(description="The Pirate or Ally, by id.")]
    amount: Annotated[int, Meta(description="Trust Points gained (negative: lost).")]
    reason: Annotated[str, Meta(description="Why: the Post worked, the Event resolved.")] = ""

    EXAMPLES = ({"character_id": "mary", "amount": 3, "reason": "Cartography"},)
    VIEWS = ("ship",)


class MoraleChanged(Event, kw_only=True, tag="morale.changed"):
    """The crew's Morale rose or fell.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Morale.
    """

    amount: Annotated[int, Meta(description="Morale gained (negative: lost).")]
    reason: Annotated[str, Meta(description="Why, in the table's words.")] = ""

    EXAMPLES = ({"amount": -1, "reason": "no Supplies for a Voyage Day"},)
    VIEWS = ("ship",)


class MutinyResolved(Event, kw_only=True, tag="mutiny.resolved"):
    """A Mutiny was settled by sealed bids of coins, 10 Coins each, which every bidder pays.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Mutiny.
    """

    instigator: Annotated[str, Meta(description="The Pirate who started the Mutiny, by id.")]
    bids: Annotated[
        dict[str, int], Meta(description="Each bidder's coins (the Captain and every Mutineer), by Pirate id.")
    ]
    tie_winner: Annotated[
        str | None, Meta(description="The winner of the confronted Charisma roll between tied bidders.")
    ] = None

    EXAMPLES = ({"instigator": "jack", "bids": {"jack": 3, "anne": 2}},)
    VIEWS = ("pirates", "pirate", "ship", "ledger", "chapter")


class AllyMutinyResolved(Event, kw_only=True, tag="ally_mutiny.resolved"):
    """An Ally whose Trust exceeded the Captain's mutinied: the Captain's Charisma plus Coins/10 against the
    Ally's Charisma plus a die.

    Only the Captain's Trust Points become Fame, on the Record Sheet; everyone else's are reset to 0, Morale to 20.
    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Mutiny.
    """

    ally_id: Annotated[str, Meta(description="The Ally, by id.")]
    coins_spent: Annotated[int, Meta(description="Coins the Captain spends.")]
    ally_roll: Annotated[int, Meta(description="The Ally's die.")]
    tie_winner: Annotated[Literal["captain", "ally"] | None, Meta(description="Who wins a tie.")] = None

    EXAMPLES = ({"ally_id": "bosun", "coins_spent": 20, "ally_roll": 3},)
    VIEWS = ("pirates", "pirate", "ship", "ledger")


class CommandIssued(Event, kw_only=True, tag="command.issued"):
    """The Captain used Command Points in a Voyage round: 1 for being Captain, plus the Quarterdeck's Charisma,
    plus Leadership.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Command Points.
    """

    points: Annotated[int, Meta(description="The Command Points used.")]
    quarterdeck_id: Annotated[str | None, Meta(description="The Pirate on the Quarterdeck, by id.")] = None

    EXAMPLES = ({"points": 1},)
    VIEWS = ("ship",)


# --- ship, crew, hold -----------------------------------------------------------------------------------------------


class ShipBought(Event, kw_only=True, tag="ship.bought"):
    """The Captain bought a ship at the Docks: 1 Time Unit and its price from the Crew's Booty.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks.
    Send `pirate_id` and `ship_type`: the ship's figures come from the catalogue.
    """

    pirate_id: Annotated[str, Meta(description="The Captain, by id.")]
    ship_type: Annotated[str, Meta(description="`Schooner`, `Frigate` or `Brigantine`.")]
    name: Annotated[str, Meta(description="The name the crew gives her.")] = ""
    sails: Annotated[int, Meta(description="Sails.")]
    sails_max: Annotated[int, Meta(description="Sails with every upgrade.")]
    hold: Annotated[int, Meta(description="Hold columns.")]
    hold_max: Annotated[int, Meta(description="Hold columns with every upgrade.")]
    cannons: Annotated[int, Meta(description="Cannons.")]
    price: Annotated[int, Meta(description="Her price in Coins.")]
    speed: Annotated[int, Meta(description="Her Speed modifier.")] = 0

    EXAMPLES = ({"pirate_id": "anne", "ship_type": "Schooner", "name": "The Swift"},)
    VIEWS = ("ship", "ledger")


class ShipUpgraded(Event, kw_only=True, tag="ship.upgraded"):
    """The Captain fitted the ship with an upgrade at the Docks: 1 Time Unit and its cost from the Crew's Booty.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks.
    Send `pirate_id` and `upgrade`: its cost and effect come from the catalogue.
    """

    pirate_id: Annotated[str, Meta(description="The Captain, by id.")]
    upgrade: Annotated[str, Meta(description="The upgrade (`Cannon`).")]
    cost: Annotated[int, Meta(description="Its cost in Coins.")]
    effect: Annotated[
        Literal["hold", "sails", "cannon", "permanent", "single", "consumable"], Meta(description="What it changes.")
    ]
    limit: Annotated[int, Meta(description="How many the ship may carry (Cannons 5, a single Mortar).")] = 1
    ammunition: Annotated[Literal["chainshot", "grapeshot"] | None, Meta(description="For Ammunition, which kind.")] = (
        None
    )

    EXAMPLES = ({"pirate_id": "anne", "upgrade": "Cannon"},)
    VIEWS = ("ship", "ledger")


class ShipDamaged(Event, kw_only=True, tag="ship.damaged"):
    """The ship took Impacts on the rigging and the hold; tokens in a lost Hold column were discarded.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Naval Combat, Assign Impacts.
    """

    sails: Annotated[int, Meta(description="Impacts on the sails.")] = 0
    hold: Annotated[int, Meta(description="Impacts on the hold.")] = 0
    discarded_goods: Annotated[dict[str, int], Meta(description="Goods tokens discarded, by Goods.")] = {}
    discarded_cannons: Annotated[int, Meta(description="Cannons discarded.")] = 0

    EXAMPLES = ({"sails": 1},)
    VIEWS = ("ship",)


class ShipRepaired(Event, kw_only=True, tag="ship.repaired"):
    """The Captain had the ship repaired at the Docks: 1 Time Unit, 50 Coins per sail and 25 per Hold Impact from
    the Crew's Booty.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks.
    """

    pirate_id: Annotated[str, Meta(description="The Captain, by id.")]
    sails: Annotated[int, Meta(description="Sails repaired.")] = 0
    hold: Annotated[int, Meta(description="Hold Impacts repaired.")] = 0

    EXAMPLES = ({"pirate_id": "anne", "sails": 1},)
    VIEWS = ("ship", "ledger")


class UpgradeUsed(Event, kw_only=True, tag="upgrade.used"):
    """A single-use upgrade (a Signal Codex) or Ammunition was used up.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks (upgrades).
    """

    upgrade: Annotated[str, Meta(description="The upgrade.")]

    EXAMPLES = ({"upgrade": "Signal Codex"},)
    VIEWS = ("ship",)


class GroupHired(Event, kw_only=True, tag="group.hired"):
    """The Captain hired a Group of Pirates at the Tavern: 1 Time Unit and 30 Coins from the Crew's Booty; at most
    6 Groups.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Tavern.
    """

    pirate_id: Annotated[str, Meta(description="The Captain, by id.")]
    cost: Annotated[int, Meta(description="Its cost in Coins.")] = 30

    EXAMPLES = ({"pirate_id": "anne"},)
    VIEWS = ("ship", "ledger")


class GroupLost(Event, kw_only=True, tag="group.lost"):
    """A Group of Pirates was eliminated: the Captain loses 3 Fame and Morale drops 3.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Voyage Components; Morale.
    """

    reason: Annotated[str, Meta(description="Why, in the table's words.")] = ""

    EXAMPLES = ({"reason": "boarded by the Redcoats"},)
    VIEWS = ("pirates", "pirate", "ship")


class GoodsTraded(Event, kw_only=True, tag="goods.traded"):
    """The Captain traded Goods at the Docks (2 Time Units); proceeds and costs go through the Crew's Booty.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks (Trade).
    One kind of Goods per event; `trade.made` records a whole Trade action.
    """

    pirate_id: Annotated[str, Meta(description="The Captain, by id.")]
    goods: Annotated[str, Meta(description="The Goods (`Rum`).")]
    quantity: Annotated[int, Meta(description="How many tokens.")]
    direction: Annotated[Literal["buy", "sell", "deliver"], Meta(description="`buy`, `sell` or `deliver`.")]
    price: Annotated[int, Meta(description="Coins per token; Sugar's is the die x 10.")]
    roll: Annotated[int | None, Meta(description="The die that prices Sugar.")] = None
    sellable: Annotated[bool, Meta(description="False for Prisoners, which are only delivered.")] = True

    EXAMPLES = ({"pirate_id": "anne", "goods": "Rum", "quantity": 2, "direction": "sell"},)
    VIEWS = ("ship", "ledger")


class GoodsGained(Event, kw_only=True, tag="goods.gained"):
    """Goods went into the Hold: plunder, a Whale, the Diving Bell, an island.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Plunder after boarding.
    """

    goods: Annotated[str, Meta(description="The Goods.")]
    quantity: Annotated[int, Meta(description="How many tokens.")]
    source: Annotated[str, Meta(description="Where they came from.")]
    pirate_id: Annotated[str | None, Meta(description="The Character who plundered them (1 Fame per token).")] = None

    EXAMPLES = ({"goods": "Rum", "quantity": 1, "source": "plunder", "pirate_id": "anne"},)
    VIEWS = ("ship",)


class GoodsSpent(Event, kw_only=True, tag="goods.spent"):
    """The crew used Goods: Supplies each Voyage Day, Rum for Morale, Wood for repairs.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Travel Round; Morale.
    """

    goods: Annotated[str, Meta(description="The Goods.")]
    quantity: Annotated[int, Meta(description="How many tokens.")] = 1
    purpose: Annotated[str, Meta(description="What for.")] = ""
    roll: Annotated[
        int | None,
        Meta(
            description="A Rum token at sea: the die (1-6) whose result raises Morale; the fold adds it, and gives "
            "every Pirate 1 Destiny Point (Book III: Voyage Phase, Voyage Components, Rum Token)."
        ),
    ] = None

    EXAMPLES = (
        {"goods": "Supplies", "quantity": 1, "purpose": "a Voyage Day"},
        {"goods": "Rum", "quantity": 1, "purpose": "Morale", "roll": 4},
    )
    VIEWS = ("ship",)


class BootyBuried(Event, kw_only=True, tag="booty.buried"):
    """The Captain buried Crew's Booty on an island.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Docking on an Island.
    """

    pirate_id: Annotated[str, Meta(description="The Captain, by id.")]
    island: Annotated[str, Meta(description="The island.")]
    amount: Annotated[int, Meta(description="Coins buried.")]

    EXAMPLES = ({"pirate_id": "anne", "island": "Isla de Muerta", "amount": 10},)
    VIEWS = ("ship", "ledger")


class BootyRecovered(Event, kw_only=True, tag="booty.recovered"):
    """Buried booty was dug up: by a Captain into the Crew's Booty, by a former Captain into their own.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Docking on an Island.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate who digs, by id.")]
    island: Annotated[str, Meta(description="The island.")]
    amount: Annotated[int, Meta(description="Coins recovered.")]

    EXAMPLES = ({"pirate_id": "anne", "island": "Isla de Muerta", "amount": 10},)
    VIEWS = ("pirates", "pirate", "ship", "ledger")


class LoanTaken(Event, kw_only=True, tag="loan.taken"):
    """A Pirate borrowed up to 50 Coins from Monsieur Fontaine: at the Manor for Time Units and Fame, at the
    Market, or for a ship upgrade.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Madame Claude's Manor; Market Square; Docks.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    amount: Annotated[int, Meta(description="Coins borrowed.")]
    lender: Annotated[Lender, Meta(description="`manor`, `market` or `ship`.")]
    fame: Annotated[int, Meta(description="At the Manor: Fame spent (5 Coins per Time Unit or Fame).")] = 0

    EXAMPLES = ({"pirate_id": "mary", "amount": 20, "lender": "market"},)
    VIEWS = ("pirates", "pirate", "ledger")


class LoanRepaid(Event, kw_only=True, tag="loan.repaid"):
    """A Pirate repaid Monsieur Fontaine, 6 Coins for every 5 borrowed; a ship loan may be repaid from the Crew's
    Booty.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Madame Claude's Manor; Docks.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    amount: Annotated[int, Meta(description="Coins repaid.")]
    paid_from: Annotated[Literal["personal", "crew_booty"], Meta(description="`personal` or `crew_booty`.")] = (
        "personal"
    )

    EXAMPLES = ({"pirate_id": "mary", "amount": 24},)
    VIEWS = ("pirates", "pirate", "ledger")


class SalaryCollected(Event, kw_only=True, tag="salary.collected"):
    """A Pirate collected a Salary at the Docks (1 Time Unit): the card's Salary, or for the Captain 50 and 100
    to the Crew's Booty.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]

    EXAMPLES = ({"pirate_id": "jack"},)
    VIEWS = ("pirates", "pirate", "ship", "ledger")


# --- chapters and phases ------------------------------------------------------------------------------------------


class ChapterStarted(Event, kw_only=True, tag="chapter.started"):
    """A chapter of the campaign began.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Chapters; Chapter Phases.
    """

    number: Annotated[int, Meta(description="The chapter's number.")]
    title: Annotated[str, Meta(description="The chapter's title.")] = ""
    phases: Annotated[
        list[Phase] | None,
        Meta(description="Its phases in order; none: chapter 1 takes the option, later ones Port, Voyage, Adventure."),
    ] = None
    solo: Annotated[bool, Meta(description="Played by a Lone Pirate.")] = False

    EXAMPLES = ({"number": 3, "title": "The Black Pearl"},)
    VIEWS = ("chapter",)


class PhaseStarted(Event, kw_only=True, tag="phase.started"):
    """A phase of the chapter began: Port, Voyage or Adventure.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Chapter Phases.
    """

    phase: Annotated[Phase, Meta(description="`port`, `voyage` or `adventure`.")]
    allies: Annotated[
        list[str] | None,
        Meta(
            description="Solo Mode, an Adventure: the hired Allies the Captain takes along (at most three, four "
            "with the Cabin Boy setting); none: every hired Ally, when they are few enough."
        ),
    ] = None

    EXAMPLES = ({"phase": "port"}, {"phase": "adventure", "allies": ["cook", "witch", "gunner"]})
    VIEWS = ("chapter", "pirates", "pirate")


class PhaseEnded(Event, kw_only=True, tag="phase.ended"):
    """A phase ended: at-risk Fame and Coins were banked, halved or lost, and the settings' Fame applied.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Adventure Phase, End of the Adventure; Book II: End of the Port Phase; Book III: End of the Voyage
    Phase.
    """

    phase: Annotated[Phase, Meta(description="The phase ending.")]
    outcome: Annotated[Outcome, Meta(description="`success`, `failure` or `repeat`.")] = "success"
    degrees: Annotated[dict[str, Degree], Meta(description="Adventure: each Pirate's degree of success, by id.")] = {}

    EXAMPLES = ({"phase": "port"},)
    VIEWS = ("chapter", "pirates", "pirate", "ship", "ledger")


class ChapterEnded(Event, kw_only=True, tag="chapter.ended"):
    """A chapter ended.

    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Chapters.
    """

    number: Annotated[int, Meta(description="The chapter's number.")]

    EXAMPLES = ({"number": 2},)
    VIEWS = ("chapter",)


# --- added after the first release: new tags, every field with a meaning of its own --------------------------------

Coin = Literal["gold", "silver", "copper"]


class PirateBoarded(Event, kw_only=True, tag="pirate.boarded"):
    """A Pirate returned to the Pirate Ship and their Port Phase ended.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Port Phase, Important Concepts; End of the Port Phase.
    `late`: the Time Units ran out before the Pirate was back aboard: 5 Fame lost, unless the Pirate was carried
    aboard Unconscious in this Port.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    late: Annotated[bool, Meta(description="Back aboard after the Time Units ran out.")] = False

    EXAMPLES = ({"pirate_id": "jack"},)
    VIEWS = ("pirates", "pirate")


class AllyLoyaltyRolled(Event, kw_only=True, tag="ally.loyalty_rolled"):
    """Admiral setting: a hirer and their Ally made a confronted Charisma roll at the start of the Port Phase; the
    Ally stays only if the hirer wins.

    Rulebook: Skull Tales: Full Sail! rulebook, Appendix II: Admiral Mode, Port Phase; Book I: Dice Rolls, Confronted rolls.
    """

    ally_id: Annotated[str, Meta(description="The Ally, by id.")]
    hirer_roll: Annotated[int, Meta(description="The hirer's die.")]
    ally_roll: Annotated[int, Meta(description="The Ally's die.")]

    EXAMPLES = ({"ally_id": "bosun", "hirer_roll": 5, "ally_roll": 2},)
    VIEWS = ("ship",)


class RumorsHeard(Event, kw_only=True, tag="rumors.heard"):
    """A Pirate listened to Rumors (2 Time Units) at the Tavern or the Manor, and kept the Rumor drawn or not.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Tavern; Madame Claude's Manor.
    While a Rumor is kept no more are drawn.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate, by id.")]
    where: Annotated[Literal["tavern", "manor"], Meta(description="`tavern` (Perception 5) or `manor` (Charisma 4).")]
    kept: Annotated[str | None, Meta(description="The Rumor card kept, if any.")] = None

    EXAMPLES = ({"pirate_id": "mary", "where": "tavern", "kept": "The Lost Galleon"},)
    VIEWS = ("pirates", "pirate")


class RumorResolved(Event, kw_only=True, tag="rumor.resolved"):
    """A kept Rumor was resolved at the next Port's setup: its reward, or its penalty if failed.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Port Phase, Setup; Locations, Tavern.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate who kept it, by id.")]
    success: Annotated[bool, Meta(description="Whether the Rumor was completed.")]
    coins: Annotated[int, Meta(description="Coins it pays (or costs).")] = 0
    fame: Annotated[int, Meta(description="Fame it gives (or costs).")] = 0

    EXAMPLES = ({"pirate_id": "mary", "success": True, "coins": 30, "fame": 10},)
    VIEWS = ("pirates", "pirate", "ledger")


class SchemeResolved(Event, kw_only=True, tag="scheme.resolved"):
    """A Pirate other than the Captain schemed in the «Cabins» with a hidden coin (or an empty hand), against the
    coin of a Group the Captain may have set on Guard.

    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Crew Round.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate scheming, by id.")]
    coin: Annotated[Coin | None, Meta(description="`gold`, `silver`, `copper`, or none for an empty hand.")]
    guard: Annotated[Coin | None, Meta(description="The Guard's coin, or none when nobody Guards.")] = None
    roll: Annotated[int | None, Meta(description="Gold (Raid): the die, +3 Coins from the Crew's Booty.")] = None
    goods: Annotated[
        Literal["Rum", "Supplies"] | None, Meta(description="Copper (Theft): the token discarded to heal all Wounds.")
    ] = None

    EXAMPLES = ({"pirate_id": "mary", "coin": None},)
    VIEWS = ("pirates", "pirate", "ship", "ledger")


class CrewSurrendered(Event, kw_only=True, tag="crew.surrendered"):
    """The Voyage was lost: the ship surrendered or sank, the crew revolted, or every Character lay in the
    «Sickbay»; each Pirate loses all Coins and non-starting items, the Captain all the Crew's Booty.

    The Goods in the Hold and the ship, which the text does not name, stay unless the campaign's options
    `surrender_goods` or `surrender_ship` say "lost".
    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, End of the Voyage Phase.
    """

    cause: Annotated[
        Literal["surrendered", "sunk", "revolt", "sickbay"],
        Meta(description="`surrendered`, `sunk`, `revolt` or `sickbay`."),
    ]

    EXAMPLES = ({"cause": "surrendered"},)
    VIEWS = ("pirates", "pirate", "ship", "ledger")


class PurgeUsed(Event, kw_only=True, tag="purge.used"):
    """A Pirate used Purge (a Charisma 5 roll, once per Voyage Phase); on a success a Cursed Character loses the
    Curse and the user gains 3 Fame.

    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Feats, Classes and Skills (Purge); Book I: Dice Rolls, Charisma rolls.
    """

    pirate_id: Annotated[str, Meta(description="The Pirate who uses Purge, by id.")]
    roll: Annotated[int, Meta(description="The Charisma die.")]
    cursed_id: Annotated[str | None, Meta(description="The Cursed Pirate freed on a success, by id.")] = None

    EXAMPLES = ({"pirate_id": "anne", "roll": 4, "cursed_id": "mary"},)
    VIEWS = ("pirates", "pirate")


# --- added in the second round: the convention of issue 8 (docstring, field descriptions, examples) ---------------

TradeDirection = Literal["buy", "sell", "deliver"]


class TradeLine(msgspec.Struct, frozen=True, kw_only=True):
    """One kind of Goods sold, delivered or bought in a Trade action."""

    goods: Annotated[str, msgspec.Meta(description="The Goods as the Trade chart names them: Wood, Rum, Sugar...")]
    quantity: Annotated[int, msgspec.Meta(gt=0, description="How many tokens of these Goods.")]
    direction: Annotated[
        TradeDirection,
        msgspec.Meta(
            description="`sell` and `buy` at the chart's price; `deliver` Prisoners to the Brotherhood for the reward."
        ),
    ]
    price: Annotated[
        int,
        msgspec.Meta(ge=0, description="Coins per token, from the catalogue's Trade chart; Sugar's is its die x 10."),
    ] = 0
    roll: Annotated[int | None, msgspec.Meta(description="The die that prices Sugar (1-6).")] = None
    sellable: Annotated[
        bool, msgspec.Meta(description="False for Prisoners, which are delivered, never sold (from the catalogue).")
    ] = True


class TradeMade(Event, kw_only=True, tag="trade.made"):
    """The Captain trades at the Docks: one Trade action sells, delivers and buys several Goods for 2 Time Units.

    Sales and deliveries are made first and their Coins go to the Crew's Booty; then the purchases are paid from it.
    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks (Trade).
    """

    pirate_id: Annotated[str, msgspec.Meta(description="The Captain, who alone trades at the Docks.")]
    lines: Annotated[
        list[TradeLine],
        msgspec.Meta(min_length=1, description="Each kind of Goods traded, with how many and which way."),
    ]

    VIEWS: ClassVar[tuple[str, ...]] = ("pirates", "pirate", "ship", "ledger")
    EXAMPLES: ClassVar[tuple[dict[str, Any], ...]] = (
        {
            "pirate_id": "anne",
            "lines": [
                {"goods": "Rum", "quantity": 2, "direction": "sell", "price": 10},
                {"goods": "Sugar", "quantity": 1, "direction": "sell", "price": 40, "roll": 4},
                {"goods": "Wood", "quantity": 1, "direction": "buy", "price": 15},
            ],
        },
    )


class StoryTold(Event, kw_only=True, tag="story.told"):
    """A Pirate tells a story at the Tavern: 2 Time Units and a Charisma 6 roll, up to 3 Coins spent for +1 each.

    The fold adds the Pirate's Charisma (and a Destiny Point's +1) to the die and the Coins; a total that exceeds 6
    gains the difference as Fame ("if the final result of the roll is a 9 ... 3 ... is the amount of Fame you gain").
    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Tavern (Storytelling); Book I: Dice Rolls.
    """

    pirate_id: Annotated[str, msgspec.Meta(description="The Pirate who tells the story.")]
    roll: Annotated[int, msgspec.Meta(description="The Charisma roll's one die (1-6).")]
    coins: Annotated[
        int, msgspec.Meta(ge=0, description="Coins spent before rolling, +1 to the roll each: at most 3.")
    ] = 0

    VIEWS: ClassVar[tuple[str, ...]] = ("pirates", "pirate", "ledger")
    EXAMPLES: ClassVar[tuple[dict[str, Any], ...]] = ({"pirate_id": "mary", "roll": 4, "coins": 2},)


class AllySchemeResolved(Event, kw_only=True, tag="ally_scheme.resolved"):
    """In Solo Mode an Ally whose number the die showed schemes in the «Cabins», guarded or not.

    Unguarded, or winning the confronted Charisma roll, the Ally takes as many Coins from the Crew's Booty and
    Trust Points as its Charisma (a wounded Ally first spends a Supplies token on its Wounds, if there is one);
    losing, it loses 5 Trust Points and schemes no more this Voyage, and a guarding Ally gains 1 Trust Point; a tie
    does nothing. The fold adds each side's Charisma to its die.
    Rulebook: Skull Tales: Full Sail! rulebook, Book III: Voyage Phase Sequence, Crew Round (Scheme, Solo Mode).
    """

    ally_id: Annotated[str, msgspec.Meta(description="The hired Ally that schemes.")]
    guard: Annotated[
        str | None,
        msgspec.Meta(
            description="Who Guards: `group` (a Group of Pirates), the Captain's id, another hired Ally's id, or "
            "nobody (null)."
        ),
    ] = None
    ally_roll: Annotated[
        int | None, msgspec.Meta(description="The scheming Ally's Charisma die (1-6); none when nobody Guards.")
    ] = None
    guard_roll: Annotated[
        int | None, msgspec.Meta(description="The guard side's Charisma die (1-6); none when nobody Guards.")
    ] = None
    supplies: Annotated[
        bool,
        msgspec.Meta(
            description="A wounded Ally that got away spent a Supplies token from the Hold to discard its Wounds."
        ),
    ] = False

    VIEWS: ClassVar[tuple[str, ...]] = ("ship", "ledger")
    EXAMPLES: ClassVar[tuple[dict[str, Any], ...]] = (
        {"ally_id": "cook"},
        {"ally_id": "cook", "guard": "anne", "ally_roll": 2, "guard_roll": 5},
    )
