"""The OpenAPI document's named schemas: problems, answers, each game's batch and event types, each game's state.

Generators name a class after a schema's title, so every title is unique across games: a game's schemas are named
and titled after it (`PacgSkullAndShacklesNoteAdded`, `SkullTalesFullSailNoteAdded`), the nested schemas of an
event's data are left untitled (a generator names them after their parent), and a game's state parts are named
`<Game>Part<Name>`.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from quartermaster.events.base import Event, description, tag_of
from quartermaster.projections.registry import GAME_IDS, event_types, game
from quartermaster.service.application import catalog
from quartermaster.service.application.export import EventRow, ExportHeader
from quartermaster.service.application.narration import Told
from quartermaster.service.http import answers
from quartermaster.service.http.openapi import inline
from quartermaster.service.http.reference import data_schema
from quartermaster.service.http.requests import MAX_EVENTS_PER_BATCH
from quartermaster.service.store import Recorded

REF = answers.REF

PROBLEM = {
    "title": "Problem",
    "description": "Every 4xx and 5xx answer (RFC 9457): `detail` is a sentence a person understands; `errors` "
    "names each refused event of a batch by its index.",
    "type": "object",
    "properties": {
        "type": {"type": "string", "description": "The kind of problem, as a URI."},
        "title": {"type": "string", "description": "The HTTP status in words."},
        "status": {"type": "integer", "description": "The HTTP status."},
        "detail": {"type": "string", "description": "What went wrong and what to do, in a sentence."},
        "errors": {
            "type": "array",
            "description": "For a batch: each event refused, by its index in the batch, with the reason.",
            "items": {
                "type": "object",
                "properties": {
                    "index": {"type": "integer"},
                    "reason": {"type": "string"},
                    "kind": {
                        "type": "string",
                        "enum": ["rule", "integrity"],
                        "description": "`rule`: an override may log it anyway; `integrity`: nothing can.",
                    },
                },
                "required": ["reason"],
            },
        },
        "conflicts": {
            "type": "array",
            "description": "For an undo or redo: each later entry that would no longer hold.",
            "items": {
                "type": "object",
                "properties": {
                    "position": {"type": "integer"},
                    "type": {"type": "string"},
                    "reason": {"type": "string"},
                },
                "required": ["position", "type", "reason"],
            },
        },
        "position": {"type": "integer", "description": "For a stale position: where the log is now."},
        "line": {"type": "integer", "description": "For an import: the line refused, counted from 1."},
        "overridable": {"type": "boolean", "description": "Whether an override could log the refused batch."},
    },
    "required": ["type", "title", "status", "detail"],
}

# What each problem status means, for the routes that can answer it, with an example of each.


def prefix(game_id: str) -> str:
    """A game's prefix for the names of its schemas: `pacg-skull-and-shackles` as `PacgSkullAndShackles`."""
    return "".join(word.capitalize() for word in re.split(r"[^A-Za-z0-9]+", game_id) if word)


def item_name(game_id: str, tag: str) -> str:
    return f"{game_id}.{tag}"


def _untitled(node: Any, keep: bool = True) -> Any:
    """The schema with the titles of its nested schemas removed (msgspec titles each struct by its class name, and
    the two games share class names); a generator names nested classes after their parent instead. Property names
    are not keywords: a property called `title` stays."""
    if isinstance(node, list):
        return [_untitled(item, False) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "title" and not keep and isinstance(value, str):
            continue
        if key in ("properties", "$defs", "patternProperties"):
            out[key] = {name: _untitled(sub, False) for name, sub in value.items()}
        elif key in ("examples", "example", "default", "const", "enum"):
            out[key] = value
        else:
            out[key] = _untitled(value, False)
    return out


def event_item(game_id: str, event_type: type[Event]) -> dict[str, Any]:
    """One event of a batch, as a client sends it: its `type`, its `data` (what the table says: what the catalogue
    determines may be left out, and the server fills it in), optionally its id, time and override."""
    tag = tag_of(event_type)
    data = _untitled(data_schema(event_type, catalog.filled(game_id).get(tag, ())), keep=False)
    examples = data.pop("examples", [])
    required = ["type", "data"] if data.get("required") else ["type"]
    name = item_name(game_id, tag)
    return {
        "title": answers.class_name(name),
        "description": description(event_type),
        "type": "object",
        "properties": {
            "type": {"type": "string", "const": tag, "enum": [tag]},
            "data": data,
            "id": {
                "type": "string",
                "format": "uuid",
                "description": "The event's own id; a retry with the same ids is answered from the log.",
            },
            "occurred_at": {"type": "string", "format": "date-time", "description": "When it happened at the table."},
            "override": {
                "type": "object",
                "description": "Log it against a rule of the game, for this reason (the owner, or any player where "
                "the campaign's option `overrides` is `players`). A refusal's `kind` says which refusals allow it: "
                "`rule`, never `integrity`. A value the catalogue determines, sent otherwise, is recorded as sent.",
                "properties": {"reason": {"type": "string", "minLength": 1, "maxLength": 500}},
                "required": ["reason"],
                "additionalProperties": False,
            },
        },
        "required": required,
        "additionalProperties": False,
        "examples": [{"type": tag, "data": example} for example in examples],
    }


def append_request(game_id: str) -> dict[str, Any]:
    """The body of `POST .../events` for a campaign of this game."""
    types = {tag: t for tag, t in event_types(game_id).items() if not t.WRITTEN_BY}
    refs = {tag: REF.format(name=item_name(game_id, tag)) for tag in types}
    first = next(t for t in types.values() if t.EXAMPLES)
    return {
        "title": f"{prefix(game_id)}Batch",
        "description": f"A batch for {game(game_id).title}.",
        "type": "object",
        "properties": {
            "events": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_EVENTS_PER_BATCH,
                "description": "The events, appended together or not at all.",
                "items": {
                    "oneOf": [{"$ref": ref} for ref in refs.values()],
                    "discriminator": {"propertyName": "type", "mapping": refs},
                },
            },
            "expected_position": {
                "anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}],
                "description": "The position the client last saw; the batch is refused with 409 if the log moved on.",
            },
        },
        "required": ["events"],
        "additionalProperties": False,
        "examples": [{"events": [{"type": tag_of(first), "data": first.EXAMPLES[0]}]}],
    }


def _recorded_schema(type_: type) -> dict[str, Any]:
    schema: dict[str, Any] = _untitled(inline(type_))
    schema["properties"]["data"] = {
        "type": "object",
        "additionalProperties": True,
        "description": "The event's fields as recorded, without its type: what the table said, with what the "
        "catalogue and the rules filled in.",
    }
    return schema


def _appended(title: str, description_: str, **more: Any) -> dict[str, Any]:
    properties = {
        "batch": {"type": "string", "format": "uuid"},
        "first_position": {"type": "integer"},
        "last_position": {"type": "integer"},
        "events": {"type": "array", "items": {"$ref": REF.format(name="Recorded")}},
        **more,
    }
    return {
        "title": title,
        "description": description_,
        "type": "object",
        "properties": properties,
        "required": list(properties),
    }


_POSITIONS = {"type": "array", "items": {"type": "integer"}}

HISTORY = {
    "title": "History",
    "description": "A page of the log, oldest first.",
    "type": "object",
    "properties": {
        "events": {"type": "array", "items": {"$ref": REF.format(name="Told")}},
        "next": {
            "anyOf": [{"type": "integer"}, {"type": "null"}],
            "description": "The `after` of the next page, or null on the last page.",
        },
        "source": {"type": "string", "enum": ["primary", "replica"], "description": "With a replica: who answered."},
        "position": {"type": "integer", "description": "With a replica: where the answering server's log ended."},
    },
    "required": ["events", "next"],
}


def _answer_types() -> list[type]:
    return [
        answers.Health,
        answers.Ready,
        answers.CampaignCreated,
        answers.CampaignSummary,
        answers.MemberAdded,
        answers.Forked,
        answers.Games,
        answers.EventTypes,
    ]


def _game_state(game_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The game's state schema as components named after the game (`PacgSkullAndShacklesState`, and its parts
    `PacgSkullAndShacklesPartFleet`...), apart from its event types' names, and the state's ref."""
    name = f"{prefix(game_id)}State"
    (top,), found = msgspec.json.schema_components([game(game_id).state_type], ref_template=REF)
    top_name = top["$ref"].rsplit("/", 1)[1]
    renamed = {old: name if old == top_name else f"{prefix(game_id)}Part{old}" for old in found}
    text = msgspec.json.encode(found)
    for old, new in renamed.items():
        text = text.replace(f'"{REF.format(name=old)}"'.encode(), f'"{REF.format(name=new)}"'.encode())
    schemas = msgspec.json.decode(text)
    out = {}
    for old, new in renamed.items():
        schema = _untitled(schemas[old])
        schema["title"] = new
        out[new] = schema
    return out, {"$ref": REF.format(name=name)}


def _export_lines() -> dict[str, Any]:
    """The two kinds of line of an export, for a client that reads one line at a time."""
    header = _untitled(inline(ExportHeader))
    header["title"] = "ExportHeaderLine"
    header["description"] = "Line 1 of an export: the campaign and how many events follow."
    event = _untitled(inline(EventRow))
    event["title"] = "ExportEventLine"
    event["description"] = "Each line after the first: one recorded event, sealed to the line before it."
    event["properties"]["prev"] = {"type": "string", "description": "The `hash` of the line before."}
    event["required"] = [*event.get("required", []), "prev", "hash"]
    for line in (header, event):
        line["properties"]["hash"] = {"type": "string", "description": "The SHA-256 of this line without `hash`."}
    header["required"] = [*header.get("required", []), "hash"]
    return {"ExportHeaderLine": header, "ExportEventLine": event}


def components() -> dict[str, Any]:
    """Every named schema of the document: problems, answers, each game's batch, event types and state."""
    _, answer_schemas = msgspec.json.schema_components(_answer_types(), ref_template=REF)
    schemas: dict[str, Any] = {
        "Problem": PROBLEM,
        **_export_lines(),
        "Appended": _appended("Appended", "A batch appended (201), or found in the log on a retry (200)."),
        "Undone": _appended(
            "Undone",
            "The undo marker appended: the positions it undid and where the log is now.",
            undone=_POSITIONS,
            position={"type": "integer"},
        ),
        "Redone": _appended(
            "Redone",
            "The redo marker appended: the positions it brought back and where the log is now.",
            redone=_POSITIONS,
            position={"type": "integer"},
        ),
        "Rolled": _appended(
            "Rolled", "The roll recorded, as `dice.rolled`.", roll={"$ref": REF.format(name="Recorded")}
        ),
        "History": HISTORY,
        "Recorded": _recorded_schema(Recorded),
        "Told": _recorded_schema(Told),
        **{name: _untitled(schema) for name, schema in answer_schemas.items()},
    }
    states = []
    for game_id in GAME_IDS:
        state_schemas, ref = _game_state(game_id)
        schemas.update(state_schemas)
        states.append(ref)
        schemas[f"{game_id}.batch"] = append_request(game_id)
        for tag, event_type in event_types(game_id).items():
            if not event_type.WRITTEN_BY:
                schemas[item_name(game_id, tag)] = event_item(game_id, event_type)
    schemas["State"] = {
        "title": "State",
        "description": "The whole state of the campaign's fold right after `position`, in its game's shape.",
        "type": "object",
        "properties": {
            "position": {"type": "integer"},
            "state": {"anyOf": [*states, {"type": "null"}]},
            "source": {
                "type": "string",
                "enum": ["primary", "replica"],
                "description": "With a replica: who answered.",
            },
        },
        "required": ["position", "state"],
    }
    return schemas
