"""Who is asking: the member behind a bearer token, and what their role lets them do.

Handlers receive these through Litestar's dependencies (`DEPENDENCIES`, registered on the app): `store`, the
`member` asking, and the `campaign_id` of the path (the member's own, so asking for it authenticates the request).
A route that only some roles may call says so in its `opt` (`opt=may("roll dice")`), and the `member` dependency
refuses the others with a sentence naming what they tried. The two routes a table calls once per event (appending
and rolling) carry `DIRECT`, which calls their handler with the same four arguments from the same functions, without
Litestar's dependency injection (see below for why and when).
"""

from __future__ import annotations

import math
import uuid
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.di import NamedDependency, Provide
from litestar.enums import MediaType
from litestar.exceptions import ClientException, InternalServerException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.handlers import HTTPRouteHandler
from litestar.middleware import DefineMiddleware
from litestar.params import FromPath
from litestar.types import ASGIApp, Empty, Receive, Scope, Send

from service import tokens
from service.problems import Problem, not_found
from service.store import Store

ROLES_THAT_APPEND = frozenset({"owner", "player"})
OWNER = frozenset({"owner"})

__all__ = [
    "DEPENDENCIES",
    "OWNER",
    "ROLES_THAT_APPEND",
    "DIRECT",
    "DirectRequest",
    "PlainJson",
    "Asking",
    "CampaignId",
    "EventStore",
    "Member",
    "campaign_id_of",
    "header_of",
    "may",
    "member",
    "not_found",
    "require",
    "store_of",
]


# A Struct, not a frozen dataclass: one is made per request, in 0.1 µs against the dataclass's 1.3 µs.
class Member(msgspec.Struct, frozen=True):
    id: uuid.UUID
    campaign_id: uuid.UUID
    name: str
    role: str

    @property
    def actor(self) -> str:
        """The member as the log's `actor` column names them: str(id), spelt by msgspec in C; uuid.UUID's __str__ is
        Python, about 7,000 of a one-note append's 495,000 instructions (callgrind)."""
        actor: str = msgspec.to_builtins(self.id)
        return actor


# How a handler names what it receives: `store: EventStore, campaign_id: CampaignId, member: Asking`.
EventStore = NamedDependency[Store]
CampaignId = NamedDependency[uuid.UUID]
Asking = NamedDependency[Member]


def store_of(request: Request) -> Store:
    """The event store the app's lifespan opened."""
    # By key, not as `state.store`: State finds an attribute in __getattr__, after Python has made and dropped an
    # AttributeError, about 4,800 of a one-note append's 500,000 instructions (callgrind).
    store: Store = request.app.state["store"]
    return store


# msgspec reads the spellings of a UUID a client sends in practice (hyphenated or 32 hex digits, either case) in C,
# about 0.5 µs against uuid.UUID's 1.6 µs; uuid.UUID still takes the rest (braces, `urn:uuid:`), so every spelling
# that named a campaign still does, as the same UUID.
def campaign_id_of(campaign: FromPath[str]) -> uuid.UUID:
    """The campaign id in a path; one that is not a UUID is a campaign that does not exist."""
    try:
        return msgspec.convert(campaign, uuid.UUID)
    except msgspec.ValidationError:
        pass
    try:
        return uuid.UUID(campaign)
    except ValueError:
        raise not_found(campaign) from None


# The table page's session cookie for one campaign: HttpOnly, SameSite=Strict, holding that member's token.
COOKIE_PREFIX = "qm_"
# Cookie-authenticated writes must carry this header: a cross-site form cannot set it, and a cross-site script
# would need a CORS preflight this server never grants.
PAGE_HEADER = "x-quartermaster"
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def cookie_name(campaign_id: uuid.UUID) -> str:
    return f"{COOKIE_PREFIX}{campaign_id.hex}"


def same_origin(request: Request) -> None:
    """Refuse a browser write that another site could have started: no page header, or a foreign Origin."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    if request.headers.get(PAGE_HEADER) != "page" or (origin and origin.partition("://")[2] != host):
        raise Problem(
            403,
            "This change was sent from another site; it is only accepted from Quartermaster's own page.",
            kind="cross-site",
        )


def header_of(request: Request, name: bytes) -> str | None:
    """The first value of a header, as `request.headers.get` answers it, from the scope's own list.

    Litestar's Headers decodes every header of the request into a case-insensitive multidict on its first use, about
    23,000 instructions for a request of four headers (callgrind), more than the rest of authenticating; a one-note
    append asked it for one header. ASGI servers give header names in lowercase (the ASGI spec asks it), so looking
    up the lowercase name is what the case-insensitive look-up amounts to."""
    for key, value in request.scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None


def presented_token(request: Request, campaign_id: uuid.UUID) -> str:
    """The bearer token of an API client, else the page's session cookie for this campaign."""
    header = header_of(request, b"authorization") or ""
    if not header:
        cookie = request.cookies.get(cookie_name(campaign_id), "")
        if cookie:
            if request.method not in _SAFE_METHODS:
                same_origin(request)
            return cookie
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(
            401,
            "This needs a member token: send `Authorization: Bearer <token>`, or open your join link on this device.",
            kind="no-token",
        )
    return token.strip()


async def holder(store: Store, token: str, campaign_id: uuid.UUID | None = None) -> Member | None:
    """The member a token belongs to (in `campaign_id`, when the caller knows it), or None when it is malformed,
    was never issued, was replaced, or belongs to another campaign or to a revoked member.

    A token once matched against its hash is kept with its member, by its digest (store.verified_tokens, a
    tokens.Verified): a member's every request presents the same token, and parsing it, reading its row, hashing its
    secret and comparing the digests again cost about a tenth of the app's own CPU per one-note append. What is kept
    is used only while `store.members_fresh()` says every replacement and revocation any process made has been
    heard (store/members.py); a member changed is forgotten."""
    fresh = store.members_fresh()
    found: Member | None = store.verified_tokens.get(token) if fresh else None
    if found is None:
        generation = store.member_generation
        parsed = tokens.parse(token)
        row = await store.member_credentials(parsed[0], campaign_id) if parsed else None
        if parsed is None or row is None or not tokens.matches(parsed[1], row[3]):
            return None
        member_campaign, name, role, _ = row
        found = Member(id=parsed[0], campaign_id=member_campaign, name=name, role=role)
        if fresh and generation == store.member_generation:
            store.verified_tokens.keep(token, found)
    if campaign_id is not None and found.campaign_id.int != campaign_id.int:
        return None
    return found


async def member(request: Request, store: Store, campaign_id: uuid.UUID) -> Member:
    """The member of this campaign holding the request's token; 401 without a valid token, 404 for a foreign one."""
    token = presented_token(request, campaign_id)
    # Looked up with the campaign of the path, so under Citus the look-up goes to that campaign's shard.
    found = await holder(store, token, campaign_id)
    if found is None:
        if await holder(store, token) is not None:
            raise not_found(campaign_id)  # a valid token of another campaign: the same 404 as no campaign at all
        raise Problem(
            401,
            "This token is not valid: it may be mistyped, it was never issued, or the campaign's owner replaced or "
            "revoked it. Ask the owner for a new join link.",
            kind="bad-token",
        )
    return found


def require(member: Member, roles: frozenset[str], doing: str) -> None:
    if member.role not in roles:
        raise Problem(403, f"{member.name} is a {member.role} of this campaign and cannot {doing}.", kind="forbidden")


def may(doing: str, roles: frozenset[str] = ROLES_THAT_APPEND) -> dict[str, Any]:
    """A route's `opt`: only these roles may call it; a refusal says the member cannot do `doing`."""
    return {"doing": doing, "roles": roles}


async def _asking(request: Request, store: EventStore, campaign: FromPath[str]) -> Member:
    found = await member(request, store, campaign_id_of(campaign))
    roles = request.route_handler.opt.get("roles")
    if roles is not None:
        require(found, roles, request.route_handler.opt["doing"])
    return found


def _campaign_of(member: Asking) -> uuid.UUID:
    return member.campaign_id


# A chain, store -> member -> campaign_id, not a tree: Litestar resolves dependencies that do not depend on each
# other concurrently, in an anyio task group with a task each, which cost more per request than the work they do.
DEPENDENCIES = {
    "store": Provide(store_of, sync_to_thread=False),
    "member": Provide(_asking),
    "campaign_id": Provide(_campaign_of, sync_to_thread=False),
}


# -- the hot routes' direct call ----------------------------------------------------------------------------------
# Litestar resolves the chain above through its KwargsModel: a signature model per dependency and one for the handler,
# each validating with msgspec what these functions already return typed. For a one-note append that was about 33 µs
# of the 370 µs the app spends on it in process (benchmarks/asgi_cpu.py, PostgreSQL 15; the store is most of the
# rest), the largest cost left outside the store on the two routes a table calls once per event: appending and
# rolling. Those routes carry DIRECT, which calls their handler with the same four arguments from the same functions.

_DIRECT_ARGUMENTS = frozenset({"request", *DEPENDENCIES})


def callable_directly(handler: HTTPRouteHandler) -> bool:
    """Whether calling the handler with (request, store, campaign_id, member) from this module's functions does all
    that Litestar's own call would: exactly those arguments, the campaign in its path as a string, this module's
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


class DirectRequest(Request):
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
        # Request.body and the Request.stream it drains, in one coroutine with their steps, checks and answers: the
        # async generator and the comprehension draining it took about 10,000 of a one-note append's 544,000
        # instructions (callgrind, in process).
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
    """A route's middleware that calls its handler itself, with the member resolved by `_asking` as the `member`
    dependency would, then answers with the handler's response as Litestar would (`to_response`). A handler
    `callable_directly` refuses goes through Litestar's call unchanged. Everything the handler and `_asking` raise
    goes to the app's exception handlers, as from Litestar's call, so every problem answer stays the same; the route
    is still a Litestar route, so routing, the body limit and the OpenAPI document do not change."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.direct: bool | None = None  # decided at the first request, when the route's handler is known
        self.plain = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        handler: HTTPRouteHandler = scope["route_handler"]  # type: ignore[assignment]
        if self.direct is None:
            self.direct = callable_directly(handler)
            self.plain = answers_plainly(handler)
        if not self.direct:
            await self.app(scope, receive, send)
            return
        request = DirectRequest(scope, receive, send)
        store = store_of(request)
        found = await _asking(request, store, scope["path_params"]["campaign"])
        data = await handler.fn(request=request, store=store, campaign_id=_campaign_of(found), member=found)
        if self.plain and _plain_json(data):
            await send(
                {"type": "http.response.start", "status": data.status_code, "headers": _json_headers(data.content)}
            )
            await send({"type": "http.response.body", "body": data.content, "more_body": False})
            return
        response = await handler.to_response(app=scope["litestar_app"], data=data, request=request)
        await response(scope, receive, send)


# An answer of encoded JSON and a status, nothing else, as Litestar sends it: its Response, to_response and
# ASGIResponse (a header map, a cookie list, a serializer looked up for bytes already encoded) took about 69,000 of the
# 773,000 instructions of a one-note append (callgrind). The two headers are the ones ASGIResponse writes, in its order.


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


class PlainJson(Response):
    """A Response of JSON already encoded and a status, nothing else: what `Response(content, status_code=status)`
    is, attribute for attribute, made without the checks of Response.__init__ (whether the cookies and the headers
    given are mappings, through typing.Mapping's isinstance), which took about 17,000 of a one-note append's 542,000
    instructions (callgrind). Litestar's own call answers it as that Response."""

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


def _plain_json(data: Any) -> bool:
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
    return [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]


DIRECT = DefineMiddleware(Direct)
