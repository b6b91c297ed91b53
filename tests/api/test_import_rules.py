"""An import is held to the append's rules: every imported event is one an append could have recorded, and a
refusal is a 4xx sentence naming the line and the event, with nothing imported. Never a 500."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest

from quartermaster.service.application.export import EventRow, ExportHeader, export_lines


def _export(api) -> tuple[ExportHeader, list[EventRow]]:
    source = api.new_campaign()
    api.append(source, [{"type": "note.added", "data": {"text": "Raker Shoals."}}])
    lines = [json.loads(raw) for raw in api.get(source, "/export").text.splitlines()]
    header = msgspec.convert({k: v for k, v in lines[0].items() if k in ExportHeader.__struct_fields__}, ExportHeader)
    rows = [
        msgspec.convert({k: v for k, v in line.items() if k in EventRow.__struct_fields__}, EventRow)
        for line in lines[1:]
    ]
    return header, rows


def _import(api, header: ExportHeader, rows: list[EventRow]) -> Any:
    sealed = b"".join(export_lines(header, rows))  # well sealed: only what was changed is wrong
    return api.client.post("/v1/campaigns/import", content=sealed)


def _refused(answer: Any, *words: str) -> str:
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    detail = answer.json()["detail"]
    assert answer.json()["type"].endswith("/bad-export") and detail.endswith("Nothing was imported.")
    for word in words:
        assert word in detail, detail
    return detail


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"schema_version": 32768}, ["schema_version is 32768"]),
        ({"schema_version": 2}, ["schema_version is 2", "schema version 1 only"]),
        ({"actor": ""}, ["actor is empty"]),
        ({"actor": "   "}, ["actor is empty"]),
        ({"actor": "a" * 201}, ["actor is 201 characters"]),
        ({"recorded_at": datetime(2999, 1, 1, tzinfo=UTC)}, ["recorded at 2999-01-01", "later than now"]),
        ({"data": {"text": "Raker Shoals.", "txet": "typo"}}, ["unknown field `txet`"]),
    ],
    ids=["smallint overflow", "unknown version", "empty actor", "blank actor", "long actor", "future", "unknown field"],
)
def test_an_imported_event_an_append_could_not_have_recorded_is_refused_with_a_sentence_naming_it(
    api, change: dict[str, Any], words: list[str]
):
    header, rows = _export(api)
    rows[2] = msgspec.structs.replace(rows[2], **change)

    detail = _refused(_import(api, header, rows), *words)

    assert detail.startswith("Line 4: the event at position 3 (note.added, id ")


def test_an_import_whose_campaign_name_is_longer_than_a_new_campaigns_is_refused(api):
    header, rows = _export(api)

    _refused(_import(api, msgspec.structs.replace(header, campaign="W" * 201), rows), "Line 1", "201 characters")
    _refused(_import(api, msgspec.structs.replace(header, campaign=""), rows), "Line 1", "0 characters")


def test_an_import_line_longer_than_any_request_an_append_takes_is_refused_before_it_is_read(api, app_settings):
    header, rows = _export(api)
    rows[2] = msgspec.structs.replace(rows[2], data={"text": "x" * (app_settings.max_body_bytes + 1)})

    _refused(_import(api, header, rows), "Line 4 is", "bytes long")


def test_an_import_that_keeps_every_rule_is_still_imported(api):
    header, rows = _export(api)

    answer = _import(api, header, rows)

    assert answer.status_code == 201, answer.text
