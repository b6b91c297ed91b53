"""The Skull Tales: Full Sail! catalogue, and the expansion of its names into self-contained events.

The data files live in `service/application/catalog/skull-tales-full-sail/` (format in its README.md). `expand` fills
in the
facts the fold needs from a name ("skill": "Fencing" -> its class, teacher, tier costs, prerequisites...), so the
recorded event replays without these files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from quartermaster.service.application.catalog import Catalog, CatalogError, find, read

FOLDER = Path(__file__).parent / "skull-tales-full-sail"
FILES = ("skills", "feats", "ships", "upgrades", "goods", "injuries", "enemies", "settings", "archetypes")


# Each kind of thing a name is looked up among: (its file, the list in it, the field that names it).
_INDEXES = {
    "skill": ("skills", "skills", "name"),
    "feat": ("feats", "feats", "name"),
    "ship": ("ships", "ships", "type"),
    "upgrade": ("upgrades", "upgrades", "name"),
    "goods": ("goods", "goods", "name"),
    "injury": ("injuries", "chart", "roll"),
    "setting": ("settings", "settings", "key"),
    "archetype": ("archetypes", "archetypes", "name"),
}


# The fields of each event type's data this catalogue fills in from a name (the catalogue module's `FILLED`).
FILLED = {
    "skill.learned": frozenset(
        (
            "skill_class",
            "teacher",
            "special",
            "voyage",
            "unique",
            "prerequisites",
            "synergy",
            "effects",
            "coins",
            "fame",
        )
    ),
    "feat.gained": frozenset(("coins", "fame", "requires")),
    "ship.bought": frozenset(("sails", "sails_max", "hold", "hold_max", "cannons", "price", "speed")),
    "ship.upgraded": frozenset(("cost", "effect", "limit")),
    "goods.traded": frozenset(("price", "sellable")),
    "injury.suffered": frozenset(("injury", "pair", "attribute_changes", "movement", "hand")),
    "pirate.recruited": frozenset(("classes",)),
    "character_card.recorded": frozenset(("classes",)),
}


def load() -> Catalog:
    """Every data file of the catalogue, by name, with indexes by name for expansion."""
    return read(FOLDER, FILES, _INDEXES)


def _find(catalog: Catalog, kind: str, name: Any, words: str) -> dict[str, Any]:
    return find(catalog, kind, name, words, whose="Skull Tales")


def _fill(data: dict[str, Any], facts: dict[str, Any], thing: str, overridden: bool) -> dict[str, Any]:
    """The catalogue's facts filled into what the client sent. A fact the client sent otherwise is refused in a
    sentence, unless the event carries an override: then it is recorded as sent (the fold and the audit see the
    override)."""
    differing = [(key, data[key], fact) for key, fact in facts.items() if key in data and data[key] != fact]
    if differing and not overridden:
        said = "; ".join(f"{key} is {fact!r}, not {given!r}" for key, given, fact in differing)
        raise CatalogError(
            f"The catalogue says of {thing}: {said}. Leave {'it' if len(differing) == 1 else 'them'} out and the "
            "server fills in the catalogue's, or log it with an override saying why."
        )
    return {**facts, **data}


def expand(catalog: dict[str, Any], event_type: str, data: dict[str, Any], overridden: bool = False) -> dict[str, Any]:
    """The event's data with every catalogue name expanded into facts, or a CatalogError naming what is unknown or
    what the client sent against the catalogue (recorded as sent when `overridden`)."""
    if event_type == "campaign.started":
        options = dict(data.get("options") or {})
        settings = options.get("settings") or []
        expanded = [
            _find(catalog, "setting", s, "Cabin Boy or Admiral setting") if isinstance(s, str) else s for s in settings
        ]
        if settings:
            options["settings"] = [{k: v for k, v in s.items()} for s in expanded]
            return {**data, "options": options}
        return data
    if event_type == "skill.learned" and "skill" in data:
        skill = _find(catalog, "skill", data["skill"], "skill")
        facts = {
            "skill_class": skill["class"],
            "teacher": skill["teacher"],
            "special": skill["special"],
            "voyage": skill["voyage"],
            "unique": skill.get("unique", False),
            "prerequisites": skill["prerequisites"],
            "synergy": skill["synergy"],
            "effects": skill.get("effects", {}),
        }
        if "coins" not in skill:
            facts["prerequisites"] = {**skill["prerequisites"], "starting_only": True}
            facts.update(coins=0, fame=0)
        else:
            facts.update(coins=skill["coins"], fame=skill["fame"])
        return _fill(data, facts, f"the skill {skill['name']}", overridden)
    if event_type == "feat.gained" and "feat" in data:
        feat = _find(catalog, "feat", data["feat"], "Feat")
        facts = {"coins": feat["coins"], "fame": feat["fame"], "requires": feat["requires"]}
        return _fill(data, facts, f"the Feat {feat['name']}", overridden)
    if event_type == "ship.bought" and "ship_type" in data:
        ship = _find(catalog, "ship", data["ship_type"], "ship type")
        keys = ("sails", "sails_max", "hold", "hold_max", "cannons", "price", "speed")
        return _fill(data, {k: ship[k] for k in keys}, f"the {ship['type']}", overridden)
    if event_type == "ship.upgraded" and "upgrade" in data:
        upgrade = _find(catalog, "upgrade", data["upgrade"], "ship upgrade")
        if upgrade["name"] == "Ammunition" and data.get("ammunition") not in upgrade["ammunition"]:
            raise CatalogError("Ammunition is bought as chainshot or grapeshot: say which (ammunition).")
        facts = {"cost": upgrade["cost"], "effect": upgrade["effect"], "limit": upgrade["limit"]}
        return _fill(data, facts, f"the upgrade {upgrade['name']}", overridden)
    if event_type == "goods.traded" and "goods" in data:
        return _traded(catalog, data, overridden)
    if event_type == "trade.made" and isinstance(data.get("lines"), list):
        lines = [
            _traded(catalog, line, overridden) if isinstance(line, dict) and "goods" in line else line
            for line in data["lines"]
        ]
        return {**data, "lines": lines}
    if event_type == "injury.suffered" and "roll" in data and "injury" not in data:
        injury = _find(catalog, "injury", data["roll"], "Permanent Injury for the roll")
        facts = {
            "injury": injury["injury"],
            "pair": injury["pair"],
            "attribute_changes": injury.get("attribute_changes", {}),
            "movement": injury.get("movement", 0),
        }
        if "hand" in injury:
            facts["hand"] = injury["hand"]
        return _fill(data, facts, f"the Permanent Injury for a roll of {data['roll']}", overridden)
    if event_type == "character_card.recorded" and "archetype" in data:
        return _card(catalog, data)
    if event_type == "pirate.recruited" and "archetype" in data:
        archetype = _find(catalog, "archetype", data["archetype"], "archetype")
        if "classes" not in data:
            if not archetype["classes_complete"]:
                raise CatalogError(
                    f"The rulebook does not print the {archetype['name']}'s classes: give them from the card (classes)."
                )
            return {**data, "classes": archetype["known_classes"]}
        return data
    return data


def _card(catalog: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """A Character Card the group typed, held to the catalogue's names: its archetype, classes and starting skills
    (its gear has free names: the catalogue lists no starting gear)."""
    archetype = _find(catalog, "archetype", data["archetype"], "archetype")
    classes = sorted({teacher["class"] for teacher in catalog["skills"]["teachers"].values()})
    for name in data.get("classes") or []:
        if name not in classes:
            raise CatalogError(f"Skull Tales has no class called {name!r}: the classes are {', '.join(classes)}.")
    for name in data.get("skills") or []:
        _find(catalog, "skill", name, "skill")
    if "classes" not in data and archetype["classes_complete"]:
        return {**data, "classes": archetype["known_classes"]}
    return data


def _traded(catalog: dict[str, Any], data: dict[str, Any], overridden: bool) -> dict[str, Any]:
    """One kind of Goods traded, with its price and whether it can be sold from the Trade chart."""
    goods = _find(catalog, "goods", data["goods"], "Goods")
    facts = {"sellable": goods.get("sellable", True)}
    if goods["price"] is not None:
        facts["price"] = goods["price"]
    elif isinstance(data.get("roll"), int):
        facts["price"] = data["roll"] * 10
    else:
        raise CatalogError(f"{goods['name']}'s price is one die x 10: log the die (roll).")
    return _fill(data, facts, goods["name"], overridden)


def public(catalog: dict[str, Any]) -> dict[str, Any]:
    """The catalogue as `GET /v1/catalog/skull-tales-full-sail` shows it."""
    return {name: catalog[name] for name in FILES}
