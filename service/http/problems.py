"""Every 4xx and 5xx answer is `application/problem+json` (RFC 9457) with a sentence a person understands.

The store's exceptions become problems here, in one place (`HANDLERS`, registered on the app), so a handler lets
them rise. Where the sentence depends on what the route was doing, the route says it in its `opt`: `doing` (the
verb of undo and redo) and `refusal` (how a refused batch is worded, when not as a batch of events).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException

from quartermaster.projections.game import BatchRejected
from quartermaster.service.platform import metrics
from quartermaster.service.store import CampaignNotFound, IdReused, StalePosition, UndoConflict, UndoRefused

log = logging.getLogger("quartermaster")

MEDIA_TYPE = "application/problem+json"

_TITLES = {
    400: "Bad request",
    401: "Not authenticated",
    403: "Not allowed",
    404: "Not found",
    405: "Method not allowed",
    408: "Request timeout",
    409: "Conflict",
    413: "Request too large",
    422: "Cannot be processed",
    429: "Too many requests",
    500: "Internal error",
    503: "Unavailable",
}


class Problem(Exception):
    """An answer that is not a success, with the reason in words."""

    def __init__(
        self, status: int, detail: str, *, kind: str | None = None, headers: dict[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.kind = kind or _TITLES.get(status, "error").lower().replace(" ", "-")
        self.headers = headers
        self.extra = extra


def body(status: int, detail: str, kind: str, extra: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": f"https://quartermaster.invalid/problems/{kind}",
        "title": _TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
        **extra,
    }


# A 503 that names no wait of its own: the campaign kept changing, or migrations are still being applied.
RETRY_SOON_SECONDS = 1


def respond(
    status: int, detail: str, kind: str, extra: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> Response[bytes]:
    metrics.refused(status, kind)
    if status == 503 and "Retry-After" not in (headers or {}):
        # Every 503 says when to try again (the OpenAPI document promises it), not only the outage's.
        headers = {**(headers or {}), "Retry-After": str(RETRY_SOON_SECONDS)}
    return Response(
        content=msgspec.json.encode(body(status, detail, kind, extra or {})),
        status_code=status,
        media_type=MEDIA_TYPE,
        headers=headers,
    )


def on_problem(_: Request[Any, Any, Any], exc: Problem) -> Response[bytes]:
    return respond(exc.status, exc.detail, exc.kind, exc.extra, exc.headers)


def on_http_exception(request: Request[Any, Any, Any], exc: HTTPException) -> Response[bytes]:
    status = exc.status_code
    if status == 404:
        detail = f"There is nothing at {request.url.path}."
    elif status == 405:
        # The router names the methods the path takes (RFC 9110: a 405 carries Allow); HEAD goes with every GET.
        allowed = {m.strip() for m in (exc.headers or {}).get("allow", "").split(",") if m.strip()}
        if "GET" in allowed:
            allowed.add("HEAD")
        allow = ", ".join(sorted(allowed))
        detail = f"{request.method} is not allowed on {request.url.path}; it takes {allow}."
        return respond(405, detail, "method-not-allowed", headers={"Allow": allow})
    elif status == 500 and exc.detail == "client disconnected prematurely":
        # Litestar's words when the body stopped arriving (the client left, or service/http/connections.py cut it off):
        # the
        # handler had not begun, so nothing was done; nobody is left to read the answer but the log.
        return respond(
            408, "The request's body did not arrive whole, so nothing was done; send it again.", "request-timeout"
        )
    elif status == 413:
        detail = "The request body is larger than this server accepts; send fewer events per request."
    elif status == 429:
        headers = {**(exc.headers or {})}
        # Litestar's rate limit says when its window resets; Retry-After is the header clients know.
        headers["Retry-After"] = headers.get("RateLimit-Reset", "60")
        return respond(
            429,
            "Too many campaigns started or imported from this address; wait "
            f"{headers['Retry-After']} seconds, then try again.",
            "rate-limited",
            headers=headers,
        )
    else:
        detail = exc.detail or _TITLES.get(status, "Error")
    return respond(status, detail, _TITLES.get(status, "error").lower().replace(" ", "-"))


def on_unexpected(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    # Not "nothing was written": the error may come after a commit (in encoding the answer, say).
    return respond(500, "Something went wrong on the server; the error is in the server log.", "internal-error")


def not_found(campaign: object) -> Problem:
    # The same answer for a campaign that does not exist and one the token does not belong to, so a token
    # cannot be used to discover which campaign ids exist.
    return Problem(404, f"There is no campaign {campaign} that this token can see.", kind="campaign-not-found")


# What each kind of refusal lets the table do, said after its reason (projections.game: Rejection and RuleBroken).
KIND_SENTENCES = {
    "rule": "That is a rule of the game: the owner may log it anyway, with a reason.",
    "integrity": "This cannot be recorded, even against the rules.",
}


def refusal_errors(rejected: BatchRejected) -> list[dict[str, Any]]:
    """Each refused event's index, its reason with what its kind allows said after it, and its kind."""
    return [
        {"index": i, "reason": f"{r} {KIND_SENTENCES[kind]}", "kind": kind}
        for (i, r), kind in zip(rejected.errors, rejected.kinds, strict=True)
    ]


def refused_events(rejected: BatchRejected) -> Problem:
    """A batch of events the fold refused, each with its reason and kind, and whether an override could log it."""
    errors = refusal_errors(rejected)
    if len(errors) == 1:
        # A later entry of a batch is named; the only or first entry needs no number.
        at = f"Entry {errors[0]['index'] + 1}: " if errors[0]["index"] else ""
        detail = f"{at}{errors[0]['reason']} Nothing was written."
    else:
        each = " ".join(f"Entry {e['index'] + 1}: {e['reason']}" for e in errors)
        detail = f"{len(errors)} entries of this batch were refused; nothing was written. {each}"
    return Problem(422, detail, kind="rejected", errors=errors, overridable=rejected.overridable)


def on_batch_rejected(request: Request[Any, Any, Any], exc: BatchRejected) -> Response[bytes]:
    refusal: Callable[[BatchRejected], Problem] = request.route_handler.opt.get("refusal", refused_events)
    return on_problem(request, refusal(exc))


def on_campaign_not_found(request: Request[Any, Any, Any], exc: CampaignNotFound) -> Response[bytes]:
    raw = request.path_params.get("campaign")
    try:
        campaign: object = uuid.UUID(raw) if raw is not None else "of that id"
    except ValueError:
        campaign = raw
    return on_problem(request, not_found(campaign))


def on_stale_position(request: Request[Any, Any, Any], exc: StalePosition) -> Response[bytes]:
    return on_problem(
        request,
        Problem(
            409,
            f"The log has moved on: you expected position {exc.expected}, but the campaign is at {exc.current}. "
            "Read what was added since, then send again.",
            kind="stale-position",
            position=exc.current,
        ),
    )


def on_id_reused(request: Request[Any, Any, Any], exc: IdReused) -> Response[bytes]:
    return on_problem(
        request,
        Problem(
            409, exc.reasons[0][1], kind="event-id-reused", errors=[{"index": i, "reason": r} for i, r in exc.reasons]
        ),
    )


def on_undo_refused(request: Request[Any, Any, Any], exc: UndoRefused) -> Response[bytes]:
    doing = request.route_handler.opt["doing"]
    return on_problem(request, Problem(exc.status, exc.reason, kind=f"{doing}-refused"))


def _entries(count: int) -> str:
    return "1 later entry" if count == 1 else f"{count} later entries"


def on_undo_conflict(request: Request[Any, Any, Any], exc: UndoConflict) -> Response[bytes]:
    doing = request.route_handler.opt["doing"]
    first = exc.conflicts[0]
    hint = " Undo it with what depends on it (cascade=true) to take those too." if doing == "undo" else ""
    return on_problem(
        request,
        Problem(
            409,
            f"Cannot {doing}: {_entries(len(exc.conflicts))} would no longer hold, the first at position "
            f"{first.position} ({first.type.replace('.', ' ').replace('_', ' ')}): {first.reason} "
            f"Nothing was written.{hint}",
            kind="undo-conflict",
            conflicts=[{"position": c.position, "type": c.type, "reason": c.reason} for c in exc.conflicts],
        ),
    )


HANDLERS: dict[type[Exception], Callable[[Request[Any, Any, Any], Any], Response[bytes]]] = {
    Problem: on_problem,
    HTTPException: on_http_exception,
    CampaignNotFound: on_campaign_not_found,
    BatchRejected: on_batch_rejected,
    StalePosition: on_stale_position,
    IdReused: on_id_reused,
    UndoRefused: on_undo_refused,
    UndoConflict: on_undo_conflict,
    Exception: on_unexpected,
}
