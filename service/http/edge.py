"""What every HTTP request gets: an id (the caller's, if it looks like one) on the
log records written while serving it and in the answer's `x-request-id` header; `X-Content-Type-Options: nosniff`
on every answer, and on the API documentation (/schema) a strict content policy, a refusal to be framed and a
Referrer-Policy; the 400 for a NUL character in the address; a count and a time by route (service.metrics); and one
`request` log line (service.logs).

The app does it as Litestar's documentation says: `Edge`, a middleware of the app's layer, for every request a route
takes (and Litestar's Prometheus middleware for its count); `before_send`, the app's hook on every message sent, for
the headers; and, for the answers the router gives before any middleware runs (no route, a method the route does not
take, an invalid Host), an exception handler of the app's layer (`on_router_refusal`), as Litestar's "Middlewares
and Exceptions" advises.
"""

from __future__ import annotations

import time
from typing import Any, cast

from litestar import Request, Response
from litestar.background_tasks import BackgroundTask
from litestar.enums import ScopeType
from litestar.exceptions import ClientException
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, ExceptionHandlersMap, HTTPScope, Message, Middleware, Receive, Scope, Send

from quartermaster.service.http import documentation, hostile, problems
from quartermaster.service.platform import logs, metrics

__all__ = ["HANDLERS", "HOOKS", "MIDDLEWARE", "Mounted", "added_headers"]

_HEADER = logs.HEADER.encode()
# On every answer: a browser never guesses another type than the one declared (an upload read as a script, say).
_NOSNIFF = (b"x-content-type-options", b"nosniff")
# On the API documentation's pages too: no script, nothing loaded, never inside another site's frame, and no address of
# it sent onwards.
_DOCUMENTATION = (
    (b"content-security-policy", documentation.POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)


def added_headers(rid: str, path: str) -> tuple[tuple[bytes, bytes], ...]:
    """The headers every answer carries after its own, in this order."""
    header = (_HEADER, rid.encode())
    return (header, _NOSNIFF, *_DOCUMENTATION) if path.startswith("/schema") else (header, _NOSNIFF)


class Edge(ASGIMiddleware):
    """Around every route: the request's id, the NUL refusal and the request's log line."""

    scopes = (ScopeType.HTTP,)

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        http = cast(HTTPScope, scope)  # an HTTP request's (`scopes`)
        rid = logs.request_id_for(http["headers"])
        token = logs.request_id.set(rid)
        status = 500

        async def answering(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        started = time.perf_counter()
        try:
            if hostile.nul_in_url(scope):
                await hostile.refuse_nul_in_url(answering)
            else:
                await next_app(scope, receive, answering)
        finally:
            logs.request(rid, http["method"], http["path"], status, time.perf_counter() - started)
            logs.request_id.reset(token)


async def before_send(message: Message, scope: Scope) -> None:
    """The app's hook on every message it sends: the headers every answer carries, after the answer's own."""
    if message["type"] == "http.response.start":
        rid = logs.request_id.get()
        if rid is not None:
            message["headers"] = [*message.get("headers", ()), *added_headers(rid, scope["path"])]


def on_router_refusal(request: Request[Any, Any, Any], exc: ClientException) -> Response[Any]:
    """A client error's problem answer; for one the router gave before any middleware ran (the route is not known),
    also the request's id, the NUL refusal, its count and its log line (after the answer, as a background task)."""
    scope = request.scope
    if "route_handler" in cast(dict[str, Any], scope):  # set once the router found the route: Edge did the rest
        return problems.on_http_exception(request, exc)
    started = time.perf_counter()
    rid = logs.request_id_for(scope["headers"])
    logs.request_id.set(rid)
    if hostile.nul_in_url(scope):
        response: Response[Any] = Response(hostile.NUL_IN_URL, status_code=400, media_type=problems.MEDIA_TYPE)
    else:
        response = problems.on_http_exception(request, exc)
    status = response.status_code or 200  # None is Litestar's default, 200
    response.background = BackgroundTask(_refused, rid, scope["method"], scope["path"], status, started)
    return response


async def _no_app(scope: Scope, receive: Receive, send: Send) -> None:
    raise RuntimeError("never called: _PROMETHEUS is kept for its metrics only")


# Litestar's Prometheus middleware, only for its metric objects (its public accessors make and keep one per name):
# the router's refusals are counted in the families it counts the routes' answers in.
_PROMETHEUS = metrics.PROMETHEUS.middleware_class(app=_no_app, config=metrics.PROMETHEUS)


async def _refused(rid: str, method: str, path: str, status: int, started: float) -> None:
    seconds = time.perf_counter() - started
    labels: dict[str, str | int | float] = {
        "method": metrics.method_label(method),
        "path": metrics.UNROUTED,
        "status_code": status,
        "app_name": metrics.APP_NAME,
    }
    values = list(labels.values())
    if status >= 500:
        _PROMETHEUS.requests_error_count(labels).labels(*values).inc()
    _PROMETHEUS.request_count(labels).labels(*values).inc()
    _PROMETHEUS.request_time(labels).labels(*values).observe(seconds)
    logs.request(rid, method, path, status, seconds)


# What create_app adds: Prometheus's middleware outermost, so that it counts the NUL refusal too, then Edge.
MIDDLEWARE: list[Middleware] = [metrics.PROMETHEUS.middleware, Edge()]
HOOKS = [before_send]
HANDLERS: ExceptionHandlersMap = {ClientException: on_router_refusal}


class Mounted:
    """The app under a reverse proxy's sub-path (settings.root_path, "/qm"): a request for /qm/x is served as /x.

    Whether the proxy takes the prefix off (nginx's `proxy_pass http://127.0.0.1:8000/;`, Caddy's `handle_path`) or
    passes the path whole (`proxy_pass http://127.0.0.1:8000;`), the routes see the same path. The prefix is not put in
    the scope's `root_path`: Litestar's router would then cut the path at the prefix's first occurrence anywhere in
    it, not only at its start."""

    def __init__(self, app: ASGIApp, root: str) -> None:
        self.app = app
        self.root = root
        self.raw = root.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # The app's handler sees HTTP and websocket scopes only: Litestar answers the lifespan itself.
        path = scope["path"]
        root = self.root
        if path.startswith(root) and (len(path) == len(root) or path[len(root)] == "/"):
            scope["path"] = path[len(root) :] or "/"
            raw = scope.get("raw_path")
            if raw is not None and raw.startswith(self.raw):
                scope["raw_path"] = raw[len(self.raw) :] or b"/"
        await self.app(scope, receive, send)
