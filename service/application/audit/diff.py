"""What changed between two states: every view of the game, compared leaf by leaf, and the changes in words.

Both states are read by the caller (the state as the table saw it right after each position); this module is pure.
A change is a JSON Pointer (RFC 6901) into the views, the value before and the value after; a value that is not
there on one side is null on that side.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

_ABSENT = object()


def views(game: Any, state: Any) -> dict[str, Any]:
    """Every view of the game over one state; views about one character are read for each of them."""
    if state is None:
        return {}
    found: dict[str, Any] = {}
    for name, view in game.views.items():
        if name in ("character", "pirate"):
            continue
        found[name] = view.read(state)
    if "character" in game.views:
        found["characters"] = {c: game.views["character"].read(state, character_id=c) for c in state.characters}
    if isinstance(found.get("pirates"), list):
        # A Record Sheet is found by its pirate, not by its place in the list.
        found["pirates"] = {sheet["id"]: sheet for sheet in found["pirates"]}
    return found


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def changes(before: Any, after: Any, path: str = "") -> Iterator[dict[str, Any]]:
    """Every leaf that differs, in the order the views list them."""
    if before is after or before == after:
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key in [*before, *(k for k in after if k not in before)]:
            yield from changes(before.get(key, _ABSENT), after.get(key, _ABSENT), f"{path}/{_escape(key)}")
        return
    if isinstance(before, list) and isinstance(after, list) and _all_structured(before, after):
        keyed = _keyed(before), _keyed(after)
        if keyed[0] is not None and keyed[1] is not None:
            yield from changes(keyed[0], keyed[1], path)
            return
        for index in range(max(len(before), len(after))):
            yield from changes(
                before[index] if index < len(before) else _ABSENT,
                after[index] if index < len(after) else _ABSENT,
                f"{path}/{index}",
            )
        return
    yield {"path": path, "before": None if before is _ABSENT else before, "after": None if after is _ABSENT else after}


def _empty(value: Any) -> bool:
    return value is _ABSENT or value is None


def _keyed(items: list[Any]) -> dict[str, Any] | None:
    """A list of records that each name themselves (`id` or `name`), by that name; None when they do not."""
    for key in ("id", "name"):
        if all(isinstance(item, dict) and isinstance(item.get(key), str) for item in items):
            found = {item[key]: item for item in items}
            if len(found) == len(items):
                return found
    return None


def _all_structured(*lists: list[Any]) -> bool:
    # Lists of records (ledger entries) are compared entry by entry; lists of names (skills, injuries) whole.
    return any(isinstance(item, dict) for items in lists for item in items)


def _parts(path: str) -> list[str]:
    return [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]]


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _words(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or "none"
    return str(value)


# What repeats another change in other words: counts of the zones, the vault by type, every ledger entry.
_REPEATS = {
    ("characters", "counts"),
    ("vault", "by_type"),
    ("vault", "total"),
    ("ledger", "entries"),
    ("ledger", "from_sources"),
    ("ledger", "to_sinks"),
}


def sentences(found: list[dict[str, Any]], names: dict[str, str]) -> list[str]:
    """The changes in words, one sentence per character, pirate or view: "Merisiel: +1 Cutlass in the deck"."""
    grouped: dict[str, list[str]] = {}
    for change in found:
        parts = _parts(change["path"])
        if len(parts) < 2:
            continue
        section, rest = parts[0], parts[1:]
        if section in ("characters", "pirates"):
            who, rest = names.get(rest[0], rest[0]), rest[1:]
        else:
            who = _SECTIONS.get(section, section)
        if rest and (section, rest[0]) in _REPEATS:
            continue
        grouped.setdefault(who, []).append(_phrase(section, rest, change["before"], change["after"]))
    return [f"{who}: {'; '.join(phrases)}." for who, phrases in grouped.items()]


_SECTIONS = {
    "vault": "The vault",
    "fleet": "The fleet",
    "scenario": "The scenario",
    "ship": "The ship",
    "ledger": "The ledger",
    "chapter": "The chapter",
}


def _phrase(section: str, rest: list[str], before: Any, after: Any) -> str:
    label = " ".join(r.replace("_", " ") for r in rest)
    if isinstance(after, dict) and before is None:
        if not label:
            return "joins"
        named = after.get("name") or after.get("id") or after.get("kind")
        return f"{label} new: {named}" if named else f"{label} new"
    if isinstance(before, dict) and after is None:
        return f"{label} gone" if label else "gone"
    if section == "characters" and rest[0] == "zones" and len(rest) == 3:
        zone, card = rest[1], rest[2]
        delta = _count(after) - _count(before)
        return f"{'+' if delta > 0 else ''}{delta} {card} in the {zone}"
    if section == "vault" and rest[0] == "cards" and len(rest) == 2:
        delta = _count(after) - _count(before)
        return f"{'+' if delta > 0 else ''}{delta} {rest[1]}"
    if _count(before) or _count(after) or before == 0 or after == 0:
        if (
            isinstance(before, (int, type(None)))
            and isinstance(after, (int, type(None)))
            and not isinstance(before, bool)
            and not isinstance(after, bool)
        ):
            delta = _count(after) - _count(before)
            return f"{label} {_words(before)} → {_words(after)} ({'+' if delta > 0 else ''}{delta})"
    return f"{label} {_words(before)} → {_words(after)}"
