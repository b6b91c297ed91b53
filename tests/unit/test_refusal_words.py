"""Intake's refusals are sentences in the game's words: no schema type, no backtick, no event number, no `data.`.

For every event type of both games, each field is given a value of the wrong kind (and each required field is left
out, and an unknown field is added): every reason intake gives is checked against the words of the schema.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from quartermaster.projections.registry import event_types
from quartermaster.service.http.intake import prepare
from quartermaster.service.http.problems import Problem
from quartermaster.service.http.reference import event_types_of
from quartermaster.service.http.requests import NewEvent

SCHEMA_WORDS = re.compile(r"Expected|Event \d|data\.|body\.|enum|null|`|see errors|\$\.|Object ", re.IGNORECASE)
GAMES = ("pacg-skull-and-shackles", "skull-tales-full-sail")


def _wrong(schema: dict[str, Any]) -> Any:
    """A value of another kind than the field takes."""
    kinds = {schema.get("type")} | {s.get("type") for s in schema.get("anyOf", [])}
    if "string" in kinds or "enum" in schema:
        return 12345 if "enum" not in schema else "no such choice"
    if "integer" in kinds or "number" in kinds:
        return "seven"
    if "array" in kinds:
        return {"not": "a list"}
    if "object" in kinds:
        return [1, 2]
    return ["?"]


def _reasons(game: str, events: list[NewEvent]) -> list[str]:
    try:
        prepare(game, events)
    except Problem as problem:
        return [problem.detail, *(e["reason"] for e in problem.extra.get("errors", []))]
    return []


def _cases() -> list[tuple[str, str, dict[str, Any]]]:
    cases = []
    for game in GAMES:
        known = event_types(game)
        for described in event_types_of(game):
            if described.get("written_by") or described["type"] not in known:
                continue
            example = dict((described.get("examples") or [{}])[0])
            for name, schema in described["schema"].get("properties", {}).items():
                cases.append((game, described["type"], {**example, name: _wrong(schema)}))
            for name in described["schema"].get("required", []):
                cases.append((game, described["type"], {k: v for k, v in example.items() if k != name}))
            cases.append((game, described["type"], {**example, "no_such_field": 1}))
    return cases


@pytest.mark.parametrize(("game", "type_", "data"), _cases(), ids=lambda x: x if isinstance(x, str) else "")
def test_a_wrong_value_is_refused_in_a_sentence_without_schema_words(game, type_, data):
    reasons = _reasons(game, [NewEvent(type=type_, data=data)])
    talk = [r for r in reasons if SCHEMA_WORDS.search(r)]
    assert not talk, talk


def test_a_batch_with_two_wrong_entries_names_each_from_one():
    reasons = _reasons(
        "pacg-skull-and-shackles",
        [
            NewEvent(type="note.added", data={"text": "fine"}),
            NewEvent(type="dice.rolled", data={"total": "four"}),
            NewEvent(type="plunder.stashed", data={"roll": "two"}),
        ],
    )
    assert reasons[0] == (
        "2 entries of this batch cannot be recorded; nothing was written. Entry 2: The total must be a whole number, "
        "not a name or text. Entry 3: The roll must be a whole number, not a name or text."
    )
