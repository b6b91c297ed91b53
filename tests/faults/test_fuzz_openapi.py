"""Schemathesis over the OpenAPI document, with a member token: no answer is a 5xx, and every 4xx is problem+json.

Requests are generated from the document itself (made from the request types), sent to a real `quartermaster serve`
over HTTP. Half of them name a real campaign, so they get past the campaign look-up to the handlers. Bounded for a
small machine: a few examples per operation. The live stream is left out: it answers by staying open.
"""

from __future__ import annotations

import uuid

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from quartermaster.service.app import create_app
from quartermaster.service.platform.settings import Settings
from tests.faults.servers import serve

pytestmark = pytest.mark.slow

DOCUMENT = create_app(Settings(), "postgresql://unused").openapi_schema.to_schema()
SCHEMA = schemathesis.openapi.from_dict(DOCUMENT).exclude(path_regex=r".*/stream$")


@pytest.fixture(scope="module")
def served(tmp_path_factory, database_url):
    folder = tmp_path_factory.mktemp("fuzz")
    server = serve(folder, database_url=database_url, env={"QUARTERMASTER_RATE_LIMIT": "off"})
    server.wait_ready()
    created = httpx.post(f"{server.url}/v1/campaigns", json={"name": "Fuzz", "game": "pacg-skull-and-shackles"}).json()
    yield server, created
    server.kill()


@SCHEMA.parametrize()
@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_no_request_gets_a_5xx_and_every_4xx_is_problem_json(case, served):
    server, created = served
    if "campaign" in (case.path_parameters or {}) and uuid.uuid5(uuid.NAMESPACE_URL, str(case.path_parameters)).int % 2:
        case.path_parameters["campaign"] = created["id"]
    answer = case.call(base_url=server.url, headers={"Authorization": f"Bearer {created['token']}"}, timeout=30)
    assert answer.status_code < 500, f"{case.method} {case.formatted_path}: {answer.status_code} {answer.text}"
    if answer.status_code >= 400:
        media_type = answer.headers.get("content-type") or [""]
        where = f"{case.method} {case.formatted_path}"
        assert media_type[0].startswith("application/problem+json"), f"{where}: {answer.text}"
        assert answer.json()["detail"]
