"""The OpenAPI document: valid, a schema for every event type of both games, every answer documented, the
bearer scheme declared, nothing under /schema loaded from another host, and real answers that match it."""

from __future__ import annotations

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
