"""The API's documentation: the OpenAPI document completed from the event types, and a page of our own under /schema.

Litestar describes routes and parameters; what it cannot know is added here, from the code it comes from:

- `POST /v1/campaigns/{campaign}/events` takes, per game, a batch whose `events` are a union discriminated by
  `type`: one schema per event type, with its `data` fields, description and examples (service.reference);
- every answer a route can give: its success, and each problem (`application/problem+json`) with what it means;
- the bearer scheme, on every route that needs a member's token (those that ask for the `member` dependency).

The page at /schema is plain HTML written here, with nothing loaded from another host: the laptop at a table is often
offline. The document itself is at /schema/openapi.json.
"""

from __future__ import annotations

import copy
import html
import re
import uuid
from datetime import UTC, datetime
from functools import cache
from typing import Any

import msgspec
from litestar import Litestar
from litestar.enums import OpenAPIMediaType
from litestar.openapi.plugins import OpenAPIRenderPlugin
from litestar.routes import HTTPRoute

from quartermaster.events.base import Event, description, tag_of
from quartermaster.projections.dice_stats import dice_stats
from quartermaster.projections.registry import GAME_IDS, event_types, game
from quartermaster.service.application import catalog
from quartermaster.service.application.export import EventRow, ExportHeader, export_lines
from quartermaster.service.application.narration import Told
from quartermaster.service.http import answers, limits, reference
from quartermaster.service.http.openapi import inline
from quartermaster.service.http.reference import data_schema
from quartermaster.service.http.requests import MAX_EVENTS_PER_BATCH, AnyRequest
from quartermaster.service.http.routes.transfer import MEDIA_TYPE as EXPORT_MEDIA_TYPE
from quartermaster.service.store import Recorded

PROBLEM_MEDIA_TYPE = "application/problem+json"
BEARER = "bearer"
REF = "#/components/schemas/{name}"

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
MEANINGS = {
    400: "The body is not JSON, or a parameter is not of its type.",
    401: "No member token was sent, or the token is not valid.",
    403: "The member's role does not allow this (a viewer cannot append), or a browser write came from another site.",
    404: "Nothing is there: no such campaign for this token, game, view, character or batch.",
    409: "A conflict: the log moved on past `expected_position` (`stale-position`), an event id or Idempotency-Key "
    "was reused with other content, or an undo or redo would break later events.",
    413: "The body is larger than this server accepts; send fewer events per request.",
    422: "The request is well-formed but cannot be processed: a field is missing, unknown or of the wrong type, or "
    "the rules refuse an event (each named in `errors` with its index). Nothing was written.",
    429: "Too many campaigns started or imported from this address: wait the seconds `Retry-After` says.",
    503: "The database is not answering, or the campaign kept changing; nothing was written. Try again after the "
    "seconds `Retry-After` says.",
}
EXAMPLE_DETAILS = {
    400: ("malformed-json", "The request body is not valid JSON: unexpected end of input."),
    401: ("not-authenticated", "Send a member's token: Authorization: Bearer <token>."),
    403: ("forbidden", "Alba is a viewer of this campaign and cannot add to the log."),
    404: ("campaign-not-found", "There is no campaign 0f8fad5b-d9cb-469f-a165-70867728950e that this token can see."),
    409: ("stale-position", "The log has moved on: you expected position 3, but the campaign is at 5."),
    413: ("request-too-large", "The request body is larger than this server accepts; send fewer events per request."),
    422: ("rejected", "Cutlass is not in Merisiel's hand: it is in her discard pile. Nothing was written."),
    429: ("rate-limited", "Too many campaigns started or imported from this address; wait 60 seconds, then try again."),
    503: ("database-unavailable", "The database does not answer; nothing was written. Try again in a few seconds."),
}
TITLES = {
    400: "Bad request",
    401: "Not authenticated",
    403: "Not allowed",
    404: "Not found",
    409: "Conflict",
    413: "Request too large",
    422: "Cannot be processed",
    429: "Too many requests",
    503: "Unavailable",
}
RETRY_AFTER = {
    "Retry-After": {
        "description": "How many seconds to wait before sending the request again.",
        "schema": {"type": "integer", "minimum": 0},
    }
}
ETAG = {
    "ETag": {
        "description": "The answer's entity tag: send it back in If-None-Match to be answered 304 while it holds.",
        "schema": {"type": "string"},
    }
}
IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "The ETag of an answer already held: 304 with no body while the answer is the same.",
    # Visible ASCII, as header values are, with no space at either end; empty is as if not sent.
    "schema": {"type": "string", "pattern": "^([!-~]([ -~]*[!-~])?)?$"},
}

APPEND = "/v1/campaigns/{campaign}/events"
CAMPAIGN = "/v1/campaigns/{campaign}"


def prefix(game_id: str) -> str:
    """A game's prefix for the names of its schemas: `pacg-skull-and-shackles` as `PacgSkullAndShackles`."""
    return "".join(word.capitalize() for word in re.split(r"[^A-Za-z0-9]+", game_id) if word)


def item_name(game_id: str, tag: str) -> str:
    return f"{game_id}.{tag}"


def _class_name(name: str) -> str:
    """A component's name as generators name its class: `skull-tales-full-sail.note.added` as
    `SkullTalesFullSailNoteAdded`, so the same event type of two games makes two classes."""
    return "".join(word[:1].upper() + word[1:] for word in re.split(r"[^A-Za-z0-9]+", name) if word)


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
        "title": _class_name(name),
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


def components() -> dict[str, Any]:
    """Every named schema of the document: problems, answers, each game's batch, event types and state."""
    _, answer_schemas = msgspec.json.schema_components(_answer_types(), ref_template=REF)
    schemas: dict[str, Any] = {
        "Problem": PROBLEM,
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


def _problem(status: int, meaning: str | None = None) -> dict[str, Any]:
    kind, detail = EXAMPLE_DETAILS[status]
    example = {
        "type": f"https://quartermaster.invalid/problems/{kind}",
        "title": TITLES[status],
        "status": status,
        "detail": detail,
    }
    answer: dict[str, Any] = {
        "description": meaning or MEANINGS[status],
        "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": REF.format(name="Problem")}, "example": example}},
    }
    if status in (429, 503):
        answer["headers"] = dict(RETRY_AFTER)
    return answer


def _json(schema: dict[str, Any], meaning: str, example: Any, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "description": meaning,
        "content": {"application/json": {"schema": schema, "example": example}},
    }
    if headers:
        answer["headers"] = headers
    return answer


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": REF.format(name=name)}


def _handlers(app: Litestar) -> dict[tuple[str, str], Any]:
    found = {}
    for route in app.routes:
        if isinstance(route, HTTPRoute):
            path = re.sub(r"\{(\w+):\w+\}", r"{\1}", route.path)
            for handler in route.route_handlers:
                for method in handler.http_methods:
                    found[(path, method.lower())] = handler
    return found


def complete(app: Litestar, document: dict[str, Any]) -> dict[str, Any]:
    """The document Litestar made, with the event union, every answer typed and the bearer scheme."""
    document = copy.deepcopy(document)
    parts = document.setdefault("components", {})
    schemas = parts.setdefault("schemas", {})
    schemas.update(components())
    for name, schema in schemas.items():
        if isinstance(schema, dict) and "title" not in schema:
            schema["title"] = name
    parts["securitySchemes"] = {
        BEARER: {
            "type": "http",
            "scheme": "bearer",
            "description": "A member's token, answered when the campaign is created or the member added.",
        }
    }
    handlers = _handlers(app)
    successes = _successes()
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            handler = handlers.get((path, method))
            if handler is None:
                continue
            operation["operationId"] = _operation_id(handler, path)
            responses = operation.setdefault("responses", {})
            _media_type(path, handler, responses)
            _closed_parameters(operation)
            for code, answer in successes.get((method, path), {}).items():
                responses[code] = answer
            if path == "/readyz":
                responses["503"] = _problem(503, "The database does not answer, or migrations are not applied yet.")
            if not path.startswith("/v1/"):
                continue
            statuses = {400, 422}
            if "{" in path:
                statuses.add(404)
            if not path.startswith("/v1/games") and not path.startswith("/v1/catalog"):
                statuses.add(503)  # every route that reads the database
            if "requestBody" in operation or method == "post":
                statuses |= {413}
            if any(getattr(m, "middleware", None) is limits.PerClient for m in handler.middleware or ()):
                statuses.add(429)
            if "member" in handler.parsed_fn_signature.parameters:
                operation["security"] = [{BEARER: []}]
                statuses |= {401, 403, 404}
                if method in ("post", "delete") or handler.fn.__module__.endswith(".audit"):
                    statuses.add(409)
            for status in sorted(statuses):
                responses[str(status)] = _problem(status)
            if (method, path) in CONDITIONAL:
                operation.setdefault("parameters", []).append(IF_NONE_MATCH)
                responses["200"]["headers"] = dict(ETAG)
                responses["304"] = {"description": "Not modified: the answer is the one whose ETag was sent."}
    _append(document["paths"].get(APPEND, {}))
    _transfer(document["paths"])
    return document


# The reads a phone rereads: answered with an ETag, and 304 to an If-None-Match that still holds.
CONDITIONAL = (
    {("get", f"{CAMPAIGN}/state"), ("get", APPEND)}
    | {
        ("get", f"{CAMPAIGN}/{name}")
        for name in ("fleet", "vault", "scenario", "pirates", "ship", "ledger", "chapter", "recorded", "cards")
    }
    | {
        ("get", f"{CAMPAIGN}/views/{{name}}"),
        ("get", f"{CAMPAIGN}/characters/{{character_id}}"),
        ("get", f"{CAMPAIGN}/pirates/{{pirate_id}}"),
    }
)


def _view_names() -> list[str]:
    return sorted({name for game_id in GAME_IDS for name in game(game_id).views})


def _operation_id(handler: Any, path: str) -> str:
    """An operation's id, which generators name its function by: the handler's name (`append_events`,
    `view_fleet`), unique since Litestar holds handler names unique; a controller's method (`get` of /metrics) by
    its path."""
    name = handler.name or handler.handler_name
    if name in ("get", "post", "put", "patch", "delete"):
        name = path
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_")


# No address holds a NUL character (service/http/hostile.py refuses it with a 400): PostgreSQL's text cannot.
NO_NUL = "^[^\\x00]*$"


def _no_nul(schema: dict[str, Any]) -> None:
    if schema.get("type") == "string" and "pattern" not in schema and "enum" not in schema:
        schema["pattern"] = NO_NUL
    for branch in [
        *schema.get("oneOf", ()),
        *schema.get("anyOf", ()),
        *([schema["items"]] if "items" in schema else []),
    ]:
        _no_nul(branch)


def _closed_parameters(operation: dict[str, Any]) -> None:
    """Parameters with a closed set of values say it: a game's id, a view's name, a roll's source; and no string
    parameter holds a NUL character."""
    closed = {"game_id": list(GAME_IDS), "name": _view_names(), "source": ["server", "table"]}
    for parameter in operation.get("parameters", []):
        if parameter.get("in") in ("path", "query"):
            _no_nul(parameter.get("schema", {}))
        values = closed.get(parameter.get("name"))
        if values is None or parameter.get("in") not in ("path", "query"):
            continue
        schema = parameter.get("schema", {})
        nullable = "oneOf" in schema or "anyOf" in schema
        enum = {"type": "string", "enum": values}
        parameter["schema"] = {"oneOf": [enum, {"type": "null"}]} if nullable else enum


def _view_answer(name: str, example: Any) -> dict[str, Any]:
    kind = "array" if isinstance(example, list) else "object"
    schema = {
        "title": f"{_class_name(name)}View",
        "type": "object",
        "description": f"The view `{name}` right after `position`.",
        "properties": {
            "position": {"type": "integer"},
            name: {"type": "array", "items": {"type": "object"}} if kind == "array" else {"type": "object"},
        },
        "required": ["position", name],
    }
    return _json(schema, f"The view `{name}` right after `position`.", {"position": 12, name: example})


def _view_examples() -> dict[str, Any]:
    """Each view as it reads on a campaign just started (the views of one character or pirate, on none: `{}`)."""
    found: dict[str, Any] = {}
    for game_id in GAME_IDS:
        chosen = game(game_id)
        state = chosen.initial({})
        for name, view in chosen.views.items():
            try:
                found[name] = msgspec.to_builtins(view.read(state))
            except TypeError:
                found[name] = {}
    return found


@cache
def _successes() -> dict[tuple[str, str], dict[str, Any]]:
    """Each operation's success answers, typed, with an example."""
    ex = answers.EXAMPLES
    recorded = answers.recorded_example("note.added", {"text": "We misread the Raker Shoals rule here."})
    appended = {"batch": str(answers.BATCH), "first_position": 3, "last_position": 3, "events": [recorded]}
    marker = answers.recorded_example("event.undone", {"targets": [3], "reason": "A misread rule."}, position=4)
    undone = {**appended, "first_position": 4, "last_position": 4, "events": [marker], "undone": [3], "position": 4}
    redo_marker = answers.recorded_example("event.redone", {"targets": [3], "reason": None}, position=5)
    redone = {
        **appended,
        "first_position": 5,
        "last_position": 5,
        "events": [redo_marker],
        "redone": [3],
        "position": 5,
    }
    rolled_event = answers.recorded_example(
        "dice.rolled",
        {"purpose": "check", "dice": [{"sides": 12, "face": 9}], "modifier": 2, "total": 11, "source": "server"},
    )
    rolled = {**appended, "events": [rolled_event], "roll": rolled_event}
    told = {**recorded, "sentence": "Alba noted: We misread the Raker Shoals rule here."}
    state_example = {"position": 2, "state": msgspec.to_builtins(game(GAME_IDS[0]).initial({}))}
    views = _view_examples()
    games_example = {"games": reference.games()}
    event_types_example = {
        "game": GAME_IDS[0],
        "title": game(GAME_IDS[0]).title,
        "event_types": reference.event_types_of(GAME_IDS[0])[:1],
    }
    retry = "A retry with the same Idempotency-Key: answered from the log, nothing written again."
    out: dict[tuple[str, str], dict[str, Any]] = {
        ("get", "/healthz"): {"200": _json(_ref("Health"), "The process answers.", ex[answers.Health])},
        ("get", "/readyz"): {"200": _json(_ref("Ready"), "Ready to serve.", ex[answers.Ready])},
        ("post", "/v1/campaigns"): {
            "201": _json(_ref("CampaignCreated"), "The campaign and its owner's token.", ex[answers.CampaignCreated])
        },
        ("get", CAMPAIGN): {
            "200": _json(_ref("CampaignSummary"), "The campaign's summary.", ex[answers.CampaignSummary])
        },
        ("post", f"{CAMPAIGN}/members"): {
            "201": _json(_ref("MemberAdded"), "The new member and their token.", ex[answers.MemberAdded]),
            "200": _json(_ref("MemberAdded"), retry + " The member gets a new token.", ex[answers.MemberAdded]),
        },
        ("post", f"{CAMPAIGN}/members/{{member_id}}/token"): {
            "200": _json(
                _ref("JoinLink"),
                "The member's new token.",
                {k: v for k, v in ex[answers.MemberAdded].items() if k != "position"},
            )
        },
        ("delete", f"{CAMPAIGN}/members/{{member_id}}"): {
            "200": _json(
                _ref("RevokedMember"),
                "The member revoked.",
                {"member_id": str(answers.PLAYER), "name": "Alba", "role": "player", "revoked_at": answers.WHEN},
            )
        },
        ("get", APPEND): {
            "200": _json(
                _ref("History"),
                "A page of the log, oldest first, each event with its sentence.",
                {"events": [told], "next": None},
            )
        },
        ("post", APPEND): {
            "201": _json(_ref("Appended"), "The batch was appended: its positions and events.", appended),
            "200": _json(
                _ref("Appended"),
                "A retry of a batch already appended with these event ids: answered from the log, nothing written.",
                appended,
            ),
        },
        ("post", f"{CAMPAIGN}/undo"): {
            "201": _json(_ref("Undone"), "The batch was undone.", undone),
            "200": _json(_ref("Undone"), retry, undone),
        },
        ("post", f"{CAMPAIGN}/redo"): {
            "201": _json(_ref("Redone"), "The batch was redone.", redone),
            "200": _json(_ref("Redone"), retry, redone),
        },
        ("post", f"{CAMPAIGN}/rolls"): {
            "201": _json(_ref("Rolled"), "The roll, recorded.", rolled),
            "200": _json(_ref("Rolled"), retry, rolled),
        },
        ("get", f"{CAMPAIGN}/stats/dice"): {
            "200": _json(_ref("DiceStats"), "The campaign's dice.", msgspec.to_builtins(dice_stats([], source=None)))
        },
        ("get", f"{CAMPAIGN}/state"): {"200": _json(_ref("State"), "The state right after `position`.", state_example)},
        ("get", f"{CAMPAIGN}/views/{{name}}"): {
            "200": _json(
                {
                    "title": "NamedView",
                    "type": "object",
                    "description": "`position`, and the view under its own name.",
                    "properties": {"position": {"type": "integer"}},
                    "required": ["position"],
                    "additionalProperties": True,
                },
                "The view right after `position`, under its own name.",
                {"position": 12, "fleet": views["fleet"]},
            )
        },
        ("get", f"{CAMPAIGN}/characters/{{character_id}}"): {"200": _view_answer("character", views["character"])},
        ("get", f"{CAMPAIGN}/pirates/{{pirate_id}}"): {"200": _view_answer("pirate", views["pirate"])},
        ("post", f"{CAMPAIGN}/fork"): {"201": _json(_ref("Forked"), "The new campaign.", ex[answers.Forked])},
        ("get", "/v1/games"): {"200": _json(_ref("Games"), "The games.", games_example)},
        ("get", "/v1/games/{game_id}/event-types"): {
            "200": _json(_ref("EventTypes"), "The game's event types.", event_types_example)
        },
        ("get", "/v1/catalog/{game_id}"): {
            "200": _json(
                {"title": "Catalog", "type": "object", "additionalProperties": True},
                "The game's catalogue: its data files by name.",
                {"skills": {"skills": []}},
            )
        },
    }
    for name in ("fleet", "vault", "scenario", "pirates", "ship", "ledger", "chapter", "recorded", "cards"):
        out[("get", f"{CAMPAIGN}/{name}")] = {"200": _view_answer(name, views[name])}
    for path, schema, example in _AUDIT:
        out[("get", f"{CAMPAIGN}/{path}")] = {"200": _json(schema, schema["description"], example)}
    return out


_AUDIT: list[tuple[str, dict[str, Any], Any]] = [
    (
        "scenarios",
        {
            "title": "Played",
            "type": "object",
            "description": "Every scenario or chapter played, in order.",
            "additionalProperties": True,
        },
        {"scenarios": []},
    ),
    (
        "diff",
        {
            "title": "Diff",
            "type": "object",
            "description": "What changed between two positions, as changes and sentences, and the events between.",
            "properties": {
                "from": {"type": "integer"},
                "to": {"type": "integer"},
                "changes": {"type": "array", "items": {"type": "object"}},
                "sentences": {"type": "array", "items": {"type": "string"}},
                "events": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"position": {"type": "integer"}, "sentence": {"type": "string"}},
                        "required": ["position", "sentence"],
                    },
                },
                "events_next": {"type": "integer"},
            },
            "required": ["from", "to", "changes", "sentences", "events"],
        },
        {"from": 2, "to": 3, "changes": [], "sentences": [], "events": [{"position": 3, "sentence": "A note."}]},
    ),
]


# Routes whose success is not JSON: they build their own streaming response, so Litestar cannot tell.
STREAMED = {
    "/v1/campaigns/{campaign}/export": EXPORT_MEDIA_TYPE,
    "/v1/campaigns/{campaign}/stream": "text/event-stream",
    "/metrics": "text/plain",
}
TEXT_EXAMPLES = {
    "text/event-stream": 'id: 3\nevent: event\ndata: {"position":3,"type":"note.added"}\n\n',
    "text/plain": "# HELP quartermaster_appends_total Events appended.\n",
    "text/markdown": "# The Wormwood Mutiny\n\nAlba noted: We misread the Raker Shoals rule here.\n",
}


def _media_type(path: str, handler: Any, responses: dict[str, Any]) -> None:
    """A route that answers another media type (the NDJSON export, server-sent events) says so on its success."""
    declared = handler.media_type.value if hasattr(handler.media_type, "value") else handler.media_type
    media_type = STREAMED.get(path) or str(declared or "")
    if path.endswith("/report"):
        # JSON by default; Markdown with `Accept: text/markdown` (routes/audit.py: wants_markdown).
        responses["200"] = {
            "description": "What happened in the scenario or chapter: JSON, or Markdown when asked for.",
            "content": {
                "application/json": {
                    "schema": {"title": "Report", "type": "object", "additionalProperties": True},
                    "example": {"scenario": "Dangerous Waters", "play": 1, "turns": []},
                },
                "text/markdown": {"schema": {"type": "string"}, "example": TEXT_EXAMPLES["text/markdown"]},
            },
        }
        return
    if not media_type or media_type.startswith("application/json"):
        return
    for status, answer in responses.items():
        content = answer.get("content", {})
        if status.startswith("2") and ("application/json" in content or media_type in content):
            example = TEXT_EXAMPLES.get(media_type.split(";")[0], "")
            answer["content"] = {media_type: {"schema": {"type": "string"}, "example": example}}


def export_example() -> str:
    """An export of a campaign just started, as `GET .../export` writes it."""
    rows = [
        EventRow(
            position=position,
            id=uuid.UUID(int=position),
            batch=answers.BATCH,
            type=type_,
            schema_version=1,
            data=data,
            actor="Owner",
            recorded_at=datetime(2026, 6, 12, 19, 31, 7, tzinfo=UTC),
            occurred_at=None,
        )
        for position, type_, data in (
            (1, "campaign.started", {"name": "The Wormwood Mutiny", "game": GAME_IDS[0], "options": {}}),
            (2, "member.joined", {"member_id": str(answers.OWNER), "name": "Owner", "role": "owner"}),
        )
    ]
    header = ExportHeader(
        campaign="The Wormwood Mutiny", game=GAME_IDS[0], exported_at=datetime(2026, 6, 12, 20, 0, tzinfo=UTC), events=2
    )
    return b"".join(export_lines(header, rows)).decode()


EXPORT_DESCRIPTION = (
    "NDJSON (one JSON object a line, each ending in a newline): line 1 the header (`format`, `version`, `campaign`, "
    "`game`, `exported_at`, `events`), then one line per event in position order from 1 (`position`, `id`, `batch`, "
    "`type`, `schema_version`, `data`, `actor`, `recorded_at`, `occurred_at`, `override` when there is one), each "
    "line sealed with `hash`, the SHA-256 of the line without it, and `prev`, the hash of the line before: a changed "
    "byte breaks the chain, and the import says at which line."
)


def _transfer(paths: dict[str, Any]) -> None:
    """Export's NDJSON and import's body, described as the media type they are."""
    example = export_example()
    exported = paths.get(f"{CAMPAIGN}/export", {}).get("get")
    if exported is not None:
        exported["description"] = EXPORT_DESCRIPTION
        exported["responses"]["200"] = {
            "description": "The whole log as NDJSON with a hash chain.",
            "headers": {
                "Content-Disposition": {"description": "A file name for the export.", "schema": {"type": "string"}}
            },
            "content": {EXPORT_MEDIA_TYPE: {"schema": {"type": "string", "format": "binary"}, "example": example}},
        }
    imported = paths.get("/v1/campaigns/import", {}).get("post")
    if imported is not None:
        imported["description"] = (
            "Takes an export of this or another Quartermaster, checks its hash chain, re-folds every event under the "
            "rules, and starts a new campaign with that log; the importer becomes its owner. " + EXPORT_DESCRIPTION
        )
        imported["requestBody"] = {
            "required": True,
            "description": "An export, exactly as `GET /v1/campaigns/{campaign}/export` wrote it.",
            "content": {EXPORT_MEDIA_TYPE: {"schema": {"type": "string", "format": "binary"}, "example": example}},
        }
        imported["responses"]["201"] = _json(
            _ref("CampaignCreated"),
            "The new campaign and its owner's token.",
            answers.EXAMPLES[answers.CampaignCreated],
        )


def _append(item: dict[str, Any]) -> None:
    operation = item.get("post")
    if operation is None:
        return
    operation["description"] = (
        "Appends a batch of events, all or nothing. The events a campaign accepts depend on its game: the body "
        "follows the schema of that game's batch, each event one of its types (discriminated by `type`). "
        "`GET /v1/games/{game}/event-types` lists the same types with their examples. What the catalogue "
        "determines (a card's type, a skill's costs, a ship's class) may be left out: the server fills it in, and the "
        "answer and the log show it; sent and different from the catalogue, it is refused unless the event carries "
        "an override."
    )
    operation["requestBody"] = {
        "required": True,
        "content": {
            "application/json": {
                "schema": {"anyOf": [{"$ref": REF.format(name=f"{game_id}.batch")} for game_id in GAME_IDS]},
                "example": append_request(GAME_IDS[0])["examples"][0],
            }
        },
    }
    responses = operation["responses"]
    responses["409"] = _problem(
        409,
        "`stale-position`: the log moved on past `expected_position` (read what was "
        "added, then send again); `event-id-reused`: an event id is already in the log "
        "with other content.",
    )
    responses["422"] = _problem(
        422,
        "An event has an unknown type, an unknown or missing field, a value the catalogue contradicts, or the rules "
        "refuse it: `errors` names each by its index. Nothing was written.",
    )


_COMPLETED: dict[int, dict[str, Any]] = {}


def document(app: Litestar) -> dict[str, Any]:
    """The completed OpenAPI document of this app (made once per app)."""
    key = id(app)
    if key not in _COMPLETED:
        _COMPLETED[key] = complete(app, app.openapi_schema.to_schema())
    return _COMPLETED[key]


class Document(OpenAPIRenderPlugin):
    """The completed document as JSON, at /schema/openapi.json."""

    def __init__(self) -> None:
        super().__init__(path="/openapi.json", media_type=OpenAPIMediaType.OPENAPI_JSON, favicon="", style="")

    def render(self, request: AnyRequest, openapi_schema: dict[str, Any]) -> bytes:
        return msgspec.json.encode(document(request.app))


class Page(OpenAPIRenderPlugin):
    """A plain page of every operation and every event type, readable without a network."""

    def __init__(self) -> None:
        super().__init__(path="/", favicon="", style="")

    def render(self, request: AnyRequest, openapi_schema: dict[str, Any]) -> bytes:
        return render_page(document(request.app)).encode()


def _e(text: Any) -> str:
    return html.escape(str(text))


def render_page(doc: dict[str, Any]) -> str:
    """The document as one HTML page: operations with their answers, then each game's event types."""
    out = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{_e(doc['info']['title'])} API</title>",
        "<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}"
        "code,pre{font-family:ui-monospace,monospace}pre{background:#f5f3ee;padding:.6rem;overflow:auto}"
        "h3{margin-bottom:.2rem}.m{font-weight:bold;text-transform:uppercase}</style></head><body>",
        f"<h1>{_e(doc['info']['title'])} API</h1>",
        "<p>The whole document is at <a href='/schema/openapi.json'><code>/schema/openapi.json</code></a>. "
        "Routes marked 🔑 need a member token: <code>Authorization: Bearer &lt;token&gt;</code>.</p>",
        "<h2>Operations</h2>",
    ]
    for path, item in doc.get("paths", {}).items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            key = " 🔑" if operation.get("security") else ""
            out.append(f"<h3><span class='m'>{_e(method)}</span> <code>{_e(path)}</code>{key}</h3>")
            out.append(f"<p>{_e(operation.get('summary', ''))}</p>")
            if operation.get("description"):
                out.append(f"<p>{_e(operation['description'])}</p>")
            out.append("<ul>")
            for status, answer in sorted(operation["responses"].items()):
                out.append(f"<li><b>{_e(status)}</b> {_e(answer.get('description', ''))}</li>")
            out.append("</ul>")
    schemas = doc.get("components", {}).get("schemas", {})
    for game_id in GAME_IDS:
        out.append(f"<h2 id='{_e(game_id)}'>Events of {_e(game(game_id).title)}</h2>")
        for tag in event_types(game_id):
            item = schemas.get(item_name(game_id, tag))
            if item is None:
                continue
            out.append(f"<h3 id='{_e(item_name(game_id, tag))}'><code>{_e(tag)}</code></h3>")
            out.append(f"<p>{_e(item['description']).replace(chr(10), '<br>')}</p><ul>")
            for field, spec in item["properties"]["data"]["properties"].items():
                out.append(f"<li><code>{_e(field)}</code> {_e(_field_doc(spec))}</li>")
            out.append("</ul>")
            for example in item.get("examples", []):
                out.append(f"<pre>{_e(msgspec.json.format(msgspec.json.encode(example)).decode())}</pre>")
    out.append("</body></html>")
    return "\n".join(out)


def _field_doc(spec: dict[str, Any]) -> str:
    if "description" in spec:
        return str(spec["description"])
    for branch in spec.get("anyOf", ()):
        if "description" in branch:
            return str(branch["description"])
    return ""
