"""Every 4xx and 5xx answer is `application/problem+json` (RFC 9457) with a sentence a person understands."""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException

log = logging.getLogger("quartermaster")

MEDIA_TYPE = "application/problem+json"

_TITLES = {
    400: "Bad request",
    401: "Not authenticated",
    403: "Not allowed",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Request too large",
    422: "Cannot be processed",
    500: "Internal error",
}


class Problem(Exception):
    """An answer that is not a success, with the reason in words."""

    def __init__(self, status: int, detail: str, *, kind: str | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.kind = kind or _TITLES.get(status, "error").lower().replace(" ", "-")
        self.extra = extra


def body(status: int, detail: str, kind: str, extra: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": f"https://quartermaster.invalid/problems/{kind}",
        "title": _TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
        **extra,
    }


def respond(status: int, detail: str, kind: str, extra: dict[str, Any] | None = None) -> Response:
    return Response(
        content=msgspec.json.encode(body(status, detail, kind, extra or {})),
        status_code=status,
        media_type=MEDIA_TYPE,
    )


def on_problem(_: Request, exc: Problem) -> Response:
    return respond(exc.status, exc.detail, exc.kind, exc.extra)


def on_http_exception(request: Request, exc: HTTPException) -> Response:
    status = exc.status_code
    if status == 404:
        detail = f"There is nothing at {request.url.path}."
    elif status == 405:
        detail = f"{request.method} is not allowed on {request.url.path}."
    elif status == 413:
        detail = "The request body is larger than this server accepts; send fewer events per request."
    else:
        detail = exc.detail or _TITLES.get(status, "Error")
    return respond(status, detail, _TITLES.get(status, "error").lower().replace(" ", "-"))


def on_unexpected(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return respond(500, "Something went wrong on the server; nothing was written. The error is in the server log.",
                   "internal-error")


HANDLERS = {Problem: on_problem, HTTPException: on_http_exception, Exception: on_unexpected}
