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
from typing import Any

import msgspec
from litestar import Litestar
from litestar.enums import OpenAPIMediaType
from litestar.openapi.plugins import OpenAPIRenderPlugin
from litestar.routes import HTTPRoute

from quartermaster.events.base import description, tag_of
from quartermaster.projections.registry import GAME_IDS, event_types, game
from quartermaster.service.application.narration import Told
from quartermaster.service.http.openapi import inline
from quartermaster.service.http.reference import data_schema
from quartermaster.service.http.requests import MAX_EVENTS_PER_BATCH, AnyRequest
from quartermaster.service.http.routes.transfer import MEDIA_TYPE as EXPORT_MEDIA_TYPE
from quartermaster.service.store import Recorded

PROBLEM_MEDIA_TYPE = "application/problem+json"
BEARER = "bearer"

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
                "properties": {"index": {"type": "integer"}, "reason": {"type": "string"}},
                "required": ["reason"],
            },
        },
    },
    "required": ["type", "title", "status", "detail"],
}

# What each problem status means, for the routes that can answer it.
MEANINGS = {
    400: "The body is not JSON, or a parameter is not of its type.",
    401: "No member token was sent, or the token is not valid.",
    403: "The member's role does not allow this (a viewer cannot append), or a browser write came from another site.",
    404: "Nothing is there: no such campaign for this token, game, view, character or batch.",
    409: "A conflict: the log moved on past `expected_position` (`stale-position`), an event id was reused with "
    "other content (`event-id-reused`), or an undo or redo would break later events.",
    413: "The body is larger than this server accepts; send fewer events per request.",
    422: "The request is well-formed but cannot be processed: a field is missing, unknown or of the wrong type, or "
    "the rules refuse an event (each named in `errors` with its index). Nothing was written.",
    503: "The database is not answering, or the campaign kept changing; nothing was written. Try again.",
}

APPEND = "/v1/campaigns/{campaign}/events"


def item_name(game_id: str, tag: str) -> str:
    return f"{game_id}.{tag}"


def event_item(game_id: str, event_type: type) -> dict[str, Any]:
    """One event of a batch, as a client sends it: its `type`, its `data`, optionally its id and time."""
    tag = tag_of(event_type)
    data = data_schema(event_type)
    examples = data.pop("examples", [])
    required = ["type", "data"] if data.get("required") else ["type"]
    return {
        "title": tag,
        "description": description(event_type),
        "type": "object",
        "properties": {
            "type": {"const": tag},
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
                "`rule`, never `integrity`.",
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
    refs = {tag: f"#/components/schemas/{item_name(game_id, tag)}" for tag in types}
    first = next(t for t in types.values() if t.EXAMPLES)
    return {
        "title": f"A batch for {game(game_id).title}",
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
    schema = inline(type_)
    schema["properties"]["data"] = {"type": "object", "description": "The event's fields, without its type."}
    return schema


APPENDED = {
    "title": "Appended",
    "type": "object",
    "properties": {
        "batch": {"type": "string", "format": "uuid"},
        "first_position": {"type": "integer"},
        "last_position": {"type": "integer"},
        "events": {"type": "array", "items": {"$ref": "#/components/schemas/Recorded"}},
    },
    "required": ["batch", "first_position", "last_position", "events"],
}

HISTORY = {
    "title": "History",
    "type": "object",
    "properties": {
        "events": {"type": "array", "items": {"$ref": "#/components/schemas/Told"}},
        "next": {
            "anyOf": [{"type": "integer"}, {"type": "null"}],
            "description": "The `after` of the next page, or null on the last page.",
        },
    },
    "required": ["events", "next"],
}


def components() -> dict[str, Any]:
    schemas: dict[str, Any] = {
        "Problem": PROBLEM,
        "Appended": APPENDED,
        "History": HISTORY,
        "Recorded": _recorded_schema(Recorded),
        "Told": _recorded_schema(Told),
    }
    for game_id in GAME_IDS:
        schemas[f"{game_id}.batch"] = append_request(game_id)
        for tag, event_type in event_types(game_id).items():
            if not event_type.WRITTEN_BY:
                schemas[item_name(game_id, tag)] = event_item(game_id, event_type)
    return schemas


def _problem(status: int, meaning: str | None = None) -> dict[str, Any]:
    return {
        "description": meaning or MEANINGS[status],
        "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
    }


def _json(ref: str, meaning: str) -> dict[str, Any]:
    return {"description": meaning, "content": {"application/json": {"schema": {"$ref": ref}}}}


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
    """The document Litestar made, with the event union, every answer and the bearer scheme."""
    document = copy.deepcopy(document)
    parts = document.setdefault("components", {})
    parts.setdefault("schemas", {}).update(components())
    parts["securitySchemes"] = {
        BEARER: {
            "type": "http",
            "scheme": "bearer",
            "description": "A member's token, answered when the campaign is created or the member added.",
        }
    }
    handlers = _handlers(app)
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            handler = handlers.get((path, method))
            if handler is None:
                continue
            responses = operation.setdefault("responses", {})
            _media_type(path, handler, responses)
            if path == "/readyz":
                responses["503"] = _problem(503, "The database does not answer, or migrations are not applied yet.")
            if not path.startswith("/v1/"):
                continue
            statuses = {400, 422, 503}
            if "{" in path:
                statuses.add(404)
            if "requestBody" in operation or method == "post":
                statuses |= {413}
            if "member" in handler.parsed_fn_signature.parameters:
                operation["security"] = [{BEARER: []}]
                statuses |= {401, 403, 404}
                if method == "post" or handler.fn.__module__.endswith(".audit"):
                    statuses.add(409)
            for status in sorted(statuses):
                responses[str(status)] = _problem(status)
    _append(document["paths"].get(APPEND, {}))
    _history(document["paths"].get(APPEND, {}))
    return document


# Routes whose success is not JSON: they build their own streaming response, so Litestar cannot tell.
STREAMED = {
    "/v1/campaigns/{campaign}/export": EXPORT_MEDIA_TYPE,
    "/v1/campaigns/{campaign}/stream": "text/event-stream",
    "/metrics": "text/plain",
}


def _media_type(path: str, handler: Any, responses: dict[str, Any]) -> None:
    """A route that answers another media type (the NDJSON export, server-sent events) says so on its success."""
    declared = handler.media_type.value if hasattr(handler.media_type, "value") else handler.media_type
    media_type = STREAMED.get(path) or str(declared or "")
    if not media_type or media_type.startswith("application/json"):
        return
    for status, answer in responses.items():
        content = answer.get("content", {})
        if status.startswith("2") and "application/json" in content:
            answer["content"] = {media_type: {"schema": {"type": "string"}}}


def _append(item: dict[str, Any]) -> None:
    operation = item.get("post")
    if operation is None:
        return
    operation["description"] = (
        "Appends a batch of events, all or nothing. The events a campaign accepts depend on its game: the body "
        "follows the schema of that game's batch, each event one of its types (discriminated by `type`). "
        "`GET /v1/games/{game}/event-types` lists the same types with their examples."
    )
    # The batch's shape stays as the handler decodes it; `anyOf` adds each game's union of event types.
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    body["anyOf"] = [{"$ref": f"#/components/schemas/{game_id}.batch"} for game_id in GAME_IDS]
    responses = operation["responses"]
    responses["201"] = _json("#/components/schemas/Appended", "The batch was appended: its positions and events.")
    responses["200"] = _json(
        "#/components/schemas/Appended",
        "A retry of a batch already appended with these event ids: answered from the log, nothing written.",
    )
    responses["409"] = _problem(
        409,
        "`stale-position`: the log moved on past `expected_position` (read what was "
        "added, then send again); `event-id-reused`: an event id is already in the log "
        "with other content.",
    )
    responses["422"] = _problem(
        422,
        "An event has an unknown type, an unknown or missing field, or the rules refuse "
        "it: `errors` names each by its index. Nothing was written.",
    )


def _history(item: dict[str, Any]) -> None:
    operation = item.get("get")
    if operation is not None:
        operation["responses"]["200"] = _json(
            "#/components/schemas/History", "A page of the log, oldest first, each event with its sentence."
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
