"""The character view gives each skill's dice as a check rolls them, so the page offers them in one tap."""

from quartermaster.projections.pacg import GAME
from tests.unit.pacg.pacg_world import SETUP, fold


def test_a_skills_dice_count_its_rightmost_checked_box_and_a_derived_skill_adds_its_bases():
    card = {
        "name": "Valeros",
        "cards_list": {"weapon": {"count": 2}},
        "skills": {
            "Strength": {"die": "d10", "feats": ["+1", "+2", "+3"]},
            "Melee": {"base": "Strength", "modifier": 3},
            "Wisdom": {"die": "d6"},
            "Craft": {},
        },
    }
    joined = {
        "type": "character.joined",
        "data": {"character_id": "val", "name": "Valeros", "player": "Bo", "card": card},
    }
    state = fold(*SETUP, joined)
    assert GAME.views["character"].read(state, character_id="val")["skill_dice"] == {
        "Strength": "1d10",
        "Melee": "1d10+3",
        "Wisdom": "1d6",
    }
    strength = {"type": "feat.gained", "data": {"character_id": "val", "kind": "skill", "feat": "Strength +1"}}
    state = fold(strength, {**strength, "data": {**strength["data"], "feat": "Strength +2"}}, state=state)
    dice = GAME.views["character"].read(state, character_id="val")["skill_dice"]
    assert (dice["Strength"], dice["Melee"]) == ("1d10+2", "1d10+5")
