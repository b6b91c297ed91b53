"""State views: the whole state of a campaign's fold, and each named view of its game, at any position."""

from __future__ import annotations

from typing import Any

from litestar import Request, get
from litestar.params import FromPath, Parameter

from service.auth import campaign_id_of, member, not_found
from service.problems import Problem
from service.routes.campaigns import store_of
from service.store import CampaignNotFound

AT = Parameter(default=None, description="Answer the state right after this position (default: now).")


async def _state(request: Request, campaign: FromPath[str], at: int | None) -> tuple[Any, int, Any]:
    campaign_id = campaign_id_of(campaign)
    store = store_of(request)
    await member(request, store, campaign_id)
    if at is not None and at < 0:
        raise Problem(422, f"`at` must be a position, 0 or more; {at} is not.", kind="bad-position")
    try:
        game = await store.game_of(campaign_id)
    except CampaignNotFound:
        raise not_found(campaign_id) from None
    position, state = await store.state_at(campaign_id, game, at)
    return game, position, state


async def _view(
    request: Request, campaign: FromPath[str], name: FromPath[str], at: int | None, **params: str
) -> dict[str, Any]:
    game, position, state = await _state(request, campaign, at)
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


@get("/v1/campaigns/{campaign:str}/state", summary="The whole state of the campaign's fold")
async def whole_state(request: Request, campaign: FromPath[str], at: int | None = AT) -> dict[str, Any]:
    _, position, state = await _state(request, campaign, at)
    return {"position": position, "state": state}


@get("/v1/campaigns/{campaign:str}/views/{name:str}", summary="Any named view of the game; extra query parameters "
     "are passed to it (for example `?character_id=merisiel`)")
async def any_view(
    request: Request, campaign: FromPath[str], name: FromPath[str], at: int | None = AT
) -> dict[str, Any]:
    params = {k: v for k, v in request.query_params.items() if k != "at"}
    return await _view(request, campaign, name, at, **params)


@get("/v1/campaigns/{campaign:str}/characters/{character_id:str}", summary="A character: deck, zones, feats, role")
async def character(
    request: Request, campaign: FromPath[str], character_id: FromPath[str], at: int | None = AT
) -> dict[str, Any]:
    return await _view(request, campaign, "character", at, character_id=character_id)


@get("/v1/campaigns/{campaign:str}/pirates/{pirate_id:str}", summary="A pirate's record sheet")
async def pirate(
    request: Request, campaign: FromPath[str], pirate_id: FromPath[str], at: int | None = AT
) -> dict[str, Any]:
    return await _view(request, campaign, "pirate", at, pirate_id=pirate_id)


def _named(name: str, summary: str) -> Any:
    @get(f"/v1/campaigns/{{campaign:str}}/{name}", summary=summary, name=f"view-{name}")
    async def handler(request: Request, campaign: FromPath[str], at: int | None = AT) -> dict[str, Any]:
        return await _view(request, campaign, name, at)

    return handler


ROUTES = [
    whole_state, any_view, character, pirate,
    _named("fleet", "The fleet: checked ships, the current ship, wrecked, anchored, plunder"),
    _named("vault", "The vault: copies by card and by type, face-down copies out of the box"),
    _named("scenario", "The scenario: hourglass, locations open or closed, who is where"),
    _named("pirates", "Every pirate's record sheet"),
    _named("ship", "The captain and the ship"),
    _named("ledger", "The Crew's Booty ledger: where each coin came from and went"),
    _named("chapter", "The current chapter and phase"),
]
