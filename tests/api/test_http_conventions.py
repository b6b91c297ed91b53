"""HTTP as clients expect it: HEAD on every GET route, Allow on every 405, conditional reads of state and history,
and catalogue facts filled by the server and refused when a client contradicts them."""

from __future__ import annotations

import re

import pytest
from litestar.routes import HTTPRoute

from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, OPTIONS, PORT, event

SKULL_TALES = "skull-tales-full-sail"


def _get_routes(api) -> list[str]:
    paths = set()
    for route in api.client.app.routes:
        if isinstance(route, HTTPRoute) and "GET" in route.methods:
            paths.add(route.path)
    return sorted(paths)


def _address(path: str, campaign_id: str) -> str:
    values = {
        "campaign": campaign_id,
        "game_id": "pacg-skull-and-shackles",
        "name": "fleet",
        "character_id": "merisiel",
        "pirate_id": "anne",
        "member_id": "0",
    }
    return re.sub(r"\{(\w+):\w+\}", lambda m: values.get(m.group(1), "app.js"), path)


def test_every_get_route_answers_head_with_the_gets_status_and_headers_and_no_body(api):
    campaign = api.new_campaign()
    checked = []
    for path in _get_routes(api):
        if path.endswith("/stream"):
            continue  # below: it follows the log until its client leaves
        address = _address(path, campaign.id)
        got = api.client.get(address, headers=campaign.headers)
        head = api.client.head(address, headers=campaign.headers)
        assert head.status_code == got.status_code, (address, head.status_code, got.status_code)
        assert head.content == b"", address
        assert head.headers.get("content-type") == got.headers.get("content-type"), address
        if got.status_code == 200 and "content-length" in got.headers and path != "/metrics":  # counts move
            assert head.headers["content-length"] == got.headers["content-length"], address
        checked.append(path)
    assert {"/", "/healthz", "/readyz", "/static/{name:str}", "/v1/campaigns/{campaign:str}/state"} <= set(checked)


def test_head_on_the_live_stream_answers_its_headers_and_ends(api):
    campaign = api.new_campaign()
    head = api.client.head(f"/v1/campaigns/{campaign.id}/stream", headers=campaign.headers)
    assert head.status_code == 200
    assert head.headers["content-type"].startswith("text/event-stream")
    assert head.content == b""


@pytest.mark.parametrize("method", ["PUT", "PATCH", "DELETE", "POST"])
def test_a_method_a_route_does_not_take_answers_405_with_allow(api, method):
    campaign = api.new_campaign()
    for route in api.client.app.routes:
        if not isinstance(route, HTTPRoute) or method in route.methods:
            continue
        address = _address(route.path, campaign.id)
        answer = api.client.request(method, address, headers=campaign.headers)
        assert answer.status_code == 405, (method, address, answer.text)
        allowed = {m.strip() for m in answer.headers["allow"].split(",")}
        assert allowed == (set(route.methods) - {"OPTIONS"}) | ({"HEAD"} if "GET" in route.methods else set()) | (
            {"OPTIONS"} & allowed
        ), (address, allowed)
        assert answer.headers["content-type"].startswith("application/problem+json")
        assert method in answer.json()["detail"]


@pytest.mark.parametrize("path", ["/state", "/events", "/fleet", "/views/vault"])
def test_a_reread_of_an_unchanged_answer_is_304_and_a_changed_one_200_with_a_new_etag(api, path):
    campaign = api.new_campaign()
    first = api.get(campaign, path)
    assert first.status_code == 200
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "private, no-cache"

    again = api.client.get(f"/v1/campaigns/{campaign.id}{path}", headers={**campaign.headers, "If-None-Match": etag})
    assert again.status_code == 304, again.text
    assert again.content == b""
    assert again.headers["etag"] == etag

    weak_list = api.client.get(
        f"/v1/campaigns/{campaign.id}{path}", headers={**campaign.headers, "If-None-Match": f'"other", W/{etag}'}
    )
    assert weak_list.status_code == 304

    assert api.append(campaign, [{"type": "note.added", "data": {"text": "A new fact."}}]).status_code == 201
    changed = api.client.get(f"/v1/campaigns/{campaign.id}{path}", headers={**campaign.headers, "If-None-Match": etag})
    if path in ("/state", "/events"):  # a note changes the position and the log, not every view
        assert changed.status_code == 200
        assert changed.headers["etag"] != etag
        assert changed.json()


def test_a_read_at_an_older_position_keeps_its_etag_as_the_log_grows(api):
    campaign = api.new_campaign()
    at_two = api.get(campaign, "/state", at=2)
    assert api.append(campaign, [{"type": "note.added", "data": {"text": "Later."}}]).status_code == 201
    again = api.client.get(
        f"/v1/campaigns/{campaign.id}/state",
        params={"at": 2},
        headers={**campaign.headers, "If-None-Match": at_two.headers["etag"]},
    )
    assert again.status_code == 304


def _in_port(api):
    campaign = api.new_campaign(SKULL_TALES, options=OPTIONS)
    assert api.append(campaign, CREW + CHAPTER_ONE + PORT[:5]).status_code == 201
    return campaign


def test_a_value_the_catalogue_determines_is_filled_in_by_the_server_and_shown_in_the_answer(api):
    campaign = _in_port(api)
    answer = api.append(campaign, [event("ship.upgraded", pirate_id="anne", upgrade="Cannon")])
    assert answer.status_code == 201, answer.text
    assert answer.json()["events"][0]["data"]["cost"] == 100


def test_a_value_contradicting_the_catalogue_is_refused_in_a_sentence_and_nothing_written(api):
    campaign = _in_port(api)
    before = api.get(campaign, "").json()["position"]
    answer = api.append(campaign, [event("ship.upgraded", pirate_id="anne", upgrade="Cannon", cost=50)])
    assert answer.status_code == 422, answer.text
    reason = answer.json()["errors"][0]["reason"]
    assert "Cannon" in reason and "cost is 100, not 50" in reason and "override" in reason
    assert api.get(campaign, "").json()["position"] == before


def test_a_value_contradicting_the_catalogue_with_an_override_is_recorded_as_sent(api):
    campaign = _in_port(api)
    sent = event("ship.upgraded", pirate_id="anne", upgrade="Cannon", cost=50)
    answer = api.append(campaign, [{**sent, "override": {"reason": "Our house rule halves the price of cannons."}}])
    assert answer.status_code == 201, answer.text
    recorded = answer.json()["events"][0]
    assert recorded["data"]["cost"] == 50
    assert recorded["override"] is not None


def test_a_card_type_contradicting_the_catalogue_is_refused(api):
    campaign = api.new_campaign()
    card = {"type": "card.moved"}
    answer = api.append(
        campaign,
        [
            {
                **card,
                "data": {
                    "card": "Cutlass",
                    "card_type": "blessing",
                    "from": {"zone": "vault"},
                    "to": {"zone": "vault"},
                    "verb": "return",
                },
            }
        ],
    )
    assert answer.status_code == 422, answer.text
    assert "Cutlass is a weapon card in the catalogue, not a blessing" in answer.json()["detail"]


def test_options_names_every_method_of_the_route_in_allow(api):
    campaign = api.new_campaign()
    for route in api.client.app.routes:
        if not isinstance(route, HTTPRoute):
            continue
        answer = api.client.options(_address(route.path, campaign.id), headers=campaign.headers)
        assert answer.status_code == 204, (route.path, answer.text)
        allowed = {m.strip() for m in answer.headers["allow"].split(",")}
        assert allowed == set(route.methods) | ({"HEAD"} if "GET" in route.methods else set()), route.path


def test_an_if_none_match_that_is_not_entity_tags_is_refused_in_a_sentence(api):
    campaign = api.new_campaign()
    answer = api.client.get(
        f"/v1/campaigns/{campaign.id}/state", headers={**campaign.headers, "If-None-Match": b"\xc2\x84"}
    )
    assert answer.status_code == 400
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert "If-None-Match" in answer.json()["detail"]


def test_a_character_named_otherwise_than_her_card_is_refused_unless_overridden(api):
    campaign = api.new_campaign()
    joined = {"type": "character.joined", "data": {"character_id": "merisiel", "name": "Merry", "player": "Mira"}}
    refused = api.append(campaign, [joined])
    assert refused.status_code == 422, refused.text
    assert "her name is 'Merisiel', not 'Merry'" in refused.json()["detail"]
    kept = api.append(campaign, [{**joined, "override": {"reason": "Mira calls her Merry at our table."}}])
    assert kept.status_code == 201, kept.text
    assert kept.json()["events"][0]["data"]["name"] == "Merry"
