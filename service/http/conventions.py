"""HTTP as clients expect it, on top of the routes: HEAD on every GET route, and conditional reads of state and history.

- `Head` wraps the whole app (the page, static files, health checks, every GET of the API): a HEAD request is served
  as the GET it stands for, with the GET's status and headers (its Content-Length and ETag included) and no body.
  Litestar routes HEAD only to handlers declared for it, which may not return a body; one layer here gives every GET
  its HEAD without a second handler per route.
- `CONDITIONAL`, a route middleware on the reads a phone rereads (state, views, history): the answer carries an
  ETag, a digest of its bytes, and `Cache-Control: no-cache` (keep it, ask again); a request whose If-None-Match
  names the answer's current ETag is answered 304 with no body. The answer is still read from the log, since
  nothing cheaper says it is unchanged across processes; what is saved is the phone's download and its redraw.

The 405's Allow header is the router's, said in service/http/problems.py; the OPTIONS answer's is made whole here.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Collection
from typing import Any, cast

from litestar import Litestar
from litestar.middleware import DefineMiddleware
from litestar.routes import HTTPRoute
from litestar.types import ASGIApp, Message, Receive, ReceiveMessage, Scope, Send

from quartermaster.service.http.problems import Problem


class Head:
    """Around the app: HEAD served as GET, with its headers and without its body; and OPTIONS answered with the
    route's every method in Allow."""

    def __init__(self, app: Litestar) -> None:
        self.app = app.asgi_handler
        self.routes = _route_methods(app)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        method = cast(dict[str, Any], scope).get("method")
        if method == "OPTIONS":
            await self.app(scope, receive, self._allowing(scope["path"], send))
            return
        if method != "HEAD":
            await self.app(scope, receive, send)
            return
        answered = asyncio.Event()

        async def headers_only(message: Message) -> None:
            if answered.is_set():
                return  # the GET's body, which a HEAD answer never carries
            if message["type"] == "http.response.start":
                answered.set()
                await send(message)
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        async def receiving() -> ReceiveMessage:
            # Once the headers are sent the client has all it asked for: a route still answering (the live stream
            # follows the log until its client leaves) is told the client left.
            if answered.is_set():
                return {"type": "http.disconnect"}
            message = asyncio.ensure_future(receive())
            done = asyncio.ensure_future(answered.wait())
            await asyncio.wait((message, done), return_when=asyncio.FIRST_COMPLETED)
            if message.done():
                done.cancel()
                return message.result()
            message.cancel()
            return {"type": "http.disconnect"}

        await self.app(cast(Scope, {**scope, "method": "GET"}), receiving, headers_only)

    def _allowing(self, path: str, send: Send) -> Send:
        """Litestar's own OPTIONS answer, its Allow made whole: the answer of a path whose methods were declared by
        more than one handler (the log's GET and POST) named only the first handler's."""
        allowed = next((methods for pattern, methods in self.routes if pattern.fullmatch(path)), None)
        if allowed is None:
            return send

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 204:
                headers = [(k, allowed if k.lower() == b"allow" else v) for k, v in message.get("headers", ())]
                message = cast(Message, {**message, "headers": headers})
            await send(message)

        return sending


def allow_of(methods: Collection[str]) -> str:
    """An Allow header's value for a route's methods: HEAD goes with every GET (`Head`)."""
    every = set(methods) | ({"HEAD"} if "GET" in methods else set())
    return ", ".join(sorted(every))


def _route_methods(app: Litestar) -> list[tuple[re.Pattern[str], bytes]]:
    """Each HTTP route's path as a pattern, with its Allow header."""
    found = []
    for route in app.routes:
        if isinstance(route, HTTPRoute):
            pattern = re.sub(r"\\\{(\w+):path\\\}", ".*", re.escape(route.path))
            pattern = re.sub(r"\\\{\w+(:\w+)?\\\}", "[^/]+", pattern)
            found.append((route.path.count("{"), re.compile(pattern), allow_of(route.methods).encode()))
    # As the router matches: a path of fixed words (/v1/campaigns/import) before one with a parameter there.
    return [(pattern, allow) for _, pattern, allow in sorted(found, key=lambda row: row[0])]


# What an If-None-Match can hold: visible ASCII with spaces inside (`"a", W/"b"`), or nothing.
_ENTITY_TAGS = re.compile(rb"([!-~]([ -~]*[!-~])?)?")


def etag_of(body: bytes) -> bytes:
    """A strong entity tag for these bytes."""
    return b'"' + hashlib.blake2b(body, digest_size=16).hexdigest().encode() + b'"'


def matches(if_none_match: bytes, etag: bytes) -> bool:
    """Whether an If-None-Match header names this tag (RFC 9110: weak comparison, `*` matches any)."""
    for candidate in if_none_match.split(b","):
        candidate = candidate.strip()
        if candidate == b"*" or candidate.removeprefix(b"W/") == etag:
            return True
    return False


class Conditional:
    """On a route: a 200 answer gets an ETag and `Cache-Control: no-cache`; a matching If-None-Match gets 304."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if cast(dict[str, Any], scope).get("method") != "GET":
            await self.app(scope, receive, send)
            return
        asked = next((value for name, value in scope["headers"] if name == b"if-none-match"), None)
        if asked is not None and not _ENTITY_TAGS.fullmatch(asked):
            raise Problem(
                400,
                "The If-None-Match header must be entity tags as an answer's ETag gives them (visible ASCII).",
                kind="bad-if-none-match",
            )
        start: dict[str, Any] | None = None
        chunks: list[bytes] = []

        async def holding(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start" and message["status"] == 200 and start is None:
                start = dict(message)
                return
            if message["type"] == "http.response.body" and start is not None:
                chunks.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                await _answer(send, start, b"".join(chunks), asked)
                return
            await send(message)

        await self.app(scope, receive, holding)


async def _answer(send: Send, start: dict[str, Any], body: bytes, asked: bytes | None) -> None:
    etag = etag_of(body)
    headers = [(k, v) for k, v in start.get("headers", ()) if k.lower() not in (b"etag", b"cache-control")]
    headers += [(b"etag", etag), (b"cache-control", b"private, no-cache")]
    if asked is not None and matches(asked, etag):
        # 304 carries the headers a 200 would have, less the body's own (RFC 9110, 15.4.5).
        kept = [(k, v) for k, v in headers if k.lower() not in (b"content-length", b"content-type")]
        await send({"type": "http.response.start", "status": 304, "headers": kept})
        await send({"type": "http.response.body", "body": b"", "more_body": False})
        return
    await send(cast(Message, {**start, "headers": headers}))
    await send({"type": "http.response.body", "body": body, "more_body": False})


CONDITIONAL = DefineMiddleware(Conditional)
