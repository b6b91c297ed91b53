"""Who is asking: the member behind a bearer token, and what their role lets them do.

Handlers receive these through Litestar's dependencies (`DEPENDENCIES`, registered on the app): `store`, the
`campaign_id` of the path, and the `member` asking. A route that only some roles may call says so in its `opt`
(`opt=may("roll dice")`), and the `member` dependency refuses the others with a sentence naming what they tried.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from litestar import Request
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath

from service import tokens
from service.problems import Problem, not_found
from service.store import Store

ROLES_THAT_APPEND = frozenset({"owner", "player"})
OWNER = frozenset({"owner"})

__all__ = ["DEPENDENCIES", "OWNER", "ROLES_THAT_APPEND", "Asking", "CampaignId", "EventStore", "Member",
           "campaign_id_of", "may", "member", "not_found", "require", "store_of"]


@dataclass(frozen=True)
class Member:
    id: uuid.UUID
    campaign_id: uuid.UUID
    name: str
    role: str


# How a handler names what it receives: `store: EventStore, campaign_id: CampaignId, member: Asking`.
EventStore = NamedDependency[Store]
CampaignId = NamedDependency[uuid.UUID]
Asking = NamedDependency[Member]


def store_of(request: Request) -> Store:
    """The event store the app's lifespan opened."""
    store: Store = request.app.state.store
    return store


def campaign_id_of(campaign: FromPath[str]) -> uuid.UUID:
    """The campaign id in a path; one that is not a UUID is a campaign that does not exist."""
    try:
        return uuid.UUID(campaign)
    except ValueError:
        raise not_found(campaign) from None


async def member(request: Request, store: Store, campaign_id: uuid.UUID) -> Member:
    """The member of this campaign holding the request's token; 401 without a valid token, 404 for a foreign one."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(401, "This needs a member token: send `Authorization: Bearer <token>`.", kind="no-token")
    parsed = tokens.parse(token.strip())
    row = await store.member_credentials(parsed[0]) if parsed else None
    if parsed is None or row is None or not tokens.matches(parsed[1], row[3]):
        raise Problem(401, "This token is not valid: it may be mistyped, or it was never issued.", kind="bad-token")
    member_campaign, name, role, _ = row
    if member_campaign != campaign_id:
        raise not_found(campaign_id)
    return Member(id=parsed[0], campaign_id=campaign_id, name=name, role=role)


def require(member: Member, roles: frozenset[str], doing: str) -> None:
    if member.role not in roles:
        raise Problem(403, f"{member.name} is a {member.role} of this campaign and cannot {doing}.", kind="forbidden")


def may(doing: str, roles: frozenset[str] = ROLES_THAT_APPEND) -> dict[str, Any]:
    """A route's `opt`: only these roles may call it; a refusal says the member cannot do `doing`."""
    return {"doing": doing, "roles": roles}


async def _asking(request: Request, store: EventStore, campaign_id: CampaignId) -> Member:
    found = await member(request, store, campaign_id)
    roles = request.route_handler.opt.get("roles")
    if roles is not None:
        require(found, roles, request.route_handler.opt["doing"])
    return found


DEPENDENCIES = {
    "store": Provide(store_of, sync_to_thread=False),
    "campaign_id": Provide(campaign_id_of, sync_to_thread=False),
    "member": Provide(_asking),
}
