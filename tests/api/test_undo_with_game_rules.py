"""Undo that the game's rules push back on, and history filters that need a game: over HTTP, with Skull & Shackles."""

from __future__ import annotations

import json

from tests.unit.pacg.pacg_world import SETUP, START, draw, move, zone

GAME = "pacg-skull-and-shackles"


# A scenario of the table's own making, so the catalogue leaves it as it is (its own scenarios belong to
# adventures that must begin first).
OWN_SCENARIO = "Practice at the Docks"


def a_scenario_under_way(api):
    campaign = api.new_campaign(GAME)
    scenario = {**START[0], "data": {**START[0]["data"], "scenario": OWN_SCENARIO}}
    for payload in [*SETUP, scenario, *START[1:]]:
        answer = api.append(campaign, [payload])
        assert answer.status_code == 201, answer.text
    return campaign


def discard(who: str, name: str) -> dict:
    return move(name, "discard", zone("hand", who), zone("discard", who))


def test_undoing_a_draw_that_a_later_discard_needed_is_refused_with_the_discard_and_its_reason(api):
    campaign = a_scenario_under_way(api)
    drawn = api.append(campaign, [draw("merisiel", "Dagger")]).json()
    discarded = api.append(campaign, [discard("merisiel", "Dagger")]).json()
    before = api.get(campaign, "").json()["position"]
    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/undo", json={"batch": drawn["batch"]}, headers=campaign.headers
    )
    assert answer.status_code == 409, answer.text
    (conflict,) = answer.json()["conflicts"]
    assert conflict["position"] == discarded["first_position"] and conflict["type"] == "card.moved"
    assert "Dagger is not in Merisiel's hand" in conflict["reason"]
    assert "cascade=true" in answer.json()["detail"]
    assert api.get(campaign, "").json()["position"] == before  # nothing was written


def test_undo_with_cascade_takes_the_dependent_discard_too_and_redo_brings_both_back(api):
    campaign = a_scenario_under_way(api)
    drawn = api.append(campaign, [draw("merisiel", "Dagger")]).json()
    discarded = api.append(campaign, [discard("merisiel", "Dagger")]).json()
    in_deck = api.get(campaign, "/characters/merisiel").json()
    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/undo", json={"batch": drawn["batch"], "cascade": True}, headers=campaign.headers
    )
    assert answer.status_code == 201, answer.text
    assert answer.json()["undone"] == [drawn["first_position"], discarded["first_position"]]
    after_undo = api.get(campaign, "/characters/merisiel").json()["character"]
    assert after_undo == api.get(campaign, "/characters/merisiel", at=drawn["first_position"] - 1).json()["character"]
    redo = api.client.post(f"/v1/campaigns/{campaign.id}/redo", headers=campaign.headers)
    assert redo.status_code == 201, redo.text
    assert redo.json()["redone"] == [drawn["first_position"], discarded["first_position"]]
    assert api.get(campaign, "/characters/merisiel").json()["character"] == in_deck["character"]


def test_redo_that_a_later_event_contradicts_is_refused(api):
    campaign = a_scenario_under_way(api)
    api.append(campaign, [draw("merisiel", "Dagger")])
    api.client.post(f"/v1/campaigns/{campaign.id}/undo", headers=campaign.headers)
    # With the draw undone, the Dagger is still in the deck: draw it again for real.
    api.append(campaign, [draw("merisiel", "Dagger")])
    redo = api.client.post(f"/v1/campaigns/{campaign.id}/redo", headers=campaign.headers)
    assert redo.status_code == 409, redo.text
    assert "Dagger is not in Merisiel's deck" in redo.json()["conflicts"][0]["reason"]


def test_history_filters_by_character_and_by_scenario(api):
    campaign = a_scenario_under_way(api)
    api.append(campaign, [draw("merisiel", "Dagger")])
    api.append(campaign, [draw("valeros", "Longsword")])
    mine = api.get(campaign, "/events", character="valeros").json()["events"]
    # A card move names its character inside its zones; every event found concerns Valeros somewhere.
    assert mine and all("valeros" in json.dumps(e["data"]) for e in mine)
    assert not any("merisiel" in json.dumps(e["data"]) for e in mine)
    assert any(e["type"] == "card.moved" for e in mine)
    in_scenario = api.get(campaign, "/events", scenario=OWN_SCENARIO).json()["events"]
    assert in_scenario[0]["type"] == "scenario.started"
    assert in_scenario[-1]["type"] == "card.moved" and len(in_scenario) == len(START) + 2
    assert api.get(campaign, "/events", scenario="Raiders of the Fever Sea").json()["events"] == []
