"""The Front: what every HTTP request gets (service/http/edge.py says what), in one plain ASGI layer around the router,
and the router's look-up done once.

It wraps the router itself, not only the routes, so that the answers no route gives (404, 405) carry an id, a log
line and a count too, as Litestar's own layers give them with the lane off. One layer, not three middlewares each
building its own Request object, because it runs on every request.
"""

from __future__ import annotations

import time
from typing import Any

from litestar import Litestar
from litestar._asgi.utils import is_valid_host, wrap_in_exception_handler
from litestar.enums import ScopeType
from litestar.middleware._internal.exceptions.middleware import ExceptionHandlerMiddleware
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from litestar.utils.path import normalize_path
from litestar.utils.scope.state import ScopeState

from quartermaster.service.http import hostile
from quartermaster.service.http.edge import added_headers
from quartermaster.service.http.fastlane.request_metrics import Requests, Shared, requests
from quartermaster.service.platform import logs, metrics


class Front:
    """Request ids, the NUL-in-URL refusal, request metrics and the request log line, around the app's router."""

    def __init__(self, app: Litestar) -> None:
        self.app: ASGIApp = app.asgi_handler
        self.router = app.asgi_router
        # This process's request metrics, made at the first request (service/http/fastlane/request_metrics.py).
        self.metrics: Requests | Shared | None = None
        # Front asks the router where a request goes before it runs (below), and the router would then ask again,
        # normalising the path, checking the host and looking the route up a second time. Where the app's handler is
        # the router inside its exception middleware and nothing else (no CORS, no tracing middleware around it),
        # Front does what the router does after that look-up and calls the route inside the same middleware; anything
        # else goes through the app's handler. tests/unit/test_private_pieces.py pins the private pieces this uses.
        self.routes_itself = type(self.app) is ExceptionHandlerMiddleware and self.app.app is self.router
        # Per route: its app inside the exception middleware, and its handler's exception handlers.
        self._routes: dict[int, tuple[ASGIApp, Any]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        rid = logs.request_id_for(scope["headers"])
        token = logs.request_id.set(rid)
        method: str = scope["method"]
        routed = self._route(scope)
        path = routed[4] if routed is not None else metrics.UNROUTED
        if routed is None:
            method = metrics.method_label(method)
        counted = path != metrics.SCRAPES
        status = 500
        added = added_headers(rid, scope["path"])

        async def answering(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), *added]
            await send(message)

        counts = self.metrics or self._counting()
        if counted:
            running = counts.running(method, path)
        started = time.perf_counter()
        try:
            if hostile.nul_in_url(scope):
                await hostile.refuse_nul_in_url(answering)
            elif routed is not None and self.routes_itself and _valid_host(scope):
                await self._call_route(routed, scope, receive, answering)
            else:
                await self.app(scope, receive, answering)
        finally:
            seconds = time.perf_counter() - started
            if counted:
                counts.answered(running, method, path, status, seconds)
            logs.request(rid, scope["method"], scope["path"], status, seconds)
            logs.request_id.reset(token)

    def _counting(self) -> Requests | Shared:
        self.metrics = requests()
        return self.metrics

    def _route(self, scope: Scope) -> Routed | None:
        """Where the router sends this request: (the route's app, its handler, the path, the path's parameters, the
        route's path template), or None when no route takes it.

        The in-progress gauge is labelled by route before the router runs, so this asks the router's own cached
        lookup, with the arguments the router passes."""
        path = scope["path"]
        if root_path := scope.get("root_path", ""):
            path = path.split(root_path, maxsplit=1)[-1]
        try:
            return self.router.handle_routing(path=normalize_path(path), method=scope.get("method"))
        except Exception:
            return None

    async def _call_route(self, routed: Routed, scope: Scope, receive: Receive, send: Send) -> None:
        """What ASGIRouter.__call__ does once it has found the route, inside the app's exception middleware."""
        asgi_app, handler, path, parameters, template = routed
        known = self._routes.get(id(asgi_app))
        if known is None:
            known = self._routes[id(asgi_app)] = (
                wrap_in_exception_handler(asgi_app),
                handler.resolve_exception_handlers(),
            )
        wrapped, exception_handlers = known
        scope["path"] = path
        scope["path_params"] = parameters
        ScopeState.from_scope(scope).exception_handlers = exception_handlers
        scope["route_handler"] = handler
        scope["path_template"] = template
        await wrapped(scope, receive, send)


Routed = tuple[ASGIApp, Any, str, dict[str, Any], str]


def _valid_host(scope: Scope) -> bool:
    """The router's check of the Host header: a request it fails goes through the router, which refuses it."""
    for name, value in scope["headers"]:
        if name == b"host":
            return is_valid_host(value)
    return True
