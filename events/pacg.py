"""Events of the Pathfinder Adventure Card Game: Skull & Shackles (game id `pacg-skull-and-shackles`).

Every event is self-contained: a character joins with the facts of her character card, a
product arrives in the vault with its card list, a scenario starts with its locations and their deck lists. The
service fills these in from the catalogue before recording; the fold never reads the catalogue.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from events.base import Event
from events.campaign import ALL_VIEWS

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


CHARACTER = ("character",)
SCENARIO = ("scenario",)

CharacterId = Annotated[str, Meta(description="The character, by id (`lirianne`), as she joined the campaign.")]
RewardOf = Annotated[
    str | None,
    Meta(description="The scenario, adventure or Adventure Path whose reward this is; each reward is earned once."),
]


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


class CardEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
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


class SkillLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A skill on a character card: `Dexterity d8` or `Ranged: Dexterity +3`, with its feat boxes."""

    die: Annotated[str | None, Meta(description="The skill's die (`d8`), for a base skill.")] = None
    base: Annotated[str | None, Meta(description="The skill it derives from (`Dexterity`), for a derived one.")] = None
    modifier: Annotated[int, Meta(description="The bonus added to the die (`+3`).")] = 0
    feats: Annotated[list[str], Meta(description="The labels of its feat boxes (`+1`, `+2`).")] = []


class CardsListLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One line of the cards list: how many cards of a type, and the counts its card-feat boxes raise it to."""

    count: Annotated[int, Meta(description="How many cards of this type the deck holds.")]
    feats: Annotated[list[int], Meta(description="The counts its card-feat boxes raise it to, leftmost first.")] = []


class RoleSide(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One side of a role card: its power feat boxes, by power."""

    powers: Annotated[dict[str, list[str]], Meta(description="Each power's feat boxes, by power.")] = {}


class CharacterCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The facts of a character card the tracker needs; what a pack does not know stays empty."""

    name: Annotated[str, Meta(description="The character's name.")]
    cards_list: Annotated[dict[str, CardsListLine], Meta(description="The Cards List, by card type.")]
    hand_size: Annotated[int | None, Meta(description="The hand size printed on the card.")] = None
    favored: Annotated[list[str], Meta(description="The favored card types.")] = []
    skills: Annotated[dict[str, SkillLine], Meta(description="The skills, by name.")] = {}
    powers: Annotated[dict[str, list[str]], Meta(description="The powers' feat boxes, by power.")] = {}
    proficiencies: Annotated[list[str], Meta(description="The proficiencies (`Light Armors`, `Weapons`).")] = []
    roles: Annotated[dict[str, RoleSide], Meta(description="The role card's two sides, by role name.")] = {}
    notes: Annotated[str | None, Meta(description="Anything else the table wants to remember.")] = None


class ShipCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
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


class LocationSetup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A location in play and the deck list it is built from (face-down cards by type)."""

    name: Annotated[str, Meta(description="The location's name.")]
    deck: Annotated[dict[str, int], Meta(description="How many face-down cards of each type its deck holds.")] = {}


# ----------------------------------------------------------------------------------------------- the box


class VaultProductsAdded(Event, kw_only=True, tag="vault.products_added"):
    """A product's cards went into the vault.

    Rulebook: Pathfinder Adventure Card Game Core Rules FAQ, the vault (the box).
    Send only `product` to take its card list from the catalogue.
    """

    product: Annotated[str, Meta(description="The product's letter or number (`B`, `C`, `1`).")]
    cards: Annotated[list[CardEntry], Meta(description="Every card of the product, with its count.")]

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


# ----------------------------------------------------------------------------------------------- characters


class CharacterJoined(Event, kw_only=True, tag="character.joined"):
    """A character joined the party, with the facts of her character card.

    Rulebook: Skull & Shackles Rulebook, Your Character: Character Cards.
    Send only `character_id` (or `name`) to take her card from the catalogue.
    """

    character_id: Annotated[str, Meta(description="Her id in this campaign (`merisiel`).")]
    name: Annotated[str, Meta(description="Her name as printed.")]
    player: Annotated[str, Meta(description="Who plays her.")]
    card: Annotated[CharacterCard, Meta(description="The facts of her character card.")]

    EXAMPLES = ({"character_id": "merisiel", "player": "Mira"},)
    VIEWS = CHARACTER


class DeckBuilt(Event, kw_only=True, tag="deck.built"):
    """A character built her first deck from the vault, following her Cards List.

    Rulebook: Skull & Shackles Rulebook, Your Character: Character Cards (Cards List).
    """

    character_id: CharacterId
    cards: Annotated[list[str], Meta(description="Every card of the deck, by name, one entry per copy.")]

    EXAMPLES = (
        {
            "character_id": "lirianne",
            "cards": [
                "Dagger",
                "Pistol",
                "Pistol",
                "Light Crossbow",
                "Buckler",
                "Leather Armor",
                "Potion of Glibness",
                "Powder Horn",
                "Carver",
                "Lookout",
                "Master Gunner",
                "Blessing of the Gods",
                "Blessing of the Gods",
                "Blessing of the Gods",
                "Blessing of the Gods",
            ],
        },
    )
    VIEWS = ("character", "vault")


class DeckRebuilt(Event, kw_only=True, tag="deck.rebuilt"):
    """After a scenario, a character rebuilt her deck from her cards and the party's spare cards.

    Rulebook: Skull & Shackles Rulebook, Between Games.
    """

    character_id: CharacterId
    cards: Annotated[list[str], Meta(description="Every card of the new deck, by name, one entry per copy.")]

    EXAMPLES = DeckBuilt.EXAMPLES
    VIEWS = ("character", "vault")


class CardFacts(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Facts printed on a character card that the recorded card lacks; each is given once and kept."""

    hand_size: Annotated[int | None, Meta(description="The hand size printed on the card.")] = None
    favored: Annotated[list[str], Meta(description="The favored card types.")] = []
    proficiencies: Annotated[list[str], Meta(description="Proficient With: weapons, armors.")] = []
    skills: Annotated[
        dict[str, SkillLine], Meta(description="Skills by name, with their die and their skill feat boxes.")
    ] = {}
    powers: Annotated[dict[str, list[str]], Meta(description="Power feat boxes by power, left to right.")] = {}
    card_feats: Annotated[
        dict[str, list[int]],
        Meta(description="Card feat boxes by card type: the counts each box raises the Cards List to."),
    ] = {}


class CharacterCardCompleted(Event, kw_only=True, tag="character.card_completed"):
    """The table gave facts of a character card that the recorded card lacked: a hand size, proficiencies, feat
    boxes.

    Rulebook: Skull & Shackles Rulebook, Your Character: Character Cards; Feats.
    What is recorded is kept: a fact the card already records is never changed.
    """

    character_id: CharacterId
    card: Annotated[CardFacts, Meta(description="The facts from the character card in hand.")]

    EXAMPLES = (
        {
            "character_id": "lirianne",
            "card": {
                "hand_size": 4,
                "skills": {"Dexterity": {"die": "d8", "feats": ["+1", "+2", "+3"]}},
                "powers": {"Hand Size": ["5"]},
                "card_feats": {"weapon": [5, 6]},
            },
        },
    )
    VIEWS = CHARACTER


class CharacterMoved(Event, kw_only=True, tag="character.moved"):
    """A character moved to a location, and the characters on the ship may have sailed along.

    Rulebook: Skull & Shackles Rulebook, Your Turn: Move; Commanding and Moving Ships.
    """

    character_id: CharacterId
    to: Annotated[str, Meta(description="The location she moved to.")]
    moved_with: Annotated[
        list[str], Meta(description="The characters on the ship who sailed along with her, by id.")
    ] = []

    EXAMPLES = ({"character_id": "lirianne", "to": "Raker Shoals"},)
    VIEWS = ("character", "scenario")


# `omit_defaults`: a move that names no explorer encodes exactly as card.moved did before `explorer` existed.
class CardMoved(Event, kw_only=True, tag="card.moved", omit_defaults=True):
    """A card went from one zone to another by one of the rulebook's verbs; exploring is a card revealed from a
    location to the encounter.

    Rulebook: Skull & Shackles Rulebook, Playing Cards; Your Turn: Explore.
    """

    card: Annotated[
        str | HiddenCard,
        Meta(description='The card by name, or `{"hidden": type}` for a face-down card nobody has seen.'),
    ]
    from_: Annotated[Zone, Meta(description="Where the card was.")] = msgspec.field(name="from")
    to: Annotated[Zone, Meta(description="Where the card went.")]
    verb: Annotated[Verb, Meta(description="The rulebook's verb: draw, discard, recharge, banish...")]
    explorer: Annotated[
        str | None, Meta(description="The character who explores, when the move is an exploration of her location.")
    ] = None
    explore_again: Annotated[
        bool, Meta(description="True when a card or power granted this exploration, not the turn's free one.")
    ] = False
    card_type: Annotated[
        str | None,
        Meta(
            description="The card's type, the first time the table names a card the log does not know yet (the "
            "service fills it from the catalogue when it can)."
        ),
    ] = None

    EXAMPLES = (
        {
            "card": "Carver",
            "verb": "recharge",
            "from": {"zone": "hand", "character_id": "lirianne"},
            "to": {"zone": "deck", "character_id": "lirianne"},
        },
        {
            "card": "Dead Man's Chest",
            "verb": "reveal",
            "from": {"zone": "location", "location": "Raker Shoals"},
            "to": {"zone": "encounter"},
            "explorer": "lirianne",
        },
        {
            "card": "Dire Rat",
            "card_type": "monster",
            "from": {"zone": "location", "location": "Shark Island"},
            "to": {"zone": "encounter"},
            "verb": "reveal",
            "explorer": "merisiel",
        },
    )
    VIEWS = ("character", "vault", "scenario", "fleet")


class DamageDealt(Event, kw_only=True, tag="damage.dealt"):
    """A character was dealt damage; she discards that many cards from her hand next.

    Rulebook: Skull & Shackles Rulebook, Taking Damage.
    The amount is after every reduction; the discards follow as card.moved events.
    """

    character_id: CharacterId
    amount: Annotated[int, Meta(description="The damage after every reduction.")]
    damage_type: Annotated[str, Meta(description="`Combat`, `Fire`, `Mental`...")] = "Combat"

    EXAMPLES = ({"character_id": "seltyiel", "amount": 1, "damage_type": "Combat"},)
    VIEWS = CHARACTER


class HandReset(Event, kw_only=True, tag="hand.reset"):
    """A character reset her hand near the end of her turn, or kept it as a power allowed.

    Rulebook: Skull & Shackles Rulebook, Your Turn: Reset Your Hand.
    Optional discards, then discards down to or draws up to the hand size, follow as card.moved events. The next
    turn waits for the reset, a required step.
    """

    character_id: CharacterId
    hand_size: Annotated[
        int | None, Meta(description="Her hand size, only when her character card records none; the card keeps it.")
    ] = None
    kept: Annotated[
        bool, Meta(description="True when a power allows or directs her not to reset her hand this turn.")
    ] = False

    EXAMPLES = ({"character_id": "lirianne"}, {"character_id": "lirianne", "kept": True})
    VIEWS = CHARACTER


class CharacterDied(Event, kw_only=True, tag="character.died"):
    """A character died: she had to remove cards from her deck and had none left.

    Rulebook: Skull & Shackles Rulebook, Dying.
    """

    character_id: CharacterId

    EXAMPLES = ({"character_id": "seltyiel"},)
    VIEWS = ("character", "scenario")


class CharacterRevived(Event, kw_only=True, tag="character.revived"):
    """A dead character came back to life.

    Rulebook: Pathfinder Adventure Card Game Core Rules FAQ, Hero Points (returning from death).
    """

    character_id: CharacterId

    EXAMPLES = ({"character_id": "seltyiel"},)
    VIEWS = ("character", "scenario")


# ----------------------------------------------------------------------------------------------- scenarios


class AdventureStarted(Event, kw_only=True, tag="adventure.started"):
    """An adventure began: its scenarios in order, and its Adventure Deck into the vault when given.

    Rulebook: Skull & Shackles Rulebook, After the Scenario: Ending a Scenario, Adventure, or Adventure Path.
    Send only `adventure` to take its scenarios from the catalogue.
    """

    adventure: Annotated[str, Meta(description="The adventure's name.")]
    number: Annotated[int, Meta(description="Its Adventure Deck number (#); 0 for the base set.")] = 0
    scenarios: Annotated[list[str], Meta(description="Its scenarios, in order.")] = []
    scenario_count: Annotated[
        Annotated[int, Meta(ge=1)] | None,
        Meta(
            description="How many scenarios its card lists, when `scenarios` names only the first of them: the "
            "scenarios played as part of it after the named ones complete the list, in the order they are played."
        ),
    ] = None
    product: Annotated[str | None, Meta(description="The product its cards come from, when `cards` are given.")] = None
    cards: Annotated[list[CardEntry], Meta(description="Its Adventure Deck, into the vault.")] = []

    EXAMPLES = (
        {
            "adventure": "The Wormwood Mutiny",
            "number": 1,
            "scenarios": ["Press-Ganged!", "Man Overboard!", "The Wormwood Mutiny"],
        },
    )
    VIEWS = ("scenario", "vault")


class ScenarioStarted(Event, kw_only=True, tag="scenario.started"):
    """A scenario began: its locations and their decks, its villains and henchmen, and the party's ship.

    Rulebook: Skull & Shackles Rulebook, Setting Up.
    Send only `scenario` and the locations' names to take the rest from the catalogue.
    """

    scenario: Annotated[str, Meta(description="The scenario's name.")]
    adventure: Annotated[str | None, Meta(description="The adventure it belongs to.")] = None
    number: Annotated[int, Meta(description="The adventure deck number of the scenario (#); 0 for the base set.")] = 0
    locations: Annotated[list[LocationSetup], Meta(description="The locations in play, with their deck lists.")]
    villains: Annotated[list[str], Meta(description="Its villains.")] = []
    henchmen: Annotated[list[str], Meta(description="Its henchmen.")] = []
    ship: Annotated[str, Meta(description="The party's ship for this scenario.")] = "Merchantman"
    ship_card: Annotated[ShipCard | None, Meta(description="The ship card's facts.")] = None
    anchored_at: Annotated[str | None, Meta(description="The location the ship starts anchored at, if any.")] = None
    hourglass: Annotated[
        int | None, Meta(description="Blessings in the hourglass; none takes the campaign's option (30 by default).")
    ] = None

    EXAMPLES = (
        {
            "scenario": "Dangerous Waters",
            "ship": "Merchantman",
            "locations": [
                {"name": "Cannibal Isle", "deck": {"monster": 1, "barrier": 1, "item": 1, "blessing": 1}},
                {"name": "Fog Bank", "deck": {"monster": 1, "spell": 1, "ally": 1, "blessing": 1}},
                {"name": "Raker Shoals", "deck": {"barrier": 1, "armor": 1, "blessing": 1}},
                {"name": "Shipwreck Graveyard", "deck": {"monster": 1, "weapon": 1, "item": 1}},
                {"name": "Tempest Cay", "deck": {"monster": 1, "weapon": 1, "blessing": 1}},
            ],
        },
    )
    VIEWS = ("scenario", "fleet", "vault", "character")


class HourglassAdvanced(Event, kw_only=True, tag="hourglass.advanced"):
    """A character's turn began: the top blessing of the hourglass went to its discards.

    Rulebook: Skull & Shackles Rulebook, Your Turn: Advance the Blessings Deck.
    """

    character_id: Annotated[str, Meta(description="The character whose turn begins, by id.")]
    card: Annotated[str | None, Meta(description="The blessing flipped, when the table says which.")] = None

    EXAMPLES = ({"character_id": "seltyiel", "card": "Blessing of Cayden Cailean"},)
    VIEWS = SCENARIO


ClosingHow = Literal["henchman", "empty", "villain", "power"]


class LocationClosed(Event, kw_only=True, tag="location.closed"):
    """A location was closed, permanently or, while a character encounters the villain, temporarily.

    Rulebook: Skull & Shackles Rulebook, Closing a Location; Encountering a Villain.
    """

    location: Annotated[str, Meta(description="The location's name.")]
    temporary: Annotated[
        bool,
        Meta(
            description="Closed only during the encounter with the villain, by a character at it, so that the villain "
            "cannot escape there."
        ),
    ] = False
    by: Annotated[
        str | None,
        Meta(
            description="The character who closes it; for a temporary closure one at that location, for a closure "
            "after a defeated henchman or an empty deck one at that location."
        ),
    ] = None
    how: Annotated[
        ClosingHow | None,
        Meta(
            description="The opportunity to close it: `henchman` (a henchman from its deck defeated), `empty` (its "
            "deck ran out), `villain` (the villain defeated there), `power` (a card or the scenario says "
            "so). Left out, the fold finds it among the first three."
        ),
    ] = None

    EXAMPLES = (
        {"location": "Shipwreck Graveyard", "temporary": True, "by": "seltyiel"},
        {"location": "Cannibal Isle", "by": "alahazra", "how": "villain"},
    )
    VIEWS = SCENARIO


class EncounterEnded(Event, kw_only=True, tag="encounter.ended"):
    """The encounter with a card ended: the card was defeated, stayed undefeated, or was evaded.

    Rulebook: Skull & Shackles Rulebook, Encountering a Card (Apply Any Evasion Effects; Attempt the Check);
    Encountering a Villain.
    The card then goes where the rules send it, as a card.moved: an evaded or undefeated bane back into its location
    deck, a defeated one to the vault; a villain defeated or undefeated escapes (villain.escaped) unless cornered.
    """

    card: Annotated[str, Meta(description="The card encountered, now in the encounter.")]
    outcome: Annotated[
        Literal["defeated", "undefeated", "evaded"],
        Meta(description="`defeated`, `undefeated` or `evaded` (neither defeated nor undefeated)."),
    ]

    EXAMPLES = ({"card": "Jemma Redclaw", "outcome": "defeated"},)
    VIEWS = SCENARIO


class VillainEscaped(Event, kw_only=True, tag="villain.escaped"):
    """The villain escaped: shuffled with blessings and dealt to the open locations.

    Rulebook: Skull & Shackles Rulebook, Encountering a Villain.
    """

    villain: Annotated[str, Meta(description="The villain's name.")]
    to: Annotated[list[str], Meta(description="The open locations one card was dealt to.")]
    defeated: Annotated[bool, Meta(description="Whether the villain was defeated before escaping.")] = True

    EXAMPLES = ({"villain": "Jemma Redclaw", "to": ["Fog Bank", "Tempest Cay"]},)
    VIEWS = ("scenario", "vault")


class ScenarioEnded(Event, kw_only=True, tag="scenario.ended"):
    """The scenario ended, won or lost.

    Rulebook: Skull & Shackles Rulebook, After the Scenario.
    """

    result: Annotated[Literal["won", "lost"], Meta(description="`won` or `lost`.")]

    EXAMPLES = ({"result": "won"},)
    VIEWS = ALL_VIEWS


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
    ship_card: Annotated[ShipCard | None, Meta(description="Its card's facts (from the catalogue by name).")] = None

    EXAMPLES = ({"ship": "Wormwood"},)
    VIEWS = ("fleet",)


class ShipEncountered(Event, kw_only=True, tag="ship.encountered"):
    """The commander encountered an enemy ship.

    Rulebook: Skull & Shackles Rulebook, Encountering Ships.
    Only the character commanding the party's ship encounters another ship; anyone else banishes it
    (ship.banished). The encounter ends with ship.evaded, ship.defeated, or the Structural damage of a failed check.
    """

    ship: Annotated[str, Meta(description="The enemy ship.")]
    ship_card: Annotated[ShipCard | None, Meta(description="Its card's facts (from the catalogue by name).")] = None
    character_id: Annotated[
        str | None, Meta(description="The commander who encounters it; the character whose turn it is when left out.")
    ] = None

    EXAMPLES = ({"ship": "Shackles Pirate Ship", "character_id": "lirianne"},)
    VIEWS = ("fleet",)


class ShipEvaded(Event, kw_only=True, tag="ship.evaded"):
    """The commander evaded the enemy ship she encountered; it returns where it came from.

    Rulebook: Skull & Shackles Rulebook, Encountering Ships.
    """

    ship: Annotated[str, Meta(description="The enemy ship.")]

    EXAMPLES = ({"ship": "Shackles Pirate Ship"},)
    VIEWS = ("fleet",)


class ShipDefeated(Event, kw_only=True, tag="ship.defeated"):
    """The commander defeated the enemy ship; unless the party seizes it, it returns where it came from.

    Rulebook: Skull & Shackles Rulebook, Encountering Ships; Seizing Ships.
    If the party's ship is not wrecked, a plunder card is stashed next (plunder.stashed).
    """

    ship: Annotated[str, Meta(description="The enemy ship.")]

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


# ----------------------------------------------------------------------------------------------- rewards


class FeatGained(Event, kw_only=True, tag="feat.gained"):
    """A character gained a skill, power or card feat and checked its box.

    Rulebook: Skull & Shackles Rulebook, Your Character: Feats.
    """

    character_id: CharacterId
    kind: Annotated[Literal["skill", "power", "card"], Meta(description="`skill`, `power` or `card`.")]
    feat: Annotated[
        str,
        Meta(
            description='The box, as "<skill, power or card type> <box label>": `Dexterity +1`, `Light Armors`, '
            "`weapon 3`."
        ),
    ]
    reward_of: RewardOf = None

    EXAMPLES = ({"character_id": "lirianne", "kind": "skill", "feat": "Dexterity +1", "reward_of": "Dangerous Waters"},)
    VIEWS = CHARACTER


class RoleChosen(Event, kw_only=True, tag="role.chosen"):
    """A character chose one side of her role card.

    Rulebook: Skull & Shackles Rulebook, Your Character: Role Cards.
    """

    character_id: CharacterId
    role: Annotated[str, Meta(description="The side chosen, by name.")]
    powers: Annotated[
        dict[str, list[str]] | None,
        Meta(description="The side's power feat boxes, when the character card does not carry them."),
    ] = None

    EXAMPLES = ({"character_id": "lirianne", "role": "Wave Rider"},)
    VIEWS = CHARACTER


class LootAwarded(Event, kw_only=True, tag="loot.awarded"):
    """A loot card, or a won plunder card, went to a character's deck or to the vault.

    Rulebook: Skull & Shackles Rulebook, Plunder Cards; After the Scenario.
    """

    card: Annotated[str, Meta(description="The card, by name.")]
    to: Annotated[str, Meta(description="The character whose deck it joins, by id, or `vault`.")]
    source: Annotated[
        Literal["vault", "plunder"],
        Meta(description="`vault` for a loot card, `plunder` for a plunder card from under the ship."),
    ] = "vault"
    reward_of: RewardOf = None

    EXAMPLES = ({"card": "Cutlass +1", "to": "seltyiel", "reward_of": "Dangerous Waters"},)
    VIEWS = ("character", "vault", "fleet")


class ShipAwarded(Event, kw_only=True, tag="ship.awarded"):
    """The party earned a ship for its fleet.

    Rulebook: Skull & Shackles Rulebook, After the Scenario.
    """

    ship: Annotated[str, Meta(description="The ship earned.")]
    ship_card: Annotated[ShipCard | None, Meta(description="Its card's facts (from the catalogue by name).")] = None
    reward_of: RewardOf = None

    EXAMPLES = ({"ship": "Wormwood", "reward_of": "Dangerous Waters"},)
    VIEWS = ("fleet",)


class HeroPointAwarded(Event, kw_only=True, tag="hero_point.awarded"):
    """A character earned a hero point.

    Rulebook: Pathfinder Adventure Card Game Core Rules FAQ, Hero Points.
    """

    character_id: CharacterId

    EXAMPLES = ({"character_id": "alahazra"},)
    VIEWS = CHARACTER


class HeroPointSpent(Event, kw_only=True, tag="hero_point.spent"):
    """A character spent a hero point: to reroll a check, for a feat, or to return from death.

    Rulebook: Pathfinder Adventure Card Game Core Rules FAQ, Hero Points.
    """

    character_id: CharacterId
    for_: Annotated[
        Literal["reroll", "feat", "return_from_death"], Meta(description="`reroll`, `feat` or `return_from_death`.")
    ] = msgspec.field(name="for")

    EXAMPLES = ({"character_id": "alahazra", "for": "reroll"},)
    VIEWS = CHARACTER


# ----------------------------------------------------------------------------------------------- the group's own cards
# The rulebooks print no scenario card and no product's card list: the group types what is on its own cards once,
# and the campaign keeps it to offer again (a replay, the next group that loads the file).


class RecordedLocation(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A location on the back of a scenario card, with the number of players printed beside it and its deck list."""

    name: Annotated[str, Meta(description="The location's name.")]
    players: Annotated[
        int, Meta(ge=1, le=6, description="The number of players printed beside it: used with this many or more.")
    ] = 1
    deck: Annotated[
        dict[str, int], Meta(description="Its deck list from the location card: how many cards of each type.")
    ] = {}


class ScenarioCardRecorded(Event, kw_only=True, tag="scenario.card_recorded"):
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


class ProductListRecorded(Event, kw_only=True, tag="product.list_recorded"):
    """The group recorded a product's card list from its box, to put into the vault once or again.

    Rulebook: Pathfinder Adventure Card Game Core Rules FAQ, the vault (the box).
    Recording the same product again replaces the list the campaign kept.
    """

    product: Annotated[str, Meta(description="The product's letter or number (B, C, 1).")]
    name: Annotated[str, Meta(description="The product's name as printed on its box.")] = ""
    cards: Annotated[list[CardEntry], Meta(description="Every card of the product, with its count.")]

    EXAMPLES = (
        {
            "product": "P",
            "name": "Promotional cards",
            "cards": [{"name": "Blessing of Besmara", "type": "blessing", "count": 1, "traits": ["Basic"]}],
        },
    )
    APPENDED_BY = ("owner", "player")
    VIEWS = ("recorded",)
