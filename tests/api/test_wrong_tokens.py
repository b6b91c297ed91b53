"""Wrong tokens are throttled per client address (OWASP ASVS 2.2.1): after the bound, 429 with Retry-After and a
sentence, nothing read or written for the guesser, while a member this server already knows keeps playing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from litestar.testing import TestClient

from quartermaster.service.app import create_app
from quartermaster.service.platform.settings import Settings
from tests.conftest import Api

BOUND = 5
PAGE = {"X-Quartermaster": "page"}


@pytest.fixture
def guarded(database_url: str, app_settings: Settings) -> Iterator[Api]:
    """An app of its own (its count starts at zero) with a bound of 5 wrong tokens a minute."""
    settings = replace(app_settings, wrong_tokens=f"{BOUND}/minute")
    with TestClient(create_app(settings, database_url)) as client:
        yield Api(client)


def _wrong(campaign_id: str, n: int) -> str:
    # Well formed, of the right campaign's shape, and matching no member.
    return f"qm_{'0' * 31}{n}_{'x' * 43}"


def test_a_burst_of_wrong_bearer_tokens_is_answered_429_with_retry_after_and_nothing_written(guarded):
    campaign = guarded.new_campaign()
    # The owner plays from this address before the burst, so this server has matched their token
    before = guarded.get(campaign, "").json()["position"]
    answers = [
        guarded.append(campaign, [{"type": "note.added", "data": {"text": "guess"}}], token=_wrong(campaign.id, n))
        for n in range(BOUND + 3)
    ]
    assert [a.status_code for a in answers] == [401] * BOUND + [429] * 3
    refused = answers[-1]
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert refused.json()["detail"].startswith("Too many wrong tokens were sent from this address; wait ")
    # The owner, whose token this server already matched, is not locked out from the same address
    assert guarded.get(campaign, "").json()["position"] == before


def test_over_the_bound_a_token_never_matched_here_is_refused_without_being_looked_up(guarded):
    campaign = guarded.new_campaign()
    # A player added before the burst but who has not played yet on this server; the owner has
    player = guarded.add_member(campaign, "player", "Jade")
    for n in range(BOUND):
        assert guarded.get(campaign, "", token=_wrong(campaign.id, n)).status_code == 401
    assert guarded.get(campaign, "", token=player).status_code == 429
    assert guarded.get(campaign, "").status_code == 200


def test_wrong_join_links_and_cookies_count_toward_the_same_bound(guarded):
    campaign = guarded.new_campaign()
    client = guarded.client
    guarded.get(campaign, "")  # the owner's token, matched here once
    for n in range(BOUND - 1):
        assert client.post("/session", json={"token": _wrong(campaign.id, n)}, headers=PAGE).status_code == 401
    # A wrong cookie on the page's own request counts as a wrong token too
    client.cookies.set(f"qm_{campaign.id.replace('-', '')}", _wrong(campaign.id, 99))
    assert client.get(f"/v1/campaigns/{campaign.id}").status_code == 401
    client.cookies.clear()
    refused = client.post("/session", json={"token": _wrong(campaign.id, 100)}, headers=PAGE)
    assert refused.status_code == 429 and "retry-after" in refused.headers
    # The owner's join link, already matched, still signs a phone in at this address, and its cookie still works
    assert client.post("/session", json={"token": campaign.token}, headers=PAGE).status_code == 201
    assert client.get(f"/v1/campaigns/{campaign.id}").status_code == 200
    assert [t["campaign"] for t in client.get("/session").json()["tables"]] == [campaign.id]
    client.cookies.clear()


def test_a_token_of_another_campaign_is_not_a_wrong_token(guarded):
    mine, theirs = guarded.new_campaign(), guarded.new_campaign()
    # A token of another campaign is found in the database, not only in this server's memory of matched tokens
    for _ in range(BOUND + 2):
        assert guarded.get(mine, "", token=theirs.token).status_code == 404
    assert guarded.get(mine, "", token=_wrong(mine.id, 1)).status_code == 401
