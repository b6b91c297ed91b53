"""`POST /rolls` in both games, rolled by the server and thrown at the table: the service draws or reads the faces,
and the game's fold says what they mean (its total, its successes, whether the check succeeded)."""

from __future__ import annotations

from typing import Any

from tests.unit.skull_tales.chapter_one import CREW, event

SKULL_TALES = "skull-tales-full-sail"
SKULL_AND_SHACKLES = "pacg-skull-and-shackles"


def rolled(api, campaign, **body: Any) -> dict[str, Any]:
    answer = api.client.post(f"/v1/campaigns/{campaign.id}/rolls", json=body, headers=campaign.headers)
    assert answer.status_code == 201, answer.text
    return answer.json()["roll"]["data"]


def faces(data: dict[str, Any]) -> list[int]:
    return [die["face"] for die in data["dice"]]


# Skull Tales: Full Sail! rulebook, Book I: Dice Rolls, Difficulty rolls: "You get one success for each die that
# exceeds the specified value."


def test_given_skull_tales_when_the_server_rolls_a_pool_then_the_dice_above_the_target_are_its_successes(api):
    campaign = api.new_campaign(SKULL_TALES)

    data = rolled(api, campaign, expression="4d6>4", required=2, purpose="Agility 4 (2)")

    assert data["source"] == "server" and data["expression"] == "4d6>4"
    assert data["total"] == sum(faces(data))
    assert data["successes"] == sum(1 for face in faces(data) if face > 4)
    assert data["success"] == (data["successes"] >= 2)


def test_given_a_skull_tales_campaign_when_the_table_logs_a_pool_then_a_die_equal_to_the_target_is_no_success(api):
    campaign = api.new_campaign(SKULL_TALES)

    data = rolled(api, campaign, expression="4d6>4", faces=[5, 6, 1, 4], required=2)

    assert (data["total"], data["successes"], data["success"], data["source"]) == (16, 2, True, "table")


def test_given_the_readme_example_when_it_is_rolled_in_skull_tales_then_it_is_recorded(api):
    campaign = api.new_campaign(SKULL_TALES)

    data = rolled(api, campaign, expression="4d6>4")

    assert data["successes"] == sum(1 for face in faces(data) if face > 4)
    assert data["success"] == (data["successes"] >= 1)


# Book I: Dice Rolls, Charisma rolls: "Any Charisma die roll is resolved by rolling a die and adding the value of
# the Character"; Difficulty rolls give "a value to exceed" (campaign option charisma_difficulty, default "exceed").


def test_given_the_default_options_when_a_charisma_total_equals_its_difficulty_then_the_check_fails(api):
    campaign = api.new_campaign(SKULL_TALES)

    data = rolled(api, campaign, expression="1d6+3", faces=[2], difficulty=5, purpose="Storytelling")

    assert (data["total"], data["success"]) == (5, False)


def test_given_charisma_difficulty_meet_when_a_charisma_total_equals_its_difficulty_then_the_check_succeeds(api):
    campaign = api.new_campaign(SKULL_TALES, options={"charisma_difficulty": "meet"})

    data = rolled(api, campaign, expression="1d6+3", faces=[2], difficulty=5)

    assert (data["total"], data["success"]) == (5, True)


def test_given_a_skull_tales_campaign_when_the_server_rolls_a_charisma_check_then_it_must_exceed_the_difficulty(api):
    campaign = api.new_campaign(SKULL_TALES)

    data = rolled(api, campaign, expression="1d6+3", difficulty=5)

    assert data["success"] == (data["total"] > 5)


def test_given_a_destiny_point_spent_for_plus_one_when_the_pirate_rolls_a_pool_then_each_die_counts_one_higher(api):
    campaign = api.new_campaign(SKULL_TALES)
    ready = api.append(campaign, [*CREW, event("destiny.changed", pirate_id="anne", amount=-1, plus_one=True)])
    assert ready.status_code == 201, ready.text

    data = rolled(api, campaign, expression="2d6>4", faces=[4, 4], character_id="anne")
    again = rolled(api, campaign, expression="2d6>4", faces=[4, 4], character_id="anne")

    assert (data["successes"], data["success"]) == (2, True)
    assert (again["successes"], again["success"]) == (0, False)


def test_given_a_skull_tales_campaign_when_a_pool_asks_for_more_successes_than_dice_then_nothing_is_written(api):
    campaign = api.new_campaign(SKULL_TALES)

    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/rolls", json={"expression": "2d6>4", "required": 3}, headers=campaign.headers
    )

    assert answer.status_code == 422
    assert "2d6>4 rolls 2 dice, so it can require 1 to 2 successes, not 3." in answer.json()["detail"]
    assert api.get(campaign, "").json()["position"] == 2


def test_given_a_skull_tales_campaign_when_a_roll_uses_other_dice_than_d6_then_it_is_refused(api):
    campaign = api.new_campaign(SKULL_TALES)

    answer = api.client.post(
        f"/v1/campaigns/{campaign.id}/rolls", json={"expression": "1d20"}, headers=campaign.headers
    )

    assert answer.status_code == 422 and "six-sided dice only, not a d20" in answer.json()["detail"]


# Skull & Shackles Rulebook, Attempting a Check: "If the result is greater than or equal to the difficulty of the
# check, then you succeed."


def test_given_a_skull_and_shackles_campaign_when_the_server_rolls_a_check_then_it_succeeds_on_reaching_it(api):
    campaign = api.new_campaign(SKULL_AND_SHACKLES)

    data = rolled(api, campaign, expression="1d12+1d6+2", difficulty=8)

    assert data["total"] == sum(faces(data)) + 2
    assert data["success"] == (data["total"] >= 8) and data["source"] == "server"


def test_given_a_skull_and_shackles_campaign_when_the_table_logs_a_check_that_meets_it_then_it_succeeds(api):
    campaign = api.new_campaign(SKULL_AND_SHACKLES)

    data = rolled(api, campaign, expression="2d6+1", faces=[6, 3], difficulty=10)

    assert (data["total"], data["success"], data["source"]) == (10, True, "table")


def test_given_a_skull_and_shackles_campaign_when_a_pool_is_rolled_then_its_successes_are_counted(api):
    campaign = api.new_campaign(SKULL_AND_SHACKLES)

    server = rolled(api, campaign, expression="3d6>4", required=2)
    table = rolled(api, campaign, expression="3d6>4", faces=[5, 4, 6], required=2)

    assert server["successes"] == sum(1 for face in faces(server) if face > 4)
    assert (table["total"], table["successes"], table["success"]) == (15, 2, True)


def test_given_a_skull_and_shackles_campaign_when_a_roll_is_logged_whole_with_the_wrong_verdict_then_it_is_refused(api):
    campaign = api.new_campaign(SKULL_AND_SHACKLES)

    answer = api.append(
        campaign,
        [
            {
                "type": "dice.rolled",
                "data": {"dice": [{"sides": 6, "face": 3}], "total": 3, "difficulty": 4, "success": True},
            }
        ],
    )

    assert answer.status_code == 422
    assert "d6 totals 3 against a difficulty of 4, which is a failure." in answer.text


def test_given_a_skull_tales_campaign_when_a_charisma_roll_is_logged_whole_meeting_its_difficulty_then_it_fails(api):
    campaign = api.new_campaign(SKULL_TALES)

    answer = api.append(
        campaign,
        [
            {
                "type": "dice.rolled",
                "data": {
                    "dice": [{"sides": 6, "face": 2}],
                    "modifier": 3,
                    "total": 5,
                    "difficulty": 5,
                    "success": True,
                },
            }
        ],
    )

    assert answer.status_code == 422
    assert "d6 totals 5 against a difficulty of 5, which is a failure." in answer.text


def test_given_two_pirates_rolling_when_the_dice_statistics_name_one_then_they_count_only_that_pirates_rolls(api):
    campaign = api.new_campaign(SKULL_TALES)
    assert api.append(campaign, CREW).status_code == 201
    rolled(api, campaign, expression="1d6", faces=[1], character_id="anne")
    rolled(api, campaign, expression="1d6", faces=[6], character_id="anne")
    rolled(api, campaign, expression="1d6", faces=[6])

    answer = api.client.get(f"/v1/campaigns/{campaign.id}/stats/dice?character=anne", headers=campaign.headers)

    assert answer.status_code == 200, answer.text
    (d6,) = answer.json()["sizes"]
    assert d6["faces"] == [1, 0, 0, 0, 0, 1] and d6["rolls"] == 2
