"""Starting and importing campaigns, the two things anyone may do without a token, are limited per client."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

from quartermaster.service.app import create_app
from quartermaster.service.http.limits import LimitSyntaxError, parse
from quartermaster.service.platform.settings import Settings

NEW = {"name": "Wormwood", "game": "pacg-skull-and-shackles"}


@pytest.fixture
def limited(database_url):
    with TestClient(create_app(Settings(pool_min=1, pool_max=2, rate_limit="3/minute"), database_url)) as client:
        yield client


def test_a_client_over_the_limit_gets_429_problem_json_with_retry_after(limited):
    answers = [limited.post("/v1/campaigns", json=NEW) for _ in range(4)]

    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    refused = answers[-1]
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert refused.json()["type"].endswith("/rate-limited")
    assert 0 < int(refused.headers["retry-after"]) <= 60
    assert f"wait {refused.headers['retry-after']} seconds" in refused.json()["detail"]


def test_imports_count_against_the_same_limit_and_nothing_is_imported_when_refused(limited):
    first = limited.post("/v1/campaigns", json=NEW).json()
    export = limited.get(
        f"/v1/campaigns/{first['id']}/export", headers={"Authorization": f"Bearer {first['token']}"}
    ).content
    imported = [limited.post("/v1/campaigns/import", content=export) for _ in range(3)]

    assert [a.status_code for a in imported] == [201, 201, 429]
    assert "id" not in imported[-1].json()


def test_calls_with_a_member_token_are_not_limited(limited):
    campaign = limited.post("/v1/campaigns", json=NEW).json()
    for _ in range(3):
        limited.post("/v1/campaigns", json=NEW)
    headers = {"Authorization": f"Bearer {campaign['token']}"}

    reads = [limited.get(f"/v1/campaigns/{campaign['id']}", headers=headers).status_code for _ in range(10)]
    note = limited.post(
        f"/v1/campaigns/{campaign['id']}/events",
        headers=headers,
        json={"events": [{"type": "note.added", "data": {"text": "Still writing."}}]},
    )

    assert reads == [200] * 10 and note.status_code == 201


def test_other_routes_neither_count_against_the_limit_nor_carry_its_headers(limited):
    unlimited = [limited.get("/healthz") for _ in range(10)] + [limited.get("/v1/nowhere") for _ in range(10)]
    starts = [limited.post("/v1/campaigns", json=NEW) for _ in range(4)]

    assert {a.status_code for a in unlimited} == {200, 404}
    assert not any("ratelimit-limit" in a.headers for a in unlimited)
    assert [a.status_code for a in starts] == [201, 201, 201, 429]
    assert starts[0].headers["ratelimit-remaining"] == "2"


def test_the_limit_can_be_switched_off(database_url):
    with TestClient(create_app(Settings(pool_min=1, pool_max=2, rate_limit="off"), database_url)) as client:
        assert {client.post("/v1/campaigns", json=NEW).status_code for _ in range(25)} == {201}


@pytest.mark.parametrize("text", ["20", "twenty/minute", "20/fortnight", "0/minute"])
def test_a_limit_that_does_not_parse_is_refused_with_a_sentence(text):
    with pytest.raises(LimitSyntaxError, match="COUNT/UNIT"):
        parse(text)
