"""Creating campaigns, reading their summary, adding members, giving one a new join link, revoking one."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import msgspec
from litestar import Response, delete, get, post
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath

from quartermaster.events.campaign import CampaignStarted, MemberJoined
from quartermaster.projections.game import BatchRejected, Game
from quartermaster.projections.registry import UnknownGame, game as game_by_id
from quartermaster.service.application import catalog
from quartermaster.service.http import limits
from quartermaster.service.http.auth import OWNER, Asking, CampaignId, EventStore, may, store_of
from quartermaster.service.http.idempotency import HEADER_PARAMETER, keyed
from quartermaster.service.http.intake import prepared_event
from quartermaster.service.http.openapi import body
from quartermaster.service.http.problems import Problem
from quartermaster.service.http.requests import AnyRequest, NewCampaign, NewMember, decode
from quartermaster.service.platform import tokens
from quartermaster.service.store import PreparedEvent

__all__ = ["ROUTES", "store_of"]


def _invalid_options(rejected: BatchRejected) -> Problem:
    return Problem(
        422,
        f"These campaign options cannot be used: {rejected.errors[0][1]}",
        kind="invalid-options",
        errors=[{"index": i, "reason": r} for i, r in rejected.errors],
    )


def _opening(new: NewCampaign, owner_id: uuid.UUID) -> tuple[Game[Any], list[PreparedEvent]]:
    """The campaign's game and its first two events, its rule options expanded from the catalogue."""
    try:
        game = game_by_id(new.game)
    except UnknownGame as error:
        raise Problem(422, str(error), kind="unknown-game") from None
    try:
        # Rule options may name catalogue entries (a Skull Tales setting); the log keeps them expanded.
        started = catalog.expand(
            game.id, "campaign.started", {"name": new.name, "game": new.game, "options": new.options}
        )
    except catalog.CatalogError as error:
        raise Problem(422, f"These campaign options cannot be used: {error}", kind="invalid-options") from None
    return game, [
        prepared_event(CampaignStarted(name=new.name, game=new.game, options=started["options"])),
        prepared_event(MemberJoined(member_id=str(owner_id), name=new.owner_name, role="owner")),
    ]


@post(
    "/v1/campaigns",
    summary="Start a campaign",
    description="Answers the owner's token, shown only this once.",
    operation_class=body(NewCampaign),
    opt={"refusal": _invalid_options},
    middleware=[limits.PER_CLIENT],
)
async def create_campaign(request: AnyRequest, store: EventStore) -> dict[str, Any]:
    new = decode(await request.body(), NewCampaign)
    campaign_id, owner_id = uuid.uuid4(), uuid.uuid4()
    game, start = _opening(new, owner_id)
    token, token_hash = tokens.new_token(owner_id)
    appended = await store.create_campaign(
        campaign_id=campaign_id,
        game=game,
        name=new.name,
        options=new.options,
        owner_id=owner_id,
        owner_name=new.owner_name,
        token_hash=token_hash,
        start=start,
    )
    return {
        "id": str(campaign_id),
        "name": new.name,
        "game": new.game,
        "position": appended.last_position,
        "member_id": str(owner_id),
        "token": token,
    }


@get("/v1/campaigns/{campaign:str}", summary="A campaign's summary")
async def read_campaign(store: EventStore, campaign_id: CampaignId, member: Asking) -> dict[str, Any]:
    found = await store.campaign(campaign_id)
    members = await store.members(campaign_id)
    return {
        "id": str(found.id),
        "name": found.name,
        "game": found.game,
        "position": found.position,
        "created_at": found.created_at,
        "members": [
            {"member_id": str(m), "name": n, "role": r, "joined_at": t, "revoked_at": gone}
            for m, n, r, t, gone in members
        ],
    }


@post(
    "/v1/campaigns/{campaign:str}/members",
    summary="Add a member (owner only)",
    operation_class=body(NewMember, headers=[HEADER_PARAMETER]),
    opt=may("add members", OWNER),
)
async def add_member(request: AnyRequest, store: EventStore, campaign_id: CampaignId, member: Asking) -> Response[Any]:
    new = decode(await request.body(), NewMember)
    member_id = uuid.uuid4()
    token, token_hash = tokens.new_token(member_id)
    joined = prepared_event(MemberJoined(member_id=str(member_id), name=new.name, role=new.role))
    appended = await store.add_member(
        campaign_id,
        member_id=member_id,
        name=new.name,
        role=new.role,
        token_hash=token_hash,
        joined=joined,
        actor=member.actor,
        keyed=await keyed(request, member.actor),
    )
    if appended.replayed:
        # Sent again with its Idempotency-Key: the member added the first time. Tokens are kept only as hashes, so
        # the one in the lost answer cannot be shown again; that member gets a new one instead.
        member_id = uuid.UUID(msgspec.json.decode(appended.events[0].data)["member_id"])
        token, token_hash = tokens.new_token(member_id)
        if not await store.replace_token(campaign_id, member_id, token_hash):
            raise _revoked(new.name, " since")
    return Response(
        {
            "member_id": str(member_id),
            "name": new.name,
            "role": new.role,
            "token": token,
            "position": appended.last_position,
        },
        status_code=200 if appended.replayed else 201,
    )


def _revoked(name: str, when: str = "") -> Problem:
    """A member revoked (`when`: " since" the request was first sent) gets no new token."""
    return Problem(
        409, f"{name} was revoked from this campaign{when}; add them again as a new member.", kind="member-revoked"
    )


class JoinLink(msgspec.Struct):
    """A member's new token: their join link is `/join#<token>`. Shown only this once."""

    member_id: str
    name: str
    role: str
    token: str


class RevokedMember(msgspec.Struct):
    """A member whose token is refused from now on, by every server process."""

    member_id: str
    name: str
    role: str
    revoked_at: datetime


async def _other_member(store: EventStore, campaign_id: uuid.UUID, member_id: str) -> tuple[uuid.UUID, str, str, Any]:
    """(id, name, role, revoked_at) of the campaign's member named in the path; 404 for one it does not have."""
    try:
        wanted = uuid.UUID(member_id)
    except ValueError:
        wanted = None
    for m, name, role, _, revoked_at in await store.members(campaign_id) if wanted is not None else ():
        if m == wanted:
            return m, name, role, revoked_at
    raise Problem(404, f"This campaign has no member {member_id}.", kind="member-not-found")


def _on_member(route: type[post | delete], under: str, summary: str, description: str, doing: str) -> HTTPRouteHandler:
    """A route of the owner's about another member, at the member's address and `under` it; answering 200."""
    return route(
        f"/v1/campaigns/{{campaign:str}}/members/{{member_id:str}}{under}",
        summary=summary,
        description=description,
        status_code=200,
        opt=may(doing, OWNER),
    )


_NEW_JOIN_LINK = (
    "For a lost or replaced phone: the member gets a new token, answered only this once, and their old one is "
    "refused by every server from its next request. Sent again, it gives yet another token (the one before it "
    "was only in the lost answer). A revoked member gets none: add them again as a new member."
)


@_on_member(post, "/token", "Give a member a new join link (owner only)", _NEW_JOIN_LINK, "give members new join links")
async def new_join_link(
    store: EventStore, campaign_id: CampaignId, member: Asking, member_id: FromPath[str]
) -> JoinLink:
    who, name, role, revoked_at = await _other_member(store, campaign_id, member_id)
    if revoked_at is not None:
        raise _revoked(name)
    token, token_hash = tokens.new_token(who)
    if not await store.replace_token(campaign_id, who, token_hash):
        raise _revoked(name)
    return JoinLink(member_id=str(who), name=name, role=role, token=token)


_REVOKE = (
    "The member's token is refused by every server from its next request, and no new one is ever issued for "
    "them; they stay in the member list (marked with `revoked_at`), since the log names them. Sent again, it "
    "answers the same."
)


@_on_member(delete, "", "Revoke a member (owner only)", _REVOKE, "revoke members")
async def revoke_member(
    store: EventStore, campaign_id: CampaignId, member: Asking, member_id: FromPath[str]
) -> RevokedMember:
    who, name, role, _ = await _other_member(store, campaign_id, member_id)
    if who == member.id:
        raise Problem(
            409,
            "You cannot revoke yourself: another owner can, or give this phone a new join link instead.",
            kind="revoke-self",
        )
    revoked_at = await store.revoke(campaign_id, who)
    if revoked_at is None:
        raise Problem(404, f"This campaign has no member {member_id}.", kind="member-not-found")
    return RevokedMember(member_id=str(who), name=name, role=role, revoked_at=revoked_at)


ROUTES = [create_campaign, read_campaign, add_member, new_join_link, revoke_member]


@get("/v1/catalog/{game_id:str}", summary="The catalogue a game expands names from")
async def read_catalog(game_id: FromPath[str]) -> Any:
    try:
        game_by_id(game_id)
    except UnknownGame as error:
        raise Problem(404, str(error), kind="unknown-game") from None
    return catalog.public(game_id)


ROUTES.append(read_catalog)
