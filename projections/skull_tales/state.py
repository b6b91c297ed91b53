"""The state of a Skull Tales campaign: record sheets, the Captain's ship, the booty and its ledger, the chapter.

Two layers: what the Record Sheet holds (`fame`, `coins`) and what is at risk in the current
phase (`phase_fame`, `phase_coins`, Trust Points, Time Units), banked, halved or lost when the phase ends.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from quartermaster.events.skull_tales import CharacterCardRecorded
from quartermaster.projections.game import Rejection, StateStruct, broken
from quartermaster.projections.skull_tales.options import Options

ATTRIBUTES = ("melee", "ranged", "strength", "agility", "intelligence", "perception", "charisma")
# Book I: Permanent Injuries and Retirement, Permanent Injury Chart: the minimum value of these attributes is 2; an injury that would bring one to 1 is ignored.
FLOORED = ("strength", "agility", "intelligence", "perception")


class Struct(StateStruct, kw_only=True):
    pass


class LearnedSkill(Struct, kw_only=True):
    name: str
    skill_class: str
    special: bool = False
    phase_serial: int = 0  # the phase it was learned in: a master must have known it before this Port (Book II: Feats, Classes and Skills, Master and apprentice)
    effects: dict[str, int] = {}


class Item(Struct, kw_only=True):
    name: str
    kind: Literal["gear", "legendary", "item_token"] = "gear"
    half_space: bool = False
    equipped: bool = False
    value: int = 0  # Coins it is worth: what was paid for it, else its card's price; 0 when not known


class GearCard(Struct, kw_only=True):
    """A Gear card as the table read it off the card once: its Coins cost and the space it takes (card contents the
    rulebook does not print)."""

    price: int
    half_space: bool = False
    equipped: bool = False


class Mark(Struct, kw_only=True):
    kind: Literal["approval", "disapproval"]
    permanent: bool = False


class Debt(Struct, kw_only=True):
    """A sum a Pirate owes and could not pay: taken from their next Salary (Book II: Port Phase, Setup)."""

    to: str  # an account ("pirate:anne") or a sink ("sink:retirement")
    amount: int
    reason: str


class Loan(Struct, kw_only=True):
    lender: str
    principal: int
    owed: int  # 6 Coins for every 5 loaned (Book II: Locations, Madame Claude's Manor)
    phase_serial: int  # Debtor "from the next Port Phase onwards"
    # A Market or ship loan is "the amount needed" for a purchase (Book II: Locations, Market Square; Docks): what the
    # paying purse held before the loan, until the purchase it covers is folded and held to it; None once it is.
    purse: int | None = None


class Pirate(Struct, kw_only=True):
    id: str
    name: str
    archetype: str
    player: str = ""
    classes: list[str]
    dominant_hand: Literal["left", "right"] = "right"
    base: dict[str, int]
    action_points: int
    health: int
    destiny_max: int
    salary: int
    starting_skills: list[str] = []
    skills: list[LearnedSkill] = []
    starting_gear: list[str] = []
    items: list[Item] = []
    fame: int = 0
    coins: int = 0
    phase_fame: int = 0
    phase_coins: int = 0
    wounds: int = 0
    destiny: int = 0
    status: Literal["active", "unconscious", "must_retire", "retired"] = "active"
    cursed: bool = False
    penance: str | None = None
    penance_serial: int = 0
    # The Port Phase (its phase_serial) in which the Pirate last entered Madame Claude's Manor, paying its fee: the
    # Manor's own services (a loan, the Luxury Treatment) are for those inside (Book II: Locations, Madame Claude's
    # Manor: "Whenever you enter the manor you must pay 7 Coins").
    manor_serial: int = -1
    penance_done: bool = False  # the Adventure after the penance was chosen has ended: the Chapel may lift the Curse
    penance_broken: str | None = (
        None  # what broke the penance in that Adventure (Book II: Locations, Saint Telmo's Chapel "to the letter")
    )
    injuries: list[str] = []
    injury_changes: dict[str, int] = {}
    lost_hands: list[str] = []
    movement: int = 0
    prostheses: list[str] = []
    feats: list[str] = []
    special_skill_capacity: int = 3
    approvals: dict[str, Mark] = {}
    time_units: int = 0
    salary_collected: bool = False
    loan: Loan | None = None
    debts: list[Debt] = []
    compensated_injuries: list[str] = []
    adventures_total_success: int = 0
    campaigns_completed: int = 0
    assignments_as_captain: int = 0
    ally_hired_chapter: int = 0
    voyage_unconscious: bool = False
    replaces: str | None = None
    retired_reason: str | None = None
    matelotage_done: bool = False  # a retired Pirate passes things on once (Book I: Permanent Injuries and Retirement, Character Retirement)
    boarded: bool = (
        False  # back aboard the Pirate Ship: this Pirate's Port Phase is over (Book II: Port Phase, Port Components)
    )
    port_unconscious: bool = (
        False  # carried aboard Unconscious in this Port: never late as well (Book II: Port Phase, Port Components)
    )
    rumor: str | None = None  # the Rumor card kept, until resolved at a later Port (Book II: Locations, Tavern)
    rumor_serial: int = 0  # the Port Phase it was kept in


class Ally(Struct, kw_only=True):
    id: str
    archetype: str
    hirer: str
    charisma: int
    salary: int
    fame_cost: int
    status: Literal["hired", "dead", "dismissed"] = "hired"
    paid_serial: int = 0  # the Port Phase whose upkeep is paid
    coins: int = 0  # Coins the Ally gained this Adventure (half go to the hirer, Book I: Allies)
    hired_chapter: int = 0
    loyalty_serial: int = 0  # the Port Phase whose Admiral loyalty roll it passed
    drawn: Literal["solo_start", "castaways"] | None = (
        None  # drawn at random, unpaid (Book I: Game Modes, Lone Pirates)
    )


class Ship(Struct, kw_only=True):
    name: str
    ship_type: str
    sails: int  # capacity, upgradeable to sails_max
    sails_max: int
    sails_damaged: int = 0
    hold: int  # capacity in columns of two spaces
    hold_max: int
    hold_impacts: int = 0
    cannons: int
    groups: int = 4
    speed: int = 0
    upgrades: dict[str, int] = {}
    # Each upgrade's kind as the catalogue gave it when bought (`permanent`, `single`, `consumable`): what using it does.
    upgrade_kinds: dict[str, str] = {}
    # Ammunition used in this Voyage: "Discard it at the end of the Voyage Phase if it was used" (Book II: Docks).
    ammunition_used: list[str] = []
    goods: dict[str, int] = {}


class Entry(Struct, kw_only=True):
    """One movement of Coins: from an account or a rules source, to an account or a rules sink."""

    position: int
    source: str
    to: str
    amount: int
    reason: str


class Assignment(Struct, kw_only=True):
    name: str
    holder: str


class Compensation(Struct, kw_only=True):
    """A payment the next Port's setup makes (Book II: Port Phase, Setup)."""

    kind: Literal["injury", "retirement", "lost_ally"]
    payer: str | None  # None: every other active Pirate pays
    to: str  # an account or a sink
    amount: int
    about: str


class Snapshot(Struct, kw_only=True):
    """The crew at the start of an Adventure, restored when it must be repeated (Book I: End of the Adventure)."""

    pirates: dict[str, Pirate]
    allies: dict[str, Ally]
    ledger_length: int
    crew_booty: int
    pending: list[Compensation] = []


class Roll(Struct, kw_only=True):
    position: int
    character_id: str | None
    purpose: str | None
    faces: list[int]
    target: int | None
    successes: int | None
    success: bool | None
    destiny: bool = False


class SkullTales(Struct, kw_only=True):
    options: Options
    position: int = 0  # the log position of the event being folded: ledger entries and rolls name it
    pirates: dict[str, Pirate] = {}
    # The Character Cards the group recorded, by archetype (projections/skull_tales/cards.py).
    character_cards: dict[str, CharacterCardRecorded] = {}
    allies: dict[str, Ally] = {}
    captain: str | None = None
    former_captains: list[str] = []
    ship: Ship | None = None
    crew_booty: int = 0
    buried: dict[str, dict[str, int]] = {}  # burier -> island -> Coins
    ledger: list[Entry] = []
    legendary: dict[str, str] = {}  # Legendary item -> holder
    # Each Gear card the table priced (bought or valued), by name: the next purchase of the same card asks nothing.
    gear_cards: dict[str, GearCard] = {}
    chapter: int = 0
    chapter_phases: list[str] = []
    phase: str | None = None
    phases_done: list[str] = []
    phase_serial: int = 0
    solo: bool = False
    morale: int = 20
    trust: dict[str, int] = {}
    assignment: Assignment | None = None
    pending: list[Compensation] = []
    adventure_fame: dict[
        str, int
    ] = {}  # Fame gained in the current or last Adventure (captaincy, Book I: End of the Adventure)
    snapshot: Snapshot | None = None
    plus_one: list[str] = []  # characters who spent a Destiny Point for +1 per die on their next roll
    rolls: list[Roll] = []
    campaigns_completed: int = 0
    caught_scheming: list[
        str
    ] = []  # Pirates caught this Voyage: no more Schemes until it ends (Book III: Voyage Phase Sequence, Crew Round)
    # Solo Mode: the hired Allies the Captain took into the Adventure in play, or None: every hired Ally (Book II:
    # Locations, Tavern: "only three can be used in the Adventure Phase").
    adventure_allies: list[str] | None = None
    # How the last Adventure ended: the captaincy goes to someone only after a successful one (Book I: End of the
    # Adventure).
    adventure_succeeded: bool = False
    purged: list[
        str
    ] = []  # Pirates who used Purge in this Voyage Phase: once per Voyage (Book II: Feats, Classes and Skills, Mystic Skills)


def pirate(state: SkullTales, pirate_id: str) -> Pirate:
    """The pirate, or a Rejection naming the crew."""
    try:
        return state.pirates[pirate_id]
    except KeyError:
        crew = ", ".join(state.pirates) or "nobody yet"
        raise Rejection(f"There is no pirate {pirate_id!r} in this crew (the crew: {crew}).") from None


def active_pirate(state: SkullTales, pirate_id: str) -> Pirate:
    p = pirate(state, pirate_id)
    if p.status == "retired":
        raise Rejection(f"{p.name} has retired from the campaign.")
    return p


def put(state: SkullTales, p: Pirate) -> SkullTales:
    return msgspec.structs.replace(state, pirates={**state.pirates, p.id: p})


def change(p: Pirate, **fields: object) -> Pirate:
    return msgspec.structs.replace(p, **fields)


def in_play(state: SkullTales) -> list[Pirate]:
    return [p for p in state.pirates.values() if p.status != "retired"]


def require_phase(state: SkullTales, phase: str, doing: str) -> None:
    if state.phase != phase:
        now = f"the {state.phase} phase" if state.phase else "no phase"
        broken(f"{doing} happens in the {phase.capitalize()} Phase, and this is {now}.")


def require_ashore(state: SkullTales, p: Pirate, doing: str) -> None:
    """A Port action of a Pirate still ashore: the Port Phase is over for one back aboard or carried aboard
    Unconscious (Book II: Port Phase, End of the Port Phase; Important Concepts). Time Units run out with the action
    that spends the last of them, which may be a purchase the table logs after it (a Haggle's Gear card): actions
    that cost Time Units are held to them by `spend_time`. Feats, an Ally's upkeep and trading aboard are not Port
    actions of a location, and do not ask this."""
    if state.phase == "port" and (p.boarded or p.port_unconscious):
        broken(f"{p.name} cannot {doing}: {p.name}'s Port Phase is over, back aboard the Pirate Ship.")


def has_skill(p: Pirate, name: str) -> bool:
    return name in p.starting_skills or any(s.name == name for s in p.skills)


def skill_effect(p: Pirate, key: str) -> int:
    return sum(s.effects.get(key, 0) for s in p.skills)


def attribute(p: Pirate, name: str) -> int:
    """The attribute as it stands now: the card, injuries (not below 2, Book I: Permanent Injuries and Retirement, Permanent Injury Chart), prostheses and skills."""
    base = p.base[name]
    value = base + p.injury_changes.get(name, 0)
    if name in FLOORED and value < base:
        value = max(value, min(base, 2))
    if name == "perception" and "eye_patch" in p.prostheses:
        value += 1
    return value + skill_effect(p, name)


def destiny_cap(p: Pirate) -> int:
    return p.destiny_max + skill_effect(p, "destiny_points")
