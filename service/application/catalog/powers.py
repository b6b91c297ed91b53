"""Printed powers read into data the fold applies (events.pacg.CardPower), by the wording the cards share, never by
a card's name: "may not be evaded", "Reduce Structural damage to this ship by 2", "exchange it for the ship
Merchantman", "stash a random weapon instead", "The difficulty to defeat is increased by the adventure deck number".
A power worded any other way is kept as `by_hand`, so the table knows to apply it itself.
"""

from __future__ import annotations

import re
from typing import Any

_NUMBER = {"twice": 2, "three times": 3}

_READERS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(?:the [\w' ]+ )?may not be evaded\.?$", re.IGNORECASE), "may_not_be_evaded"),
    (re.compile(r"^(?:the [\w' ]+ )?cannot be defeated\.?$", re.IGNORECASE), "cannot_be_defeated"),
    (re.compile(r"^if [\w' ]+ would be defeated, (?:he|she|it) is undefeated\.?$", re.I), "cannot_be_defeated"),
    (
        re.compile(
            r"^if defeated, you may immediately attempt to close the location this henchman came from\.?$", re.I
        ),
        "close_when_defeated",
    ),
    # The Enemy Ship: "If the summoned ship is defeated, you may seize it. The Enemy Ship is also defeated, and you
    # may immediately attempt to close the location this henchman came from." Defeated, it lets its location close.
    (
        re.compile(
            r"\bis also defeated, and you may immediately attempt to close the location this henchman came from\.?$",
            re.I,
        ),
        "close_when_defeated",
    ),
    (
        re.compile(
            r"^when you encounter [\w' ]+, you may immediately attempt to close the location this henchman came "
            r"from\.?$",
            re.I,
        ),
        "close_when_encountered",
    ),
    (re.compile(r"^this ship cannot be seized\.?$", re.IGNORECASE), "cannot_be_seized"),
    (
        re.compile(r"^if undefeated, you may banish this (?:barrier|monster|henchman)\.?$", re.IGNORECASE),
        "banish_when_undefeated",
    ),
    (
        re.compile(r"^this ship may have no more than (?P<limit>\d+) plunder cards? under it\.", re.IGNORECASE),
        "plunder_limit",
    ),
    (
        re.compile(r"^reduce structu?r?al damage (?:dealt )?to this ship by (?P<less>\d+)\.?$", re.IGNORECASE),
        "structural_damage",
    ),
    (
        re.compile(r"^when your ship is dealt damage, add (?P<more>\d+) to the amount of damage dealt\.?$", re.I),
        "structural_damage",
    ),
    (re.compile(r"exchange it for the ship (?P<ship>[A-Z][\w' ]+?)\.?$"), "exchange_when_wrecked"),
    (
        re.compile(r"do not roll for the plunder card type; stash a random (?P<type>\w+) instead\.?$", re.I),
        "stash_instead",
    ),
    (
        re.compile(
            r"^the difficulty (?:to defeat|of your check to defeat (?:the )?[\w' ]+) is increased by "
            r"(?:(?P<times>twice|three times) )?(?:(?P<plus>\d+)|the adventure deck number(?: of the current "
            r"scenario)?)(?:, if any)?\.?$",
            re.IGNORECASE,
        ),
        "difficulty",
    ),
]


def read_power(text: str, when: str = "always") -> dict[str, Any]:
    """One printed power as CardPower data."""
    # A power may begin with a condition the cards print before its effect ("If defeated, ...", "At the start of
    # your turn, ..."): only the wrecked ship's exchange reads through one, and only that condition.
    effect = text.strip()
    for pattern, kind in _READERS:
        found = pattern.search(effect)
        if found is None:
            continue
        if kind in ("exchange_when_wrecked",) and when != "wrecked":
            continue
        if kind == "stash_instead" and not effect.lower().startswith("if defeated"):
            continue
        power: dict[str, Any] = {"kind": kind, "text": text, "when": when}
        parts = found.groupdict()
        if parts.get("limit"):
            power["amount"] = int(parts["limit"])
        if parts.get("less"):
            power["amount"] = -int(parts["less"])
        if parts.get("more"):
            power["amount"] = int(parts["more"])
        if parts.get("ship"):
            power["ship"] = parts["ship"].strip()
        if parts.get("type"):
            power["card_type"] = parts["type"].lower()
        if kind == "difficulty":
            if parts.get("plus"):
                power["amount"] = int(parts["plus"])
            else:
                power["per_adventure"] = _NUMBER.get((parts.get("times") or "").lower(), 1)
        return power
    return {"kind": "by_hand", "text": text, "when": when}


# A closing joined to another effect by a semicolon (the Shipwreck: "If defeated, add 1 plunder card from the box to
# your hand; you may immediately attempt to close the location this henchman came from.").
_JOINED_CLOSING = re.compile(
    r"^if defeated, [^;]+; you may immediately attempt to close the location this henchman came from\.?$", re.I
)


def read_powers(text: str, when: str = "always") -> list[dict[str, Any]]:
    """One printed text as the powers it holds: the closing a text joins to another effect is applied, and the rest
    of that text is listed for the table."""
    power = read_power(text, when)
    if power["kind"] == "by_hand" and _JOINED_CLOSING.search(text.strip()):
        return [{"kind": "close_when_defeated", "text": text, "when": when}, power]
    return [power]


def read_ship(ship: dict[str, Any]) -> list[dict[str, Any]]:
    """A ship card's powers, each section in force when its heading says."""
    sections = (("when_encountering", "encountering"), ("when_commanding", "commanding"), ("when_wrecked", "wrecked"))
    return [power for field, when in sections for text in ship.get(field, []) for power in read_powers(text, when)]


def read_card(card: dict[str, Any]) -> list[dict[str, Any]]:
    """A card's powers (a henchman's, from its Powers section), in force whenever it is encountered."""
    return [power for text in card.get("powers_text", []) for power in read_powers(text)]


__all__ = ["read_card", "read_power", "read_powers", "read_ship"]
