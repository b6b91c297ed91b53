"""The OpenAPI answers of the pull list and the shared box (routes/boxes.py), typed, with examples that validate."""

from __future__ import annotations

from typing import Any

from quartermaster.service.http.answers import CAMPAIGN, json_answer

_COUNTS = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1}}
_DECK = {
    "type": "object",
    "properties": {
        "character_id": {"type": "string"},
        "name": {"type": "string"},
        "player": {"type": "string"},
        "cards": _COUNTS,
        "count": {"type": "integer"},
    },
    "required": ["character_id", "name", "player", "cards", "count"],
}
PULL_LIST: dict[str, Any] = {
    "title": "PullList",
    "type": "object",
    "description": "Before a session: each character's cards to take out of the box, as the log holds her deck at "
    "`position`, the characters set aside (their cards stay in the box), and the cards in all.",
    "properties": {
        "campaign": {"type": "string"},
        "position": {"type": "integer"},
        "pull_list": {
            "type": "object",
            "properties": {
                "box": {"type": "string", "enum": ["vault", "box"]},
                "scenario": {"type": ["string", "null"]},
                "decks": {"type": "array", "items": _DECK},
                "set_aside": {"type": "array", "items": _DECK},
                "cards": _COUNTS,
                "count": {"type": "integer"},
            },
            "required": ["box", "scenario", "decks", "set_aside", "cards", "count"],
        },
    },
    "required": ["campaign", "position", "pull_list"],
}
PULL_LIST_EXAMPLE = {
    "campaign": "Wormwood",
    "position": 212,
    "pull_list": {
        "box": "vault",
        "scenario": None,
        "decks": [
            {
                "character_id": "lirianne",
                "name": "Lirianne",
                "player": "Alba",
                "cards": {"Blessing of the Gods": 4, "Pistol": 2, "Speed": 1},
                "count": 7,
            }
        ],
        "set_aside": [
            {"character_id": "seltyiel", "name": "Seltyiel", "player": "Sam", "cards": {"Longsword": 1}, "count": 1}
        ],
        "cards": {"Blessing of the Gods": 4, "Pistol": 2, "Speed": 1},
        "count": 7,
    },
}
PULL_LIST_TEXT = (
    "Pull list: Wormwood (as logged at position 212)\n\nLirianne (Alba): 7 cards\n[ ] 4 × Blessing of the Gods\n"
    "[ ] 2 × Pistol\n[ ] Speed\n"
)
BOX: dict[str, Any] = {
    "title": "SharedBox",
    "type": "object",
    "description": "The box a campaign's cards come from: every campaign sharing it, named by its title only, the "
    "cards each has out in its decks, and each card two campaigns want at once beyond the copies the box holds (the "
    "catalogue's count for the products added, else the most copies one campaign's log knows).",
    "properties": {
        "name": {"type": "string"},
        "key": {"type": "string", "pattern": "^box_[0-9a-f]{32}$"},
        "campaigns": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "campaign": {"type": "string", "format": "uuid"},
                    "title": {"type": "string"},
                    "game": {"type": "string"},
                    "box_name": {"type": "string"},
                    "yours": {"type": "boolean"},
                    "position": {"type": "integer"},
                    "decks": {"type": "integer"},
                    "out": _COUNTS,
                    "count": {"type": "integer"},
                },
                "required": ["campaign", "title", "game", "box_name", "yours", "position", "decks", "out", "count"],
            },
        },
        "out": _COUNTS,
        "missing": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "card": {"type": "string"},
                    "wanted": {"type": "integer"},
                    "held": {"type": "integer"},
                    "held_from": {"type": "string", "enum": ["catalogue", "log"]},
                    "missing": {"type": "integer", "minimum": 1},
                    "by": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"title": {"type": "string"}, "count": {"type": "integer"}},
                            "required": ["title", "count"],
                        },
                    },
                },
                "required": ["card", "wanted", "held", "held_from", "missing", "by"],
            },
        },
    },
    "required": ["name", "key", "campaigns", "out", "missing"],
}
_CAMPAIGN = {"game": "pacg-skull-and-shackles", "box_name": "The shelf box", "decks": 1, "count": 2}
BOX_EXAMPLE = {
    "name": "The shelf box",
    "key": "box_4c1f0e9a7b2d43e8a5f6c3b1d0e9f8a7",
    "campaigns": [
        _CAMPAIGN
        | {
            "campaign": "0f8fad5b-d9cb-469f-a165-70867728950e",
            "title": "Wormwood",
            "yours": True,
            "position": 212,
            "out": {"Pistol": 2},
        },
        _CAMPAIGN
        | {
            "campaign": "5a1c2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
            "title": "Thursday group",
            "yours": False,
            "position": 88,
            "out": {"Pistol": 2},
        },
    ],
    "out": {"Pistol": 4},
    "missing": [
        {
            "card": "Pistol",
            "wanted": 4,
            "held": 3,
            "held_from": "catalogue",
            "missing": 1,
            "by": [{"title": "Wormwood", "count": 2}, {"title": "Thursday group", "count": 2}],
        }
    ],
}
LEFT: dict[str, Any] = {
    "title": "BoxLeft",
    "type": "object",
    "description": "Whether the campaign shared a box before; the other campaigns keep theirs.",
    "properties": {"left": {"type": "boolean"}},
    "required": ["left"],
}


def successes() -> dict[tuple[str, str], dict[str, Any]]:
    """The 200 answers of routes/boxes.py."""
    listed = json_answer(PULL_LIST, PULL_LIST["description"], PULL_LIST_EXAMPLE)
    listed["content"]["text/plain"] = {"schema": {"type": "string"}, "example": PULL_LIST_TEXT}
    box = json_answer(BOX, BOX["description"], BOX_EXAMPLE)
    return {
        ("get", f"{CAMPAIGN}/pull-list"): {"200": listed},
        ("get", f"{CAMPAIGN}/box"): {"200": box},
        ("put", f"{CAMPAIGN}/box"): {"200": box},
        ("delete", f"{CAMPAIGN}/box"): {"200": json_answer(LEFT, LEFT["description"], {"left": True})},
    }
