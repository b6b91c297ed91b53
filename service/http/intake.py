"""Turning what a client sends into events ready to append: known type, catalogue names expanded, fields checked.

Every problem of every event is collected, so one answer tells the player everything wrong with a batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import msgspec

from quartermaster.events.base import Event, tag_of
from quartermaster.events.campaign import COMMON
from quartermaster.projections.registry import event_types
from quartermaster.service.application import catalog
from quartermaster.service.http.hostile import unstorable_time
from quartermaster.service.http.problems import Problem
from quartermaster.service.http.requests import (
    NewEvent,
    did_you_mean,
    explain,
    field_words,
    plain_fields,
    unknown_fields,
)
from quartermaster.service.store import PreparedEvent

_encode = msgspec.json.Encoder().encode

# Types a client may not append directly, and where to go instead.
_RESERVED = {tag_of(t): t.WRITTEN_BY for t in COMMON if t.WRITTEN_BY}


def encode_data(event: Event) -> bytes:
    """The event's fields as JSON, without its type (the type has its own column).

    One pass: msgspec writes a tagged struct's tag first (`{"type":"note.added",...`), so the fields are what follows
    it. (Going through to_builtins and a dict cost a second pass per event, felt on 1,000-event batches.)
    """
    encoded = _encode(event)
    after_tag = _after_tag(type(event))
    return b"{" + encoded[after_tag + 1 :] if encoded[after_tag : after_tag + 1] == b"," else b"{}"


@cache
def _after_tag(event_type: type[Event]) -> int:
    """Where the encoded tag (`{"type":"note.added"`) of an event type ends."""
    return len(_encode({"type": tag_of(event_type)})) - 1


def prepared_event(event: Event, **envelope: Any) -> PreparedEvent:
    """An event as the store appends it: its type string and its fields as JSON beside it."""
    return PreparedEvent(event=event, type=tag_of(type(event)), data=encode_data(event), **envelope)


@cache
def _kinds(game_id: str) -> dict[str, tuple[type[Event], frozenset[str], int]]:
    """Each event type of a game by its tag, with its plain fields and where its encoded tag ends: looked up once
    per event of a batch instead of three times."""
    return {tag: (t, plain_fields(t), _after_tag(t)) for tag, t in event_types(game_id).items()}


def prepare(game_id: str, events: Sequence[NewEvent]) -> list[PreparedEvent]:
    """Decode a client's batch into events ready to append, or a 422 listing every event's problem."""
    known = _kinds(game_id)
    expand = catalog.expander(game_id)
    convert, encode = msgspec.convert, _encode
    errors: list[dict[str, Any]] = []
    ready: list[PreparedEvent] = []
    seen_ids: dict[Any, int] = {}
    for index, new in enumerate(events):
        if new.id is not None:
            if new.id in seen_ids:
                errors.append(
                    {
                        "index": index,
                        "reason": f"Its event id {new.id} is also the id of entry {seen_ids[new.id] + 1} "
                        "of this batch; every event needs its own id.",
                    }
                )
                continue
            seen_ids[new.id] = index
        if new.type in _RESERVED:
            errors.append(
                {"index": index, "reason": f"{_title(new.type)} is not logged by hand: {_RESERVED[new.type]}."}
            )
            continue
        kind = known.get(new.type)
        if kind is None:
            guess = did_you_mean(new.type, list(known))
            hint = f" Did you mean {guess}?" if guess else ""
            errors.append(
                {
                    "index": index,
                    "reason": f"This game has no event called {new.type!r}.{hint} "
                    f"GET /v1/games/{game_id}/event-types lists every one.",
                }
            )
            continue
        event_type, plain, after_tag = kind
        try:
            data = expand(new.type, new.data, new.override is not None)
            event: Event
            if data.keys() <= plain:
                # No field that can hold a struct, so nothing unknown at any depth, and no `type` in the data: the
                # struct takes the data as it is (most events of a batch: notes, damage, the hourglass).
                event = convert(data, event_type, strict=True)
            else:
                unknown = unknown_fields(event_type, data)
                if unknown:
                    errors.extend({"index": index, "reason": _no_such_field(index, new.type, *u)} for u in unknown)
                    continue
                event = msgspec.convert({**data, "type": new.type}, event_type, strict=True)
        except catalog.CatalogError as error:
            errors.append({"index": index, "reason": str(error)})
            continue
        except msgspec.ValidationError as error:
            errors.append({"index": index, "reason": explain(error, "data", event_type)})
            continue
        except (TypeError, AttributeError, KeyError, IndexError):
            # Catalogue expansion reads the data before msgspec checks it, so a wrong shape (a number where a list
            # belongs) can trip it; the event type itself says what the shape should be.
            errors.append({"index": index, "reason": _shape(new, event_type)})
            continue
        unstorable = unstorable_time(new.occurred_at) if new.occurred_at is not None else None
        if unstorable:
            errors.append({"index": index, "reason": f"occurred_at: {unstorable}"})
            continue
        # `new.type` is the event's tag (`known` is keyed by tags). The data as encode_data writes it, inline: this
        # runs once per event of a batch.
        encoded = encode(event)
        fields = b"{" + encoded[after_tag + 1 :] if encoded[after_tag : after_tag + 1] == b"," else b"{}"
        override = None
        if new.override is not None:
            override = new.override.reason.strip()
            if not override:
                errors.append({"index": index, "reason": "override.reason: say why the table logs it anyway."})
                continue
        ready.append(PreparedEvent(event, new.type, fields, new.id, new.occurred_at, override))
    if errors:
        raise Problem(422, _summary(errors), kind="invalid-events", errors=errors)
    return ready


def _shape(new: NewEvent, event_type: type[Event]) -> str:
    try:
        msgspec.convert({**new.data, "type": new.type}, event_type, strict=True)
    except msgspec.ValidationError as error:
        return explain(error, "data", event_type)
    return f"{_title(new.type)} is not given in the shape it takes; GET /v1/catalog shows the names it expands."


def _title(type_: str) -> str:
    """`card.moved` as "Card moved": an event type named as the page names it."""
    words = type_.replace(".", " ").replace("_", " ")
    return words[:1].upper() + words[1:]


def _no_such_field(index: int, type_: str, where: str, field: str, then: str) -> str:
    inside = f" in {field_words('$' + where.removeprefix('data'), 'data')}" if where != "data" else ""
    return f"{_title(type_)} has no field {field}{inside}{then}"


def _summary(errors: list[dict[str, Any]]) -> str:
    """One sentence for one refusal; for several, how many, then each entry (counted from 1) and why."""
    if len(errors) == 1:
        # A later entry of a batch is named; the only or first entry needs no number.
        at = f"Entry {errors[0]['index'] + 1}: " if errors[0]["index"] else ""
        return f"{at}{errors[0]['reason']} Nothing was written."
    return entries_refused(errors, "cannot be recorded")


def entries_refused(errors: list[dict[str, Any]], verb: str) -> str:
    """ "3 entries of this batch cannot be recorded; nothing was written. Entry 1: ... Entry 4: ..."."""
    each = " ".join(f"Entry {e['index'] + 1}: {e['reason']}" for e in errors)
    return f"{len(errors)} entries of this batch {verb}; nothing was written. {each}"
