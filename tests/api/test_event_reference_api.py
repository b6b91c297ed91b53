"""Event types described once and read back over HTTP: the games, their event types, unknown fields refused with
a suggestion and nothing written, and a sentence on every history item."""

from __future__ import annotations

import re

import pytest

PACG = "pacg-skull-and-shackles"
TALES = "skull-tales-full-sail"


def positions(api, campaign):
    return [e["position"] for e in api.get(campaign, "/events").json()["events"]]


def test_the_games_are_listed_without_a_token(api):
    answer = api.client.get("/v1/games")
    assert answer.status_code == 200, answer.text
    games = {g["id"]: g for g in answer.json()["games"]}
    assert set(games) == {PACG, TALES}
    assert games[PACG]["event_types"] == f"/v1/games/{PACG}/event-types"
    assert "fleet" in games[PACG]["views"] and "pirates" in games[TALES]["views"]


@pytest.mark.parametrize("game", [PACG, TALES])
def test_each_games_event_types_carry_a_schema_an_example_and_who_may_append_them(api, game):
    answer = api.client.get(f"/v1/games/{game}/event-types")
    assert answer.status_code == 200, answer.text
    types = {t["type"]: t for t in answer.json()["event_types"]}
    rolled = types["dice.rolled"]
    assert rolled["summary"].startswith("Dice were thrown")
    assert rolled["schema"]["properties"]["difficulty"]["description"] == "The check's difficulty, when it has one."
    assert "type" not in rolled["schema"]["properties"] and rolled["schema"]["additionalProperties"] is False
    assert rolled["examples"] and rolled["appended_by"] == ["owner", "player"]
    started = types["campaign.started"]
    assert started["appended_by"] == [] and "POST /v1/campaigns" in started["written_by"]
    views = {g["id"]: g["views"] for g in api.client.get("/v1/games").json()["games"]}[game]
    assert types["event.undone"]["views"] == views
    assert types["note.added"]["views"] == []


def test_an_unknown_game_has_no_event_types(api):
    answer = api.client.get("/v1/games/monopoly/event-types")
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert "monopoly" in answer.json()["detail"] and PACG in answer.json()["detail"]


def test_a_misspelled_field_is_refused_with_its_event_its_type_and_a_suggestion_and_nothing_is_written(api):
    campaign = api.new_campaign()
    roll = {"dice": [{"sides": 6, "face": 4}], "total": 4, "dificulty": 8}
    answer = api.append(campaign, [{"type": "dice.rolled", "data": roll}])
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    problem = answer.json()
    assert problem["detail"] == ("Dice rolled has no field dificulty; did you mean difficulty? Nothing was written.")
    assert positions(api, campaign) == [1, 2]


def test_an_unknown_field_with_no_close_name_lists_the_fields_there_are(api):
    campaign = api.new_campaign()
    answer = api.append(
        campaign,
        [{"type": "note.added", "data": {"text": "x"}}, {"type": "note.added", "data": {"text": "y", "urgent": True}}],
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"] == [{"index": 1, "reason": "Note added has no field urgent; the fields are text."}]
    assert positions(api, campaign) == [1, 2]


def test_an_unknown_field_inside_a_nested_object_is_refused_with_where_it_is(api):
    campaign = api.new_campaign()
    move = {
        "card": "Dagger",
        "from": {"zone": "hand", "charcter_id": "merisiel"},
        "to": {"zone": "discard", "character_id": "merisiel"},
        "verb": "discard",
    }
    answer = api.append(campaign, [{"type": "card.moved", "data": move}])
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"][0]["reason"] == (
        "Card moved has no field charcter_id in the from; did you mean character_id?"
    )


def test_a_misspelled_field_of_a_request_body_gets_a_suggestion(api):
    answer = api.client.post("/v1/campaigns", json={"name": "x", "game": PACG, "optons": {}})
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"] == "The request has no field optons; did you mean options?"


def test_a_misspelled_event_type_gets_a_suggestion(api):
    campaign = api.new_campaign()
    answer = api.append(campaign, [{"type": "dice.roled", "data": {}}])
    assert answer.status_code == 422
    assert "Did you mean dice.rolled?" in answer.json()["detail"]


def test_every_history_item_carries_a_sentence_with_names_not_ids(api):
    campaign = api.new_campaign(TALES)
    sheet = {
        "pirate_id": "anne",
        "name": "Anne",
        "archetype": "Captain's Daughter",
        "classes": ["Duelist"],
        "attributes": {
            "melee": 3,
            "ranged": 2,
            "strength": 3,
            "agility": 4,
            "intelligence": 3,
            "perception": 3,
            "charisma": 4,
        },
        "action_points": 4,
        "health": 5,
        "destiny_points": 3,
        "salary": 20,
    }
    answer = api.append(
        campaign,
        [
            {"type": "pirate.recruited", "data": sheet},
            {"type": "chapter.started", "data": {"number": 1, "title": "The Secret of Captain Jones"}},
            {"type": "phase.started", "data": {"phase": "adventure"}},
            {"type": "fame.changed", "data": {"pirate_id": "anne", "amount": 80, "source": "goal"}},
        ],
    )
    assert answer.status_code == 201, answer.text
    events = api.get(campaign, "/events").json()["events"]
    sentences = [e["sentence"] for e in events]
    assert sentences[0] == "The campaign “Test voyage” began, playing Skull Tales: Full Sail!."
    assert sentences[-1] == "Anne gained 80 Fame (goal)."
    assert all(s and not re.search(r"\banne\b", s) for s in sentences), sentences
    # A filtered page is told from the same states as the whole log.
    only = api.get(campaign, "/events", type="fame.changed").json()["events"]
    assert [e["sentence"] for e in only] == ["Anne gained 80 Fame (goal)."]


def test_a_sentence_reads_the_names_of_its_own_moment_even_after_they_were_undone(api):
    campaign = api.new_campaign(TALES)
    sheet = {
        "pirate_id": "jack",
        "name": "Jack",
        "archetype": "Sea Dog",
        "classes": ["Rowdy"],
        "attributes": {
            "melee": 4,
            "ranged": 2,
            "strength": 4,
            "agility": 3,
            "intelligence": 2,
            "perception": 3,
            "charisma": 3,
        },
        "action_points": 4,
        "health": 6,
        "destiny_points": 2,
        "salary": 15,
    }
    recruited = api.append(campaign, [{"type": "pirate.recruited", "data": sheet}])
    assert recruited.status_code == 201, recruited.text
    fame = {"pirate_id": "jack", "amount": 5, "source": "goal"}
    assert api.append(campaign, [{"type": "fame.changed", "data": fame}]).status_code == 201
    undo = api.client.post(
        f"/v1/campaigns/{campaign.id}/undo",
        headers=campaign.headers,
        json={"batch": recruited.json()["batch"], "cascade": True},
    )
    assert undo.status_code == 201, undo.text
    assert api.append(campaign, [{"type": "note.added", "data": {"text": "Jack sat this one out."}}]).status_code == 201

    # Jack is no longer in the crew, but the sentences of his moment still name him.
    told = {e["type"]: e["sentence"] for e in api.get(campaign, "/events").json()["events"]}
    assert told["pirate.recruited"] == "Jack the Sea Dog joined the crew."
    assert told["fame.changed"] == "Jack gained 5 Fame (goal)."
    assert told["event.undone"] == "Undone: the events at positions 3 and 4 no longer count."
    assert told["note.added"] == "Note: Jack sat this one out."
    from_the_middle = api.get(campaign, "/events", after=3).json()["events"]
    assert from_the_middle[0]["sentence"] == "Jack gained 5 Fame (goal)."
