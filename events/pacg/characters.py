"""Characters: joining, decks, the card moves of play, damage, the reset of the hand, death."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from quartermaster.events.base import Event
from quartermaster.events.pacg.cards import (
    CHARACTER,
    CharacterCard,
    CharacterId,
    Favored,
    HandSize,
    HiddenCard,
    SkillLine,
    Verb,
    Zone,
)

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

    hand_size: HandSize = None
    favored: Favored = []
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
    by_power: Annotated[
        bool,
        Meta(
            description="True when a card or power moved her, not her turn's Move step (a card that moves a "
            "character at another time, or moves her again)."
        ),
    ] = False

    EXAMPLES = ({"character_id": "lirianne", "to": "Raker Shoals"},)
    VIEWS = ("character", "scenario", "turn")


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
    encountered_by: Annotated[
        str | None,
        Meta(
            description="The character who encounters a card moved into the encounter otherwise than by exploring "
            "(summoned by an effect on another character); the character whose turn it is when left out."
        ),
    ] = None
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
    VIEWS = ("character", "vault", "scenario", "fleet", "turn")


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
    VIEWS = ("character", "scenario", "turn")


class CharacterRevived(Event, kw_only=True, tag="character.revived"):
    """A dead character came back to life.

    Rulebook: Pathfinder Adventure Card Game Core Rules FAQ, Hero Points (returning from death).
    """

    character_id: CharacterId

    EXAMPLES = ({"character_id": "seltyiel"},)
    VIEWS = ("character", "scenario", "turn")


__all__ = [
    "CardFacts",
    "CardMoved",
    "CharacterCardCompleted",
    "CharacterDied",
    "CharacterJoined",
    "CharacterMoved",
    "CharacterRevived",
    "DamageDealt",
    "DeckBuilt",
    "DeckRebuilt",
    "HandReset",
]
