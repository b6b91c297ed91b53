"""Feats on unchecked boxes only, leftmost first, never more than the card has; roles for good; rewards once."""

from quartermaster.projections.pacg import GAME
from tests.unit.pacg.pacg_world import SETUP, START, fold, rejection

character = GAME.views["character"].read


def feat(kind, name, who="merisiel", **extra):
    return {"type": "feat.gained", "data": {"character_id": who, "kind": kind, "feat": name, **extra}}


def test_a_skill_feat_checks_the_leftmost_box():
    state = fold(*SETUP, feat("skill", "Dexterity +1"))
    assert character(state, character_id="merisiel")["feats"]["skill"] == {"Dexterity": ["+1"]}


def test_a_box_right_of_an_unchecked_one_is_rejected():
    reason = rejection(fold(*SETUP), feat("skill", "Dexterity +2"))
    assert reason == (
        "Merisiel must check Dexterity +1 before Dexterity +2: the unchecked box farthest to the left comes first."
    )


def test_a_checked_box_cannot_be_checked_again():
    reason = rejection(fold(*SETUP, feat("skill", "Dexterity +1")), feat("skill", "Dexterity +1"))
    assert reason == "Merisiel's Dexterity +1 box is already checked."


def test_a_box_the_card_does_not_have_is_rejected():
    reason = rejection(fold(*SETUP), feat("skill", "Charisma +1"))
    assert reason == "Merisiel's character card has no skill feat box 'Charisma +1'."


def test_no_feat_is_gained_when_every_box_of_the_kind_is_checked():
    state = fold(*SETUP, feat("power", "Hand Size 4"), feat("power", "Hand Size 5"), feat("power", "Light Armors"))
    reason = rejection(state, feat("power", "Hand Size 5"))
    assert reason == "Merisiel has no unchecked power feat box left, so gains no power feat."


# A table that hands out role cards from the start (the rulebook waits for the third adventure).
ROLES_AT_ONCE = {"roles_after_adventures": 0}


def test_a_role_is_chosen_once_and_carries_the_matching_boxes_over():
    state = fold(
        *SETUP,
        feat("power", "Hand Size 4"),
        feat("power", "Light Armors"),
        {"type": "role.chosen", "data": {"character_id": "merisiel", "role": "Infiltrator"}},
        options=ROLES_AT_ONCE,
    )
    view = character(state, character_id="merisiel")
    assert view["role"] == "Infiltrator"
    assert view["feats"]["power"] == {"Hand Size": ["4"]}
    state = fold(feat("power", "Hand Size 5"), state=state)
    assert character(state, character_id="merisiel")["feats"]["power"] == {"Hand Size": ["4", "5"]}
    reason = rejection(state, {"type": "role.chosen", "data": {"character_id": "merisiel", "role": "Other"}})
    assert reason == "Merisiel chose the role Infiltrator for good; a role card is never turned over."


def test_a_role_side_the_card_does_not_have_is_rejected():
    state = fold(*SETUP, options=ROLES_AT_ONCE)
    reason = rejection(state, {"type": "role.chosen", "data": {"character_id": "merisiel", "role": "Pirate"}})
    assert reason == "Merisiel's role card has no side Pirate (sides: Infiltrator); give its powers."


def won():
    return fold(*SETUP, *START, {"type": "scenario.ended", "data": {"result": "won"}})


def test_a_scenarios_reward_is_earned_once():
    state = fold(feat("skill", "Dexterity +1", reward_of="Island Hopping"), state=won())
    assert character(state, character_id="merisiel")["feats"]["skill"] == {"Dexterity": ["+1"]}
    replayed = fold(*START, {"type": "scenario.ended", "data": {"result": "won"}}, state=state)
    reason = rejection(replayed, feat("skill", "Dexterity +2", reward_of="Island Hopping"))
    assert reason == "The reward of Island Hopping was earned when the party first completed it; it is earned once."


def test_a_reward_of_a_scenario_not_completed_is_rejected():
    reason = rejection(won(), {"type": "ship.awarded", "data": {"ship": "Truewind", "reward_of": "Press Ganged!"}})
    assert reason == "Press Ganged! has not just been completed, so its reward cannot be earned now."


def test_loot_goes_to_any_character_or_to_the_vault():
    state = fold(
        {"type": "loot.awarded", "data": {"card": "Sea Devil's Sabre", "to": "valeros", "reward_of": "Island Hopping"}},
        state=won(),
    )
    assert character(state, character_id="valeros")["zones"]["deck"]["Sea Devil's Sabre"] == 1
    reason = rejection(won(), {"type": "loot.awarded", "data": {"card": "Cutlass", "to": "valeros"}})
    assert reason == "Cutlass is a weapon, not a loot card."
    reason = rejection(
        fold(*SETUP, *START), {"type": "loot.awarded", "data": {"card": "Sea Devil's Sabre", "to": "valeros"}}
    )
    assert reason == "Loot is handed out after the scenario, not during Island Hopping."


def test_a_dead_character_gains_no_feat():
    state = fold(*SETUP, *START, {"type": "character.died", "data": {"character_id": "merisiel"}})
    assert rejection(state, feat("skill", "Dexterity +1")) == "Merisiel is dead; a dead character gains no feat."


def adventure(name, scenario, number):
    return [
        {"type": "adventure.started", "data": {"adventure": name, "number": number, "scenarios": [scenario]}},
        {**START[0], "data": {**START[0]["data"], "scenario": scenario, "adventure": name}},
        *START[1:],
        {"type": "scenario.ended", "data": {"result": "won"}},
    ]


def test_a_role_card_waits_for_the_third_adventure_by_default():
    # Given a party that has completed two adventures
    state = fold(
        *SETUP,
        *adventure("The Wormwood Mutiny", "Press Ganged!", 1),
        *adventure("Raiders of the Fever Sea", "Raker Run", 2),
    )
    # When Merisiel takes her role, then the rulebook's reward for the third adventure is not hers yet
    reason = rejection(state, {"type": "role.chosen", "data": {"character_id": "merisiel", "role": "Infiltrator"}})
    assert reason == (
        "Merisiel cannot take the role Infiltrator yet: role cards are the reward for completing the third "
        "adventure of the Adventure Path, and the party has completed 2 of its adventures."
    )
    # When the third adventure is completed, then she may
    state = fold(*adventure("Tempest Rising", "Sea Wolves", 3), state=state)
    state = fold({"type": "role.chosen", "data": {"character_id": "merisiel", "role": "Infiltrator"}}, state=state)
    assert character(state, character_id="merisiel")["role"] == "Infiltrator"


def test_plunder_and_peril_is_not_an_adventure_of_the_adventure_path():
    # Given a party that completed Plunder and Peril (the base set's adventure, # 0) and two adventures of the Path
    state = fold(
        *SETUP,
        *adventure("Plunder and Peril", "Island Hopping", 0),
        *adventure("The Wormwood Mutiny", "Press Ganged!", 1),
        *adventure("Raiders of the Fever Sea", "Raker Run", 2),
    )
    # When Merisiel takes her role, then it waits for the third adventure of the Adventure Path (Skull & Shackles Rulebook, Role Cards)
    reason = rejection(state, {"type": "role.chosen", "data": {"character_id": "merisiel", "role": "Infiltrator"}})
    assert reason.endswith("the party has completed 2 of its adventures.")


def test_a_campaign_may_hand_out_role_cards_after_another_adventure():
    state = fold(*SETUP, *adventure("The Wormwood Mutiny", "Press Ganged!", 1), options={"roles_after_adventures": 1})
    state = fold({"type": "role.chosen", "data": {"character_id": "merisiel", "role": "Infiltrator"}}, state=state)
    assert character(state, character_id="merisiel")["role"] == "Infiltrator"
    reason = rejection(
        fold(*SETUP, options={"roles_after_adventures": 2}),
        {"type": "role.chosen", "data": {"character_id": "valeros", "role": "Infiltrator"}},
    )
    assert reason == (
        "Valeros cannot take the role Infiltrator yet: role cards are the reward for completing the second "
        "adventure of the Adventure Path, and the party has completed 0 of its adventures."
    )
