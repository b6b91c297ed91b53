"""Scenario and chapter reports over HTTP, their numbers worked out by hand from the rulebooks' own examples.

The Skull & Shackles report replays the rulebook's Example of Play (Skull & Shackles Rulebook, Example of Play);
every figure asserted below is counted from that text, turn by turn, in the comments. The Skull Tales report
replays the chapter whose record sheets tests/unit/skull_tales/test_chapter.py works out line by line from the
Skull Tales: Full Sail! rulebook.
"""

from __future__ import annotations

from tests.unit.pacg.example_of_play import OPTIONS, PAYLOADS
from tests.unit.skull_tales.chapter_one import (
    ADVENTURE,
    CAMPAIGN,
    CHAPTER_ONE,
    CREW,
    NEXT_PORT,
    OPTIONS as TALES_OPTIONS,
    PORT,
    VOYAGE,
    event,
)

PACG = "pacg-skull-and-shackles"
TALES = "skull-tales-full-sail"


def played(api, game, options, payloads):
    campaign = api.new_campaign(game, options=options)
    answer = api.append(campaign, payloads)
    assert answer.status_code == 201, answer.text
    return campaign


def report(api, campaign, token=None, **params):
    answer = api.get(campaign, "/report", token=token, **params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_the_example_of_play_reports_the_turns_checks_and_cards_the_text_describes(api):
    campaign = played(api, PACG, OPTIONS, PAYLOADS)

    found = report(api, campaign, scenario="Dangerous Waters")

    # Nobody wins or loses in the text: the example stops during Lily's second turn.
    assert (found["outcome"], found["ended"]) == ("playing", False)
    # Four turns: Lily, Sam, Amber, then Lily again; before them the setup.
    turns = [(t["number"], t["character"]) for t in found["turns"]]
    assert turns == [(0, None), (1, "lirianne"), (2, "seltyiel"), (3, "alahazra"), (4, "lirianne")]
    # Rolls per turn: setup, the plunder roll (a 2); Lily's turn, the Dead Man's Chest (3d8 for 16), Seltyiel's
    # Force Missile (a miss) and its recharge, the Pistol (9) and its recharge (9 on the d12); Sam's turn, the
    # Cutlass +1 (14); Amber's turn, the Wisdom check of 5 she fails, the 1d4 damage, Seltyiel's plunder roll (4),
    # his Wisdom 7 with the Topaz (7), her Wisdom 6 against Jemma (fails), the Divine check against the ship (21);
    # Lily's second turn, the Craft check to repair.
    assert [len(t["checks"]) for t in found["turns"]] == [1, 5, 1, 6, 1]
    assert found["checks"] == 14
    first = found["turns"][1]["checks"][0]
    assert (first["dice"], first["total"], first["difficulty"], first["success"]) == (
        ["d8=5", "d8=5", "d8=6"],
        16,
        11,
        True,
    )
    # Of the rolls with a result: Lirianne 4 of 4; Seltyiel 3 of 4 (the Force Missile missed); Alahazra 1 of 3.
    rates = {c: (r["successes"], r["checks"]) for c, r in found["success_rate"].items()}
    assert rates == {"lirianne": (4, 4), "seltyiel": (3, 4), "alahazra": (1, 3)}
    # Cards: Lily draws a Cat-o'-Nine-Tails, a Rum Bottle and Speed from the box for the Dead Man's Chest; Seltyiel
    # acquires the Cutlass +1 and the Pearl of Wisdom and gives a Blessing of the Gods to Alahazra.
    assert found["cards"]["lirianne"] == {
        "name": "Lirianne",
        "gained": {"Cat-o'-Nine-Tails": 1, "Rum Bottle": 1, "Speed": 1},
        "lost": {},
        "banished": {},
    }
    assert found["cards"]["seltyiel"]["gained"] == {"Cutlass +1": 1, "Pearl of Wisdom": 1}
    assert found["cards"]["seltyiel"]["lost"] == {"Blessing of the Gods": 1}
    assert found["cards"]["alahazra"]["gained"] == {"Blessing of the Gods": 1}
    # The ship: 4 Structural damage from Raker Shoals (all prevented), 3 from the failed Wisdom check (all
    # prevented), 2 from the Shackles Pirate Ship that wrecks it; Lily repairs it on her second turn.
    ships = found["ships"]
    assert (ships["damage"], ships["prevented"], ships["wrecked"], ships["repaired"]) == (9, 7, 1, 1)
    # The plunder: a spell stashed at setup, banished when the ship was wrecked (Amber peeked: Find Traps).
    assert found["plunder"] == {"stashed": ["spell"], "banished": ["Find Traps"], "won": []}
    assert found["locations_closed"] == ["Raker Shoals", "Cannibal Isle"]
    assert found["undone"] == []


def test_the_chapter_report_gives_each_pirates_fame_coins_injuries_skills_and_the_mutiny(api):
    campaign = played(api, TALES, TALES_OPTIONS, CAMPAIGN)

    found = report(api, campaign, chapter=2)

    assert [(p["phase"], p["outcome"]) for p in found["phases"] if p["phase"]] == [
        ("port", "success"),
        ("voyage", "success"),
        ("adventure", "success"),
    ]
    pirates = found["pirates"]
    # Anne: 82 Fame after chapter 1; +5 for teaching Fencing, +2 Trust at the Mutiny, +6 in the Adventure, +2 from
    # the Admiral setting = 97. Coins: 60 + 50 Captain's Salary - 20 bid + 10 Search card = 100.
    assert (pirates["anne"]["fame"]["change"], pirates["anne"]["coins"]["change"]) == (97 - 82, 100 - 60)
    # Mary: 72 Fame - 60 for Fencing + 4 and 3 Trust + 2 Admiral (her Adventure Fame lost Unconscious) = 21;
    # Coins: 120 + 15 Salary - 100 for Fencing = 35.
    assert (pirates["mary"]["fame"]["end"], pirates["mary"]["coins"]["end"]) == (21, 28)
    assert (pirates["mary"]["injuries"], pirates["mary"]["skills_learned"]) == (["Right hand"], ["Fencing"])
    # Jack loses both eyes and retires; Ned replaces him with 28 Coins by matelotage and 2 Admiral Fame.
    assert pirates["jack"]["injuries"] == ["Right eye", "Left eye"] and pirates["jack"]["status"] == "retired"
    assert (pirates["ned"]["fame"]["change"], pirates["ned"]["coins"]["change"]) == (2, 28)
    assert [(m["instigator"], m["bids"]) for m in found["mutinies"]] == [("jack", {"jack": 3, "anne": 2})]
    # Three revive rolls, none with a success: Anne twice, Mary once.
    rates = {c: (r["successes"], r["checks"]) for c, r in found["success_rate"].items()}
    assert rates == {"anne": (0, 2), "mary": (0, 1)}
    assert found["crew_booty"] == {"start": 0, "end": 20}


def test_the_scenarios_list_names_each_chapter_its_positions_outcome_and_crew(api):
    campaign = played(api, TALES, TALES_OPTIONS, CAMPAIGN)

    chapters = api.get(campaign, "/scenarios").json()["chapters"]

    assert [(c["chapter"], c["ended"]) for c in chapters] == [(1, True), (2, True), (3, False)]
    assert chapters[0]["outcome"] == {"adventure": "success"}
    assert chapters[1]["first"] == chapters[0]["last"] + 1
    assert {p["id"] for p in chapters[2]["played_by"]} == {"anne", "mary", "ned"}
    assert chapters[1]["report"].endswith("/report?chapter=2&play=1")


def test_the_scenarios_list_shows_a_scenario_still_being_played_with_its_party(api):
    campaign = played(api, PACG, OPTIONS, PAYLOADS)

    (scenario,) = api.get(campaign, "/scenarios").json()["scenarios"]

    assert (scenario["scenario"], scenario["outcome"], scenario["ended"]) == ("Dangerous Waters", "playing", False)
    assert [(p["name"], p["player"]) for p in scenario["played_by"]] == [
        ("Lirianne", "Lily"),
        ("Seltyiel", "Sam"),
        ("Alahazra", "Amber"),
    ]


def test_an_undone_entry_is_listed_apart_with_who_undid_it_and_never_counted(api):
    campaign = played(api, TALES, TALES_OPTIONS, CAMPAIGN)
    player = api.add_member(campaign, "player", "Meg")
    mistaken = event("fame.changed", pirate_id="mary", amount=50, source="goal")
    assert api.append(campaign, [mistaken], token=player).status_code == 201
    before = report(api, campaign, chapter=3)
    assert (
        api.client.post(
            f"/v1/campaigns/{campaign.id}/undo",
            json={"reason": "not her goal"},
            headers={"Authorization": f"Bearer {player}"},
        ).status_code
        == 201
    )

    found = report(api, campaign, chapter=3)

    assert before["events"] == found["events"] + 1
    (undone,) = found["undone"]
    assert (undone["type"], undone["recorded_by"], undone["undone_by"], undone["reason"]) == (
        "fame.changed",
        "Meg",
        "Meg",
        "not her goal",
    )
    assert undone["data"]["amount"] == 50


def test_a_viewer_reads_the_reports_and_a_stranger_reads_nothing(api):
    campaign = played(api, PACG, OPTIONS, PAYLOADS)
    viewer = api.add_member(campaign, "viewer")
    stranger = api.new_campaign(PACG)

    assert report(api, campaign, token=viewer, scenario="Dangerous Waters")["checks"] == 14
    assert api.get(campaign, "/scenarios", token=viewer).status_code == 200
    for path in ("/scenarios", "/report"):
        assert api.get(campaign, path, token=stranger.token, scenario="Dangerous Waters").status_code == 404
        assert api.client.get(f"/v1/campaigns/{campaign.id}{path}").status_code == 401


def test_a_report_on_a_scenario_never_played_names_the_ones_that_were(api):
    campaign = played(api, PACG, OPTIONS, PAYLOADS)

    missing = api.get(campaign, "/report", scenario="Tempest Rising")
    unnamed = api.get(campaign, "/report")

    assert missing.status_code == 404
    assert "has not played the scenario Tempest Rising" in missing.json()["detail"]
    assert "Dangerous Waters" in missing.json()["detail"]
    assert unnamed.status_code == 422 and "?scenario=" in unnamed.json()["detail"]


def test_the_report_in_markdown_lists_each_turn_with_its_rolls(api):
    campaign = played(api, PACG, OPTIONS, PAYLOADS)

    answer = api.client.get(
        f"/v1/campaigns/{campaign.id}/report",
        params={"scenario": "Dangerous Waters"},
        headers={**campaign.headers, "Accept": "text/markdown"},
    )

    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/markdown")
    text = answer.text
    assert text.startswith("# Dangerous Waters (play 1): still being played")
    assert "## Turn 3: Alahazra" in text
    assert "Lirianne, Dexterity check: d8=5 d8=5 d8=6 = 16 against 11 — success" in text
    assert "- Seltyiel: 3 of 4 (75%)" in text
    assert "- Structural damage: 9 dealt, 7 prevented" in text


def test_the_chapter_report_in_markdown_gives_each_record_sheet(api):
    campaign = played(api, TALES, TALES_OPTIONS, CAMPAIGN)

    answer = api.client.get(
        f"/v1/campaigns/{campaign.id}/report",
        params={"chapter": 2},
        headers={**campaign.headers, "Accept": "text/markdown"},
    )

    assert answer.status_code == 200, answer.text
    assert "## Voyage Phase: success" in answer.text
    assert "- Mary: Fame 21 (-51), Coins 28 (-92), Wounds 0; injuries: Right hand; learned Fencing" in answer.text
    assert "instigated by jack; bids anne 2, jack 3" in answer.text


def test_an_entry_undone_after_its_chapter_ended_counts_for_nothing_in_that_chapters_report(api):
    campaign = played(api, TALES, TALES_OPTIONS, [*CREW, *CHAPTER_ONE, *PORT, *VOYAGE, *ADVENTURE[:2]])
    extra = api.append(campaign, [event("fame.changed", pirate_id="anne", amount=1, source="enemy")]).json()
    assert api.append(campaign, [*ADVENTURE[2:], *NEXT_PORT]).status_code == 201
    undo = api.client.post(
        f"/v1/campaigns/{campaign.id}/undo", json={"batch": extra["batch"]}, headers=campaign.headers
    )
    assert undo.status_code == 201, undo.text

    found = report(api, campaign, chapter=2)

    # Anne's chapter is the hand-worked one (+15 Fame), as if the extra Fame had never been recorded.
    assert found["pirates"]["anne"]["fame"]["change"] == 97 - 82
    assert [u["position"] for u in found["undone"]] == [extra["first_position"]]


def test_a_card_banished_from_a_characters_hand_is_counted_banished_and_lost(api):
    campaign = played(api, PACG, OPTIONS, PAYLOADS)
    banish = {
        "type": "card.moved",
        "data": {
            "card": "Powder Horn",
            "verb": "banish",
            "from": {"zone": "hand", "character_id": "lirianne"},
            "to": {"zone": "vault"},
        },
    }
    assert api.append(campaign, [banish]).status_code == 201

    cards = report(api, campaign, scenario="Dangerous Waters")["cards"]["lirianne"]

    assert cards["banished"] == {"Powder Horn": 1}
    assert cards["lost"] == {"Powder Horn": 1}


def test_a_check_logged_without_its_result_counts_by_its_total_against_the_difficulty(api):
    campaign = played(api, PACG, OPTIONS, PAYLOADS)
    # Skull & Shackles Rulebook, Attempting a Check: a total greater than or equal to the difficulty succeeds.
    rolls = [
        {
            "type": "dice.rolled",
            "data": {"character_id": "lirianne", "dice": [{"sides": 12, "face": face}], "total": face, "difficulty": 8},
        }
        for face in (8, 3)
    ]
    assert api.append(campaign, rolls).status_code == 201

    rate = report(api, campaign, scenario="Dangerous Waters")["success_rate"]["lirianne"]

    assert (rate["successes"], rate["checks"]) == (4 + 1, 4 + 2)
