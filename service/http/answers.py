"""What each route answers, as types: the OpenAPI document's success schemas and their examples come from here.

The handlers build their answers as dicts (a few as Structs); these types say what those dicts hold, and the
document's schemas are msgspec's schemas of them, so a generated client gets a class per answer. The conformance
tests (tests/api/test_openapi_conformance.py) and the stock checks of tests/api/test_api_fuzz.py hold real answers to
them, so an answer that grows a field is caught until its type grows it too.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

import msgspec

Role = Literal["owner", "player", "viewer"]


class Health(msgspec.Struct):
    """The process answers."""

    status: Literal["ok"]


class Ready(msgspec.Struct):
    """The database answers and every migration is applied."""

    status: Literal["ready"]


class CampaignCreated(msgspec.Struct):
    """A new campaign and its owner's token, shown only this once."""

    id: uuid.UUID
    name: str
    game: str
    position: int
    member_id: uuid.UUID
    token: str


class Origin(msgspec.Struct):
    """The campaign a fork was made from, and the position it was forked at."""

    from_campaign: uuid.UUID
    from_name: str
    at: int


class Forked(msgspec.Struct):
    """A campaign forked from another, owned by the caller, with the caller's new token."""

    id: uuid.UUID
    name: str
    game: str
    position: int
    forked_from: Origin
    member_id: uuid.UUID
    token: str


class Membership(msgspec.Struct):
    """A member of a campaign; `revoked_at` is set once their token is refused for good."""

    member_id: uuid.UUID
    name: str
    role: Role
    joined_at: datetime
    revoked_at: datetime | None


class CampaignSummary(msgspec.Struct):
    """A campaign: its name, game, position in the log and members."""

    id: uuid.UUID
    name: str
    game: str
    position: int
    created_at: datetime
    members: list[Membership]


class MemberAdded(msgspec.Struct):
    """A new member's token, shown only this once; a retry with the same Idempotency-Key gives that member a new
    token (the first was only in the lost answer)."""

    member_id: uuid.UUID
    name: str
    role: Role
    token: str
    position: int


class Game(msgspec.Struct):
    """A game this service tracks, with where its event types and catalogue are read."""

    id: str
    title: str
    views: list[str]
    event_types: str
    catalog: str


class Games(msgspec.Struct):
    """The games this service tracks."""

    games: list[Game]


class EventType(msgspec.Struct):
    """One event type: its words, the JSON schema of its `data`, examples, who may append it, what it changes."""

    type: str
    summary: str
    description: str
    rulebook: str | None
    schema: dict[str, Any]
    examples: list[dict[str, Any]]
    appended_by: list[str]
    written_by: str | None
    views: list[str]


class EventTypes(msgspec.Struct):
    """Every event type a game accepts."""

    game: str
    title: str
    event_types: list[EventType]


# Examples, made once: each validates against its schema (tests/api/test_openapi_document.py).
CAMPAIGN = uuid.UUID("0f8fad5b-d9cb-469f-a165-70867728950e")
OWNER = uuid.UUID("7c9e6679-7425-40de-944b-e07fc1f90ae7")
PLAYER = uuid.UUID("e4d909c2-90d0-4b1b-bcb6-6a6f0a3f6b1a")
BATCH = uuid.UUID("16fd2706-8baf-433b-82eb-8c7fada847da")
EVENT = uuid.UUID("886313e1-3b8a-5372-9b90-0c9aee199e5d")
WHEN = "2026-06-12T19:31:07Z"
TOKEN = "qm_3f9a1c7be2d94e5b8f60a2c1d7e4b9aa"

EXAMPLES: dict[type, dict[str, Any]] = {
    Health: {"status": "ok"},
    Ready: {"status": "ready"},
    CampaignCreated: {
        "id": str(CAMPAIGN),
        "name": "The Wormwood Mutiny",
        "game": "pacg-skull-and-shackles",
        "position": 2,
        "member_id": str(OWNER),
        "token": TOKEN,
    },
    Forked: {
        "id": str(CAMPAIGN),
        "name": "The Wormwood Mutiny (forked at 40)",
        "game": "pacg-skull-and-shackles",
        "position": 42,
        "forked_from": {"from_campaign": str(PLAYER), "from_name": "The Wormwood Mutiny", "at": 40},
        "member_id": str(OWNER),
        "token": TOKEN,
    },
    CampaignSummary: {
        "id": str(CAMPAIGN),
        "name": "The Wormwood Mutiny",
        "game": "pacg-skull-and-shackles",
        "position": 3,
        "created_at": WHEN,
        "members": [
            {"member_id": str(OWNER), "name": "Owner", "role": "owner", "joined_at": WHEN, "revoked_at": None},
            {"member_id": str(PLAYER), "name": "Alba", "role": "player", "joined_at": WHEN, "revoked_at": None},
        ],
    },
    MemberAdded: {"member_id": str(PLAYER), "name": "Alba", "role": "player", "token": TOKEN, "position": 3},
}


def recorded_example(type_: str, data: dict[str, Any], position: int = 3) -> dict[str, Any]:
    """An event as the log holds it, for the examples of appends, undo, redo, rolls and history."""
    return {
        "position": position,
        "id": str(EVENT),
        "batch": str(BATCH),
        "type": type_,
        "schema_version": 1,
        "data": data,
        "actor": "Alba",
        "recorded_at": WHEN,
        "occurred_at": None,
        "undone_by": None,
        "override": None,
    }
