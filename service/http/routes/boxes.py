"""The pull list of a campaign, and the shared box its owner names: routes/ over service/application/boxes.py."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Response, delete, get, put
from litestar.params import QueryParameter

from quartermaster.service.application import boxes
from quartermaster.service.http.auth import OWNER, Asking, CampaignId, EventStore, may
from quartermaster.service.http.openapi import body
from quartermaster.service.http.problems import Problem
from quartermaster.service.http.requests import AnyRequest, decode
from quartermaster.service.store.boxes import UnknownBox

BoxName = Annotated[str, msgspec.Meta(min_length=1, max_length=80, description="The owner's name for the box.")]
BoxKey = Annotated[
    str,
    msgspec.Meta(
        pattern="^box_[0-9a-f]{32}$",
        description="The key of a box another campaign already shares (its owner reads it from that campaign's box).",
    ),
]


class BoxNaming(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The box this campaign's cards come from: a name, and the key of a box other campaigns share, to join it."""

    name: BoxName
    key: BoxKey | None = None


def _text(request: AnyRequest) -> bool:
    return "text/plain" in request.headers.get("accept", "")


@get(
    "/v1/campaigns/{campaign:str}/pull-list",
    summary="The pull list: before a session, the cards to take out of the box for each character's deck as "
    "logged, and the characters set aside. Plain text to print with `Accept: text/plain`",
)
async def pull_list(
    request: AnyRequest,
    store: EventStore,
    campaign_id: CampaignId,
    member: Asking,
    at: Annotated[int | None, QueryParameter(description="The position (default: now).")] = None,
) -> Any:
    if at is not None and at < 0:
        raise Problem(422, f"`at` must be a position, 0 or more; {at} is not.", kind="bad-position")
    found = await store.campaign(campaign_id)
    game = await store.game_of(campaign_id)
    view = game.views.get(boxes.PULL_LIST)
    if view is None:
        raise Problem(404, f"{game.title} keeps no character decks, so it has no pull list.", kind="no-pull-list")
    position, state = await store.state_at(campaign_id, game, at)
    if state is None:
        raise Problem(404, f"Nothing had happened yet at position {position}.", kind="no-state")
    pull = view.read(state)
    if _text(request):
        return Response(boxes.pull_list_text(found.name, position, pull), media_type="text/plain")
    return {"campaign": found.name, "position": position, "pull_list": pull}


@get(
    "/v1/campaigns/{campaign:str}/box",
    summary="The box this campaign's cards come from (owner only): each campaign sharing it, by title, with the cards "
    "it has out, and the cards two campaigns' decks want at once beyond the copies the box holds",
    opt=may("see the box its cards come from", OWNER),
)
async def shared_box(store: EventStore, campaign_id: CampaignId, member: Asking) -> dict[str, Any]:
    box = await store.boxes.box_of(campaign_id)
    if box is None:
        found = await store.campaign(campaign_id)
        raise Problem(404, f"{found.name} has no box named yet: name one with PUT on this address.", kind="no-box")
    return await boxes.box_view(store, campaign_id, box)


@put(
    "/v1/campaigns/{campaign:str}/box",
    summary="Name the box this campaign's cards come from (owner only); with the key of a box another campaign "
    "shares, join it",
    operation_class=body(BoxNaming),
    opt=may("name the box its cards come from", OWNER),
)
async def name_box(request: AnyRequest, store: EventStore, campaign_id: CampaignId, member: Asking) -> dict[str, Any]:
    naming = decode(await request.body(), BoxNaming)
    try:
        box = await store.boxes.name_box(campaign_id, naming.name, naming.key)
    except UnknownBox:
        raise Problem(
            422,
            "No campaign shares a box with that key: ask the owner of a campaign using the box for its key.",
            kind="unknown-box",
        ) from None
    return await boxes.box_view(store, campaign_id, box)


@delete(
    "/v1/campaigns/{campaign:str}/box",
    summary="This campaign no longer shares a box (owner only); the other campaigns keep theirs",
    opt=may("change the box its cards come from", OWNER),
    status_code=200,
)
async def leave_box(store: EventStore, campaign_id: CampaignId, member: Asking) -> dict[str, Any]:
    return {"left": await store.boxes.leave_box(campaign_id)}


ROUTES = [pull_list, shared_box, name_box, leave_box]
