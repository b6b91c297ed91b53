"""Appending to the log and reading it back."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from litestar import Response, get, post
from litestar.params import QueryParameter

from quartermaster.projections.game import Game
from quartermaster.service.application.narration import narrate
from quartermaster.service.http.auth import Asking, CampaignId, EventStore, Member, may
from quartermaster.service.http.conventions import CONDITIONAL
from quartermaster.service.http.intake import prepare
from quartermaster.service.http.openapi import body
from quartermaster.service.http.problems import Problem
from quartermaster.service.http.replica import SEEN, reached, reading
from quartermaster.service.http.requests import AnyRequest, AppendRequest, decode
from quartermaster.service.store import Appended, Store

MAX_PAGE = 1000


def appended_body(appended: Appended) -> dict[str, Any]:
    return {
        "batch": appended.batch,
        "first_position": appended.first_position,
        "last_position": appended.last_position,
        "events": appended.events,
    }


def appended_answer(content: dict[str, Any], appended: Appended) -> Response[dict[str, Any]]:
    """The answer to an append, encoded by Litestar's own response path (msgspec: everything in it is a type msgspec
    encodes natively). A retry answered from the log wrote nothing: 200 rather than 201 says so."""
    return Response(content, status_code=200 if appended.replayed else 201)


async def may_override(store: Store, campaign_id: uuid.UUID, game: Game[Any], member: Member) -> None:
    """Refuse a player's override unless the campaign's options let players override (the option is fixed when the
    campaign starts, so the state read here cannot change before the append)."""
    _, state = await store.projection(campaign_id, game)
    if not game.players_may_override(state):
        raise Problem(
            403,
            f"{member.name} is a {member.role} of this campaign and cannot log an event against the rules: only the "
            'owner may, unless the campaign started with the option `overrides` set to "players". '
            "Nothing was written.",
            kind="forbidden",
        )


@post(
    "/v1/campaigns/{campaign:str}/events",
    summary="Append a batch of events",
    status_code=201,
    operation_class=body(AppendRequest),
    opt=may("add to the log"),
)
async def append_events(
    request: AnyRequest, store: EventStore, campaign_id: CampaignId, member: Asking
) -> Response[Any]:
    body = decode(await request.body(), AppendRequest)
    game = await store.game_of(campaign_id)
    batch = prepare(game.id, body.events)
    if member.role != "owner" and any(p.override is not None for p in batch):
        await may_override(store, campaign_id, game, member)
    appended = await store.append(
        campaign_id, batch, actor=member.actor, expected_position=body.expected_position, game=game
    )
    return appended_answer(appended_body(appended), appended)


@get("/v1/campaigns/{campaign:str}/events", summary="Read the log, a page at a time", middleware=[CONDITIONAL])
async def read_events(
    store: EventStore,
    campaign_id: CampaignId,
    member: Asking,
    request: AnyRequest,
    after: Annotated[int, QueryParameter(description="Only events after this position.")] = 0,
    limit: Annotated[int, QueryParameter(description=f"At most this many events (1 to {MAX_PAGE}).")] = 100,
    type: Annotated[list[str] | None, QueryParameter(description="Only events of these types.")] = None,
    character: Annotated[str | None, QueryParameter(description="Only events concerning this character.")] = None,
    member_id: Annotated[
        str | None, QueryParameter(name="member", description="Only events this member appended.")
    ] = None,
    scenario: Annotated[
        str | None,
        QueryParameter(
            description="Only events of this scenario (Skull & Shackles) or chapter number (Skull Tales), every time "
            "it was played."
        ),
    ] = None,
    seen: int | None = SEEN,
) -> dict[str, Any]:
    if after < 0:
        raise Problem(422, f"`after` must be a position, 0 or more; {after} is not.", kind="bad-cursor")
    if not 1 <= limit <= MAX_PAGE:
        raise Problem(422, f"`limit` must be between 1 and {MAX_PAGE}; {limit} is not.", kind="bad-limit")
    game = await store.game_of(campaign_id)
    if scenario is not None and game.episodes is None:
        raise Problem(422, f"{game.title} has no scenarios to filter by.", kind="bad-filter")
    # With a replica, from it when the caller says what it has seen and the replica has reached that and the page's
    # start (service/http/replica.py).
    store, source = await reading(request, store, campaign_id, seen=seen, at=after if seen is not None else None)
    reflected = await reached(store, campaign_id) if request.app.state.get("replica") else None
    page = await store.history(
        campaign_id,
        after=after,
        limit=limit,
        types=type or (),
        character=character,
        actor=member_id,
        episode=scenario,
        game=game,
    )
    answer: dict[str, Any] = {
        "events": await narrate(store, campaign_id, game, page),
        "next": page[-1].position if len(page) == limit else None,
    }
    if reflected is not None:  # a replica is configured: say which server answered, and where its log ended
        answer |= {"source": source, "position": reflected}
    return answer


ROUTES = [append_events, read_events]
