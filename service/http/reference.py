"""The reference of every event type, read from the types themselves: what `GET /v1/games/{game}/event-types`
answers and what the OpenAPI document's event union is built from. Nothing here is written twice."""

from __future__ import annotations

from collections.abc import Collection
from functools import cache
from typing import Any

from quartermaster.events.base import Event, description, rulebook, summary
from quartermaster.projections.registry import GAME_IDS, event_types, game
from quartermaster.service.application import catalog
from quartermaster.service.http.openapi import inline

FILLED = "Filled in by the server from the catalogue when left out; sent, it must agree with the catalogue."


def data_schema(event_type: type[Event], filled: Collection[str] = ()) -> dict[str, Any]:
    """The JSON schema of an event's `data` as a client sends it: its fields, without the `type` tag that travels
    beside it; the `filled` fields, which the catalogue determines, are not required."""
    schema = inline(event_type)
    schema["properties"] = {k: v for k, v in schema.get("properties", {}).items() if k != "type"}
    for name in filled:
        field = schema["properties"].get(name)
        if field is not None:
            said = field.get("description")
            schema["properties"][name] = {**field, "description": f"{said} {FILLED}" if said else FILLED}
    if "required" in schema:
        schema["required"] = [name for name in schema["required"] if name != "type" and name not in filled]
        if not schema["required"]:
            del schema["required"]
    schema["additionalProperties"] = False
    if event_type.EXAMPLES:
        schema["examples"] = list(event_type.EXAMPLES)
    return schema


def views_changed(game_id: str, event_type: type[Event]) -> list[str]:
    """The game's views this event changes, from the type's `VIEWS` ("*" for every view)."""
    views = list(game(game_id).views)
    declared = event_type.VIEWS
    return views if "*" in declared else [name for name in declared if name in views]


@cache
def event_types_of(game_id: str) -> list[dict[str, Any]]:
    """Every event type of a game, with its description, schema, examples, who appends it and what it changes."""
    return [
        {
            "type": tag,
            "summary": summary(event_type),
            "description": description(event_type),
            "rulebook": rulebook(event_type),
            "schema": data_schema(event_type, catalog.filled(game_id).get(tag, ())),
            "examples": list(event_type.EXAMPLES),
            "appended_by": list(event_type.APPENDED_BY),
            "written_by": event_type.WRITTEN_BY,
            "views": views_changed(game_id, event_type),
        }
        for tag, event_type in event_types(game_id).items()
    ]


def games() -> list[dict[str, Any]]:
    """The games this service tracks, with where to read more about each."""
    return [
        {
            "id": game_id,
            "title": game(game_id).title,
            "views": list(game(game_id).views),
            "event_types": f"/v1/games/{game_id}/event-types",
            "catalog": f"/v1/catalog/{game_id}",
        }
        for game_id in GAME_IDS
    ]


__all__ = ["data_schema", "event_types_of", "games", "views_changed"]
