"""Cards and where they are: the zones, the card facts events carry, and the box: products and the table's own cards."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from quartermaster.events.base import Event

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


CHARACTER = ("character", "turn")
SCENARIO = ("scenario", "turn")

CharacterId = Annotated[str, Meta(description="The character, by id (`lirianne`), as she joined the campaign.")]
RewardOf = Annotated[
    str | None,
    Meta(description="The scenario, adventure or Adventure Path whose reward this is; each reward is earned once."),
]
# A location by its name, as the scenario card prints it and as a location is set up, closed or recorded.
LocationName = Annotated[str, Meta(description="The location's name.")]


class HiddenCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A face-down card known only by its type (or by the `dealt` pool it came from)."""

    hidden: Annotated[
        str,
        Meta(
            description="The card's type (`weapon`, `blessing`...), or `dealt` for a card dealt "
            "face down whose type nobody knows."
        ),
    ]


class Zone(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A place a card can be: `{"zone": "hand", "character_id": "merisiel"}`, `{"zone": "location", ...}`."""

    zone: Annotated[
        ZoneKind,
        Meta(
            description="The kind of place: a character's `deck`, `hand`, `discard`, "
            "`buried`, `displayed` or `recovery`; a `location` deck; the "
            "`vault`, the `plunder` under the ship, the `hourglass` and its "
            "discards, the `encounter`, `set_aside`, or `dealt`."
        ),
    ]
    character_id: Annotated[str | None, Meta(description="Whose pile, for a character's zone.")] = None
    location: Annotated[str | None, Meta(description="Which location deck, for `location`.")] = None


# gc=False: a folded state keeps these for as long as its campaign is followed; frozen, holding only strings,
# numbers and other such values, they can form no reference cycle, so the collector need not walk them
# (msgspec's documented condition; projections.game.StateStruct says the same of the states).
class CardEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A card as a product or a campaign defines it, with how many copies arrive in the vault."""

    name: Annotated[str, Meta(description="The card's name as printed.")]
    type: Annotated[
        str,
        Meta(
            description="Its card type: `weapon`, `spell`, `armor`, `item`, `ally`, `blessing`, "
            "`monster`, `barrier`, `villain`, `henchman`, `loot`, `ship`..."
        ),
    ]
    traits: Annotated[list[str], Meta(description="Its traits as printed (`Basic`, `Swashbuckling`).")] = []
    count: Annotated[int, Meta(description="How many copies arrive in the vault.")] = 1
    product: Annotated[
        str | None,
        Meta(
            description="The product letter or number in the card's upper-right corner (B, C, 1..6, P, or a class deck "
            "name)."
        ),
    ] = None
    level: Annotated[
        int | None,
        Meta(
            description="The Core rules' level; when absent it follows from the product (B and C are 0, adventure decks "
            "their number)."
        ),
    ] = None
    loot_type: Annotated[str | None, Meta(description="For a loot card, the type it counts as (`weapon`).")] = None
    powers: Annotated[
        list[CardPower], Meta(description="Its printed powers as data the fold applies (the catalogue reads them).")
    ] = []
    to_defeat: Annotated[
        str | None, Meta(description="Its check to defeat as printed (`Combat 8`), where the texts print it.")
    ] = None


class SkillLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A skill on a character card: `Dexterity d8` or `Ranged: Dexterity +3`, with its feat boxes."""

    die: Annotated[str | None, Meta(description="The skill's die (`d8`), for a base skill.")] = None
    base: Annotated[str | None, Meta(description="The skill it derives from (`Dexterity`), for a derived one.")] = None
    modifier: Annotated[int, Meta(description="The bonus added to the die (`+3`).")] = 0
    feats: Annotated[list[str], Meta(description="The labels of its feat boxes (`+1`, `+2`).")] = []


class CardsListLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """One line of the cards list: how many cards of a type, and the counts its card-feat boxes raise it to."""

    count: Annotated[int, Meta(description="How many cards of this type the deck holds.")]
    feats: Annotated[list[int], Meta(description="The counts its card-feat boxes raise it to, leftmost first.")] = []


class RoleSide(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """One side of a role card: its power feat boxes, by power."""

    powers: Annotated[dict[str, list[str]], Meta(description="Each power's feat boxes, by power.")] = {}


# Facts printed on a character card, as a recorded card and the facts completing it carry them.
HandSize = Annotated[int | None, Meta(description="The hand size printed on the card.")]
Favored = Annotated[list[str], Meta(description="The favored card types.")]


class CharacterCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """The facts of a character card the tracker needs; what a pack does not know stays empty."""

    name: Annotated[str, Meta(description="The character's name.")]
    cards_list: Annotated[dict[str, CardsListLine], Meta(description="The Cards List, by card type.")]
    hand_size: HandSize = None
    favored: Favored = []
    skills: Annotated[dict[str, SkillLine], Meta(description="The skills, by name.")] = {}
    powers: Annotated[dict[str, list[str]], Meta(description="The powers' feat boxes, by power.")] = {}
    proficiencies: Annotated[list[str], Meta(description="The proficiencies (`Light Armors`, `Weapons`).")] = []
    roles: Annotated[dict[str, RoleSide], Meta(description="The role card's two sides, by role name.")] = {}
    notes: Annotated[str | None, Meta(description="Anything else the table wants to remember.")] = None


PowerKind = Literal[
    "may_not_be_evaded",
    "cannot_be_defeated",
    "structural_damage",
    "exchange_when_wrecked",
    "stash_instead",
    "difficulty",
    "close_when_defeated",
    "close_when_encountered",
    "cannot_be_seized",
    "plunder_limit",
    "banish_when_undefeated",
    "by_hand",
]


class CardPower(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A printed power as data the fold applies; `by_hand` for one the tracker cannot apply (the table does it)."""

    kind: Annotated[
        PowerKind,
        Meta(
            description="`may_not_be_evaded`, `cannot_be_defeated`, `structural_damage` (Structural damage to the "
            "ship changed by `amount`), `exchange_when_wrecked` (for the ship `ship`), `stash_instead` (a plunder "
            "card of `card_type` instead of rolling), `difficulty` (the check to defeat raised by `amount` and "
            "`per_adventure` times the scenario's #), `close_when_defeated` (its location may then be closed at "
            "once), `close_when_encountered` (its location may be closed at once when it is encountered), "
            "`cannot_be_seized`, `plunder_limit` (at most `amount` plunder cards under the ship), "
            "`banish_when_undefeated` (undefeated, it may be banished rather than shuffled back), or `by_hand`."
        ),
    ]
    text: Annotated[str, Meta(description="The power as printed.")]
    amount: Annotated[int, Meta(description="The number it adds (negative: reduces).")] = 0
    per_adventure: Annotated[int, Meta(description="Added once per the scenario's adventure deck number.")] = 0
    ship: Annotated[str | None, Meta(description="The ship it is exchanged for.")] = None
    card_type: Annotated[str | None, Meta(description="The plunder type stashed instead of rolling.")] = None
    when: Annotated[
        Literal["always", "encountering", "commanding", "wrecked"],
        Meta(description="When it is in force: always, when encountering the card, when commanding it, wrecked."),
    ] = "always"


class ShipCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A ship card: set, class, and its checks as printed."""

    name: Annotated[str, Meta(description="The ship's name.")]
    set: Annotated[str | None, Meta(description="The set it comes from (`B`, `1`).")] = None
    ship_class: Annotated[int | None, Meta(description="Its class.")] = None
    to_defeat: Annotated[str | None, Meta(description="The check to defeat it, as printed.")] = None
    to_repair: Annotated[str | None, Meta(description="The check to repair it, as printed.")] = None
    when_encountering: Annotated[
        list[str], Meta(description="The powers of its When Encountering section, as printed.")
    ] = []
    when_commanding: Annotated[
        list[str], Meta(description="The powers of its When Commanding section, as printed.")
    ] = []
    when_wrecked: Annotated[
        list[str], Meta(description="The powers of its When Commanding (Wrecked) section, as printed.")
    ] = []
    cannot_be_seized: Annotated[
        bool, Meta(description='True when the card says "This ship cannot be seized." (the Dominator).')
    ] = False
    powers: Annotated[
        list[CardPower], Meta(description="Its printed powers as data the fold applies (the catalogue reads them).")
    ] = []


# A ship's card as an event about the ship carries it: the catalogue fills it in from the ship's name.
ShipFacts = Annotated[ShipCard | None, Meta(description="Its card's facts (from the catalogue by name).")]


class LocationSetup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A location in play and the deck list it is built from (face-down cards by type)."""

    name: LocationName
    deck: Annotated[dict[str, int], Meta(description="How many face-down cards of each type its deck holds.")] = {}


# ----------------------------------------------------------------------------------------------- the box


# A product's card list: every card of it, each with how many copies it holds.
ProductCards = Annotated[list[CardEntry], Meta(description="Every card of the product, with its count.")]


class VaultProductsAdded(Event, kw_only=True, tag="vault.products_added"):
    """A product's cards went into the vault.

    Rulebook: Pathfinder Adventure Card Game Core Rules FAQ, the vault (the box).
    Send only `product` to take its card list from the catalogue.
    """

    product: Annotated[str, Meta(description="The product's letter or number (`B`, `C`, `1`).")]
    cards: ProductCards

    EXAMPLES = (
        {
            "product": "P",
            "cards": [{"name": "Blessing of Besmara", "type": "blessing", "count": 1, "traits": ["Basic"]}],
        },
    )
    VIEWS = ("vault",)


class CardDefined(Event, kw_only=True, tag="card.defined"):
    """The table added a card of its own (a promo, a card the catalogue lacks) to the vault.

    Send a catalogue card's name as `card` to take its facts from the catalogue.
    """

    card: Annotated[CardEntry, Meta(description="The card, with how many copies go into the vault.")]

    EXAMPLES = (
        {
            "card": {
                "name": "Cutlass of Besmara",
                "type": "weapon",
                "traits": ["Swashbuckling"],
                "count": 1,
                "product": "P",
            }
        },
    )
    VIEWS = ("vault",)


__all__ = [
    "BoonType",
    "CHARACTER",
    "CHARACTER_ZONES",
    "CardDefined",
    "CardEntry",
    "CardPower",
    "CardsListLine",
    "CharacterCard",
    "CharacterId",
    "HiddenCard",
    "PowerKind",
    "LocationSetup",
    "RewardOf",
    "RoleSide",
    "SCENARIO",
    "ShipCard",
    "SkillLine",
    "VaultProductsAdded",
    "Verb",
    "Zone",
    "ZoneKind",
]
