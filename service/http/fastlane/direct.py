"""The direct call: the two routes a table calls once per event (appending and rolling) call their handler with the
same four arguments, from the same functions, as Litestar's dependency injection would, and answer a bare JSON
answer themselves.

Litestar resolves the `store -> member -> campaign_id` chain of service.auth through its KwargsModel: a signature
model per dependency and one for the handler, each validating with msgspec what those functions already return
typed. `Direct` calls `auth.asking` and the handler itself instead, and sends an answer of encoded JSON and a status
as Litestar's ASGIResponse would write it. tests/api/test_direct_call.py sends every way such a request can go wrong
to an app with the lane and one without, and compares the answers byte for byte.
"""

from __future__ import annotations

import math
from typing import Any

from litestar import Request, Response, Router
from litestar.enums import MediaType
from litestar.exceptions import ClientException, InternalServerException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.handlers import HTTPRouteHandler
from litestar.middleware import DefineMiddleware
from litestar.types import ASGIApp, Empty, Receive, Scope, Send

from quartermaster.service.http.auth import DEPENDENCIES, asking, campaign_of, header_of, store_of

__all__ = ["DIRECT", "Direct", "DirectRequest", "PlainJson", "answers_plainly", "called_directly", "json_answer"]

_DIRECT_ARGUMENTS = frozenset({"request", *DEPENDENCIES})


def callable_directly(handler: HTTPRouteHandler) -> bool:
    """Whether calling the handler with (request, store, campaign_id, member) from service.auth's functions does all
    that Litestar's own call would: exactly those arguments, the campaign in its path as a string, service.auth's
    providers for them, and no guard, hook, cache, DTO, request class or sync function, whose work the direct call
    would skip."""
    providers = handler.resolve_dependencies()
    return (
        set(handler.parsed_fn_signature.parameters) == _DIRECT_ARGUMENTS
        and all("{campaign:str}" in path for path in handler.paths)
        and all(providers.get(name) is provider for name, provider in DEPENDENCIES.items())
        and not handler.resolve_guards()
        and handler.resolve_before_request() is None
        and handler.resolve_after_response() is None
        and not handler.cache
        and handler.resolve_data_dto() is None
        and handler.resolve_return_dto() is None
        and not handler.has_sync_callable
        and handler.resolve_request_class() is Request
    )


class DirectRequest(Request[Any, Any, Any]):
    """Litestar's Request, reading its body in one coroutine and the body's length from the scope's headers
    (`header_of`) rather than through Headers; tests/unit/test_direct_call_pieces.py reads every kind of body both
    ways."""

    __slots__ = ()

    @property
    def content_length(self) -> int | None:
        # Request.content_length's own steps and answers, with its one header read by header_of.
        if self._content_length is not Empty:
            return self._content_length
        value = header_of(self, b"content-length")
        try:
            self._content_length = int(value) if value is not None else None
        except ValueError:
            raise ClientException(f"Invalid content-length: {value!r}") from None
        return self._content_length

    async def body(self) -> bytes:
        # Request.body and the Request.stream it drains, in one coroutine, with their steps, checks and answers (the
        # async generator and the comprehension draining it were a measurable part of an append).
        if self._body is not Empty:
            return self._body
        if (body := self._connection_state.body) is not Empty:
            self._body = body
            return body
        if not self.is_connected:
            raise InternalServerException("stream consumed")
        announced = self.content_length
        limit = self.route_handler.resolve_request_max_body_size() or math.inf
        if announced is not None and announced > limit:
            raise RequestEntityTooLarge
        chunks = []
        received = 0
        while event := await self.receive():
            if event["type"] == "http.request":
                if chunk := event["body"]:
                    received += len(chunk)
                    if received > limit:
                        raise RequestEntityTooLarge
                    chunks.append(chunk)
                if not event.get("more_body", False):
                    break
            if event["type"] == "http.disconnect":
                raise InternalServerException("client disconnected prematurely")
        self.is_connected = False
        self._body = self._connection_state.body = b"".join(chunks)
        return self._body


class Direct:
    """A route's middleware that calls its handler itself, with the member resolved by `auth.asking` as the `member`
    dependency would, then answers with the handler's response as Litestar would (`to_response`). A handler
    `callable_directly` refuses goes through Litestar's call unchanged. Everything the handler and `asking` raise
    goes to the app's exception handlers, as from Litestar's call, so every problem answer stays the same; the route
    is still a Litestar route, so routing, the body limit and the OpenAPI document do not change."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.direct: bool | None = None  # decided at the first request, when the route's handler is known
        self.plain = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        handler: HTTPRouteHandler = scope["route_handler"]  # type: ignore[assignment]  # an HTTP route's, always
        if self.direct is None:
            self.direct = callable_directly(handler)
            self.plain = answers_plainly(handler)
        if not self.direct:
            await self.app(scope, receive, send)
            return
        request = DirectRequest(scope, receive, send)
        store = store_of(request)
        found = await asking(request, store, scope["path_params"]["campaign"])
        data = await handler.fn(request=request, store=store, campaign_id=campaign_of(found), member=found)
        if self.plain and _plain_json(data):
            await send(
                {"type": "http.response.start", "status": data.status_code, "headers": _json_headers(data.content)}
            )
            await send({"type": "http.response.body", "body": data.content, "more_body": False})
            return
        response = await handler.to_response(app=scope["litestar_app"], data=data, request=request)
        await response(scope, receive, send)


def answers_plainly(handler: HTTPRouteHandler) -> bool:
    """Whether Litestar adds nothing of the handler's own to a Response it returns: no response headers or cookies,
    no after-request hook, no background task, and JSON as the media type."""
    return (
        not handler.resolve_response_headers()
        and not handler.resolve_response_cookies()
        and not any(layer.after_request for layer in handler.ownership_layers)
        and handler.background is None
        and (handler.media_type or MediaType.JSON) == MediaType.JSON  # what to_asgi_response falls back to
    )


class PlainJson(Response[bytes]):
    """A Response of JSON already encoded and a status, nothing else: what `Response(content, status_code=status)`
    is, attribute for attribute, made without the checks of Response.__init__ (whether the cookies and the headers
    given are mappings, through typing.Mapping's isinstance). Litestar's own call answers it as that Response; a
    new attribute of Response in another Litestar is a reason to drop this class, and
    tests/unit/test_direct_call_pieces.py compares the two attribute for attribute."""

    __slots__ = ()

    def __init__(self, content: bytes, status_code: int) -> None:
        self.content = content
        self.background = None
        self.cookies = []
        self.encoding = "utf-8"
        self.headers = {}
        self.media_type = None
        self.status_code = status_code
        self.response_type_encoders = {}


def json_answer(request: Request[Any, Any, Any] | None, content: bytes, status_code: int) -> Response[bytes]:
    """A route's answer of JSON already encoded and a status: Litestar's `Response(content, status_code=...)`, made
    as a PlainJson when the direct call made the request (with the lane off, nothing but Litestar's Response)."""
    if type(request) is DirectRequest:
        return PlainJson(content, status_code)
    return Response(content, status_code=status_code)


def _plain_json(data: Any) -> bool:
    # An answer of encoded JSON and a status, nothing else, which the direct call sends itself: Litestar's Response,
    # to_response and ASGIResponse would add nothing to it but the two headers _json_headers writes.
    return (
        type(data) in (Response, PlainJson)
        and type(data.content) is bytes
        and data.status_code in (200, 201)
        and data.media_type is None
        and not data.headers
        and not data.cookies
        and data.background is None
    )


def _json_headers(body: bytes) -> list[tuple[bytes, bytes]]:
    # The two headers ASGIResponse writes for such an answer, in its order.
    return [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]


DIRECT = DefineMiddleware(Direct)


def called_directly(handler: HTTPRouteHandler) -> Router:
    """The handler on a layer of its own that carries DIRECT (a Router at the root: the route's path, name, opt and
    OpenAPI operation are the handler's own), for the app to register in the handler's place."""
    return Router(path="/", route_handlers=[handler], middleware=[DIRECT])
