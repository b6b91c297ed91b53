"""What the routes of the table's paperwork answer (routes/posts.py, routes/chronicles.py), for the OpenAPI
document: a post written in a format, a pasted thread's preview and its confirmation, the chronicle sheets."""

from __future__ import annotations

from typing import Any

CAMPAIGN = "/v1/campaigns/{campaign}"


def json_answer(schema: dict[str, Any], meaning: str, example: Any) -> dict[str, Any]:
    """An answer in JSON, as answers.json_answer writes one (this module is read by that one, so not the reverse)."""
    return {"description": meaning, "content": {"application/json": {"schema": schema, "example": example}}}


def answers() -> dict[tuple[str, str], dict[str, Any]]:
    """Every answer of the paperwork's routes, by (method, path)."""
    return _chronicles() | _posts() | _pasted()


def _posts() -> dict[tuple[str, str], dict[str, Any]]:
    """Play-by-post (routes/posts.py): a post written in the format asked, its user text escaped."""
    schema: dict[str, Any] = {
        "title": "ForumPost",
        "type": "object",
        "description": "A post for a play-by-post forum, in the format asked, as of `position`.",
        "properties": {
            "position": {"type": "integer"},
            "format": {"type": "string", "enum": ["text", "bbcode", "markdown"]},
            "post": {"type": "string"},
        },
        "required": ["position", "format", "post"],
    }
    status = "[b]Seltyiel (Sam)[/b]\n[b]Hand:[/b] Longsword, Force Missile\n[b]Deck:[/b] 9\n[b]Hero points:[/b] 1\n"
    turn = (
        "Dangerous Waters, turn 1: Lirianne\nPositions: 46 to 81\n\nRolls\n- Lirianne: Dexterity, d8=5 d8=5 d8=6 = 16"
    )
    return {
        ("get", f"{CAMPAIGN}/posts/status"): {
            "200": json_answer(schema, schema["description"], {"position": 81, "format": "bbcode", "post": status})
        },
        ("get", f"{CAMPAIGN}/posts/turn"): {
            "200": json_answer(schema, schema["description"], {"position": 81, "format": "text", "post": turn})
        },
    }


CHRONICLE_EXAMPLE: dict[str, Any] = {
    "game": "pacg-skull-and-shackles",
    "scenario": "Dangerous Waters",
    "play": 1,
    "first": 40,
    "last": 212,
    "ended": True,
    "started_at": "2026-03-14T19:02:11+00:00",
    "ended_at": "2026-03-14T22:41:05+00:00",
    "party": [{"id": "lirianne", "name": "Lirianne", "player": "Alba"}],
    "result": "won",
    "rewards": [{"position": 209, "loot": "Sea Devil's Sabre", "to": "lirianne"}],
    "feats": [{"position": 210, "feat": "skill feat Dexterity +1", "to": "lirianne"}],
    "cards": {"lirianne": {"name": "Lirianne", "gained": {"Speed": 1}, "lost": {}, "banished": {}}},
    "decks": {"lirianne": {"Pistol": 2, "Speed": 1}},
    "overridden": [],
    "digest": "9f2c4e0b1d7a" + "0" * 52,
}
_SHEET = {
    "title": "ChronicleSheet",
    "type": "object",
    "description": "One scenario or chapter as organized play records it, with the log's range and digest at its end.",
    "properties": {
        "game": {"type": "string"},
        "scenario": {"type": "string"},
        "chapter": {"type": "integer"},
        "play": {"type": "integer"},
        "first": {"type": "integer"},
        "last": {"type": "integer"},
        "ended": {"type": "boolean"},
        "party": {"type": "array", "items": {"type": "object"}},
        "result": {},
        "overridden": {"type": "array", "items": {"type": "object"}},
        "digest": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
    },
    "required": ["game", "play", "first", "last", "ended", "party", "result", "overridden", "digest"],
    "additionalProperties": True,
}


def _chronicles() -> dict[tuple[str, str], dict[str, Any]]:
    """The chronicle sheets (routes/chronicles.py): JSON or plain text, and a sheet's verification."""
    sheets: dict[str, Any] = {
        "title": "ChronicleSheets",
        "type": "object",
        "description": "The campaign's chronicle sheets, in the order played.",
        "properties": {
            "campaign": {"type": "string"},
            "position": {"type": "integer"},
            "sheets": {"type": "array", "items": _SHEET},
        },
        "required": ["campaign", "position", "sheets"],
    }
    listed = json_answer(sheets, sheets["description"], {"campaign": "Wormwood", "position": 212, "sheets": []})
    listed["content"]["text/plain"] = {
        "schema": {"type": "string"},
        "example": "Chronicle sheet: Wormwood\nScenario: Dangerous Waters (play 1)\nResult: won\n",
    }
    listed["content"]["application/json"]["example"]["sheets"] = [CHRONICLE_EXAMPLE]
    verified: dict[str, Any] = {
        "title": "ChronicleVerified",
        "type": "object",
        "description": "Whether the sheet matches the log: its digest recomputed and which fields differ.",
        "properties": {
            "verified": {"type": "boolean"},
            "digest": {"type": "string"},
            "first": {"type": "integer"},
            "last": {"type": "integer"},
            "differences": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["verified", "digest", "first", "last", "differences"],
    }
    example = {"verified": False, "digest": CHRONICLE_EXAMPLE["digest"], "first": 40, "last": 212}
    return {
        ("get", f"{CAMPAIGN}/chronicles"): {"200": listed},
        ("post", f"{CAMPAIGN}/chronicles/verify"): {
            "200": json_answer(verified, verified["description"], example | {"differences": ["result"]})
        },
    }


_PREVIEW_EXAMPLE = {
    "position": 45,
    "will_log": 1,
    "notice": None,
    "entries": [
        {
            "line": 14,
            "poster": "Lily",
            "written_at": 46,
            "type": "card.moved",
            "id": "0190f5c2-7c1e-7a31-9d4e-2b8f3e6a9c10",
            "status": "new",
            "sentence": "Lirianne explored the Shipwreck and revealed the Dead Man's Chest.",
            "reason": None,
            "overridable": False,
            "logged_at": None,
        },
        {
            "line": 15,
            "poster": "Lily",
            "written_at": 47,
            "type": "card.moved",
            "id": "0190f5c2-7c1e-7a31-9d4e-2b8f3e6a9c11",
            "status": "refused",
            "sentence": "Lirianne recharged the Cutlass.",
            "reason": "Lirianne has no Cutlass in her hand.",
            "overridable": False,
            "logged_at": None,
        },
    ],
}


def _pasted() -> dict[tuple[str, str], dict[str, Any]]:
    """A thread pasted in (routes/posts.py): the preview, entry by entry, and what its confirmation logged."""
    nullable_text: dict[str, Any] = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    line = {
        "type": "object",
        "properties": {
            "line": {"type": "integer", "description": "The line of the pasted text the entry was read from."},
            "poster": {"type": "string", "description": "The post's author line: whom it would be logged as."},
            "written_at": {"type": "integer", "description": "Its position in its writer's log."},
            "type": {"type": "string"},
            "id": {"type": "string", "format": "uuid"},
            "status": {"type": "string", "enum": ["new", "logged", "refused"]},
            "sentence": {"type": "string", "description": "What would be logged (for `new`), in the log's words."},
            "reason": nullable_text | {"description": "Why it is refused, in the fold's words."},
            "overridable": {"type": "boolean"},
            "logged_at": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        },
        "required": [
            "line",
            "poster",
            "written_at",
            "type",
            "id",
            "status",
            "sentence",
            "reason",
            "overridable",
            "logged_at",
        ],
    }
    preview: dict[str, Any] = {
        "title": "PastedPreview",
        "type": "object",
        "description": "What logging the pasted posts would do, entry by entry, on the log at `position`; nothing "
        "was written.",
        "properties": {
            "position": {"type": "integer"},
            "will_log": {"type": "integer"},
            "notice": nullable_text,
            "entries": {"type": "array", "items": line},
        },
        "required": ["position", "will_log", "notice", "entries"],
    }
    confirmed: dict[str, Any] = {
        "title": "PastedLogged",
        "type": "object",
        "description": "The entries logged, a batch per run of one poster's entries; `replayed` when this "
        "confirmation had been answered before and nothing more was written.",
        "properties": {
            "position": {"type": "integer"},
            "logged": {"type": "integer"},
            "replayed": {"type": "boolean"},
            "batches": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "batch": {"type": "string", "format": "uuid"},
                        "poster": {"type": "string"},
                        "first": {"type": "integer"},
                        "last": {"type": "integer"},
                    },
                    "required": ["batch", "poster", "first", "last"],
                },
            },
        },
        "required": ["position", "logged", "replayed", "batches"],
    }
    logged = {
        "position": 46,
        "logged": 1,
        "replayed": False,
        "batches": [{"batch": "0190f5c2-7c1e-7a31-9d4e-2b8f3e6a9c12", "poster": "Lily", "first": 46, "last": 46}],
    }
    return {
        ("post", f"{CAMPAIGN}/posts/preview"): {"200": json_answer(preview, preview["description"], _PREVIEW_EXAMPLE)},
        ("post", f"{CAMPAIGN}/posts/confirm"): {"200": json_answer(confirmed, confirmed["description"], logged)},
    }
