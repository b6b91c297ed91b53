"""Turning what a client sends into events ready to append: known type, catalogue names expanded, fields checked.

Every problem of every event is collected, so one answer tells the player everything wrong with a batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from events.campaign import CampaignStarted, EventRedone, EventUndone, MemberJoined
from events.base import tag_of
from projections.registry import event_types
from service import catalog
from service.problems import Problem
from service.requests import NewEvent, explain
from service.store import Pending

_encode = msgspec.json.Encoder().encode

# Types a client may not append directly, and where to go instead.
_RESERVED = {
    tag_of(CampaignStarted): "a campaign starts when it is created (POST /v1/campaigns)",
    tag_of(MemberJoined): "members join through POST /v1/campaigns/{id}/members",
    tag_of(EventUndone): "undo through POST /v1/campaigns/{id}/undo",
    tag_of(EventRedone): "redo through POST /v1/campaigns/{id}/redo",
}


def encode_data(event: msgspec.Struct) -> bytes:
    """The event's fields as JSON, without its type (the type has its own column)."""
    fields = msgspec.to_builtins(event)
    fields.pop("type", None)
    return _encode(fields)


def pending(event: msgspec.Struct, **envelope: Any) -> Pending:
    return Pending(event=event, type=tag_of(type(event)), data=encode_data(event), **envelope)


def prepare(game_id: str, events: Sequence[NewEvent]) -> list[Pending]:
    """Decode a client's batch into Pending events, or a 422 listing every event's problem."""
    known = event_types(game_id)
    errors: list[dict[str, Any]] = []
    ready: list[Pending] = []
    seen_ids: dict[Any, int] = {}
    for index, new in enumerate(events):
        if new.id is not None:
            if new.id in seen_ids:
                errors.append({"index": index, "reason": f"Event id {new.id} is also used by event {seen_ids[new.id]} "
                                                         "of this batch; every event needs its own id."})
                continue
            seen_ids[new.id] = index
        if new.type in _RESERVED:
            errors.append({"index": index, "reason": f"{new.type} cannot be appended: {_RESERVED[new.type]}."})
            continue
        event_type = known.get(new.type)
        if event_type is None:
            errors.append({"index": index, "reason": f"Unknown event type {new.type!r} for {game_id}; "
                                                     f"the catalogue at GET /v1/catalog/{game_id} lists what it knows."})
            continue
        try:
            data = catalog.expand(game_id, new.type, new.data)
            event = msgspec.convert({**data, "type": new.type}, event_type, strict=True)
        except catalog.CatalogError as error:
            errors.append({"index": index, "reason": str(error)})
            continue
        except msgspec.ValidationError as error:
            errors.append({"index": index, "reason": explain(error, "data")})
            continue
        except (TypeError, AttributeError, KeyError, IndexError):
            # Catalogue expansion reads the data before msgspec checks it, so a wrong shape (a number where a list
            # belongs) can trip it; the event type itself says what the shape should be.
            errors.append({"index": index, "reason": _shape(new, event_type)})
            continue
        ready.append(pending(event, id=new.id, occurred_at=new.occurred_at))
    if errors:
        raise Problem(422, _summary(errors), kind="invalid-events", errors=errors)
    return ready


def _shape(new: NewEvent, event_type: type) -> str:
    try:
        msgspec.convert({**new.data, "type": new.type}, event_type, strict=True)
    except msgspec.ValidationError as error:
        return explain(error, "data")
    return f"data is not in the shape {new.type} takes; GET /v1/catalog shows the names it expands."


def _summary(errors: list[dict[str, Any]]) -> str:
    if len(errors) == 1:
        return f"Event {errors[0]['index']} cannot be recorded: {errors[0]['reason']} Nothing was written."
    return f"{len(errors)} events of this batch cannot be recorded; nothing was written. See `errors`."
