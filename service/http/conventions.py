"""HTTP as clients expect it, on top of the routes: HEAD on every GET route, and conditional reads of state and history.

- `Head` wraps the whole app (the page, static files, health checks, every GET of the API): a HEAD request is served
  as the GET it stands for, with the GET's status and headers (its Content-Length and ETag included) and no body.
  Litestar routes HEAD only to handlers declared for it, which may not return a body; one layer here gives every GET
  its HEAD without a second handler per route.
- `CONDITIONAL`, a route middleware on the reads a phone rereads (state, views, history): the answer carries an
  ETag, a digest of its bytes, and `Cache-Control: no-cache` (keep it, ask again); a request whose If-None-Match
  names the answer's current ETag is answered 304 with no body. The answer is still read from the log, since
  nothing cheaper says it is unchanged across processes; what is saved is the phone's download and its redraw.

The 405's Allow header is the router's, said in service/http/problems.py.
"""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any, cast

from litestar.middleware import DefineMiddleware
from litestar.types import ASGIApp, Message, Receive, ReceiveMessage, Scope, Send


class Head:
    """Around the app: HEAD served as GET, with its headers and without its body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if cast(dict[str, Any], scope).get("method") != "HEAD":
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
