"""Real answers match the OpenAPI document: schemathesis generates requests for every operation from the document
and checks each answer's status, media type and body against it. (Server errors as such are the fault tests'
concern; here an undocumented answer, a 500 included, is a conformance failure.)"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from quartermaster.projections.registry import GAME_IDS, event_types
from quartermaster.service.app import create_app
from quartermaster.service.http.documentation import document
from quartermaster.service.platform.settings import Settings

# An import's body is an export, NDJSON: sent as the bytes generated for it.
schemathesis.serializer.alias("application/x-ndjson", "application/octet-stream")
# The document is made from the code alone (no database is touched until the app starts).
DOCUMENT = document(create_app(Settings(), "postgresql://unused"))
APPEND = "/v1/campaigns/{campaign}/events"
everything = schemathesis.openapi.from_dict(DOCUMENT)
# The live stream never ends by itself (tests/api reads it with a reader that stops). Appending is checked below with
# every example of every event type: generating batches from a union of ninety types is slow and mostly noise.
schema = everything.exclude(path_regex=r"/stream$").exclude(method="POST", path=APPEND)
CHECKS = [status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def conformance_campaign(api):
    """A Skull & Shackles campaign whose owner's token every generated request carries."""
    campaign = api.new_campaign(name="Conformance")
    return campaign.id, campaign.token


@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
def test_real_answers_match_the_document(case, api, conformance_campaign):
    campaign, token = conformance_campaign
    if "campaign" in (case.path_parameters or {}):
        # Aim at a real campaign with its owner's token, so answers past the token check are exercised too.
        case.path_parameters["campaign"] = campaign
    response = send(api, case, token)
    case.validate_response(response, checks=CHECKS)


def send(api, case, token):
    kwargs = case.as_transport_kwargs(base_url="http://testserver", headers={"Authorization": f"Bearer {token}"})
    request = {
        key: kwargs[key]
        for key in ("method", "url", "params", "headers", "json", "data", "content")
        if kwargs.get(key) is not None
    }
    if "data" in request:
        request["content"] = request.pop("data")
    # A header generated against its pattern may hold characters past ASCII: sent as their UTF-8 bytes.
    request["headers"] = {k: v.encode() if isinstance(v, str) else v for k, v in request.get("headers", {}).items()}
    return api.client.request(**request)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_appending_each_example_answers_as_the_document_says(api, game_id):
    operation = everything.find_operation_by_path("POST", APPEND)
    campaign = api.new_campaign(game_id, name="Examples")
    statuses = set()
    for tag, event_type in event_types(game_id).items():
        for example in () if event_type.WRITTEN_BY else event_type.EXAMPLES:
            body = {"events": [{"type": tag, "data": example}]}
            case = everything.make_case(
                operation=operation, path_parameters={"campaign": campaign.id}, body=body, media_type="application/json"
            )
            response = send(api, case, campaign.token)
            case.validate_response(response, checks=CHECKS)
            statuses.add(response.status_code)
    # A fresh campaign accepts some examples and the rules refuse others: both answers were checked.
    assert statuses == {201, 422}
