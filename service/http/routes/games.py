"""The games Quartermaster tracks and every event type each accepts; public, no token needed."""

from __future__ import annotations

from typing import Any

from litestar import get
from litestar.params import FromPath

from quartermaster.projections.registry import UnknownGame, game
from quartermaster.service.http import reference
from quartermaster.service.http.problems import Problem


@get("/v1/games", summary="The games this service tracks")
async def list_games() -> dict[str, Any]:
    return {"games": reference.games()}


@get(
    "/v1/games/{game_id:str}/event-types",
    summary="Every event type a game accepts: description, schema, "
    "examples, who may append it and which views it changes",
)
async def list_event_types(game_id: FromPath[str]) -> dict[str, Any]:
    try:
        chosen = game(game_id)
    except UnknownGame as error:
        raise Problem(404, str(error), kind="unknown-game") from None
    return {"game": chosen.id, "title": chosen.title, "event_types": reference.event_types_of(chosen.id)}


ROUTES = [list_games, list_event_types]
