"""Intake records an event exactly as its struct encodes it, whichever way it got there, and answers in the bytes
Litestar would write."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import msgspec
import pytest
from litestar.serialization import get_serializer

from quartermaster.projections.registry import GAME_IDS, event_types
from quartermaster.service.application import catalog
from quartermaster.service.http.intake import encode_data, prepare
from quartermaster.service.http.problems import Problem
from quartermaster.service.http.requests import NewEvent, plain_fields, unknown_fields
from quartermaster.service.http.routes.events import appended_answer, appended_body
from quartermaster.service.store import Appended, Recorded

EXAMPLES = [
    pytest.param(game_id, tag, data, id=f"{game_id} {tag} {n}")
    for game_id in GAME_IDS
    for tag, event_type in sorted(event_types(game_id).items())
    if not event_type.WRITTEN_BY
    for n, data in enumerate(event_type.EXAMPLES)
]


@pytest.mark.parametrize("game_id,tag,data", EXAMPLES)
def test_every_example_is_recorded_as_its_struct_encodes_it(game_id, tag, data):
    event_type = event_types(game_id)[tag]
    expected = msgspec.convert({**catalog.expand(game_id, tag, data), "type": tag}, event_type, strict=True)

    [prepared] = prepare(game_id, [NewEvent(type=tag, data=data)])

    assert prepared.event == expected
    assert prepared.type == tag
    assert prepared.data == encode_data(expected)
    assert msgspec.json.decode(prepared.data) == {k: v for k, v in msgspec.to_builtins(expected).items() if k != "type"}


NESTED_JUNK: list[Any] = [{"unknown": 1}, [{"unknown": 1}], {"a": [{"b": {"unknown": 1}}]}, "text", 3, None]


@pytest.mark.parametrize("game_id,tag", [(g, t) for g in GAME_IDS for t in sorted(event_types(g))])
def test_a_field_that_holds_no_struct_has_no_unknown_field_whatever_it_holds(game_id, tag):
    event_type = event_types(game_id)[tag]
    for name in plain_fields(event_type):
        for junk in NESTED_JUNK:
            assert unknown_fields(event_type, {name: junk}) == []


def test_an_unknown_field_of_an_event_without_nested_structs_is_still_refused_with_the_closest_name():
    with pytest.raises(Problem) as refused:
        prepare("pacg-skull-and-shackles", [NewEvent(type="note.added", data={"txt": "Raker Shoals."})])
    assert refused.value.extra["errors"] == [{"index": 0, "reason": "Note added has no field txt; did you mean text?"}]


def test_a_type_in_the_data_is_the_events_own():
    [prepared] = prepare(
        "pacg-skull-and-shackles", [NewEvent(type="note.added", data={"text": "Raker Shoals.", "type": "x"})]
    )
    assert prepared.data == b'{"text":"Raker Shoals."}'


def test_the_answer_to_an_append_is_rendered_by_litestar_with_each_event_as_recorded():
    recorded = Recorded(
        position=3,
        id=uuid.uuid4(),
        batch=uuid.uuid4(),
        type="note.added",
        schema_version=1,
        data=msgspec.Raw(b'{"text":"Raker Shoals."}'),
        actor=str(uuid.uuid4()),
        recorded_at=datetime.now(UTC),
        occurred_at=datetime(2026, 3, 1, 20, 15, tzinfo=timezone(timedelta(hours=2))),
    )
    appended = Appended(batch=recorded.batch, first_position=3, last_position=3, events=[recorded])
    content = {**appended_body(appended), "roll": recorded}

    answer = appended_answer(content, appended)

    rendered = msgspec.json.decode(answer.render(answer.content, "application/json", get_serializer()))
    assert rendered["roll"]["data"] == {"text": "Raker Shoals."}  # the event's JSON spliced in as recorded
    assert rendered["roll"]["occurred_at"] == "2026-03-01T20:15:00+02:00"
    assert rendered["events"] == [rendered["roll"]] and rendered["first_position"] == 3
    assert answer.status_code == 201
    assert appended_answer(content, msgspec.structs.replace(appended, replayed=True)).status_code == 200
