"""The events the table page spells by hand name only fields their event type has: a field renamed in events/ and
not on the page (or the other way round) fails here, before a player's entry loses it. At run time every write is
held to the served description as well (static/shapes.js, tests/browser/test_event_shapes.py)."""

from __future__ import annotations

import re

import msgspec
import pytest

from quartermaster.projections.registry import GAME_IDS, event_types
from quartermaster.service.http.page import HERE

# An entry spelled as `{ type: "tag", ..., data: { ... } }` or through a page helper `one("tag", { ... })`.
_LITERAL = re.compile(r"""type:\s*"(?P<tag>[a-z_]+\.[a-z_]+)"(?P<rest>[^{}]*?)data:\s*\{""")
_HELPER = re.compile(r"""\bone\(\s*"(?P<tag>[a-z_]+\.[a-z_]+)",\s*\{""")


def _fields() -> dict[str, set[str]]:
    """Each event type's field names as the API spells them, over both games."""
    found: dict[str, set[str]] = {}
    for game_id in GAME_IDS:
        for tag, event_type in event_types(game_id).items():
            names = {f.encode_name for f in msgspec.structs.fields(event_type)}
            found.setdefault(tag, set()).update(names)
    return found


def _object_keys(text: str, start: int) -> set[str]:
    """The keys of the object literal opening at `start` (its `{`), at its own depth; what it spreads (`...data`,
    a conditional field) is held at run time instead (static/shapes.js)."""
    depth, own = 0, []
    for c in text[start:]:
        if c in "{([":
            depth += 1
        elif c in "})]":
            depth -= 1
            if depth == 0:
                break
        own.append(c if depth == 1 and c not in "{([" else " ")
    keys = set()
    for part in "".join(own).split(","):
        name = re.match(r"\s*([A-Za-z_][A-Za-z_0-9]*)\s*(:|$)", part)
        if name:
            keys.add(name.group(1))
    return keys


def _spelled() -> list[tuple[str, str, set[str]]]:
    """(module, event type, the data's keys) for every entry a page module spells."""
    spelled = []
    for module in sorted((HERE / "static").glob("*.js")):
        text = module.read_text()
        for pattern in (_LITERAL, _HELPER):
            for match in pattern.finditer(text):
                keys = _object_keys(text, match.end() - 1)
                spelled.append((module.name, match.group("tag"), keys))
    return spelled


def test_an_object_literals_own_keys_are_read_and_a_nested_ones_are_not():
    text = 'one("hand.reset", { character_id: who, hand_size, from: { zone: "deck" }, ...(a ? { kept: true } : {}) })'
    assert _object_keys(text, text.index("{")) == {"character_id", "hand_size", "from"}


def test_the_page_spells_many_events_by_hand_and_this_test_reads_them():
    spelled = _spelled()
    modules = {module for module, _, _ in spelled}
    assert len(spelled) >= 16 and {"tales.js", "ashore.js", "turn.js", "moves.js"} <= modules


@pytest.mark.parametrize(("module", "tag", "keys"), _spelled(), ids=lambda v: v if isinstance(v, str) else "")
def test_each_event_the_page_spells_is_a_type_with_those_fields(module, tag, keys):
    fields = _fields()
    assert tag in fields, f"{module} logs {tag}, which no game describes."
    unknown = keys - fields[tag]
    assert not unknown, f"{module} spells {tag} with {sorted(unknown)}; its fields are {sorted(fields[tag])}."
