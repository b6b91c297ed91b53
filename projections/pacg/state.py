"""The state of a Skull & Shackles campaign: frozen msgspec Structs that round-trip through JSON exactly.

Dicts inside the frozen Structs are never mutated once a state is returned: each event copies only the dicts it
changes (copy on write, see zones.Work), so consecutive states share everything else.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from quartermaster.events.pacg import CardPower, CharacterCard, ProductListRecorded, ScenarioCardRecorded, ShipCard
from quartermaster.projections.game import StateStruct

Difficulty = Literal["easy", "normal", "heroic", "legendary"]

# The steps of a turn in the rulebook's order (projections/pacg/steps.py): "start" is Advance the Blessings Deck.
Step = Literal["start", "give", "move", "explore", "close", "reset", "end"]


class Options(StateStruct, forbid_unknown_fields=True):
    """Core rules options recorded when the campaign starts (FAQ: difficulty modes, names of things)."""

    # Blessings in the hourglass: Normal is 30; fewer is harder, more is easier.
    hourglass: int = 30
    # Locations: -1 one fewer than the scenario lists for the party (easier), +1 one more (harder).
    location_count: Literal[-1, 0, 1] = 0
    # Location size: small (about 3 cards fewer), medium (typically 9), large (about 3 more).
    location_size: Literal["small", "medium", "large"] = "medium"
    # Wildcards on the table, by name, with the powers marked.
    wildcards: list[str] = []
    # Banes one level up: the vault's banes 1 level higher than #, and # treated as 1 higher for banes.
    banes_level_up: bool = False
    difficulty: Difficulty = "normal"
    # "basic": the rulebook's Basic-trait rule for new decks (and Tempest Rising's adventure-deck rule);
    # "level": the Core rules' rule, cards of level up to the latest scenario's # minus 2 (minimum 0).
    deck_rule: Literal["basic", "level"] = "basic"
    # "core" names things as the Core rules do (vault, hourglass); "classic" as the 2013 rulebook (box, blessings deck).
    naming: Literal["core", "classic"] = "core"
    # Role cards are the reward for completing the third adventure of the Adventure Path (Skull & Shackles Rulebook, Role Cards):
    # role.chosen waits until the party has completed this many of its adventures (Plunder and Peril, the base
    # set's adventure, is not one). A group that hands roles out earlier records a lower number.
    roles_after_adventures: int = 3
    # "checked": at a scenario's first turn every living character's hand holds a card of a favoured type when her
    # cards hold one (Skull & Shackles Rulebook, Draw Starting Hands). "recorded" (the default) does not check, for tables that log
    # only some of their draws, or play a power that changes the starting hand.
    starting_hand: Literal["recorded", "checked"] = "recorded"
    # Each character explores once a turn without a card that lets her explore again (Skull & Shackles Rulebook, Your Turn: Explore).
    # True (the rule, the default) refuses a second exploration in a turn unless it says `explore_again`; false
    # serves groups that play otherwise and does not count explorations.
    explore_once_per_turn: bool = True
    # "open" (the default): the box holds more than the log knows (Skull & Shackles Rulebook, Organizing Your Cards: the catalogue
    # never lists a whole box). Face-down cards are dealt by type whatever the known counts, and a card becomes
    # known, with one more copy, when the table first names it. "counted": the log holds the whole box, and every
    # copy taken out must be one it counted.
    box: Literal["open", "counted"] = "open"
    # The end-of-turn reset is a required step (Skull & Shackles Rulebook, Your Turn): "required" refuses the next turn while the
    # active character holds other than her hand size; "recorded" leaves it to the table.
    reset: Literal["required", "recorded"] = "required"
    # Who may log an event against a rule of the game, with a reason: the campaign's "owner" (the default), or any
    # of its "players" too. Integrity rules hold for everyone.
    overrides: Literal["owner", "players"] = "owner"


class CardInfo(StateStruct, array_like=True):
    type: str
    traits: tuple[str, ...] = ()
    product: str | None = None
    level: int = 0
    # The type a loot card counts as; for other cards their own type.
    counts_as: str = ""
    # Its printed powers as data (a henchman that may not be evaded); `by_hand` ones the table applies.
    powers: tuple[CardPower, ...] = ()
    # Its check to defeat as printed ("Combat 8"), where the texts print it.
    to_defeat: str | None = None


class Pile(StateStruct):
    """The cards of one zone: known copies by name, face-down copies by type (or by the `dealt` pool)."""

    known: dict[str, int] = {}
    hidden: dict[str, int] = {}


class Character(StateStruct):
    name: str
    player: str
    card: CharacterCard
    alive: bool = True
    # The number of the scenario (counted from 1) the character died in; None while alive.
    died_in: int | None = None
    has_deck: bool = False
    # Checked feat boxes: "<kind>|<group>" -> how many boxes of that group are checked, leftmost first.
    feats: dict[str, int] = {}
    role: str | None = None
    role_powers: dict[str, list[str]] = {}
    hero_points: int = 0
    location: str | None = None
    # Set aside (character.set_aside): her deck as written down, one entry per copy, its cards back in the box.
    aside: tuple[str, ...] | None = None


class Place(StateStruct):
    closed: bool = False
    temporarily_closed: bool = False


class Encountering(StateStruct, array_like=True):
    """A card being encountered, the location deck it came from (None when it was summoned), the character who
    encounters it, and the check logged against it (dice.rolled naming a difficulty or a success) while it lasts."""

    card: str
    location: str | None = None
    character_id: str | None = None
    difficulty: int | None = None
    total: int | None = None
    success: bool | None = None
    # How the encounter ended (encounter.ended), while the card waits to go where the rules send it.
    outcome: Literal["defeated", "undefeated", "evaded"] | None = None
    # A ship the card summoned (the henchman Enemy Ship), and whether it was defeated: not defeated, the card
    # that summoned it is undefeated (Ships and Henchmen, Enemy Ship).
    ship: str | None = None
    ship_defeated: bool | None = None
    # The checks logged against the card disagree (a reroll, or sequential checks "then", some attempted by another
    # character at the location): the fold then leaves defeated or undefeated to the table (Attempting a Check).
    doubtful: bool = False
    # Whether the log says who encounters the card (an exploration, or `encountered_by`). A card summoned with no one
    # named may be another character's (a location's When Closing summons one for whoever closes it): the first check
    # logged against it names her (Attempting a Check: only the character who encounters the card attempts it).
    named: bool = True


class Scenario(StateStruct):
    name: str
    adventure: str | None
    number: int
    places: dict[str, Place]
    villains: list[str]
    henchmen: list[str]
    hourglass_size: int
    party: list[str] = []
    # Always "playing" now: a loss ends the scenario at once (State.lost says why); kept for stored states.
    status: Literal["playing", "lost"] = "playing"
    loss: str | None = None
    turn: str | None = None
    turns: int = 0
    # The step the turn in progress has reached (Skull & Shackles Rulebook, Your Turn); a step passed is passed.
    step: Step = "start"
    # The top card of the hourglass discards (the hour), when the table named it.
    hour: str | None = None
    setup_stashed: bool = False
    plunder_banished_this_turn: bool = False
    # Whether the character whose turn it is has explored yet (only explorations that name her explorer count).
    explored_this_turn: bool = False
    # The Give a Card step comes before Move, once a turn (Skull & Shackles Rulebook, Your Turn).
    gave_this_turn: bool = False
    moved_this_turn: bool = False
    # A power allowed or directed the character whose turn it is not to reset her hand this turn.
    reset_kept: bool = False
    # The reset of this turn has begun (hand.reset): nothing of the turn's own steps comes after it.
    reset_done: bool = False
    # The characters in the order of their first turns: the group's order, kept for every round after the first
    # (Skull & Shackles Rulebook, Setting Up: Decide Who Goes First; Your Turn: End Your Turn).
    turn_order: list[str] = []
    # The encounters in progress, the latest last: a summoned card's encounter resolves before the one it
    # interrupted (Skull & Shackles Rulebook, Summoning and Adding Cards).
    encounters: list[Encountering] = []
    # Where a character encounters the villain, and how that encounter ended, until the villain leaves it.
    villain_at: str | None = None
    villain_outcome: Literal["defeated", "undefeated", "evaded"] | None = None
    # Locations a henchman from their own deck was defeated at this turn: each may be closed (Closing a Location).
    may_close: list[str] = []
    # Who earned each of those opportunities: only she may attempt the closing (Things to Keep in Mind: No One Else
    # Can Take Your Turn for You).
    closers: dict[str, str] = {}
    # The enemy ship the commander is encountering, and the one she defeated this turn (which a card may seize).
    enemy_ship: str | None = None
    defeated_ship: str | None = None
    # The commander's encounter with that enemy ship, and the check logged against it (Encountering Ships).
    ship_met: Encountering | None = None


class DeckOrder(StateStruct):
    """What the log knows of a character deck's order since it was last shuffled: the cards reloaded on top (top
    first) and the cards recharged to the bottom (bottom last); the rest lies between, in no known order."""

    top: tuple[str, ...] = ()
    bottom: tuple[str, ...] = ()


class Fleet(StateStruct):
    ships: dict[str, ShipCard] = {}
    # At first only the Merchantman is checked off on the fleet card.
    checked: list[str] = msgspec.field(default_factory=lambda: ["Merchantman"])
    current: str | None = None
    wrecked: bool = False
    anchored: str | None = None


class Adventure(StateStruct):
    name: str
    number: int
    # The scenarios known so far, in order: those its card names, then those played as part of it.
    scenarios: list[str]
    # How many scenarios its card lists (0: as many as `scenarios`); it is complete when every one is won.
    count: int = 0

    @property
    def size(self) -> int:
        return max(self.count, len(self.scenarios))


class Owed(StateStruct):
    """What the table owes before anything else: discards for damage to one character or for Structural damage
    prevented by any character (`count` discards), or one character's reset (`count` is her hand size)."""

    kind: Literal["damage", "prevention", "reset"]
    count: int
    character_id: str | None = None
    # A reset's discards come before its draws: once she draws, she discards no more.
    drawing: bool = False


class State(StateStruct):
    options: Options = Options()
    cards: dict[str, CardInfo] = {}
    products: list[str] = []
    zones: dict[str, Pile] = {}
    # Copies in the vault by type, counting face-down copies dealt out of it whose names nobody knows yet.
    vault_types: dict[str, int] = {}
    face_down_out: dict[str, int] = {}
    # Summoned copies of cards already in play: they exist only until they leave the encounter.
    imagined: dict[str, int] = {}
    # The copies of each card the log knows exist: what products and defined cards brought, and each copy the
    # open box gave up when the table named it. Every one of them is in exactly one zone.
    copies: dict[str, int] = {}
    characters: dict[str, Character] = {}
    fleet: Fleet = Fleet()
    scenario: Scenario | None = None
    adventure: Adventure | None = None
    adventures_begun: list[str] = []
    completed: list[str] = []
    # The adventures of the Adventure Path (adventure deck # 1 to 6) the party has completed; the base set's
    # Plunder and Peril (# 0) is not one of them (Skull & Shackles Rulebook, Setting Up; Role Cards).
    path_completed: list[str] = []
    rewardable: list[str] = []
    # The characters who played the scenario that opened the rewards: only they earn them.
    rewarded_party: list[str] = []
    # The characters who gained a feat from each reward open now: one reward gives each character one feat.
    reward_feats: dict[str, list[str]] = {}
    # The character who just spent a hero point on a feat as it was awarded: her next feat.gained is that feat.
    hero_feat: str | None = None
    owed: Owed | None = None
    fresh_hero_point: str | None = None
    # "Island Hopping was lost (the hourglass had no card left to advance)": a loss ends the scenario at once, and
    # nothing more happens in it until the next scenario starts.
    lost: str | None = None
    # Known top and bottom cards of each character's deck since it was last shuffled, by character id.
    deck_order: dict[str, DeckOrder] = {}
    # The cards each character who died in the latest scenario had, put among the party's spare cards at its end.
    dead_cards: dict[str, dict[str, int]] = {}
    scenarios_played: int = 0
    # The # of the most recently played scenario (the Core level rule reads it).
    last_number: int = 0
    # The group's own scenario cards and product lists, by scenario name and product (projections/pacg/recorded.py).
    scenario_cards: dict[str, ScenarioCardRecorded] = {}
    product_lists: dict[str, ProductListRecorded] = {}
