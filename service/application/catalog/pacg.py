"""The Skull & Shackles catalogue, and the expansion of its names into self-contained events.

The data files live in `service/application/catalog/pacg-skull-and-shackles/` (format in its README.md). They hold
what the seed
texts say and no more; `expand` fills in those facts so a recorded event replays without these files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from quartermaster.service.application.catalog import Catalog, CatalogError, find, read
from quartermaster.service.application.catalog.powers import read_card, read_ship

FOLDER = Path(__file__).parent / "pacg-skull-and-shackles"
FILES = ("characters", "cards", "products", "ships", "plunder", "scenarios", "locations")


_FIRST_SEEN = frozenset({"vault", "location", "hourglass", "plunder", "dealt"})

# The fields of each event type's data this catalogue fills in from a name (the catalogue module's `FILLED`).
FILLED = {
    "character.joined": frozenset(("name", "card")),
    "vault.products_added": frozenset(("cards",)),
    "card.moved": frozenset(("card_type",)),
    "scenario.started": frozenset(("villains", "henchmen", "ship_card")),
    "adventure.started": frozenset(("number", "scenarios")),
    "ship.awarded": frozenset(("ship_card",)),
    "ship.seized": frozenset(("ship_card",)),
    "ship.encountered": frozenset(("ship_card",)),
}


# Each kind of thing a name is looked up among: (its file, the list in it, the field that names it).
_INDEXES = {
    "card": ("cards", "cards", "name"),
    "ship": ("ships", "ships", "name"),
    "scenario": ("scenarios", "scenarios", "name"),
    "adventure": ("scenarios", "adventures", "name"),
    "location": ("locations", "locations", "name"),
}


def load() -> Catalog:
    """Every data file, by name, with indexes for expansion (a character by its id or its name in lower case)."""
    catalog = read(FOLDER, FILES, _INDEXES)
    # Printed powers become data the events carry and the fold applies (powers.py reads them by their wording).
    for ship in catalog["ships"]["ships"]:
        ship["powers"] = read_ship(ship)
    cards = [card for product in catalog["products"]["products"].values() for card in product["cards"]]
    for card in [*cards, *catalog["cards"]["cards"]]:
        if "powers_text" in card:
            card["powers"] = read_card(card)
            del card["powers_text"]
    characters = catalog["characters"]["characters"]
    catalog["by"]["character"] = {c["character_id"]: c for c in characters} | {c["name"].lower(): c for c in characters}
    return catalog


def _find(catalog: Catalog, kind: str, name: str, words: str) -> dict[str, Any]:
    return find(catalog, kind, name, words, whose="The Skull & Shackles catalogue", fold_case=True)


def _ship_card(catalog: dict[str, Any], name: str) -> dict[str, Any] | None:
    ship = catalog["by"]["ship"].get(name)
    return dict(ship) if ship is not None else None


def expand(catalog: dict[str, Any], event_type: str, data: dict[str, Any], overridden: bool = False) -> dict[str, Any]:
    """The event's data with catalogue names expanded into facts; self-contained data comes back unchanged. A card's
    type sent otherwise than the catalogue prints it is refused, unless the event carries an override (`overridden`):
    then it is recorded as sent."""
    if event_type == "character.joined":
        key = str(data.get("character_id") or data.get("name") or "")
        given = data.get("card")
        if isinstance(given, dict) and "cards_list" in given and "name" in given:
            return data  # A whole character card of the group's own.
        character = _find(catalog, "character", key, "character")
        if "name" in data and data["name"] != character["name"] and not overridden:
            raise _against(character["character_id"], f"her name is {character['name']!r}, not {data['name']!r}")
        card = character["card"] if not isinstance(given, dict) else completed_card(character["card"], given)
        return {"character_id": character["character_id"], "name": character["name"], **data, "card": card}
    if event_type == "vault.products_added" and "cards" not in data:
        product = str(data.get("product", ""))
        found = catalog["products"]["products"].get(product)
        if found is None:
            known = ", ".join(catalog["products"]["products"])
            raise CatalogError(
                f"The catalogue has no card list for product {product!r} (it has {known}); send the product's cards."
            )
        return {**data, "cards": [dict(card, product=product) for card in found["cards"]]}
    if event_type == "card.defined" and isinstance(data.get("card"), str):
        card = _find(catalog, "card", data["card"], "card")
        entry = {"name": card["name"], "type": card["type"], "traits": card.get("traits", []), "count": 1}
        if card.get("product"):
            entry["product"] = card["product"]
        if card.get("powers"):
            entry["powers"] = card["powers"]
        if card.get("to_defeat"):
            entry["to_defeat"] = card["to_defeat"]
        return {**data, "card": entry}
    if event_type == "scenario.started":
        return _scenario(catalog, data)
    if event_type == "card.moved" and "card_type" in data and isinstance(data.get("card"), str) and not overridden:
        known = catalog["by"]["card"].get(data["card"])
        # A henchman or villain is also of the type it counts as in a location's deck (Sea Devil: a monster).
        if known is not None and data["card_type"] not in (known["type"], known.get("counts_as")):
            also = f" (it counts as a {known['counts_as']})" if known.get("counts_as") else ""
            raise CatalogError(
                f"{known['name']} is a {known['type']} card in the catalogue{also}, not a {data['card_type']}: "
                "leave card_type out and the server fills it in, or log it with an override saying why."
            )
        return data
    if event_type == "card.moved" and "card_type" not in data and isinstance(data.get("card"), str):
        source = data.get("from")
        # Where a card can come up for the first time: out of the box, a location, the hourglass, plunder.
        if isinstance(source, dict) and source.get("zone") in _FIRST_SEEN:
            known = catalog["by"]["card"].get(data["card"])
            if known is not None:
                return {**data, "card_type": known["type"]}
        return data
    if event_type in ("ship.awarded", "ship.seized", "ship.encountered") and "ship_card" not in data and "ship" in data:
        card = _ship_card(catalog, str(data["ship"]))
        if card is None:
            _find(catalog, "ship", str(data["ship"]), "ship")
        return {**data, "ship_card": card}
    if event_type == "adventure.started" and "scenarios" in data and "number" not in data:
        # The adventure deck number says whether the adventure is one of the Adventure Path's (# 1 to 6).
        known = catalog["by"]["adventure"].get(str(data.get("adventure", "")))
        if known is not None and known.get("number") is not None:
            return {**data, "number": known["number"]}
        return data
    if event_type == "adventure.started" and "scenarios" not in data and "adventure" in data:
        adventure = _find(catalog, "adventure", str(data["adventure"]), "adventure")
        if not adventure.get("complete"):
            raise CatalogError(
                f"The catalogue does not know every scenario of {adventure['name']}; send its scenarios in order."
            )
        return {"number": adventure["number"], "scenarios": adventure["scenarios"], **data}
    return data


def completed_card(known: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """The catalogue's character card with what the group gives from the card in hand: the facts the texts lack
    (hand size, proficiencies, feat boxes) are added, skill by skill and card type by card type."""
    card = dict(known)
    for key, value in given.items():
        old = card.get(key)
        if key in ("skills", "cards_list", "roles") and isinstance(value, dict) and isinstance(old, dict):
            merged = dict(old)
            for name, line in value.items():
                was = merged.get(name)
                merged[name] = {**was, **line} if isinstance(was, dict) and isinstance(line, dict) else line
            card[key] = merged
        elif key == "powers" and isinstance(value, dict) and isinstance(old, dict):
            card[key] = {**old, **value}
        else:
            card[key] = value
    return card


def _against(thing: str, said: str) -> CatalogError:
    """A fact sent otherwise than the catalogue has it, refused in a sentence that says what to do."""
    return CatalogError(
        f"The catalogue says of {thing}: {said}. Leave it out and the server fills in the catalogue's, or log it "
        "with an override saying why."
    )


def _scenario(catalog: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    data = dict(data)
    known = catalog["by"]["scenario"].get(str(data.get("scenario", "")))
    # The villains and henchmen are filled in when left out, never refused when given: the catalogue knows a
    # scenario's only from the rulebook's examples (Island Hopping's Adaro Barbarian), not from its card.
    if known is not None:
        data.setdefault("villains", known.get("villains", []))
        data.setdefault("henchmen", known.get("henchmen", []))
        # The locations its card lists for a party's size, where the rulebook shows them (Dangerous Waters' five for
        # three players, in the Example of Play): the fold holds the scenario to them.
        listed = {
            key.removeprefix("locations_for_"): names
            for key, names in known.items()
            if key.startswith("locations_for_")
        }
        if listed:
            data.setdefault("listed_locations", listed)
        # The adventure is not filled in: Island Hopping is played on its own or as part of Plunder and Peril
        # (Skull & Shackles Rulebook, Setting Up), and the fold knows which adventure the party is playing.
    locations = []
    for location in data.get("locations", []):
        if isinstance(location, str):
            found = catalog["by"]["location"].get(location)
            if found is None:
                raise CatalogError(
                    f"The catalogue does not know the deck list of {location}; give it as "
                    f'{{"name": "{location}", "deck": {{"monster": 3, ...}}}}.'
                )
            location = {"name": found["name"], "deck": found["deck"]}
        locations.append(location)
    if "locations" in data:
        data["locations"] = locations
    ship = str(data.get("ship", "Merchantman"))
    if "ship_card" not in data:
        data["ship_card"] = _ship_card(catalog, ship)
    return data


def public(catalog: dict[str, Any]) -> dict[str, Any]:
    """The catalogue as GET /v1/catalog/pacg-skull-and-shackles shows it."""
    return {name: catalog[name] for name in FILES}
