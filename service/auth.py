"""Who is asking: the member behind a bearer token, and what their role lets them do."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from litestar import Request

from service import tokens
from service.problems import Problem
from service.store import Store

ROLES_THAT_APPEND = frozenset({"owner", "player"})


@dataclass(frozen=True)
class Member:
    id: uuid.UUID
    campaign_id: uuid.UUID
    name: str
    role: str


def campaign_id_of(raw: str) -> uuid.UUID:
    """The campaign id in a path; one that is not a UUID is a campaign that does not exist."""
    try:
        return uuid.UUID(raw)
    except ValueError:
        raise not_found(raw) from None


def not_found(campaign: object) -> Problem:
    # The same answer for a campaign that does not exist and one the token does not belong to, so a token
    # cannot be used to discover which campaign ids exist.
    return Problem(404, f"There is no campaign {campaign} that this token can see.", kind="campaign-not-found")


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
