"""What every HTTP request passes through before the router and after its answer, in one plain ASGI middleware.

It wraps the router itself, not only the routes, so that the answers no route gives (404, 405) carry an id, a log
line and a count too. For each request: an id (the caller's, if it looks like one), on the log records written while
serving it and in the answer's `x-request-id` header; the 400 for a NUL character in the address; the Prometheus
counts and times by route (service.metrics); and one `request` log line (service.logs). One layer, not three
middlewares each building its own Request object, because it runs on every request.
"""

from __future__ import annotations

import time

from litestar import Litestar
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from litestar.utils.path import normalize_path

from service import hostile, logs, metrics

_HEADER = logs.HEADER.encode()


class Front:
    """Request ids, the NUL-in-URL refusal, request metrics and the request log line, around the app's router."""

    def __init__(self, app: Litestar) -> None:
        self.app: ASGIApp = app.asgi_handler
        self.router = app.asgi_router

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = logs.request_id_for(scope["headers"])
        token = logs.request_id.set(rid)
        header = (_HEADER, rid.encode())
        method = scope["method"]
        path = self._route(scope)
        if path == metrics.UNROUTED and method not in metrics.METHODS:
            method = "OTHER"
        counted = path != metrics.SCRAPES
        status = 500

        async def answering(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), header]
            await send(message)

        if counted:
            running = metrics.running(method, path)
        started = time.perf_counter()
        try:
            if hostile.nul_in_url(scope):
                await hostile.refuse_nul_in_url(answering)
            else:
                await self.app(scope, receive, answering)
        finally:
            seconds = time.perf_counter() - started
            if counted:
                metrics.answered(running, method, path, status, seconds)
            logs.request(rid, scope["method"], scope["path"], status, seconds)
            logs.request_id.reset(token)

    def _route(self, scope: Scope) -> str:
        """The path template of the route that will take this request, or UNROUTED.

        The in-progress gauge is labelled by route before the router runs, so this asks the router's own cached
        lookup, with the arguments the router passes (the router's call then finds the answer in the cache)."""
        path = scope["path"]
        if root_path := scope.get("root_path", ""):
            path = path.split(root_path, maxsplit=1)[-1]
        try:
            return self.router.handle_routing(path=normalize_path(path), method=scope.get("method"))[4]
        except Exception:
            return metrics.UNROUTED
