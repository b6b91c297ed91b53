"""What each route answers, as types: the OpenAPI document's success schemas and their examples come from here.

The handlers build their answers as dicts (a few as Structs); these types say what those dicts hold, and the
document's schemas are msgspec's schemas of them, so a generated client gets a class per answer. The conformance
tests (tests/api/test_openapi_conformance.py) and the stock checks of tests/api/test_api_fuzz.py hold real answers to
them, so an answer that grows a field is caught until its type grows it too.
"""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime
from functools import cache
from typing import Any, Literal

import msgspec

from quartermaster.projections.dice_stats import dice_stats
from quartermaster.projections.registry import GAME_IDS, game
from quartermaster.service.application.export import EventRow, ExportHeader, export_lines
from quartermaster.service.http import paperwork, reference
from quartermaster.service.http.routes import display

Role = Literal["owner", "player", "viewer", "display"]


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
CAMPAIGN_ID = uuid.UUID("0f8fad5b-d9cb-469f-a165-70867728950e")
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
        "id": str(CAMPAIGN_ID),
        "name": "The Wormwood Mutiny",
        "game": "pacg-skull-and-shackles",
        "position": 2,
        "member_id": str(OWNER),
        "token": TOKEN,
    },
    Forked: {
        "id": str(CAMPAIGN_ID),
        "name": "The Wormwood Mutiny (forked at 40)",
        "game": "pacg-skull-and-shackles",
        "position": 42,
        "forked_from": {"from_campaign": str(PLAYER), "from_name": "The Wormwood Mutiny", "at": 40},
        "member_id": str(OWNER),
        "token": TOKEN,
    },
    CampaignSummary: {
        "id": str(CAMPAIGN_ID),
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


REF = "#/components/schemas/{name}"
APPEND = "/v1/campaigns/{campaign}/events"
CAMPAIGN = "/v1/campaigns/{campaign}"


def class_name(name: str) -> str:
    """A name as generators name its class: `skull-tales-full-sail.note.added` as `SkullTalesFullSailNoteAdded`."""
    return "".join(word[:1].upper() + word[1:] for word in re.split(r"[^A-Za-z0-9]+", name) if word)


def json_answer(
    schema: dict[str, Any], meaning: str, example: Any, headers: dict[str, Any] | None = None
) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "description": meaning,
        "content": {"application/json": {"schema": schema, "example": example}},
    }
    if headers:
        answer["headers"] = headers
    return answer


def ref(name: str) -> dict[str, Any]:
    return {"$ref": REF.format(name=name)}


def _view_answer(name: str, example: Any) -> dict[str, Any]:
    """A view's answer: `position`, and the view under its own name. A view is a mapping the game's projections
    build, its parts named as its example on a campaign just started shows them (a client reads `fleet.checked`);
    their shapes are the projections' to change, so the parts are not typed further and none is required."""
    if isinstance(example, list):
        view: dict[str, Any] = {"type": "array", "items": {"type": "object"}}
    else:
        view = {"type": "object", "additionalProperties": True}
        if example:
            view["properties"] = {part: {} for part in example}
    schema = {
        "title": f"{class_name(name)}View",
        "type": "object",
        "description": f"The view `{name}` right after `position`.",
        "properties": {"position": {"type": "integer"}, name: view},
        "required": ["position", name],
    }
    return json_answer(schema, f"The view `{name}` right after `position`.", {"position": 12, name: example})


def _view_examples() -> dict[str, Any]:
    """Each view as it reads on a campaign just started (the views of one character or pirate, on none: `{}`)."""
    found: dict[str, Any] = {}
    for game_id in GAME_IDS:
        chosen = game(game_id)
        state = chosen.initial({})
        for name, view in chosen.views.items():
            try:
                found[name] = msgspec.to_builtins(view.read(state))
            except TypeError:
                found[name] = {}
    return found


@cache
def successes() -> dict[tuple[str, str], dict[str, Any]]:
    """Each operation's success answers, typed, with an example."""
    ex = EXAMPLES
    recorded = recorded_example("note.added", {"text": "We misread the Raker Shoals rule here."})
    appended = {"batch": str(BATCH), "first_position": 3, "last_position": 3, "events": [recorded]}
    marker = recorded_example("event.undone", {"targets": [3], "reason": "A misread rule."}, position=4)
    undone = {**appended, "first_position": 4, "last_position": 4, "events": [marker], "undone": [3], "position": 4}
    redo_marker = recorded_example("event.redone", {"targets": [3], "reason": None}, position=5)
    redone = {
        **appended,
        "first_position": 5,
        "last_position": 5,
        "events": [redo_marker],
        "redone": [3],
        "position": 5,
    }
    rolled_event = recorded_example(
        "dice.rolled",
        {"purpose": "check", "dice": [{"sides": 12, "face": 9}], "modifier": 2, "total": 11, "source": "server"},
    )
    rolled = {**appended, "events": [rolled_event], "roll": rolled_event}
    told = {**recorded, "sentence": "Alba noted: We misread the Raker Shoals rule here."}
    state_example = {"position": 2, "state": msgspec.to_builtins(game(GAME_IDS[0]).initial({}))}
    views = _view_examples()
    games_example = {"games": reference.games()}
    event_types_example = {
        "game": GAME_IDS[0],
        "title": game(GAME_IDS[0]).title,
        "event_types": reference.event_types_of(GAME_IDS[0])[:1],
    }
    retry = "A retry with the same Idempotency-Key: answered from the log, nothing written again."
    out: dict[tuple[str, str], dict[str, Any]] = {
        ("get", "/healthz"): {"200": json_answer(ref("Health"), "The process ", ex[Health])},
        ("get", "/readyz"): {"200": json_answer(ref("Ready"), "Ready to serve.", ex[Ready])},
        ("post", "/v1/campaigns"): {
            "201": json_answer(ref("CampaignCreated"), "The campaign and its owner's token.", ex[CampaignCreated])
        },
        ("get", CAMPAIGN): {"200": json_answer(ref("CampaignSummary"), "The campaign's summary.", ex[CampaignSummary])},
        ("post", f"{CAMPAIGN}/members"): {
            "201": json_answer(ref("MemberAdded"), "The new member and their token.", ex[MemberAdded]),
            "200": json_answer(ref("MemberAdded"), retry + " The member gets a new token.", ex[MemberAdded]),
        },
        ("post", f"{CAMPAIGN}/members/{{member_id}}/token"): {
            "200": json_answer(
                ref("JoinLink"),
                "The member's new token.",
                {k: v for k, v in ex[MemberAdded].items() if k != "position"},
            )
        },
        ("delete", f"{CAMPAIGN}/members/{{member_id}}"): {
            "200": json_answer(
                ref("RevokedMember"),
                "The member revoked.",
                {"member_id": str(PLAYER), "name": "Alba", "role": "player", "revoked_at": WHEN},
            )
        },
        ("get", APPEND): {
            "200": json_answer(
                ref("History"),
                "A page of the log, oldest first, each event with its sentence.",
                {"events": [told], "next": None},
            )
        },
        ("post", APPEND): {
            "201": json_answer(ref("Appended"), "The batch was appended: its positions and events.", appended),
            "200": json_answer(
                ref("Appended"),
                "A retry of a batch already appended with these event ids: answered from the log, nothing written.",
                appended,
            ),
        },
        ("post", f"{CAMPAIGN}/undo"): {
            "201": json_answer(ref("Undone"), "The batch was undone.", undone),
            "200": json_answer(ref("Undone"), retry, undone),
        },
        ("post", f"{CAMPAIGN}/redo"): {
            "201": json_answer(ref("Redone"), "The batch was redone.", redone),
            "200": json_answer(ref("Redone"), retry, redone),
        },
        ("post", f"{CAMPAIGN}/rolls"): {
            "201": json_answer(ref("Rolled"), "The roll, recorded.", rolled),
            "200": json_answer(ref("Rolled"), retry, rolled),
        },
        ("get", f"{CAMPAIGN}/stats/dice"): {
            "200": json_answer(
                ref("DiceStats"), "The campaign's dice.", msgspec.to_builtins(dice_stats([], source=None))
            )
        },
        ("get", f"{CAMPAIGN}/state"): {
            "200": json_answer(ref("State"), "The state right after `position`.", state_example)
        },
        ("get", f"{CAMPAIGN}/views/{{name}}"): {
            "200": json_answer(
                {
                    "title": "NamedView",
                    "type": "object",
                    "description": "`position`, and the view under its own name.",
                    "properties": {"position": {"type": "integer"}},
                    "required": ["position"],
                    "additionalProperties": True,
                },
                "The view right after `position`, under its own name.",
                {"position": 12, "fleet": views["fleet"]},
            )
        },
        ("get", f"{CAMPAIGN}/characters/{{character_id}}"): {"200": _view_answer("character", views["character"])},
        ("get", f"{CAMPAIGN}/pirates/{{pirate_id}}"): {"200": _view_answer("pirate", views["pirate"])},
        ("post", f"{CAMPAIGN}/fork"): {"201": json_answer(ref("Forked"), "The new campaign.", ex[Forked])},
        ("get", "/v1/games"): {"200": json_answer(ref("Games"), "The games.", games_example)},
        ("get", "/v1/games/{game_id}/event-types"): {
            "200": json_answer(ref("EventTypes"), "The game's event types.", event_types_example)
        },
        ("get", "/v1/catalog/{game_id}"): {
            "200": json_answer(
                {"title": "Catalog", "type": "object", "additionalProperties": True},
                "The game's catalogue: its data files by name.",
                {"skills": {"skills": []}},
            )
        },
    }
    for name in ("fleet", "vault", "scenario", "pirates", "ship", "ledger", "chapter", "recorded", "cards", "turn"):
        out[("get", f"{CAMPAIGN}/{name}")] = {"200": _view_answer(name, views[name])}
    for path, schema, example in _AUDIT:
        out[("get", f"{CAMPAIGN}/{path}")] = {"200": json_answer(schema, schema["description"], example)}
    out |= paperwork.answers()
    out[("get", f"{CAMPAIGN}/display")] = {
        "200": json_answer(display.SCHEMA, "What the table display shows.", display.EXAMPLE)
    }
    return out


_AUDIT: list[tuple[str, dict[str, Any], Any]] = [
    (
        "scenarios",
        {
            "title": "Played",
            "type": "object",
            "description": "Every scenario or chapter played, in order.",
            "additionalProperties": True,
        },
        {"scenarios": []},
    ),
    (
        "diff",
        {
            "title": "Diff",
            "type": "object",
            "description": "What changed between two positions, as changes and sentences, and the events between.",
            "properties": {
                "from": {"type": "integer"},
                "to": {"type": "integer"},
                "changes": {"type": "array", "items": {"type": "object"}},
                "sentences": {"type": "array", "items": {"type": "string"}},
                "events": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"position": {"type": "integer"}, "sentence": {"type": "string"}},
                        "required": ["position", "sentence"],
                    },
                },
                "events_next": {"type": "integer"},
            },
            "required": ["from", "to", "changes", "sentences", "events"],
        },
        {"from": 2, "to": 3, "changes": [], "sentences": [], "events": [{"position": 3, "sentence": "A note."}]},
    ),
]


# Routes whose success is not JSON: they build their own streaming response, so Litestar cannot tell.

TEXT_EXAMPLES = {
    "text/event-stream": 'id: 3\nevent: event\ndata: {"position":3,"type":"note.added"}\n\n',
    "text/plain": "# HELP quartermaster_appends_total Events appended.\n",
    "text/markdown": "# The Wormwood Mutiny\n\nAlba noted: We misread the Raker Shoals rule here.\n",
}


def export_example() -> str:
    """An export of a campaign just started, as `GET .../export` writes it."""
    rows = [
        EventRow(
            position=position,
            id=uuid.UUID(int=position),
            batch=BATCH,
            type=type_,
            schema_version=1,
            data=data,
            actor="Owner",
            recorded_at=datetime(2026, 6, 12, 19, 31, 7, tzinfo=UTC),
            occurred_at=None,
        )
        for position, type_, data in (
            (1, "campaign.started", {"name": "The Wormwood Mutiny", "game": GAME_IDS[0], "options": {}}),
            (2, "member.joined", {"member_id": str(OWNER), "name": "Owner", "role": "owner"}),
        )
    ]
    header = ExportHeader(
        campaign="The Wormwood Mutiny", game=GAME_IDS[0], exported_at=datetime(2026, 6, 12, 20, 0, tzinfo=UTC), events=2
    )
    return b"".join(export_lines(header, rows)).decode()
