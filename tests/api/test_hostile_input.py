"""Hostile input gets a 4xx problem with a sentence, never a 500, and writes nothing.

The tables are derived from the types, not listed by hand: every string field of every request body (from the
OpenAPI document, which is itself made from the request types), every string field of every event type of every
game, every string field of an export line, and every query and path parameter of every route. A field added
tomorrow is covered tomorrow.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import msgspec
import pytest

from quartermaster.projections.registry import GAME_IDS, event_types
from quartermaster.service.app import create_app
from quartermaster.service.application.export import EventRow, ExportHeader, export_lines
from quartermaster.service.http.hostile import MAX_DEPTH
from quartermaster.service.http.openapi import inline
from quartermaster.service.platform.settings import Settings

NUL = "pirate\u0000flag"
Path = tuple[str | int, ...]

# The document is made without a database: building the app opens nothing until it starts.
_OPENAPI = create_app(Settings(), "postgresql://unused").openapi_schema.to_schema()
_OPERATIONS = [(method.upper(), route, op) for route, ops in _OPENAPI["paths"].items() for method, op in ops.items()]


def string_paths(schema: dict[str, Any], at: Path = ()) -> Iterator[Path]:
    """Every place in a JSON schema where a string may stand, as a path of keys and list indexes."""
    kinds = schema.get("type")
    kinds = {kinds} if isinstance(kinds, str) else set(kinds or ())
    if "string" in kinds or "enum" in schema and any(isinstance(v, str) for v in schema["enum"]):
        yield at
    for option in (*schema.get("anyOf", ()), *schema.get("oneOf", ())):
        yield from string_paths(option, at)
    for name, field in schema.get("properties", {}).items():
        yield from string_paths(field, (*at, name))
    if isinstance(schema.get("additionalProperties"), dict):
        yield from string_paths(schema["additionalProperties"], (*at, "any key"))
    if isinstance(schema.get("items"), dict):
        yield from string_paths(schema["items"], (*at, 0))


def placed(path: Path, value: Any) -> Any:
    """The smallest JSON value holding `value` at `path`."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    return [placed(rest, value)] if isinstance(head, int) else {head: placed(rest, value)}


def _body_cases() -> Iterator[Any]:
    for method, route, op in _OPERATIONS:
        schema = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
        for path in sorted(set(string_paths(schema or {})), key=str):
            yield pytest.param(method, route, placed(path, NUL), id=f"{method} {route} {'.'.join(map(str, path))}")


def _event_cases() -> Iterator[Any]:
    for game_id in GAME_IDS:
        for tag, event_type in sorted(event_types(game_id).items()):
            for path in sorted(set(string_paths(inline(event_type))), key=str):
                if path == ("type",):
                    continue
                data = placed(path, NUL)
                yield pytest.param(game_id, tag, data, id=f"{game_id} {tag} {'.'.join(map(str, path))}")
            # The type itself is a string of every batch.
        yield pytest.param(game_id, NUL, {}, id=f"{game_id} the event type")


def _parameter_cases() -> Iterator[Any]:
    for method, route, op in _OPERATIONS:
        for parameter in op.get("parameters", ()):
            yield pytest.param(
                method,
                route,
                parameter["in"],
                parameter["name"],
                id=f"{method} {route} {parameter['in']} {parameter['name']}",
            )


def _export_fields(struct: type) -> list[str]:
    return [f.encode_name for f in msgspec.structs.fields(struct) if "string" in json.dumps(inline(f.type))]


def _is_problem(answer: Any, status: int, kind: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    problem = answer.json()
    assert problem["type"].endswith(f"/{kind}") and problem["detail"].endswith(".")


def _url(route: str, campaign: Any) -> str:
    return (
        route.replace("{campaign}", campaign.id)
        .replace("{game_id}", campaign.game)
        .replace("{name}", "state")
        .replace("{character_id}", "merisiel")
        .replace("{pirate_id}", "anne")
    )


@pytest.fixture(scope="module")
def campaign(api):
    return api.new_campaign()


@pytest.fixture(scope="module")
def campaigns(api):
    """One campaign per game, shared by the tables: a refused request writes nothing, which each test checks."""
    return {game_id: api.new_campaign(game_id) for game_id in GAME_IDS}


@pytest.mark.parametrize("method,route,body", list(_body_cases()))
def test_a_nul_character_in_any_string_of_a_request_body_is_refused(api, campaign, method, route, body):
    answer = api.client.request(
        method,
        _url(route, campaign),
        content=json.dumps(body),
        headers={**campaign.headers, "content-type": "application/json"},
    )
    _is_problem(answer, 400, "nul-character")
    assert api.get(campaign, "").json()["position"] == 2


@pytest.mark.parametrize("game_id,tag,data", list(_event_cases()))
def test_a_nul_character_in_any_string_of_any_event_is_refused_and_nothing_is_written(
    api, campaigns, game_id, tag, data
):
    campaign = campaigns[game_id]
    answer = api.append(campaign, [{"type": tag, "data": data}])
    _is_problem(answer, 400, "nul-character")
    assert api.get(campaign, "").json()["position"] == 2


@pytest.mark.parametrize("method,route,where,name", list(_parameter_cases()))
def test_a_nul_character_in_any_parameter_is_refused(api, campaign, method, route, where, name):
    url = _url(route, campaign)
    if where == "path":
        url = _url(route.replace("{" + name + "}", "a%00b"), campaign)
        answer = api.client.request(method, url, headers=campaign.headers)
    else:
        answer = api.client.request(method, url + f"?{name}=a%00b", headers=campaign.headers)
    _is_problem(answer, 400, "nul-character")


@pytest.mark.parametrize(
    "line,field",
    [(0, name) for name in _export_fields(ExportHeader)] + [(3, name) for name in _export_fields(EventRow)],
)
def test_a_nul_character_in_any_string_of_an_import_is_refused(api, line, field):
    source = api.new_campaign()
    api.append(source, [{"type": "note.added", "data": {"text": "Raker Shoals."}}])
    lines = [json.loads(raw) for raw in api.get(source, "/export").text.splitlines()]
    lines[line][field] = NUL
    answer = api.client.post("/v1/campaigns/import", content="\n".join(json.dumps(x) for x in lines))
    _is_problem(answer, 400, "nul-character")


def test_an_escaped_backslash_before_u0000_is_text_and_is_kept(api):
    campaign = api.new_campaign()
    answer = api.append(campaign, [{"type": "note.added", "data": {"text": "C:\\u0000 is not a NUL"}}])
    assert answer.status_code == 201, answer.text
    assert answer.json()["events"][0]["data"]["text"] == "C:\\u0000 is not a NUL"


@pytest.mark.parametrize("route", ["/v1/campaigns", "/v1/campaigns/{campaign}/events", "/v1/campaigns/import"])
def test_json_nested_a_thousand_deep_is_refused_with_a_sentence(api, campaign, route):
    deep = "[" * 1000 + "]" * 1000
    inner = (
        {"name": "x", "game": "pacg-skull-and-shackles", "options": {"a": "DEEP"}}
        if route == "/v1/campaigns"
        else {"events": [{"type": "note.added", "data": {"text": "DEEP"}}]}
    )
    body = json.dumps(inner).replace('"DEEP"', deep)
    answer = api.client.post(_url(route, campaign), content=body, headers=campaign.headers)
    _is_problem(answer, 400, "nested-too-deep")
    assert api.get(campaign, "").json()["position"] == 2


def test_brackets_inside_strings_are_not_nesting(api):
    campaign = api.new_campaign()
    answer = api.append(campaign, [{"type": "note.added", "data": {"text": "[{" * (MAX_DEPTH + 5)}}])
    assert answer.status_code == 201, answer.text


def test_a_number_where_scenario_started_takes_a_list_of_locations_is_refused_naming_the_field(api):
    campaign = api.new_campaign()
    answer = api.append(
        campaign, [{"type": "scenario.started", "data": {"scenario": "Raiders of the Fever Sea", "locations": 673}}]
    )
    _is_problem(answer, 422, "invalid-events")
    assert "The locations must be a list" in answer.json()["detail"]


def _wrong_kind(schema: dict[str, Any]) -> Any:
    """A JSON value of a kind the schema never takes: a number for lists, objects and text, a list for numbers."""
    text = json.dumps(schema)
    return [673] if '"integer"' in text or '"number"' in text or '"boolean"' in text else 673


def _shape_cases() -> Iterator[Any]:
    for game_id in GAME_IDS:
        for tag, event_type in sorted(event_types(game_id).items()):
            for name, field in inline(event_type).get("properties", {}).items():
                if name != "type":
                    yield pytest.param(game_id, tag, {name: _wrong_kind(field)}, id=f"{game_id} {tag} {name}")


@pytest.mark.parametrize("game_id,tag,data", list(_shape_cases()))
def test_a_value_of_the_wrong_kind_in_any_event_field_is_refused_not_a_500(api, campaigns, game_id, tag, data):
    campaign = campaigns[game_id]
    answer = api.append(campaign, [{"type": tag, "data": data}])
    assert 400 <= answer.status_code < 500, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert api.get(campaign, "").json()["position"] == 2


@pytest.mark.parametrize(
    "spelling",
    [
        str.upper,
        lambda hex_: f"urn:uuid:{uuid.UUID(hex_)}",
        lambda hex_: str(uuid.UUID(hex_)),
        lambda hex_: "{" + hex_ + "}",
    ],
    ids=["upper case", "urn:uuid", "with dashes", "in braces"],
)
def test_a_member_id_spelled_another_way_inside_a_token_is_refused(api, spelling):
    campaign = api.new_campaign()
    member_hex, secret = campaign.token.removeprefix("qm_").split("_", 1)
    respelled = f"qm_{spelling(member_hex)}_{secret}"
    answer = api.client.get(f"/v1/campaigns/{campaign.id}", headers={"Authorization": f"Bearer {respelled}"})
    _is_problem(answer, 401, "bad-token")


@pytest.mark.parametrize("moment", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_a_moment_outside_the_years_1_to_9999_in_utc_is_refused_before_it_is_stored(api, campaigns, moment):
    campaign = campaigns["pacg-skull-and-shackles"]
    answer = api.append(campaign, [{"type": "note.added", "occurred_at": moment, "data": {"text": "Long ago."}}])
    _is_problem(answer, 422, "invalid-events")
    assert "occurred_at" in answer.json()["detail"]
    assert api.get(campaign, "").json()["position"] == 2


def test_an_import_with_a_moment_outside_the_years_1_to_9999_is_refused(api):
    source = api.new_campaign()
    api.append(source, [{"type": "note.added", "data": {"text": "Raker Shoals."}}])
    lines = [json.loads(raw) for raw in api.get(source, "/export").text.splitlines()]
    header = msgspec.convert({k: v for k, v in lines[0].items() if k in ExportHeader.__struct_fields__}, ExportHeader)
    rows = [
        msgspec.convert({k: v for k, v in line.items() if k in EventRow.__struct_fields__}, EventRow)
        for line in lines[1:]
    ]
    rows[2] = msgspec.structs.replace(rows[2], occurred_at=datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=14))))
    sealed = b"".join(export_lines(header, rows))  # a well-sealed export, so only the moment is wrong

    answer = api.client.post("/v1/campaigns/import", content=sealed)

    _is_problem(answer, 422, "bad-export")
    assert "Line 4: occurred_at" in answer.json()["detail"]
