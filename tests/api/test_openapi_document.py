"""The OpenAPI document: valid, a schema for every event type of both games, every answer documented, the
bearer scheme declared, nothing under /schema loaded from another host, and real answers that match it."""

from __future__ import annotations

import json
import re

import pytest
from openapi_spec_validator import validate

from quartermaster.projections.registry import GAME_IDS, event_types

APPEND = "/v1/campaigns/{campaign}/events"


@pytest.fixture(scope="module")
def document(api):
    answer = api.client.get("/schema/openapi.json")
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_the_document_is_valid_openapi(document):
    validate(document)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_games_batch_is_a_union_of_its_event_types_discriminated_by_type(document, game_id):
    schemas = document["components"]["schemas"]
    items = schemas[f"{game_id}.batch"]["properties"]["events"]["items"]
    appendable = {tag for tag, t in event_types(game_id).items() if not t.WRITTEN_BY}
    assert items["discriminator"]["propertyName"] == "type"
    assert set(items["discriminator"]["mapping"]) == appendable
    for tag in appendable:
        item = schemas[f"{game_id}.{tag}"]
        assert item["properties"]["type"]["const"] == tag
        assert item["description"] and item["examples"], tag
        assert item["properties"]["data"]["additionalProperties"] is False


def test_appending_documents_every_answer_with_problem_json(document):
    operation = document["paths"][APPEND]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert {ref["$ref"] for ref in body["anyOf"]} == {f"#/components/schemas/{g}.batch" for g in GAME_IDS}
    responses = operation["responses"]
    assert {"200", "201", "401", "403", "404", "409", "413", "422"} <= set(responses)
    assert "stale-position" in responses["409"]["description"] and "event-id-reused" in responses["409"]["description"]
    for status in ("401", "403", "404", "409", "413", "422"):
        assert list(responses[status]["content"]) == ["application/problem+json"]
    assert operation["security"] == [{"bearer": []}]
    assert document["components"]["securitySchemes"]["bearer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": document["components"]["securitySchemes"]["bearer"]["description"],
    }


def test_routes_without_a_token_declare_no_security(document):
    assert "security" not in document["paths"]["/v1/games"]["get"]
    assert "security" not in document["paths"]["/v1/campaigns"]["post"]
    assert document["paths"]["/v1/campaigns/{campaign}/state"]["get"]["security"] == [{"bearer": []}]


def test_history_pages_document_a_sentence_on_every_event(document):
    told = document["components"]["schemas"]["Told"]
    assert "sentence" in told["required"]
    page = document["paths"][APPEND]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert page == {"$ref": "#/components/schemas/History"}


@pytest.mark.parametrize("path", ["/schema", "/schema/openapi.json"])
def test_nothing_under_schema_is_loaded_from_another_host(api, path):
    answer = api.client.get(path)
    assert answer.status_code == 200, answer.text
    # Problem types are named under quartermaster.invalid, a name that cannot resolve (RFC 2606): nothing is loaded.
    text = answer.text.replace("https://quartermaster.invalid/", "")
    assert not re.search(r"https?://|(src|href)=['\"]//", text), re.search(r".{60}https?://.{60}", text)


def test_the_documentation_page_lists_every_event_type_with_an_example(api):
    page = api.client.get("/schema").text
    for game_id in GAME_IDS:
        for tag, event_type in event_types(game_id).items():
            if not event_type.WRITTEN_BY:
                assert f"id='{game_id}.{tag}'" in page, tag
    assert "&quot;dificulty&quot;" not in page and "difficulty" in page


def test_every_route_that_reads_an_idempotency_key_documents_the_header_and_no_other_does(document):
    import inspect

    from quartermaster.service.app import create_app
    from quartermaster.service.platform.settings import Settings

    app = create_app(Settings(), "postgresql://unused")
    reading = {
        (method.lower(), route.path.replace("{campaign:str}", "{campaign}"))
        for route in app.routes
        for handler in getattr(route, "route_handlers", [])
        for method in handler.http_methods
        if "keyed(request" in inspect.getsource(handler.fn)
    }
    documented = {
        (method, path)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if any(p["name"] == "Idempotency-Key" and p["in"] == "header" for p in operation.get("parameters", []))
    }
    assert ("post", "/v1/campaigns/{campaign}/undo") in reading  # the check finds what it looks for
    assert documented == reading
    header = next(
        p
        for p in document["paths"]["/v1/campaigns/{campaign}/rolls"]["post"]["parameters"]
        if p["name"] == "Idempotency-Key"
    )
    assert header["required"] is False and header["schema"]["pattern"] == "^[!-~]{1,200}$"


def _validates(document, schema, value):
    from jsonschema import Draft202012Validator

    return list(Draft202012Validator({**schema, "components": document["components"]}).iter_errors(value))


def _answers(document):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for status, answer in operation["responses"].items():
                yield f"{method.upper()} {path} {status}", answer


def test_every_answer_with_a_body_has_a_schema_and_an_example_that_validates(document):
    checked = 0
    for where, answer in _answers(document):
        for media_type, content in answer.get("content", {}).items():
            assert "schema" in content and "example" in content, (where, media_type)
            assert not _validates(document, content["schema"], content["example"]), (where, media_type)
            checked += 1
    assert checked > 250


def test_every_schema_example_validates_against_its_schema(document):
    for name, schema in document["components"]["schemas"].items():
        for example in schema.get("examples", []):
            errors = _validates(document, schema, example)
            assert not errors, (name, errors[0].message)


def test_schema_titles_are_unique_so_generators_name_each_class_apart(document):
    titles = [s["title"] for s in document["components"]["schemas"].values()]
    assert len(titles) == len(set(titles)), sorted(t for t in titles if titles.count(t) > 1)
    assert {"PacgSkullAndShacklesNoteAdded", "SkullTalesFullSailNoteAdded"} <= set(titles)


@pytest.mark.parametrize(
    "path",
    [
        APPEND,
        "/v1/campaigns/{campaign}/undo",
        "/v1/campaigns/{campaign}/redo",
        "/v1/campaigns/{campaign}/rolls",
        "/v1/campaigns/{campaign}/members",
    ],
)
def test_a_retry_answered_from_the_log_is_listed_beside_the_first_answer(document, path):
    responses = document["paths"][path]["post"]["responses"]
    assert (
        responses["200"]["content"]["application/json"]["schema"]
        == (responses["201"]["content"]["application/json"]["schema"])
    )


def test_429_and_503_say_when_to_retry_where_they_can_happen(document):
    for path in ("/v1/campaigns", "/v1/campaigns/import"):
        assert "Retry-After" in document["paths"][path]["post"]["responses"]["429"]["headers"]
    for where, answer in _answers(document):
        if where.endswith(" 503"):
            assert "Retry-After" in answer["headers"], where
    # Wherever a token is read: too many wrong tokens from one address (service/http/guesses.py).
    assert "Retry-After" in document["paths"][APPEND]["post"]["responses"]["429"]["headers"]
    assert "429" not in document["paths"]["/v1/games"]["get"]["responses"]


def test_path_parameters_with_a_closed_set_of_values_are_enums(document):
    def parameter(path, name):
        return next(p for p in document["paths"][path]["get"]["parameters"] if p["name"] == name)

    assert parameter("/v1/catalog/{game_id}", "game_id")["schema"]["enum"] == list(GAME_IDS)
    assert parameter("/v1/games/{game_id}/event-types", "game_id")["schema"]["enum"] == list(GAME_IDS)
    assert "fleet" in parameter("/v1/campaigns/{campaign}/views/{name}", "name")["schema"]["enum"]
    started = document["paths"]["/v1/campaigns"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert started == {"$ref": "#/components/schemas/NewCampaign"}  # a generator's class: NewCampaign
    assert document["components"]["schemas"]["NewCampaign"]["properties"]["game"]["enum"] == list(GAME_IDS)


def test_import_and_export_describe_their_ndjson(document):
    exported = document["paths"]["/v1/campaigns/{campaign}/export"]["get"]["responses"]["200"]["content"]
    imported = document["paths"]["/v1/campaigns/import"]["post"]["requestBody"]["content"]
    assert list(exported) == list(imported) == ["application/x-ndjson"]
    lines = exported["application/x-ndjson"]["example"].splitlines()
    assert len(lines) == 3 and '"hash"' in lines[0] and '"prev"' in lines[2]
    schemas = document["components"]["schemas"]
    assert not _validates(document, schemas["ExportHeaderLine"], json.loads(lines[0]))
    for line in lines[1:]:
        assert not _validates(document, schemas["ExportEventLine"], json.loads(line))


def test_what_the_catalogue_fills_is_not_required_of_a_client(document):
    schemas = document["components"]["schemas"]
    skill = schemas["skull-tales-full-sail.skill.learned"]["properties"]["data"]
    assert set(skill["required"]) == {"pirate_id", "skill"}
    assert "catalogue" in skill["properties"]["coins"]["description"]


def test_the_reads_that_answer_an_etag_document_it_and_their_304(api, document):
    from litestar.routes import HTTPRoute

    from quartermaster.service.http.conventions import CONDITIONAL

    conditional = {
        route.path_format
        for route in api.client.app.routes
        if isinstance(route, HTTPRoute)
        for handler in route.route_handlers
        if CONDITIONAL in (handler.middleware or ())
    }
    documented = {path for path, item in document["paths"].items() if "304" in item.get("get", {}).get("responses", {})}
    assert {"/v1/campaigns/{campaign}/state", APPEND} <= conditional == documented
    for path in documented:
        operation = document["paths"][path]["get"]
        assert "ETag" in operation["responses"]["200"]["headers"]
        assert any(p["name"] == "If-None-Match" for p in operation["parameters"])
