"""The rulebook's "Example of Play" (the scenario Dangerous Waters) as the payloads a table would post, in order.

Plain dicts `{type, data}` so the unit test folds them and the API test posts the very same list. Characters join by
catalogue name (the service expands their cards); everything else is self-contained.

What the text does not say, the table here decides (recorded so a reader can check every choice):
- The box: the seed texts list no product's contents, so the table sends its own card list for product B, with
  the cards the example names and enough blessings for a 30-card hourglass. Cards in the starting decks carry the
  Basic trait, as the rulebook says every suggested starting card does.
- The decks: each character's suggested deck with the swaps the example implies (Lirianne plays a Light Crossbow and
  the ally Carver, Seltyiel holds a Topaz of Strength and the ally Quartermaster, Alahazra a Blessing of Abadar and
  Fear), keeping the count of each type.
- The location deck lists, which are not in the texts, and which cards are drawn when the text only gives a count.
- How a card is played where the text only says "plays": Fear, Inflict and the Blessings of the Gods are discarded,
  the ally Carver is recharged. A spell whose recharge depends on a check (Force Missile) is set aside until the
  check decides (Core rules FAQ).
- Summoned ships are not vault cards in this tracker; the Shackles Pirate Ship encounter is its dice roll and the
  Structural damage it deals.
"""

from __future__ import annotations

from typing import Any

from tests.unit.pacg.pacg_world import move as moved, zone


def _card(name: str, type_: str, count: int = 1, *traits: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, "count": count, "traits": list(traits), **extra}


def _basic(name: str, type_: str, count: int = 1) -> dict[str, Any]:
    return _card(name, type_, count, "Basic")


BOX = [
    # weapons
    _basic("Pistol", "weapon", 3),
    _basic("Dagger", "weapon", 2),
    _basic("Light Crossbow", "weapon"),
    _basic("Boarding Axe", "weapon"),
    _basic("Cutlass", "weapon", 2),
    _basic("Longsword", "weapon"),
    _basic("Mace", "weapon"),
    _basic("Sap", "weapon"),
    _basic("Cat-o'-Nine-Tails", "weapon"),
    _card("Cutlass +1", "weapon", 1, "Swashbuckling", product="1"),
    _basic("Short Sword", "weapon"),
    # spells
    _basic("Fear", "spell"),
    _basic("Cure", "spell", 2),
    _basic("Fireblade", "spell"),
    _basic("Inflict", "spell"),
    _basic("Strength", "spell"),
    _basic("Buoyancy", "spell"),
    _basic("Force Missile", "spell"),
    _basic("Frostbite", "spell"),
    _basic("Magic Weapon", "spell"),
    _basic("Speed", "spell"),
    _basic("Find Traps", "spell"),
    _basic("Detect Magic", "spell", 3),
    # armors
    _basic("Buckler", "armor"),
    _basic("Leather Armor", "armor", 2),
    _basic("Chain Shirt", "armor"),
    _basic("Wooden Armor", "armor"),
    # items
    _basic("Potion of Glibness", "item"),
    _basic("Powder Horn", "item"),
    _basic("Topaz of Strength", "item"),
    _basic("Caltrops", "item"),
    _basic("Rum Bottle", "item", 2),
    _basic("Pearl of Wisdom", "item"),
    _basic("Eye Patch", "item"),
    _basic("Conch Shell", "item", 3),
    # allies
    _basic("Carver", "ally"),
    _basic("Lookout", "ally"),
    _basic("Master Gunner", "ally"),
    _basic("Quartermaster", "ally"),
    _basic("Captain", "ally"),
    _basic("Jinx Eater", "ally"),
    _basic("Swab", "ally"),
    _basic("Sailor", "ally", 2),
    # blessings
    _basic("Blessing of the Gods", "blessing", 50),
    _basic("Blessing of Abadar", "blessing", 3),
    _basic("Blessing of Cayden Cailean", "blessing", 2),
    # banes
    _card("Dire Rat", "monster", 4),
    _card("Sea Drake", "monster", 1),
    _card("Dead Man's Chest", "barrier", 2),
    _card("Jemma Redclaw", "villain", 1),
    _card("Buccaneer", "henchman", 6, "Human", "Pirate", "Veteran"),
]

LIRIANNE = [
    "Dagger", "Pistol", "Pistol", "Light Crossbow",
    "Buckler", "Leather Armor",
    "Potion of Glibness", "Powder Horn",
    "Carver", "Lookout", "Master Gunner",
    "Blessing of the Gods", "Blessing of the Gods", "Blessing of the Gods", "Blessing of the Gods",
]  # fmt: skip
SELTYIEL = [
    "Boarding Axe", "Cutlass", "Longsword", "Mace",
    "Buoyancy", "Force Missile", "Frostbite", "Magic Weapon",
    "Chain Shirt", "Topaz of Strength", "Quartermaster",
    "Blessing of the Gods", "Blessing of the Gods", "Blessing of the Gods", "Blessing of the Gods",
]  # fmt: skip
ALAHAZRA = [
    "Fear", "Cure", "Fireblade", "Inflict", "Strength",
    "Caltrops", "Rum Bottle",
    "Captain", "Jinx Eater", "Swab",
    "Blessing of the Gods", "Blessing of the Gods", "Blessing of the Gods", "Blessing of the Gods",
    "Blessing of Abadar",
]  # fmt: skip


def hand(who: str) -> dict[str, Any]:
    return zone("hand", who)


def deck(who: str) -> dict[str, Any]:
    return zone("deck", who)


def discard(who: str) -> dict[str, Any]:
    return zone("discard", who)


def place(name: str) -> dict[str, Any]:
    return zone("location", location=name)


def draw(who: str, *names: str) -> list[dict[str, Any]]:
    return [moved(name, "draw", deck(who), hand(who)) for name in names]


def discards(who: str, *names: str) -> list[dict[str, Any]]:
    return [moved(name, "discard", hand(who), discard(who)) for name in names]


def roll(who: str, purpose: str, faces: list[tuple[int, int]], modifier: int = 0, **extra: Any) -> dict[str, Any]:
    dice = [{"sides": sides, "face": face} for sides, face in faces]
    total = sum(face for _, face in faces) + modifier
    data = {"character_id": who, "purpose": purpose, "dice": dice, "modifier": modifier, "total": total, **extra}
    return {"type": "dice.rolled", "data": data}


def advance(who: str, card: str) -> dict[str, Any]:
    return {"type": "hourglass.advanced", "data": {"character_id": who, "card": card}}


VAULT = zone("vault")
ENCOUNTER = zone("encounter")
SET_ASIDE = zone("set_aside")

SETTING_UP: list[dict[str, Any]] = [
    {"type": "vault.products_added", "data": {"product": "B", "cards": BOX}},
    {"type": "character.joined", "data": {"character_id": "lirianne", "player": "Lily"}},
    {"type": "character.joined", "data": {"character_id": "seltyiel", "player": "Sam"}},
    {"type": "character.joined", "data": {"character_id": "alahazra", "player": "Amber"}},
    {"type": "deck.built", "data": {"character_id": "lirianne", "cards": LIRIANNE}},
    {"type": "deck.built", "data": {"character_id": "seltyiel", "cards": SELTYIEL}},
    {"type": "deck.built", "data": {"character_id": "alahazra", "cards": ALAHAZRA}},
    # Villains and henchmen come from the catalogue's Dangerous Waters; the deck lists are the table's.
    {
        "type": "scenario.started",
        "data": {
            "scenario": "Dangerous Waters",
            "locations": [
                {"name": "Cannibal Isle", "deck": {"monster": 1, "barrier": 1, "item": 1, "blessing": 1}},
                {"name": "Fog Bank", "deck": {"monster": 1, "spell": 1, "ally": 1, "blessing": 1}},
                {"name": "Raker Shoals", "deck": {"barrier": 1, "armor": 1, "blessing": 1}},
                {"name": "Shipwreck Graveyard", "deck": {"monster": 1, "weapon": 1, "item": 1}},
                {"name": "Tempest Cay", "deck": {"monster": 1, "weapon": 1, "blessing": 1}},
            ],
            "ship": "Merchantman",
        },
    },
    # Lily rolls a 2 on the plunder table: a random spell, face down under the Merchantman.
    roll("lirianne", "plunder", [(6, 2)]),
    {"type": "plunder.stashed", "data": {"roll": 2}},
    {"type": "character.moved", "data": {"character_id": "lirianne", "to": "Cannibal Isle"}},
    {"type": "character.moved", "data": {"character_id": "seltyiel", "to": "Fog Bank"}},
    {"type": "character.moved", "data": {"character_id": "alahazra", "to": "Fog Bank"}},
    # Starting hands. Lirianne's 4 cards include a Pistol; Alahazra's 6 a blessing.
    *draw("lirianne", "Pistol", "Master Gunner", "Leather Armor", "Powder Horn"),
    *draw("alahazra", "Blessing of Abadar", "Fear", "Cure", "Inflict", "Jinx Eater", "Caltrops"),
    # Seltyiel chooses spell and draws none: he discards, draws another 5 with a Force Missile, shuffles back.
    *draw("seltyiel", "Boarding Axe", "Cutlass", "Mace", "Chain Shirt", "Topaz of Strength"),
    *discards("seltyiel", "Boarding Axe", "Cutlass", "Mace", "Chain Shirt", "Topaz of Strength"),
    *draw("seltyiel", "Force Missile", "Longsword", "Quartermaster", "Blessing of the Gods", "Blessing of the Gods"),
    *[
        moved(name, "shuffle", discard("seltyiel"), deck("seltyiel"))
        for name in ("Boarding Axe", "Cutlass", "Mace", "Chain Shirt", "Topaz of Strength")
    ],
]

LILYS_FIRST_TURN: list[dict[str, Any]] = [
    advance("lirianne", "Blessing of Abadar"),
    {"type": "character.moved", "data": {"character_id": "lirianne", "to": "Raker Shoals"}},
    moved("Dead Man's Chest", "reveal", place("Raker Shoals"), ENCOUNTER),
    # Amber plays Alahazra's Blessing of Abadar; the hour is also a Blessing of Abadar, so she recharges it.
    moved("Blessing of Abadar", "recharge", hand("alahazra"), deck("alahazra")),
    roll("lirianne", "check", [(8, 5), (8, 5), (8, 6)], skill="Dexterity", difficulty=11, success=True),
    moved("Dead Man's Chest", "banish", ENCOUNTER, VAULT),
    moved("Cat-o'-Nine-Tails", "draw", VAULT, hand("lirianne")),
    moved("Rum Bottle", "draw", VAULT, hand("lirianne")),
    moved("Speed", "draw", VAULT, hand("lirianne")),
    # 7 cards in hand: she discards the ally Master Gunner to explore again, and meets a Buccaneer.
    *discards("lirianne", "Master Gunner"),
    moved("Buccaneer", "reveal", place("Raker Shoals"), ENCOUNTER),
    # Dangerous Waters: Alahazra and Seltyiel each summon and encounter a Buccaneer.
    moved("Buccaneer", "summon", VAULT, ENCOUNTER),
    *discards("alahazra", "Fear"),
    moved("Buccaneer", "banish", ENCOUNTER, VAULT),
    moved("Buccaneer", "summon", VAULT, ENCOUNTER),
    moved("Force Missile", "set_aside", hand("seltyiel"), SET_ASIDE),
    moved("Longsword", "recharge", hand("seltyiel"), deck("seltyiel")),
    roll(
        "seltyiel", "check", [(8, 1), (4, 1), (4, 1), (6, 1)], modifier=3, skill="Arcane", difficulty=8, success=False
    ),
    {"type": "damage.dealt", "data": {"character_id": "seltyiel", "amount": 1, "damage_type": "Combat"}},
    *discards("seltyiel", "Quartermaster"),
    moved("Buccaneer", "banish", ENCOUNTER, VAULT),
    roll("seltyiel", "recharge", [(8, 6)], modifier=3, skill="Arcane", difficulty=6, success=True),
    moved("Force Missile", "recharge", SET_ASIDE, deck("seltyiel")),
    # Lirianne defeats the original Buccaneer with her Pistol, which stays in her hand (9 on the d12).
    roll("lirianne", "check", [(8, 5), (6, 2)], modifier=3, skill="Ranged", difficulty=8, success=True),
    moved("Buccaneer", "banish", ENCOUNTER, VAULT),
    roll("lirianne", "recharge", [(12, 9)], difficulty=3, success=True),
    # Closing Raker Shoals deals the ship 4 Structural damage; Lily discards 4 cards to prevent it all.
    {"type": "ship.damaged", "data": {"amount": 4, "prevented": 4, "wrecked": False}},
    *discards("lirianne", "Rum Bottle", "Speed", "Cat-o'-Nine-Tails", "Pistol"),
    *discards("lirianne", "Leather Armor"),
    {"type": "location.closed", "data": {"location": "Raker Shoals"}},
    *draw("lirianne", "Light Crossbow", "Carver", "Dagger"),
]

SAMS_FIRST_TURN: list[dict[str, Any]] = [
    advance("seltyiel", "Blessing of Cayden Cailean"),
    moved("Blessing of the Gods", "give", hand("seltyiel"), hand("alahazra")),
    {
        "type": "character.moved",
        "data": {"character_id": "seltyiel", "to": "Shipwreck Graveyard", "moved_with": ["alahazra"]},
    },
    moved("Cutlass +1", "reveal", place("Shipwreck Graveyard"), ENCOUNTER),
    *discards("seltyiel", "Blessing of the Gods"),
    roll("seltyiel", "check", [(8, 4), (8, 3), (8, 4)], modifier=3, skill="Melee", difficulty=8, success=True),
    moved("Cutlass +1", "acquire", ENCOUNTER, hand("seltyiel")),
    *draw("seltyiel", "Boarding Axe", "Mace", "Chain Shirt", "Topaz of Strength"),
]

AMBERS_FIRST_TURN: list[dict[str, Any]] = [
    advance("alahazra", "Blessing of the Gods"),
    roll("alahazra", "check", [(8, 2)], skill="Wisdom", difficulty=5, success=False),
    roll("alahazra", "damage", [(4, 3)]),
    {"type": "ship.damaged", "data": {"amount": 3, "prevented": 3, "wrecked": False}},
    *discards("lirianne", "Dagger"),
    *discards("seltyiel", "Chain Shirt"),
    *discards("alahazra", "Caltrops"),
    # She recharges a Divine spell to examine the top card of the Shipwreck Graveyard: a Sea Drake, put back.
    moved("Cure", "recharge", hand("alahazra"), deck("alahazra")),
    moved("Sea Drake", "reveal", place("Shipwreck Graveyard"), place("Shipwreck Graveyard")),
    {"type": "character.moved", "data": {"character_id": "alahazra", "to": "Cannibal Isle"}},
    moved("Jemma Redclaw", "reveal", place("Cannibal Isle"), ENCOUNTER),
    # Seltyiel temporarily closes the Shipwreck Graveyard: a 4 on the plunder table, summon and acquire an item.
    roll("seltyiel", "close", [(6, 4)]),
    moved("Pearl of Wisdom", "summon", VAULT, ENCOUNTER),
    moved("Topaz of Strength", "recharge", hand("seltyiel"), deck("seltyiel")),
    roll("seltyiel", "check", [(8, 7)], skill="Wisdom", difficulty=7, success=True),
    moved("Pearl of Wisdom", "acquire", ENCOUNTER, hand("seltyiel")),
    {"type": "location.closed", "data": {"location": "Shipwreck Graveyard", "temporary": True}},
    # Jemma makes her recharge a card, then summon and encounter the Shackles Pirate Ship.
    moved("Jinx Eater", "recharge", hand("alahazra"), deck("alahazra")),
    {"type": "ship.encountered", "data": {"ship": "Shackles Pirate Ship", "character_id": "alahazra"}},
    roll("alahazra", "check", [(8, 4)], skill="Wisdom", difficulty=6, success=False),
    {"type": "ship.damaged", "data": {"amount": 2, "prevented": 0, "wrecked": True}},
    # The fight: Inflict, Lirianne's power (her Light Crossbow shuffled into her deck), a Blessing of the Gods.
    *discards("alahazra", "Inflict"),
    moved("Light Crossbow", "shuffle", hand("lirianne"), deck("lirianne")),
    *discards("alahazra", "Blessing of the Gods"),
    roll("alahazra", "check", [(12, 8), (12, 6), (4, 3)], modifier=4, skill="Divine", difficulty=11, success=True),
    {"type": "location.closed", "data": {"location": "Cannibal Isle"}},
    {"type": "villain.escaped", "data": {"villain": "Jemma Redclaw", "to": ["Fog Bank", "Tempest Cay"]}},
    # End of the turn with a wrecked ship: the plunder is banished (Amber peeks: a Find Traps).
    {"type": "plunder.banished", "data": {"card_type": "spell", "card": "Find Traps"}},
    *draw("alahazra", *["Blessing of the Gods"] * 4, "Fireblade", "Strength"),
]

LILYS_SECOND_TURN: list[dict[str, Any]] = [
    advance("lirianne", "Blessing of the Gods"),
    moved("Carver", "recharge", hand("lirianne"), deck("lirianne")),
    roll("lirianne", "repair", [(4, 1), (8, 7)], skill="Craft", difficulty=6, success=True),
    {"type": "ship.repaired", "data": {"character_id": "lirianne"}},
]

PAYLOADS: list[dict[str, Any]] = [
    *SETTING_UP,
    *LILYS_FIRST_TURN,
    *SAMS_FIRST_TURN,
    *AMBERS_FIRST_TURN,
    *LILYS_SECOND_TURN,
]

# The campaign's options: the Core rules' defaults (an hourglass of 30).
OPTIONS: dict[str, Any] = {}
