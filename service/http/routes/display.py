"""The table display's read: what a tablet or a TV in the middle of the table shows, in one answer."""

from __future__ import annotations

from typing import Any

from litestar import get

from quartermaster.service.application.display import LAST_ENTRIES, NoDisplay, TableDisplay, table_display
from quartermaster.service.http.auth import Asking, CampaignId, EventStore
from quartermaster.service.http.problems import Problem


@get(
    "/v1/campaigns/{campaign:str}/display",
    summary="The table display: whose turn, the locations and their cards left, the blessings left (Skull Tales: the "
    "chapter, its phase and each Pirate's Time Units), and the log's latest entries in sentences",
    description="What the shared screen at the table shows (the page at `/display`), read by any member, the "
    "read-only `display` member included. `table` is the game's part, read from the fold's views; `last` the log's "
    f"{LAST_ENTRIES} latest entries, newest last.",
)
async def read_display(store: EventStore, campaign_id: CampaignId, member: Asking) -> TableDisplay:
    try:
        return await table_display(store, campaign_id)
    except NoDisplay as error:
        raise Problem(404, str(error), kind="no-display") from None


ROUTES = [read_display]

_NAMES = {"type": "array", "items": {"type": "string"}}
_TEXT_OR_NULL = {"type": ["string", "null"]}
_PACG = {
    "title": "SkullAndShacklesDisplay",
    "type": "object",
    "description": "Skull & Shackles: the scenario, whose turn, the blessings left and each location's cards left.",
    "properties": {
        "scenario": _TEXT_OR_NULL,
        "adventure": _TEXT_OR_NULL,
        "turn": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "properties": {
                        "number": {"type": "integer"},
                        "character": {"type": "string"},
                        "location": _TEXT_OR_NULL,
                        "step": _TEXT_OR_NULL,
                    },
                    "required": ["number", "character", "location", "step"],
                },
            ]
        },
        "next": _NAMES,
        "blessings": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "left": {"type": "integer"}},
                    "required": ["name", "left"],
                },
            ]
        },
        "locations": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "status": {"type": "string", "enum": ["open", "closed", "temporarily closed"]},
                    "cards": {"type": "integer"},
                    "characters": _NAMES,
                },
                "required": ["name", "status", "cards", "characters"],
            },
        },
        "ended": _TEXT_OR_NULL,
        "completed": _NAMES,
    },
    "required": ["scenario", "adventure", "turn", "next", "blessings", "locations", "ended", "completed"],
}
_TALES = {
    "title": "SkullTalesDisplay",
    "type": "object",
    "description": "Skull Tales: the chapter and its phase, the Captain, each Pirate's Fame, Coins and (in the Port "
    "Phase) Time Units left, and what the chapter does next.",
    "properties": {
        "chapter": {"type": "integer"},
        "phase": {"type": ["string", "null"], "enum": ["adventure", "voyage", "port", None]},
        "phases": _NAMES,
        "phases_done": _NAMES,
        "captain": _TEXT_OR_NULL,
        "pirates": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "status": {"type": "string"},
                    "fame": {"type": "integer"},
                    "coins": {"type": "integer"},
                    "time_units": {"type": ["integer", "null"]},
                },
                "required": ["name", "status", "fame", "coins", "time_units"],
            },
        },
        "next": {"type": "object", "properties": {"action": {"type": "string"}}, "required": ["action"]},
    },
    "required": ["chapter", "phase", "phases", "phases_done", "captain", "pirates", "next"],
}
SCHEMA: dict[str, Any] = {
    "title": "TableDisplay",
    "type": "object",
    "description": TableDisplay.__doc__,
    "properties": {
        "campaign": {"type": "string", "description": "The campaign's name."},
        "game": {"type": "string"},
        "title": {"type": "string", "description": "The game's title."},
        "position": {"type": "integer"},
        "table": {"oneOf": [_PACG, _TALES]},
        "last": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "position": {"type": "integer"},
                    "sentence": {"type": "string"},
                    "undone": {"type": "boolean"},
                },
                "required": ["position", "sentence", "undone"],
            },
        },
    },
    "required": ["campaign", "game", "title", "position", "table", "last"],
}
EXAMPLE: dict[str, Any] = {
    "campaign": "Dangerous Waters",
    "game": "pacg-skull-and-shackles",
    "title": "Pathfinder Adventure Card Game: Skull & Shackles",
    "position": 81,
    "table": {
        "scenario": "Press Ganged!",
        "adventure": None,
        "turn": {"number": 3, "character": "Lirianne", "location": "Shipwreck", "step": "Explore"},
        "next": [],
        "blessings": {"name": "blessings deck", "left": 27},
        "locations": [
            {"name": "Shipwreck", "status": "open", "cards": 6, "characters": ["Lirianne"]},
            {"name": "Waterfront", "status": "closed", "cards": 0, "characters": ["Seltyiel"]},
        ],
        "ended": None,
        "completed": [],
    },
    "last": [
        {"position": 80, "sentence": "Lirianne explored Shipwreck and encountered a Pirate.", "undone": False},
        {"position": 81, "sentence": "Lirianne rolled Dexterity: d8=5 d8=6, total 11.", "undone": False},
    ],
}
