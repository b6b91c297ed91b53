"""Request bodies, decoded with msgspec into types, with errors turned into sentences."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal, TypeVar

import msgspec

from service.hostile import refuse_nul_and_depth
from service.problems import Problem

# One request may carry a whole scenario's worth of events; the byte limit on bodies guards the rest.
MAX_EVENTS_PER_BATCH = 5000
MAX_NAME = 200

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME)]


class NewCampaign(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    game: str
    options: dict[str, Any] = {}
    owner_name: Name = "Owner"


class NewMember(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    role: Literal["owner", "player", "viewer"]


class NewEvent(msgspec.Struct, forbid_unknown_fields=True):
    type: str
    data: dict[str, Any] = {}
    id: uuid.UUID | None = None
    occurred_at: datetime | None = None


class AppendRequest(msgspec.Struct, forbid_unknown_fields=True):
    events: Annotated[list[NewEvent], msgspec.Meta(min_length=1, max_length=MAX_EVENTS_PER_BATCH)]
    expected_position: Annotated[int, msgspec.Meta(ge=0)] | None = None


T = TypeVar("T")


def decode(raw: bytes, type_: type[T]) -> T:
    """The body as `type_`, or a 400 for JSON that does not parse and a 422 for JSON of the wrong shape."""
    if not raw.strip():
        raise Problem(400, "The request has no body; send a JSON object.", kind="malformed-json")
    refuse_nul_and_depth(raw)
    try:
        # One pass straight into the type; msgspec tells JSON that does not parse from JSON of the wrong shape.
        return msgspec.json.decode(raw, type=type_, strict=True)
    except msgspec.ValidationError as error:
        raise Problem(422, explain(error, "body"), kind="invalid-body") from None
    except msgspec.DecodeError as error:
        raise Problem(400, f"The request body is not valid JSON: {error}.", kind="malformed-json") from None


def explain(error: msgspec.ValidationError, where: str) -> str:
    """msgspec's "Expected `int`, got `str` - at `$.amount`" as a sentence about the request."""
    message = str(error)
    text, _, path = message.partition(" - at `")
    path = path.rstrip("`")
    field = path.replace("$", where, 1) if path else where
    text = text.replace("Object missing required field", "a required field is missing:")
    return f"{field}: {text}."
