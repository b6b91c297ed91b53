"""Who is asking: the member behind a bearer token, and what their role lets them do.

Handlers receive these through Litestar's dependencies (`DEPENDENCIES`, registered on the app): `store`, the
`member` asking, and the `campaign_id` of the path (the member's own, so asking for it authenticates the request).
A route that only some roles may call says so in its `opt` (`opt=may("roll dice")`), and the `member` dependency
refuses the others with a sentence naming what they tried.
"""

from __future__ import annotations

import uuid
from typing import Any

import msgspec
from litestar import Request
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath

from quartermaster.service.http import guesses
from quartermaster.service.http.guesses import Guesses
from quartermaster.service.http.problems import Problem, not_found
from quartermaster.service.platform import tokens
from quartermaster.service.store import Store

ROLES_THAT_APPEND = frozenset({"owner", "player"})
OWNER = frozenset({"owner"})
# The table display's link (a tablet or a TV at the table): it reads and follows the log, and any write is refused,
# whatever the route's own roles say, so a write route added later cannot forget it.
DISPLAY = "display"

__all__ = [
    "DEPENDENCIES",
    "OWNER",
    "DISPLAY",
    "ROLES_THAT_APPEND",
    "Asking",
    "CampaignId",
    "EventStore",
    "Member",
    "asking",
    "campaign_id_of",
    "campaign_of",
    "header_of",
    "may",
    "member",
    "not_found",
    "require",
    "store_of",
]


# A Struct, not a frozen dataclass: one is made per request, and a Struct is made several times faster.
class Member(msgspec.Struct, frozen=True):
    id: uuid.UUID
    campaign_id: uuid.UUID
    name: str
    role: str

    @property
    def actor(self) -> str:
        """The member as the log's `actor` column names them: str(id), spelt by msgspec in C (uuid.UUID's __str__,
        in Python, spells the same string more slowly)."""
        actor: str = msgspec.to_builtins(self.id)
        return actor


# How a handler names what it receives: `store: EventStore, campaign_id: CampaignId, member: Asking`.
EventStore = NamedDependency[Store]
CampaignId = NamedDependency[uuid.UUID]
Asking = NamedDependency[Member]


def store_of(request: Request[Any, Any, Any]) -> Store:
    """The event store the app's lifespan opened."""
    # By key, not as `state.store`: State finds an attribute in __getattr__, after Python has made and dropped an
    # AttributeError.
    store: Store = request.app.state["store"]
    return store


# msgspec reads the spellings of a UUID a client sends in practice (hyphenated or 32 hex digits, either case) in C,
# faster than uuid.UUID; uuid.UUID still takes the rest (braces, `urn:uuid:`), so every spelling that named a
# campaign still does, as the same UUID.
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


def same_origin(request: Request[Any, Any, Any]) -> None:
    """Refuse a browser write that another site could have started: no page header, or sent from another origin.

    The browser's own `Sec-Fetch-Site` decides when it is sent (every current browser sends it, and no page can set
    it): behind a reverse proxy the Host this server sees is often the proxy's upstream address (nginx's shortest
    `proxy_pass` sends `127.0.0.1:8000`), never the Origin the phone sends, so comparing the two refused every phone's
    write. Without it (an older browser), the Origin must name the Host, or the X-Forwarded-Host a proxy passed."""
    if request.headers.get(PAGE_HEADER) != "page":
        raise _cross_site()
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        if site != "same-origin":
            raise _cross_site()
        return
    origin = request.headers.get("origin")
    if origin:
        named = origin.partition("://")[2]
        hosts = {request.headers.get("host", ""), *request.headers.get("x-forwarded-host", "").split(",")}
        if named not in {h.strip() for h in hosts if h.strip()}:
            raise _cross_site()


def _cross_site() -> Problem:
    return Problem(
        403,
        "This change was sent from another site; it is only accepted from Quartermaster's own page.",
        kind="cross-site",
    )


def header_of(request: Request[Any, Any, Any], name: bytes) -> str | None:
    """The first value of a header, as `request.headers.get` answers it, from the scope's own list.

    Litestar's Headers decodes every header of the request into a case-insensitive multidict on its first use, which
    costs more than the rest of authenticating, for the one header asked. ASGI servers give header names in lowercase
    (the ASGI spec asks it), so looking up the lowercase name is what the case-insensitive look-up amounts to; the
    name given must be lowercase."""
    for key, value in request.scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None


def presented_token(request: Request[Any, Any, Any], campaign_id: uuid.UUID) -> str:
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
    secret and comparing the digests again would be a large part of the app's own work per append. What is kept
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


def client_address(request: Request[Any, Any, Any]) -> str:
    """The address that sent the request: the one that connected, or the one a trusted proxy names (serve believes
    X-Forwarded-For only from the proxies the operator lists)."""
    client = request.scope.get("client")
    return client[0] if client else ""


def wrong_tokens(request: Request[Any, Any, Any]) -> Guesses | None:
    """The app's count of wrong tokens by address (service/http/guesses.py); None when it is off."""
    counter: Guesses | None = request.app.state.get(guesses.STATE_KEY)
    return counter


def already_matched(store: Store, token: str, campaign_id: uuid.UUID | None = None) -> Member | None:
    """The member of a token this process has already matched (and heard nothing since that would change it), without
    reading the database or hashing: what an address over its bound of wrong tokens may still present."""
    found: Member | None = store.verified_tokens.get(token) if store.members_fresh() else None
    if found is None or (campaign_id is not None and found.campaign_id.int != campaign_id.int):
        return None
    return found


def throttle(
    request: Request[Any, Any, Any], store: Store, token: str, campaign_id: uuid.UUID | None = None
) -> Member | None:
    """None while the sender's address is below its bound of wrong tokens (look the token up as usual); over it, the
    member of a token already matched, and for any other token a 429 (service/http/guesses.py)."""
    counter = wrong_tokens(request)
    wait = None if counter is None else counter.wait(client_address(request))
    if wait is None:
        return None
    known = already_matched(store, token, campaign_id)
    if known is None:
        raise guesses.throttled(wait)
    return known


def count_wrong(request: Request[Any, Any, Any]) -> None:
    """Count a token that matches no member against the address that sent it."""
    counter = wrong_tokens(request)
    if counter is not None:
        counter.failed(client_address(request))


async def bounded_holder(request: Request[Any, Any, Any], store: Store, token: str) -> Member | None:
    """`holder` of a token of any campaign (a join link, a page cookie), with wrong tokens counted against the
    sender's address and refused with 429 once it is over its bound (service/http/guesses.py)."""
    found = throttle(request, store, token)
    if found is not None:
        return found
    found = await holder(store, token)
    if found is None:
        count_wrong(request)
    return found


async def member(request: Request[Any, Any, Any], store: Store, campaign_id: uuid.UUID) -> Member:
    """The member of this campaign holding the request's token; 401 without a valid token, 404 for a foreign one,
    429 from an address that sent too many wrong tokens (service/http/guesses.py)."""
    token = presented_token(request, campaign_id)
    found = throttle(request, store, token, campaign_id)
    if found is not None:
        return found
    # Looked up with the campaign of the path, so under Citus the look-up goes to that campaign's shard.
    found = await holder(store, token, campaign_id)
    if found is None:
        if await holder(store, token) is not None:
            raise not_found(campaign_id)  # a valid token of another campaign: the same 404 as no campaign at all
        count_wrong(request)
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


async def asking(request: Request[Any, Any, Any], store: EventStore, campaign: FromPath[str]) -> Member:
    """The `member` dependency: the member asking, refused unless their role may do what the route's `opt` says."""
    found = await member(request, store, campaign_id_of(campaign))
    if found.role == DISPLAY and request.method not in _SAFE_METHODS:
        doing = request.route_handler.opt.get("doing", "change anything in it")
        raise Problem(
            403,
            f"{found.name} is this campaign's table display: its link only shows the game, so it cannot {doing}.",
            kind="read-only",
        )
    roles = request.route_handler.opt.get("roles")
    if roles is not None:
        require(found, roles, request.route_handler.opt["doing"])
    return found


def campaign_of(member: Asking) -> uuid.UUID:
    """The `campaign_id` dependency: the asking member's campaign, the one in the path."""
    return member.campaign_id


# A chain, store -> member -> campaign_id, not a tree: Litestar resolves dependencies that do not depend on each
# other concurrently, in an anyio task group with a task each, which cost more per request than the work they do.
DEPENDENCIES = {
    "store": Provide(store_of, sync_to_thread=False),
    "member": Provide(asking),
    "campaign_id": Provide(campaign_of, sync_to_thread=False),
}
