"""After a win the scenario view says which rewards are due, who earns them and which feat boxes each may check."""

from quartermaster.projections.pacg import GAME
from tests.unit.pacg.pacg_world import SETUP, START, fold

scenario_view = GAME.views["scenario"].read
WON = {"type": "scenario.ended", "data": {"result": "won"}}


def feat(kind, name, who="merisiel", **extra):
    return {"type": "feat.gained", "data": {"character_id": who, "kind": kind, "feat": name, **extra}}


def _merisiel(view, reward_of="Island Hopping"):
    due = next(r for r in view["rewards"] if r["reward_of"] == reward_of)
    return next(c for c in due["characters"] if c["character_id"] == "merisiel")


def test_a_won_scenario_offers_each_character_the_leftmost_unchecked_box_of_each_skill_power_and_card_type():
    view = scenario_view(fold(*SETUP, *START, WON))
    assert [(r["reward_of"], r["kind"]) for r in view["rewards"]] == [("Island Hopping", "scenario")]
    merisiel = _merisiel(view)
    assert merisiel["feat_gained"] is False
    assert merisiel["feats"] == {
        "skill": {"recorded": True, "open": ["Dexterity +1"]},
        "power": {"recorded": True, "open": ["Hand Size 4", "Light Armors"]},
        "card": {"recorded": True, "open": ["weapon 3", "spell 2", "blessing 3"]},
    }


def test_a_feat_taken_moves_the_open_box_right_and_marks_the_reward_gained():
    state = fold(
        *SETUP, feat("skill", "Dexterity +1"), *START, WON, feat("card", "weapon 3", reward_of="Island Hopping")
    )
    merisiel = _merisiel(scenario_view(state))
    assert merisiel["feat_gained"] is True
    assert merisiel["feats"]["skill"]["open"] == ["Dexterity +2"]
    assert merisiel["feats"]["card"]["open"] == ["weapon 4", "spell 2", "blessing 3"]


def test_a_card_recorded_without_boxes_of_a_kind_says_so_and_offers_none():
    card = {"name": "Lem", "cards_list": {"weapon": {"count": 2}}, "skills": {"Charisma": {"die": "d10"}}}
    lem = {"type": "character.joined", "data": {"character_id": "lem", "name": "Lem", "player": "Cy", "card": card}}
    state = fold(*SETUP, lem, *START, WON)
    view = scenario_view(state)
    assert all(c["character_id"] != "lem" for c in view["rewards"][0]["characters"])  # no deck: not in the party
    merisiel = _merisiel(view)
    assert merisiel["skills"] == ["Dexterity", "Strength"]
    assert merisiel["cards_list"]["weapon"] == 2


def test_winning_the_last_scenario_of_an_adventure_opens_its_reward_and_the_progress_reads_complete():
    begun = {
        "type": "adventure.started",
        "data": {"adventure": "Our Voyage", "number": 0, "scenarios": ["Island Hopping"]},
    }
    state = fold(*SETUP, begun, *START, WON)
    view = scenario_view(state)
    assert [(r["reward_of"], r["kind"]) for r in view["rewards"]] == [
        ("Island Hopping", "scenario"),
        ("Our Voyage", "adventure"),
    ]
    assert view["progress"]["adventure"] == {
        "name": "Our Voyage",
        "number": 0,
        "scenarios": ["Island Hopping"],
        "scenario_count": 1,
        "won": 1,
        "complete": True,
        "next": None,
    }


def test_the_progress_names_the_next_scenario_of_an_adventure_and_its_count():
    begun = {
        "type": "adventure.started",
        "data": {"adventure": "Plunder and Peril", "number": 0, "scenarios": ["Island Hopping"]},
    }
    state = fold(*SETUP, begun, *START, WON)
    adventure = scenario_view(state)["progress"]["adventure"]
    assert (adventure["won"], adventure["scenario_count"], adventure["complete"], adventure["next"]) == (
        1,
        5,
        False,
        None,
    )
    assert [r["reward_of"] for r in scenario_view(state)["rewards"]] == ["Island Hopping"]


def test_the_plunder_won_is_shown_face_down_by_type_until_it_is_handed_out():
    # The setup plunder of START is a weapon (roll 1), still face down under the ship after the win.
    view = scenario_view(fold(*SETUP, *START, WON))
    assert view["plunder"] == {"face_down": {"weapon": 1}, "known": {}}
    assert view["fleet_checked"] == ["Merchantman"]
    handed = {"type": "loot.awarded", "data": {"card": "Dagger", "to": "valeros", "source": "plunder"}}
    assert scenario_view(fold(*SETUP, *START, WON, handed))["plunder"] == {"face_down": {}, "known": {}}


def test_a_role_is_due_once_the_party_has_completed_the_adventures_the_options_ask_and_not_after_it_is_chosen():
    assert scenario_view(fold(*SETUP, *START, WON))["roles_due"] == []
    early = fold(*SETUP, *START, WON, options={"roles_after_adventures": 0})
    assert scenario_view(early)["roles_due"] == [
        {"character_id": "merisiel", "name": "Merisiel", "sides": ["Infiltrator"]},
        {"character_id": "valeros", "name": "Valeros", "sides": ["Infiltrator"]},
    ]
    chosen = {"type": "role.chosen", "data": {"character_id": "merisiel", "role": "Infiltrator"}}
    assert [r["character_id"] for r in scenario_view(fold(chosen, state=early))["roles_due"]] == ["valeros"]
