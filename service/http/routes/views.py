"""State views: the whole state of a campaign's fold, and each named view of its game, at any position."""

from __future__ import annotations

import uuid
from typing import Any

from litestar import get
from litestar.params import FromPath, Parameter

from quartermaster.projections.game import Game
from quartermaster.service.http.auth import Asking, CampaignId, EventStore
from quartermaster.service.http.conventions import CONDITIONAL
from quartermaster.service.http.problems import Problem
from quartermaster.service.http.replica import SEEN, reading
from quartermaster.service.http.requests import AnyRequest
from quartermaster.service.store import Store

AT = Parameter(default=None, description="Answer the state right after this position (default: now).")


async def _state(store: Store, campaign_id: uuid.UUID, at: int | None) -> tuple[Game[Any], int, Any]:
    if at is not None and at < 0:
        raise Problem(422, f"`at` must be a position, 0 or more; {at} is not.", kind="bad-position")
    game = await store.game_of(campaign_id)
    position, state = await store.state_at(campaign_id, game, at)
    return game, position, state


async def _view(store: Store, campaign_id: uuid.UUID, name: str, at: int | None, **params: str) -> dict[str, Any]:
    game, position, state = await _state(store, campaign_id, at)
    view = game.views.get(name)
    if view is None:
        known = ", ".join(sorted(game.views)) or "none"
        raise Problem(404, f"{game.title} has no view named {name!r}; it has {known}.", kind="unknown-view")
    if state is None:
        raise Problem(404, f"Nothing had happened yet at position {position}.", kind="no-state")
    try:
        answer = view.read(state, **params)
    except KeyError as missing:
        detail = str(missing.args[0]) if missing.args else f"Not found: {params}."
        raise Problem(404, detail, kind="not-found") from None
    except TypeError:
        wanted = ", ".join(params) or "none"
        detail = f"The view {name!r} was given the wrong parameters ({wanted})."
        raise Problem(422, detail, kind="bad-view-parameters") from None
    return {"position": position, name: answer}


@get("/v1/campaigns/{campaign:str}/state", summary="The whole state of the campaign's fold", middleware=[CONDITIONAL])
async def whole_state(
    request: AnyRequest,
    store: EventStore,
    campaign_id: CampaignId,
    member: Asking,
    at: int | None = AT,
    seen: int | None = SEEN,
) -> dict[str, Any]:
    # With a replica, from it when it has reached `at` or what the caller has seen (service/http/replica.py).
    chosen, source = await reading(request, store, campaign_id, seen=seen, at=at)
    _, position, state = await _state(chosen, campaign_id, at)
    answer = {"position": position, "state": state}
    return answer | {"source": source} if request.app.state.get("replica") else answer


@get(
    "/v1/campaigns/{campaign:str}/views/{name:str}",
    summary="Any named view of the game; extra query parameters "
    "are passed to it (for example `?character_id=merisiel`)",
    middleware=[CONDITIONAL],
)
async def any_view(
    request: AnyRequest,
    store: EventStore,
    campaign_id: CampaignId,
    member: Asking,
    name: FromPath[str],
    at: int | None = AT,
) -> dict[str, Any]:
    params = {k: v for k, v in request.query_params.items() if k != "at"}
    return await _view(store, campaign_id, name, at, **params)


@get(
    "/v1/campaigns/{campaign:str}/characters/{character_id:str}",
    summary="A character: deck, zones, feats, role",
    middleware=[CONDITIONAL],
)
async def character(
    store: EventStore, campaign_id: CampaignId, member: Asking, character_id: FromPath[str], at: int | None = AT
) -> dict[str, Any]:
    return await _view(store, campaign_id, "character", at, character_id=character_id)


@get(
    "/v1/campaigns/{campaign:str}/pirates/{pirate_id:str}", summary="A pirate's record sheet", middleware=[CONDITIONAL]
)
async def pirate(
    store: EventStore, campaign_id: CampaignId, member: Asking, pirate_id: FromPath[str], at: int | None = AT
) -> dict[str, Any]:
    return await _view(store, campaign_id, "pirate", at, pirate_id=pirate_id)


def _named(name: str, summary: str) -> Any:
    @get(f"/v1/campaigns/{{campaign:str}}/{name}", summary=summary, name=f"view-{name}", middleware=[CONDITIONAL])
    async def handler(
        store: EventStore, campaign_id: CampaignId, member: Asking, at: int | None = AT
    ) -> dict[str, Any]:
        return await _view(store, campaign_id, name, at)

    return handler


ROUTES = [
    whole_state,
    any_view,
    character,
    pirate,
    _named("fleet", "The fleet: checked ships, the current ship, wrecked, anchored, plunder"),
    _named("vault", "The vault: copies by card and by type, face-down copies out of the box"),
    _named("scenario", "The scenario: hourglass, locations open or closed, who is where"),
    _named(
        "turn",
        "The turn in progress: whose it is, the step it has reached, the encounter, and what the rules allow now",
    ),
    _named("pirates", "Every pirate's record sheet"),
    _named("ship", "The captain and the ship"),
    _named("ledger", "The Crew's Booty ledger: where each coin came from and went"),
    _named("chapter", "The current chapter and phase"),
    _named("recorded", "The group's own scenario cards and product lists, as it recorded them"),
    _named("cards", "The group's own Character Cards, by archetype, as it recorded them"),
]
