"""Events of the Pathfinder Adventure Card Game: Skull & Shackles (game id `pacg-skull-and-shackles`).

Every event is self-contained: a character joins with the facts of her character card, a
product arrives in the vault with its card list, a scenario starts with its locations and their deck lists. The
service fills these in from the catalogue before recording; the fold never reads the catalogue.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

from events.base import Event

# Where a card can be. Character zones carry `character_id`; a location carries `location`.
ZoneKind = Literal[
    "vault",
    "deck",
    "hand",
    "discard",
    "buried",
    "displayed",
    "recovery",
    "location",
    "plunder",
    "hourglass",
    "hourglass_discard",
    "encounter",
    "set_aside",
    # Cards dealt face down among several locations whose whereabouts nobody knows: the villain and henchmen
    # stack at setup, an escaping villain shuffled with blessings. A location's face-down `dealt` cards are these.
    "dealt",
]

CHARACTER_ZONES = frozenset({"deck", "hand", "discard", "buried", "displayed", "recovery"})

Verb = Literal[
    "draw",
    "discard",
    "recharge",
    "bury",
    "banish",
    "display",
    "reveal",
    "acquire",
    "give",
    "shuffle",
    "reload",
    "stash",
    "return",
    "summon",
    "set_aside",
]

BoonType = Literal["weapon", "spell", "armor", "item", "ally"]


class HiddenCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A face-down card known only by its type (or by the `dealt` pool it came from)."""

    hidden: str


class Zone(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A place a card can be: `{"zone": "hand", "character_id": "merisiel"}`, `{"zone": "location", ...}`."""

    zone: ZoneKind
    character_id: str | None = None
    location: str | None = None


class CardEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A card as a product or a campaign defines it, with how many copies arrive in the vault."""

    name: str
    type: str
    traits: list[str] = []
    count: int = 1
    # The product letter or number in the card's upper-right corner (B, C, 1..6, P, or a class deck name).
    product: str | None = None
    # The Core rules' level; when absent it follows from the product (B and C are 0, adventure decks their number).
    level: int | None = None
    # A loot card lists the type it counts as ("weapon").
    loot_type: str | None = None


class SkillLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A skill on a character card: `Dexterity d8` or `Ranged: Dexterity +3`, with its feat boxes."""

    die: str | None = None
    base: str | None = None
    modifier: int = 0
    feats: list[str] = []


class CardsListLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One line of the cards list: how many cards of a type, and the counts its card-feat boxes raise it to."""

    count: int
    feats: list[int] = []


class RoleSide(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One side of a role card: its power feat boxes, by power."""

    powers: dict[str, list[str]] = {}


class CharacterCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The facts of a character card the tracker needs; what a pack does not know stays empty."""

    name: str
    cards_list: dict[str, CardsListLine]
    hand_size: int | None = None
    favored: list[str] = []
    skills: dict[str, SkillLine] = {}
    powers: dict[str, list[str]] = {}
    proficiencies: list[str] = []
    roles: dict[str, RoleSide] = {}
    notes: str | None = None


class ShipCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A ship card: set, class, and its checks as printed."""

    name: str
    set: str | None = None
    ship_class: int | None = None
    to_defeat: str | None = None
    to_repair: str | None = None


class LocationSetup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A location in play and the deck list it is built from (face-down cards by type)."""

    name: str
    deck: dict[str, int] = {}


# ----------------------------------------------------------------------------------------------- the box


class VaultProductsAdded(Event, kw_only=True, tag="vault.products_added"):
    product: str
    cards: list[CardEntry]


class CardDefined(Event, kw_only=True, tag="card.defined"):
    """A card of the group's own (a promo, a card the pack lacks); its copies go into the vault."""

    card: CardEntry


# ----------------------------------------------------------------------------------------------- characters


class CharacterJoined(Event, kw_only=True, tag="character.joined"):
    character_id: str
    name: str
    player: str
    card: CharacterCard


class DeckBuilt(Event, kw_only=True, tag="deck.built"):
    character_id: str
    cards: list[str]


class DeckRebuilt(Event, kw_only=True, tag="deck.rebuilt"):
    character_id: str
    cards: list[str]


class CardFacts(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Facts printed on a character card that the recorded card lacks; each is given once and kept.

    `hand_size`: the hand size printed on the card.
    """

    hand_size: Annotated[int, msgspec.Meta(ge=1)] | None = None
    favored: Annotated[list[str], msgspec.Meta(description="The favored card types.")] = []
    proficiencies: Annotated[list[str], msgspec.Meta(description="Proficient With: weapons, armors.")] = []
    skills: Annotated[
        dict[str, SkillLine], msgspec.Meta(description="Skills by name, with their die and skill feat boxes.")
    ] = {}
    powers: Annotated[
        dict[str, list[str]], msgspec.Meta(description="Power feat boxes by power, left to right.")
    ] = {}
    card_feats: Annotated[
        dict[str, list[int]],
        msgspec.Meta(description="Card feat boxes by card type: the counts each box raises the Cards List to."),
    ] = {}


class CharacterCardCompleted(Event, kw_only=True, tag="character.card_completed"):
    """The table gives facts of a character card that the recorded card lacks: a hand size, proficiencies, feat
    boxes. What is recorded is kept; a fact already recorded is never changed.

    Rulebook: Skull & Shackles Rulebook, Character Cards; Feats.
    """

    character_id: Annotated[str, msgspec.Meta(description="The character whose card it is.")]
    card: Annotated[CardFacts, msgspec.Meta(description="The facts from the card in hand.")]

    EXAMPLES: ClassVar[tuple[dict[str, Any], ...]] = (
        {
            "character_id": "merisiel",
            "card": {
                "hand_size": 5,
                "skills": {"Dexterity": {"die": "d12", "feats": ["+1", "+2", "+3"]}},
                "powers": {"Hand Size": ["6"], "Light Armors": ["Light Armors"]},
                "card_feats": {"weapon": [4, 5]},
            },
        },
    )


class CharacterMoved(Event, kw_only=True, tag="character.moved"):
    """A token moves to a location; `moved_with` are the characters on the ship who sail along."""

    character_id: str
    to: str
    moved_with: list[str] = []


# `omit_defaults`: a move that names no explorer encodes exactly as card.moved did before `explorer` existed.
class CardMoved(Event, kw_only=True, tag="card.moved", omit_defaults=True):
    """A card goes from one zone to another by one of the rulebook's verbs; exploring is a card revealed from a
    location to the encounter.

    Rulebook: Skull & Shackles Rulebook, Playing Cards; Your Turn: Explore.
    """

    card: Annotated[
        str | HiddenCard,
        msgspec.Meta(description="The card by name, or {hidden: type} for a face-down card nobody has seen."),
    ]
    from_: Annotated[Zone, msgspec.Meta(description="Where the card was.")] = msgspec.field(name="from")
    to: Annotated[Zone, msgspec.Meta(description="Where the card goes.")]
    verb: Annotated[Verb, msgspec.Meta(description="The rulebook's verb: draw, discard, recharge, banish...")]
    explorer: Annotated[
        str | None,
        msgspec.Meta(description="The character who explores, when the move is an exploration of her location."),
    ] = None
    explore_again: Annotated[
        bool,
        msgspec.Meta(description="True when a card or power granted this exploration, not the turn's free one."),
    ] = False
    card_type: Annotated[
        str | None,
        msgspec.Meta(
            description="The card's type the first time the table names a card the log does not know yet "
            "(the service fills it from the catalogue when it can)."
        ),
    ] = None

    EXAMPLES: ClassVar[tuple[dict[str, Any], ...]] = (
        {
            "card": "Dire Rat",
            "card_type": "monster",
            "from": {"zone": "location", "location": "Shark Island"},
            "to": {"zone": "encounter"},
            "verb": "reveal",
            "explorer": "merisiel",
        },
        {
            "card": "Cutlass",
            "from": {"zone": "hand", "character_id": "merisiel"},
            "to": {"zone": "deck", "character_id": "merisiel"},
            "verb": "recharge",
        },
    )


class DamageDealt(Event, kw_only=True, tag="damage.dealt"):
    """Damage after every reduction; the discards follow as card.moved events."""

    character_id: str
    amount: int
    damage_type: str = "Combat"


class HandReset(Event, kw_only=True, tag="hand.reset"):
    """A character resets her hand near the end of her turn: any discards, then down to or up to her hand size, as
    the card.moved events that follow.

    Rulebook: Skull & Shackles Rulebook, Your Turn: Reset Your Hand.
    """

    character_id: Annotated[str, msgspec.Meta(description="The character who resets.")]
    hand_size: Annotated[
        int | None,
        msgspec.Meta(description="Her hand size, only when her card records none; it is kept on the card."),
    ] = None
    kept: Annotated[
        bool,
        msgspec.Meta(description="True when a power allows or directs her not to reset her hand this turn."),
    ] = False

    EXAMPLES: ClassVar[tuple[dict[str, Any], ...]] = ({"character_id": "merisiel"},)


class CharacterDied(Event, kw_only=True, tag="character.died"):
    character_id: str


class CharacterRevived(Event, kw_only=True, tag="character.revived"):
    character_id: str


# ----------------------------------------------------------------------------------------------- scenarios


class AdventureStarted(Event, kw_only=True, tag="adventure.started"):
    """An adventure begins: its scenarios in order; its Adventure Deck, when given, goes into the vault."""

    adventure: str
    number: int = 0
    scenarios: list[str] = []
    product: str | None = None
    cards: list[CardEntry] = []


class ScenarioStarted(Event, kw_only=True, tag="scenario.started"):
    scenario: str
    adventure: str | None = None
    # The adventure deck number of the scenario (#); 0 for the base set.
    number: int = 0
    locations: list[LocationSetup]
    villains: list[str] = []
    henchmen: list[str] = []
    ship: str = "Merchantman"
    ship_card: ShipCard | None = None
    anchored_at: str | None = None
    # Blessings in the hourglass; None takes the campaign's option (30 by default).
    hourglass: int | None = None


class HourglassAdvanced(Event, kw_only=True, tag="hourglass.advanced"):
    """A turn starts: the top blessing goes to the hourglass discards (named when the table says which)."""

    character_id: str
    card: str | None = None


class LocationClosed(Event, kw_only=True, tag="location.closed"):
    location: str
    temporary: bool = False


class VillainEscaped(Event, kw_only=True, tag="villain.escaped"):
    """The villain is shuffled with blessings and dealt to the open locations."""

    villain: str
    to: list[str]
    defeated: bool = True


class ScenarioEnded(Event, kw_only=True, tag="scenario.ended"):
    result: Literal["won", "lost"]


# ----------------------------------------------------------------------------------------------- ships


class ShipDamaged(Event, kw_only=True, tag="ship.damaged"):
    """Structural damage after the powers that change it; `prevented` by cards discarded from hands next."""

    amount: int
    prevented: int = 0
    wrecked: bool | None = None


class ShipRepaired(Event, kw_only=True, tag="ship.repaired"):
    character_id: str | None = None


class ShipSeized(Event, kw_only=True, tag="ship.seized"):
    ship: str
    ship_card: ShipCard | None = None


class ShipAnchored(Event, kw_only=True, tag="ship.anchored"):
    location: str


class PlunderStashed(Event, kw_only=True, tag="plunder.stashed"):
    """A face-down card of the rolled type goes under the ship (d6: 1 weapon ... 5 ally, 6 choose)."""

    roll: int | None = None
    card_type: str | None = None


class PlunderBanished(Event, kw_only=True, tag="plunder.banished"):
    """A plunder card goes back to the vault; `card` when someone peeked."""

    card_type: str
    card: str | None = None


# ----------------------------------------------------------------------------------------------- rewards


class FeatGained(Event, kw_only=True, tag="feat.gained"):
    character_id: str
    kind: Literal["skill", "power", "card"]
    # The box, as "<skill, power or card type> <box label>": "Dexterity +1", "Light Armors", "weapon 3".
    feat: str
    # The scenario, adventure or Adventure Path whose reward this is; checked to be earned only once.
    reward_of: str | None = None


class RoleChosen(Event, kw_only=True, tag="role.chosen"):
    character_id: str
    role: str
    # The side's power feat boxes when the character card does not carry them.
    powers: dict[str, list[str]] | None = None


class LootAwarded(Event, kw_only=True, tag="loot.awarded"):
    """A loot card (or a won plunder card) goes to a character's deck, or to the vault."""

    card: str
    to: str
    source: Literal["vault", "plunder"] = "vault"
    reward_of: str | None = None


class ShipAwarded(Event, kw_only=True, tag="ship.awarded"):
    ship: str
    ship_card: ShipCard | None = None
    reward_of: str | None = None


class HeroPointAwarded(Event, kw_only=True, tag="hero_point.awarded"):
    character_id: str


class HeroPointSpent(Event, kw_only=True, tag="hero_point.spent"):
    character_id: str
    for_: Literal["reroll", "feat", "return_from_death"] = msgspec.field(name="for")


PACG_EVENTS: tuple[type[Event], ...] = (
    VaultProductsAdded,
    CardDefined,
    CharacterJoined,
    CharacterCardCompleted,
    DeckBuilt,
    DeckRebuilt,
    CharacterMoved,
    CardMoved,
    DamageDealt,
    HandReset,
    CharacterDied,
    CharacterRevived,
    AdventureStarted,
    ScenarioStarted,
    HourglassAdvanced,
    LocationClosed,
    VillainEscaped,
    ScenarioEnded,
    ShipDamaged,
    ShipRepaired,
    ShipSeized,
    ShipAnchored,
    PlunderStashed,
    PlunderBanished,
    FeatGained,
    RoleChosen,
    LootAwarded,
    ShipAwarded,
    HeroPointAwarded,
    HeroPointSpent,
)
