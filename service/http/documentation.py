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

import base64
import copy
import hashlib
import html
import re
from typing import Any

import msgspec
from litestar import Litestar
from litestar.enums import OpenAPIMediaType
from litestar.openapi.plugins import OpenAPIRenderPlugin
from litestar.routes import HTTPRoute

from quartermaster.projections.registry import GAME_IDS, event_types, game
from quartermaster.service.http import answers, box_answers, conventions, limits
from quartermaster.service.http.answers import APPEND, CAMPAIGN
from quartermaster.service.http.requests import AnyRequest
from quartermaster.service.http.routes.transfer import MEDIA_TYPE as EXPORT_MEDIA_TYPE
from quartermaster.service.http.schemas import append_request, components, item_name

PROBLEM_MEDIA_TYPE = "application/problem+json"
BEARER = "bearer"

MEANINGS = {
    400: "The body is not JSON, or a parameter is not of its type.",
    401: "No member token was sent, or the token is not valid.",
    403: "The member's role does not allow this (a viewer cannot append), or a browser write came from another site.",
    404: "Nothing is there: no such campaign for this token, game, view, character or batch.",
    409: "A conflict: the log moved on past `expected_position` (`stale-position`), an event id or Idempotency-Key "
    "was reused with other content, or an undo or redo would break later events.",
    408: "The request's body did not arrive whole, so nothing was done; send it again.",
    413: "The body is larger than this server accepts; send fewer events per request.",
    422: "The request is well-formed but cannot be processed: a field is missing, unknown or of the wrong type, or "
    "the rules refuse an event (each named in `errors` with its index). Nothing was written.",
    429: "Too many requests from this address (campaigns started or imported, or wrong tokens sent): wait the "
    "seconds `Retry-After` says.",
    503: "The database is not answering, or the campaign kept changing; nothing was written. Try again after the "
    "seconds `Retry-After` says.",
}
EXAMPLE_DETAILS = {
    400: ("malformed-json", "The request body is not valid JSON: unexpected end of input."),
    401: ("not-authenticated", "Send a member's token: Authorization: Bearer <token>."),
    403: ("forbidden", "Alba is a viewer of this campaign and cannot add to the log."),
    404: ("campaign-not-found", "There is no campaign 0f8fad5b-d9cb-469f-a165-70867728950e that this token can see."),
    409: ("stale-position", "The log has moved on: you expected position 3, but the campaign is at 5."),
    408: ("request-timeout", "The request's body did not arrive whole, so nothing was done; send it again."),
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
    408: "Request timeout",
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
        "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": answers.REF.format(name="Problem")}, "example": example}},
    }
    if status in (429, 503):
        answer["headers"] = dict(RETRY_AFTER)
    return answer


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
    successes = answers.successes() | box_answers.successes()
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            handler = handlers.get((path, method))
            if handler is None:
                continue
            operation["operationId"] = _operation_id(handler, path)
            responses = operation.setdefault("responses", {})
            _media_type(path, handler, responses)
            _closed_parameters(operation)
            _closed_body_fields(operation)
            for code, answer in successes.get((method, path), {}).items():
                responses[code] = copy.deepcopy(answer)  # the table is made once; each document its own
            if path == "/readyz":
                responses["503"] = _problem(
                    503,
                    "The database does not answer, migrations are not applied yet, or a newer release migrated it "
                    "(the sentence names the migration this version knows and the one it found).",
                )
            if not path.startswith("/v1/"):
                continue
            statuses = {400, 422}
            if "{" in path:
                statuses.add(404)
            if not path.startswith("/v1/games") and not path.startswith("/v1/catalog"):
                statuses.add(503)  # every route that reads the database
            if "requestBody" in operation or method == "post":
                statuses |= {408, 413}
            if any(getattr(m, "middleware", None) is limits.PerClient for m in handler.middleware or ()):
                statuses.add(429)
            if "member" in handler.parsed_fn_signature.parameters:
                operation["security"] = [{BEARER: []}]
                # 429: an address that sent too many wrong tokens is slowed (service/http/guesses.py).
                statuses |= {401, 403, 404, 429}
                if method in ("post", "delete") or handler.fn.__module__.endswith(".audit"):
                    statuses.add(409)
            for status in sorted(statuses):
                responses[str(status)] = _problem(status)
            # The reads a phone rereads (their routes carry conventions.CONDITIONAL): an ETag, and 304.
            if conventions.CONDITIONAL in (handler.middleware or ()):
                operation.setdefault("parameters", []).append(IF_NONE_MATCH)
                responses["200"]["headers"] = dict(ETAG)
                responses["304"] = {"description": "Not modified: the answer is the one whose ETag was sent."}
    _append(document["paths"].get(APPEND, {}))
    _transfer(document["paths"])
    for item in document.get("paths", {}).values():
        for operation in item.values():
            _named_body(operation, schemas)
    return document


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


def _named_body(operation: dict[str, Any], schemas: dict[str, Any]) -> None:
    """A JSON body's schema, request or answer, given inline, named in the components by its title (`UndoRequest`,
    `FleetView`), so a generator names its class so and not after the operation too (`UndoUndoRequest`)."""
    bodies = [operation.get("requestBody", {})] + list(operation.get("responses", {}).values())
    for body in bodies:
        content = body.get("content", {}).get("application/json")
        schema = content.get("schema", {}) if content else {}
        title = schema.get("title")
        if not title or "$ref" in schema or schemas.get(title, schema) != schema:
            continue
        schemas[title] = schema
        content["schema"] = {"$ref": answers.REF.format(name=title)}


def _closed_body_fields(operation: dict[str, Any]) -> None:
    """A body's field with a closed set of values says it: the game a campaign plays."""
    schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    game_field = schema.get("properties", {}).get("game")
    if game_field is not None and game_field.get("type") == "string":
        game_field["enum"] = list(GAME_IDS)
        game_field["description"] = "The game the campaign plays: `GET /v1/games` lists them."


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


STREAMED = {
    "/v1/campaigns/{campaign}/export": EXPORT_MEDIA_TYPE,
    "/v1/campaigns/{campaign}/stream": "text/event-stream",
    "/metrics": "text/plain",
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
                "text/markdown": {"schema": {"type": "string"}, "example": answers.TEXT_EXAMPLES["text/markdown"]},
            },
        }
        return
    if not media_type or media_type.startswith("application/json"):
        return
    for status, answer in responses.items():
        content = answer.get("content", {})
        if status.startswith("2") and ("application/json" in content or media_type in content):
            example = answers.TEXT_EXAMPLES.get(media_type.split(";")[0], "")
            answer["content"] = {media_type: {"schema": {"type": "string"}, "example": example}}


EXPORT_DESCRIPTION = (
    "NDJSON (one JSON object a line, each ending in a newline): line 1 the header (`format`, `version`, `campaign`, "
    "`game`, `exported_at`, `events`), then one line per event in position order from 1 (`position`, `id`, `batch`, "
    "`type`, `schema_version`, `data`, `actor`, `recorded_at`, `occurred_at`, `override` when there is one), each "
    "line sealed with `hash`, the SHA-256 of the line without it, and `prev`, the hash of the line before: a changed "
    "byte breaks the chain, and the import says at which line. The schemas `ExportHeaderLine` and `ExportEventLine` "
    "describe the two kinds of line."
)


def _transfer(paths: dict[str, Any]) -> None:
    """Export's NDJSON and import's body, described as the media type they are."""
    example = answers.export_example()
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
        imported["responses"]["201"] = answers.json_answer(
            answers.ref("CampaignCreated"),
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
                "schema": {"anyOf": [{"$ref": answers.REF.format(name=f"{game_id}.batch")} for game_id in GAME_IDS]},
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


# The page's only style, inline so that the page is one answer; POLICY allows it by its digest and nothing else.
_STYLE = (
    "body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}"
    "code,pre{font-family:ui-monospace,monospace}pre{background:#f5f3ee;padding:.6rem;overflow:auto}"
    "h3{margin-bottom:.2rem}.m{font-weight:bold;text-transform:uppercase}"
)
# The Content-Security-Policy of every answer under /schema (service/http/edge.py adds it): the page runs no script,
# loads nothing, not even from this host, and applies no style but its own; a stored description that slipped past
# the escaping could neither run nor call out.
POLICY = (
    "default-src 'none'; style-src 'sha256-"
    + base64.b64encode(hashlib.sha256(_STYLE.encode()).digest()).decode()
    + "'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)


def _e(text: Any) -> str:
    return html.escape(str(text))


def render_page(doc: dict[str, Any]) -> str:
    """The document as one HTML page: operations with their answers, then each game's event types."""
    out = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{_e(doc['info']['title'])} API</title>",
        f"<style>{_STYLE}</style></head><body>",
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
