"""Skull Tales: Full Sail! events: what happens to the pirates, their ship and their booty.

Events that name a catalogue thing (a skill, a feat, a ship type, an upgrade, a goods type, an injury roll, an
archetype) carry the facts the fold needs, filled in by `service/catalog/skull_tales.py` before recording, so a
recorded campaign replays without the catalogue (DESIGN principle 2). Line numbers (`L1509`) point into
`seeds/skull-tales-full-sail-rulebook.txt`.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

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
    """The seven rolled attributes printed on a Character Card (L144-165)."""

    melee: int
    ranged: int
    strength: int
    agility: int
    intelligence: int
    perception: int
    charisma: int


# --- pirates and record sheets ---------------------------------------------------------------------------------


class PirateRecruited(Event, kw_only=True, tag="pirate.recruited"):
    """A player takes a Character Card and a Record Sheet; or a new Pirate replaces a retired one (L1012)."""

    pirate_id: str
    name: str
    archetype: str
    player: str = ""
    classes: list[str]
    dominant_hand: Hand = "right"
    attributes: Attributes
    action_points: int
    health: int
    destiny_points: int  # the card's maximum (L165)
    salary: int
    skills: list[str] = []  # starting skills: they never use Special Skill capacity (L1495)
    starting_gear: list[str] = []
    # The Fame Dial's printed Special Skill capacity; None takes the campaign option.
    special_skill_capacity: int | None = None
    campaigns_completed: int = 0
    replaces: str | None = None  # the retired Pirate this one replaces


class FameChanged(Event, kw_only=True, tag="fame.changed"):
    """Fame gained or lost outside the costs the fold computes itself (Enemies, Goals, Search cards, Events...)."""

    pirate_id: str
    amount: int
    source: str


class CoinsChanged(Event, kw_only=True, tag="coins.changed"):
    """Coins found or lost: a Search card, a Goal, a Fallen Enemy token, an Event, a Rumor, gambling, a purchase.

    `source` names where they came from (or went): it must be one the rules know (see projections.skull_tales.booty).
    """

    pirate_id: str | None = None
    ally_id: str | None = None
    amount: int
    source: str


class CoinsGiven(Event, kw_only=True, tag="coins.given"):
    """Coins handed between Pirates, or donated to the Crew's Booty (`to` = "crew_booty") (L1249, L268)."""

    from_pirate: str
    to: str
    amount: int


class WoundsChanged(Event, kw_only=True, tag="wounds.changed"):
    pirate_id: str
    amount: int
    reason: str = ""


class DestinyChanged(Event, kw_only=True, tag="destiny.changed"):
    """Destiny Points gained or spent; spending with `plus_one` adds +1 to each die of the pirate's next roll."""

    pirate_id: str
    amount: int
    reason: str = ""
    plus_one: bool = False


class PirateUnconscious(Event, kw_only=True, tag="pirate.unconscious"):
    """A Pirate falls Unconscious; what it costs depends on the phase (L950-960, L1243, L2016)."""

    pirate_id: str
    lost_item: str | None = None  # Adventure: one random non-starting Gear card or Legendary item
    roll: int | None = None  # Admiral Port setting: an even roll ends the Port Phase for the Pirate


class PirateRevived(Event, kw_only=True, tag="pirate.revived"):
    """A successful Revive: the reviver gains 1 Destiny Point (L679)."""

    pirate_id: str
    reviver_id: str | None = None


class InjurySuffered(Event, kw_only=True, tag="injury.suffered"):
    """A failed Revive: roll on the Permanent Injury chart (L990-999). Facts from the chart are expanded."""

    pirate_id: str
    roll: int
    injury: str  # "Left eye"
    pair: str  # "eyes", "hands", "legs"
    hand: Hand | None = None
    attribute_changes: dict[str, int] = {}
    movement: int = 0


class PirateRetired(Event, kw_only=True, tag="pirate.retired"):
    """A Pirate leaves the campaign: a lost pair (L1010) or the Legendary Pirate Feat."""

    pirate_id: str
    reason: Literal["injury", "legendary_pirate"] = "injury"


class MatelotageDone(Event, kw_only=True, tag="matelotage.done"):
    """The retired Pirate gives the new one half their Coins and one non-starting item (L1019, L1272)."""

    retired_id: str
    new_id: str
    coins: int
    item: str | None = None
    free_skill: str | None = None  # Legendary Pirate: learn a free skill from the retired Pirate


class ProsthesisBought(Event, kw_only=True, tag="prosthesis.bought"):
    """Market Square: 1 Time Unit and 10 Coins for a Hook, an Eye patch or a Peg leg (L1387)."""

    pirate_id: str
    prosthesis: Prosthesis


class CurseGained(Event, kw_only=True, tag="curse.gained"):
    pirate_id: str


class PenanceChosen(Event, kw_only=True, tag="penance.chosen"):
    """Chapel Atonement: 1 Time Unit and the penance's Coins (Greedy 40, Wroth 20, Prideful 30)."""

    pirate_id: str
    penance: Penance


class CurseRemoved(Event, kw_only=True, tag="curse.removed"):
    """Atonement fulfilled at the Chapel in a later Port, or the Purge skill (+3 Fame to its user).

    A Purge is logged as `purge.used`, which carries its Charisma die; `by: "purge"` here still replays campaigns
    recorded before, read as a successful Purge whose die was not logged.
    """

    pirate_id: str
    by: Literal["atonement", "purge"]
    purger_id: str | None = None


class ItemGained(Event, kw_only=True, tag="item.gained"):
    """A Pirate writes a non-starting Gear card, Legendary item or Item token on their Record Sheet.

    Room for starting gear plus 3 items, Rum and Brew taking half a space; what the item is worth is kept, so that
    Haggle can sell it later for half (what was paid for it, else its card's price).
    Rulebook: Skull Tales: Full Sail! rulebook, Book I: Adventure Phase, Cards; Book II: Locations, Market Square.
    """

    pirate_id: Annotated[str, msgspec.Meta(description="The Pirate whose Record Sheet lists the item.")]
    item: Annotated[str, msgspec.Meta(description="The card or token's name.")]
    kind: Annotated[Literal["gear", "legendary", "item_token"], msgspec.Meta(
        description="A Gear card, one of the 5 Legendary items, or an Item Goal token.")] = "gear"
    half_space: Annotated[bool, msgspec.Meta(description="Rum and Brew cards take half a space.")] = False
    equipped: Annotated[bool, msgspec.Meta(description="Gear with the Equipped icon takes no space.")] = False
    price: Annotated[int, msgspec.Meta(
        ge=0, description="Coins paid for it in Port (the Market, the Black Market); 0 when found or given.")] = 0
    value: Annotated[int, msgspec.Meta(
        ge=0, description="The card's printed Coins cost, for an item not bought (found, looted, given); what "
        "Haggle sells it for half of. A bought item is worth what was paid.")] | None = None

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
    sold_for: Annotated[int, msgspec.Meta(
        ge=0, description="Coins a sale brought, as logs written before `haggled` recorded them.")] = 0
    haggled: Annotated[bool, msgspec.Meta(
        description="Sold at the Market Square with Haggle, for half its value rounded up.")] = False
    value: Annotated[int, msgspec.Meta(
        ge=0, description="The card's printed Coins cost, when the Record Sheet does not know what the item is "
        "worth (an item gained before values were kept).")] | None = None

    VIEWS: ClassVar[tuple[str, ...]] = ("pirates", "pirate", "ledger")
    EXAMPLES: ClassVar[tuple[dict[str, Any], ...]] = (
        {"pirate_id": "anne", "item": "Cutlass", "haggled": True},
        {"pirate_id": "mary", "item": "Rum"},
    )


class ItemGiven(Event, kw_only=True, tag="item.given"):
    from_pirate: str
    to_pirate: str
    item: str


class PortServiceBought(Event, kw_only=True, tag="port.service_bought"):
    """Chapel Charity (2 Coins), Docks Rest (Captain, free) or Manor Luxury Treatment (10 Coins)."""

    pirate_id: str
    service: PortService
    wounds: int = 0  # wounds recovered
    destiny: int = 0  # destiny points affected (direction per option port_destiny_discard)
    times: int = 1  # Docks Rest can be repeated, 1 Time Unit each


class ManorEntered(Event, kw_only=True, tag="manor.entered"):
    pirate_id: str


class TimeSpent(Event, kw_only=True, tag="time.spent"):
    """Port Time Units spent moving or on an action the fold does not price itself."""

    pirate_id: str
    amount: int
    purpose: str = "move"


class ApprovalGiven(Event, kw_only=True, tag="approval.given"):
    """A master's Approval or Disapproval, until the end of the Port Phase unless permanent (L1226-1229)."""

    pirate_id: str
    master: Master
    kind: Literal["approval", "disapproval"]
    permanent: bool = False


class CampaignCompleted(Event, kw_only=True, tag="campaign.completed"):
    """The crew finished a campaign; the Fame Feat counts them (L1474)."""

    campaign: str = "Shadows of the Caribbean"


# --- skills and feats ---------------------------------------------------------------------------------------------


class SkillPrerequisites(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    attributes: dict[str, int] = {}
    skills: list[str] = []
    special_skill_capacity: int = 0
    not_captain: bool = False
    starting_only: bool = False


class SkillLearned(Event, kw_only=True, tag="skill.learned"):
    """A Pirate learns a skill from its master in Port: 7 Time Units and the computed Coins and Fame (L1509-1525)."""

    pirate_id: str
    skill: str
    skill_class: str
    teacher: str
    coins: int  # X, the single-class Coins of the skill's tier
    fame: int  # X, the single-class Fame
    special: bool = False
    voyage: bool = False
    unique: bool = False  # Bosun, Constable: one Character only
    prerequisites: SkillPrerequisites = SkillPrerequisites()
    synergy: list[str] = []  # -10 Coins if the pirate has any of these
    effects: dict[str, int] = {}  # permanent changes: charisma, action_points, destiny_points, salary
    master_id: str | None = None  # the crew member who already knew it (-15 Coins, -10 Fame; +5 Fame to them)
    free: bool = False  # a game effect (Legendary Pirate's free skill): no Coins, Fame or Time Units


class FeatGained(Event, kw_only=True, tag="feat.gained"):
    """A Feat bought in Port, anywhere and for no Time Units (L1468-1479)."""

    pirate_id: str
    feat: str
    coins: int
    fame: int
    requires: dict[str, int] = {}  # counter -> minimum (adventures_total_success, campaigns_completed, ...)


class AssignmentTaken(Event, kw_only=True, tag="assignment.taken"):
    """The Captain draws an Assignment at the Docks (1 Time Unit); one active at a time (L1320)."""

    pirate_id: str
    assignment: str


class AssignmentResolved(Event, kw_only=True, tag="assignment.resolved"):
    """Resolved at Port setup; results go to whoever was Captain at completion (L1270)."""

    pirate_id: str
    success: bool
    coins: int = 0
    fame: int = 0
    coins_to: Literal["personal", "crew_booty"] = "crew_booty"


# --- allies -------------------------------------------------------------------------------------------------------


class AllyHired(Event, kw_only=True, tag="ally.hired"):
    """Tavern: 3 Time Units; Salary and Fame cost, +3 Coins and +3 Fame per point of Charisma above the hirer's."""

    pirate_id: str
    ally_id: str
    archetype: str
    charisma: int
    salary: int
    fame_cost: int
    paid_from: Literal["personal", "crew_booty"] = "personal"


class AllyUpkeepPaid(Event, kw_only=True, tag="ally.upkeep_paid"):
    ally_id: str
    paid_from: Literal["personal", "crew_booty"] = "personal"


class AllyDied(Event, kw_only=True, tag="ally.died"):
    ally_id: str


class AllyDismissed(Event, kw_only=True, tag="ally.dismissed"):
    ally_id: str


# --- captaincy ----------------------------------------------------------------------------------------------------


class CaptainElected(Event, kw_only=True, tag="captain.elected"):
    """After a successful Adventure with no Captain: the chapter's method, else the most Adventure Fame (L1106)."""

    pirate_id: str
    method: Literal["most_fame", "charisma_tie", "chapter"] = "most_fame"


class TrustChanged(Event, kw_only=True, tag="trust.changed"):
    """Voyage Trust Points of a Pirate or an Ally (0-20)."""

    character_id: str
    amount: int
    reason: str = ""


class MoraleChanged(Event, kw_only=True, tag="morale.changed"):
    amount: int
    reason: str = ""


class MutinyResolved(Event, kw_only=True, tag="mutiny.resolved"):
    """Sealed bids of coins, 10 Coins each, every bidder pays (L1984-1993)."""

    instigator: str
    bids: dict[str, int]  # pirate -> coins bid (the Captain and every Mutineer)
    tie_winner: str | None = None  # confronted Charisma roll between tied bidders


class AllyMutinyResolved(Event, kw_only=True, tag="ally_mutiny.resolved"):
    """An Ally's Trust exceeds the Captain's: Captain's Charisma + Coins/10 against Ally's Charisma + 1d6 (L1995)."""

    ally_id: str
    coins_spent: int
    ally_roll: int
    tie_winner: Literal["captain", "ally"] | None = None


class CommandIssued(Event, kw_only=True, tag="command.issued"):
    """Command Points used in a Voyage round: 1 for being Captain, + Quarterdeck Charisma, + Leadership (L2006)."""

    points: int
    quarterdeck_id: str | None = None


# --- ship, crew, hold -----------------------------------------------------------------------------------------------


class ShipBought(Event, kw_only=True, tag="ship.bought"):
    """Docks: the Captain's action, 1 Time Unit and the price from the Crew's Booty (L1337-1344)."""

    pirate_id: str
    ship_type: str
    name: str = ""
    sails: int
    sails_max: int
    hold: int
    hold_max: int
    cannons: int
    price: int
    speed: int = 0


class ShipUpgraded(Event, kw_only=True, tag="ship.upgraded"):
    """Docks: the Captain's action, 1 Time Unit and the upgrade's cost from the Crew's Booty (L1348-1365)."""

    pirate_id: str
    upgrade: str
    cost: int
    effect: Literal["hold", "sails", "cannon", "permanent", "single", "consumable"]
    limit: int = 1  # how many the ship may carry (Cannons 5; a single Mortar)
    ammunition: Literal["chainshot", "grapeshot"] | None = None


class ShipDamaged(Event, kw_only=True, tag="ship.damaged"):
    """Impacts on the rigging and the hold; tokens in a lost Hold column are discarded (L2300-2302)."""

    sails: int = 0
    hold: int = 0
    discarded_goods: dict[str, int] = {}
    discarded_cannons: int = 0


class ShipRepaired(Event, kw_only=True, tag="ship.repaired"):
    """Docks: 1 Time Unit, 50 Coins per sail and 25 per Hold Impact, from the Crew's Booty (L1322)."""

    pirate_id: str
    sails: int = 0
    hold: int = 0


class UpgradeUsed(Event, kw_only=True, tag="upgrade.used"):
    """A single-use upgrade (Signal Codex) or used Ammunition discarded."""

    upgrade: str


class GroupHired(Event, kw_only=True, tag="group.hired"):
    """Tavern, Captain only: 1 Time Unit and 30 Coins from the Crew's Booty; at most 6 Groups (L1456)."""

    pirate_id: str
    cost: int = 30


class GroupLost(Event, kw_only=True, tag="group.lost"):
    """A Group of Pirates eliminated: the Captain loses 3 Fame (L1856) and Morale drops 3 (L1963)."""

    reason: str = ""


class GoodsTraded(Event, kw_only=True, tag="goods.traded"):
    """Docks Trade, Captain, 2 Time Units; proceeds and costs go through the Crew's Booty (L1326-1335)."""

    pirate_id: str
    goods: str
    quantity: int
    direction: Literal["buy", "sell", "deliver"]
    price: int  # per token; Sugar = roll x 10
    roll: int | None = None  # the Sugar die
    sellable: bool = True  # Prisoners cannot be sold, only delivered


class GoodsGained(Event, kw_only=True, tag="goods.gained"):
    """Plunder, a Whale, the Diving Bell, an island: Goods into the Hold."""

    goods: str
    quantity: int
    source: str
    pirate_id: str | None = None  # a Character plundering gains 1 Fame per token (L2392)


class GoodsSpent(Event, kw_only=True, tag="goods.spent"):
    """Supplies each Voyage Day, Rum for Morale, Wood for repairs."""

    goods: str
    quantity: int = 1
    purpose: str = ""


class BootyBuried(Event, kw_only=True, tag="booty.buried"):
    """The Captain buries Crew's Booty on one island (L2143)."""

    pirate_id: str
    island: str
    amount: int


class BootyRecovered(Event, kw_only=True, tag="booty.recovered"):
    """A Captain recovers buried booty to the Crew's Booty; a former Captain to their Personal Booty (L2143)."""

    pirate_id: str
    island: str
    amount: int


class LoanTaken(Event, kw_only=True, tag="loan.taken"):
    """Up to 50 Coins from Monsieur Fontaine: at the Manor for Time Units and Fame, at the Market, or for a ship upgrade."""

    pirate_id: str
    amount: int
    lender: Lender
    fame: int = 0  # Manor: Fame spent, 5 Coins per Time Unit or Fame


class LoanRepaid(Event, kw_only=True, tag="loan.repaid"):
    """Repay 6 Coins for every 5 loaned; a ship loan may be repaid from the Crew's Booty (L1348, L1419)."""

    pirate_id: str
    amount: int
    paid_from: Literal["personal", "crew_booty"] = "personal"


class SalaryCollected(Event, kw_only=True, tag="salary.collected"):
    """Docks, 1 Time Unit: the card Salary; the Captain 50 and 100 to the Crew's Booty (L1312)."""

    pirate_id: str


# --- chapters and phases ------------------------------------------------------------------------------------------


class ChapterStarted(Event, kw_only=True, tag="chapter.started"):
    number: int
    title: str = ""
    phases: list[Phase] | None = None  # None: chapter 1 takes the option, later ones Port, Voyage, Adventure
    solo: bool = False


class PhaseStarted(Event, kw_only=True, tag="phase.started"):
    phase: Phase


class PhaseEnded(Event, kw_only=True, tag="phase.ended"):
    """The phase ends; at-risk Fame and Coins are banked, halved or lost, and the settings' Fame is applied."""

    phase: Phase
    outcome: Outcome = "success"
    degrees: dict[str, Degree] = {}  # Adventure: per Pirate (L1087-1092)


class ChapterEnded(Event, kw_only=True, tag="chapter.ended"):
    number: int



# --- added after the first release: new tags, every field with a meaning of its own --------------------------------

Coin = Literal["gold", "silver", "copper"]


class PirateBoarded(Event, kw_only=True, tag="pirate.boarded"):
    """A Pirate returns to the Pirate Ship and their Port Phase ends (L1241, L1300).

    `late`: the Time Units ran out before the Pirate was back aboard: 5 Fame lost, unless the Pirate was carried
    aboard Unconscious in this Port (L1243).
    """

    pirate_id: str
    late: bool = False


class AllyLoyaltyRolled(Event, kw_only=True, tag="ally.loyalty_rolled"):
    """Admiral setting: at the start of the Port Phase each hirer and their Ally roll a confronted Charisma roll,
    one die plus Charisma each; the Ally stays only if the hirer wins (L1807, L216-218)."""

    ally_id: str
    hirer_roll: int
    ally_roll: int


class RumorsHeard(Event, kw_only=True, tag="rumors.heard"):
    """Listen to Rumors: 2 Time Units at the Tavern (Perception 5) or the Manor (Charisma 4); a drawn Rumor is kept
    or discarded, and while one is kept no more are drawn (L1421, L1452)."""

    pirate_id: str
    where: Literal["tavern", "manor"]
    kept: str | None = None  # the Rumor card kept, if any


class RumorResolved(Event, kw_only=True, tag="rumor.resolved"):
    """At the next Port's setup a completed Rumor pays its reward, or its penalty if failed (L1265, L1452)."""

    pirate_id: str
    success: bool
    coins: int = 0
    fame: int = 0


class SchemeResolved(Event, kw_only=True, tag="scheme.resolved"):
    """Voyage «Cabins»: a Pirate other than the Captain schemes with a hidden coin, or an empty hand; the Captain
    may set a Group of Pirates on Guard with a hidden coin (L1914, L2073-2084)."""

    pirate_id: str
    coin: Coin | None  # None: an empty hand, nothing happens
    guard: Coin | None = None  # None: nobody Guards
    roll: int | None = None  # Gold - Raid: one die, +3 Coins from the Crew's Booty
    goods: Literal["Rum", "Supplies"] | None = None  # Copper - Theft: the token discarded to heal all Wounds


class CrewSurrendered(Event, kw_only=True, tag="crew.surrendered"):
    """A Voyage lost: the ship surrendered or sunk, the crew revolted, or every Character in the «Sickbay»: each
    Pirate loses all Coins and non-starting items, the Captain all the Crew's Booty (L2414-2422)."""

    cause: Literal["surrendered", "sunk", "revolt", "sickbay"]


class PurgeUsed(Event, kw_only=True, tag="purge.used"):
    """A Pirate with Purge makes its Charisma 5 roll, once per Voyage Phase: one die plus Charisma; on a success a
    Cursed Character of the user's choice loses that state and the user gains 3 Fame (L1617, L216-218)."""

    pirate_id: str  # the Pirate who uses Purge
    roll: int  # the Charisma die
    cursed_id: str | None = None  # the Cursed Pirate freed on a success


# --- added in the second round: the convention of issue 8 (docstring, field descriptions, examples) ---------------

TradeDirection = Literal["buy", "sell", "deliver"]


class TradeLine(msgspec.Struct, frozen=True, kw_only=True):
    """One kind of Goods sold, delivered or bought in a Trade action."""

    goods: Annotated[str, msgspec.Meta(description="The Goods as the Trade chart names them: Wood, Rum, Sugar...")]
    quantity: Annotated[int, msgspec.Meta(gt=0, description="How many tokens of these Goods.")]
    direction: Annotated[TradeDirection, msgspec.Meta(
        description="`sell` and `buy` at the chart's price; `deliver` Prisoners to the Brotherhood for the reward.")]
    price: Annotated[int, msgspec.Meta(
        ge=0, description="Coins per token, from the catalogue's Trade chart; Sugar's is its die x 10.")] = 0
    roll: Annotated[int | None, msgspec.Meta(description="The die that prices Sugar (1-6).")] = None
    sellable: Annotated[bool, msgspec.Meta(
        description="False for Prisoners, which are delivered, never sold (from the catalogue).")] = True


class TradeMade(Event, kw_only=True, tag="trade.made"):
    """The Captain trades at the Docks: one Trade action sells, delivers and buys several Goods for 2 Time Units.

    Sales and deliveries are made first and their Coins go to the Crew's Booty; then the purchases are paid from it.
    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Docks (Trade).
    """

    pirate_id: Annotated[str, msgspec.Meta(description="The Captain, who alone trades at the Docks.")]
    lines: Annotated[list[TradeLine], msgspec.Meta(
        min_length=1, description="Each kind of Goods traded, with how many and which way.")]

    VIEWS: ClassVar[tuple[str, ...]] = ("pirates", "pirate", "ship", "ledger")
    EXAMPLES: ClassVar[tuple[dict[str, Any], ...]] = (
        {"pirate_id": "anne", "lines": [
            {"goods": "Rum", "quantity": 2, "direction": "sell", "price": 10},
            {"goods": "Sugar", "quantity": 1, "direction": "sell", "price": 40, "roll": 4},
            {"goods": "Wood", "quantity": 1, "direction": "buy", "price": 15},
        ]},
    )


class StoryTold(Event, kw_only=True, tag="story.told"):
    """A Pirate tells a story at the Tavern: 2 Time Units and a Charisma 6 roll, up to 3 Coins spent for +1 each.

    The fold adds the Pirate's Charisma (and a Destiny Point's +1) to the die and the Coins; a total that exceeds 6
    gains the difference as Fame ("if the final result of the roll is a 9 ... 3 ... is the amount of Fame you gain").
    Rulebook: Skull Tales: Full Sail! rulebook, Book II: Locations, Tavern (Storytelling); Book I: Dice Rolls.
    """

    pirate_id: Annotated[str, msgspec.Meta(description="The Pirate who tells the story.")]
    roll: Annotated[int, msgspec.Meta(description="The Charisma roll's one die (1-6).")]
    coins: Annotated[int, msgspec.Meta(
        ge=0, description="Coins spent before rolling, +1 to the roll each: at most 3.")] = 0

    VIEWS: ClassVar[tuple[str, ...]] = ("pirates", "pirate", "ledger")
    EXAMPLES: ClassVar[tuple[dict[str, Any], ...]] = (
        {"pirate_id": "mary", "roll": 4, "coins": 2},
    )


EVENT_TYPES: tuple[type[Event], ...] = (
    PirateRecruited, FameChanged, CoinsChanged, CoinsGiven, WoundsChanged, DestinyChanged, PirateUnconscious,
    PirateRevived, InjurySuffered, PirateRetired, MatelotageDone, ProsthesisBought, CurseGained, PenanceChosen,
    CurseRemoved, ItemGained, ItemLost, ItemGiven, PortServiceBought, ManorEntered, TimeSpent, ApprovalGiven,
    CampaignCompleted, SkillLearned, FeatGained, AssignmentTaken, AssignmentResolved, AllyHired, AllyUpkeepPaid,
    AllyDied, AllyDismissed, CaptainElected, TrustChanged, MoraleChanged, MutinyResolved, AllyMutinyResolved,
    CommandIssued, ShipBought, ShipUpgraded, ShipDamaged, ShipRepaired, UpgradeUsed, GroupHired, GroupLost,
    GoodsTraded, GoodsGained, GoodsSpent, BootyBuried, BootyRecovered, LoanTaken, LoanRepaid, SalaryCollected,
    ChapterStarted, PhaseStarted, PhaseEnded, ChapterEnded, PirateBoarded, AllyLoyaltyRolled, RumorsHeard,
    RumorResolved, SchemeResolved, CrewSurrendered, PurgeUsed, TradeMade, StoryTold,
)
