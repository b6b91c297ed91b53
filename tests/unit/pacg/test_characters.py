"""Characters: joining, moving with the ship, damage, death, return from death, hero points, options."""

import pytest

from quartermaster.events.campaign import CampaignStarted
from quartermaster.projections.game import Meta, Rejection, step
from quartermaster.projections.pacg import GAME
from tests.unit.pacg.pacg_world import SETUP, START, character_card, draw, fold, move, rejection, zone

character = GAME.views["character"].read


def playing():
    return fold(*SETUP, *START)


def advance(who):
    return {"type": "hourglass.advanced", "data": {"character_id": who}}


def hand(state, who):
    return character(state, character_id=who)["zones"]["hand"]


def test_damage_discards_that_many_cards_from_the_hand_before_anything_else():
    state = fold(draw("merisiel", "Dagger"), draw("merisiel", "Cure"), draw("merisiel", "Sailor"), state=playing())
    state = fold({"type": "damage.dealt", "data": {"character_id": "merisiel", "amount": 2}}, state=state)
    reason = rejection(state, advance("valeros"))
    assert reason == "Merisiel must first discard 2 more cards from Merisiel's hand for the damage just dealt."
    reason = rejection(state, move("Dagger", "recharge", zone("hand", "merisiel"), zone("deck", "merisiel")))
    assert reason == "Merisiel must first discard 2 more cards from Merisiel's hand for the damage just dealt."
    state = fold(
        move("Dagger", "discard", zone("hand", "merisiel"), zone("discard", "merisiel")),
        move("Cure", "discard", zone("hand", "merisiel"), zone("discard", "merisiel")),
        advance("valeros"),
        state=state,
    )
    assert hand(state, "merisiel") == {"Sailor": 1}


def test_damage_beyond_the_hand_discards_the_whole_hand_and_the_rest_is_ignored():
    state = fold(
        draw("merisiel", "Dagger"),
        {"type": "damage.dealt", "data": {"character_id": "merisiel", "amount": 5}},
        state=playing(),
    )
    assert state.owed.count == 1
    state = fold(move("Dagger", "discard", zone("hand", "merisiel"), zone("discard", "merisiel")), state=state)
    assert state.owed is None


def test_a_character_who_dies_buries_every_card():
    state = fold(
        draw("merisiel", "Dagger"), {"type": "character.died", "data": {"character_id": "merisiel"}}, state=playing()
    )
    view = character(state, character_id="merisiel")
    assert view["alive"] is False
    assert view["counts"] == {"buried": 8, "deck": 0, "discard": 0, "displayed": 0, "hand": 0, "recovery": 0}


def test_a_dead_characters_cards_go_to_the_party_to_rebuild_from_and_the_rest_to_the_vault():
    state = fold(
        {"type": "character.died", "data": {"character_id": "merisiel"}},
        {"type": "scenario.ended", "data": {"result": "lost"}},
        state=playing(),
    )
    assert state.zones["set_aside"].known["Dagger"] == 1
    deck = [
        "Dagger" if name == "Longsword" else name
        for name in [
            "Longsword",
            "Cutlass",
            "Find Traps",
            "Leather Armor",
            "Eye Patch",
            "Carver",
            "Blessing of the Gods",
            "Blessing of the Gods",
        ]
    ]
    state = fold({"type": "deck.rebuilt", "data": {"character_id": "valeros", "cards": deck}}, state=state)
    assert "Dagger" not in state.zones["set_aside"].known


def test_spending_hero_points_after_the_scenario_returns_a_character_from_death():
    state = fold(
        {"type": "hero_point.awarded", "data": {"character_id": "merisiel"}},
        *START,
        {"type": "character.died", "data": {"character_id": "merisiel"}},
        {"type": "scenario.ended", "data": {"result": "won"}},
        state=fold(*SETUP),
    )
    state = fold(
        {"type": "hero_point.spent", "data": {"character_id": "merisiel", "for": "return_from_death"}}, state=state
    )
    view = character(state, character_id="merisiel")
    assert view["alive"] is True and view["hero_points"] == 0 and view["counts"]["deck"] == 8


def test_returning_from_death_needs_a_hero_point_and_a_death():
    assert rejection(
        fold(*SETUP), {"type": "hero_point.spent", "data": {"character_id": "merisiel", "for": "reroll"}}
    ) == ("Merisiel has no hero point to spend.")
    state = fold(*SETUP, {"type": "hero_point.awarded", "data": {"character_id": "merisiel"}})
    assert rejection(
        state, {"type": "hero_point.spent", "data": {"character_id": "merisiel", "for": "return_from_death"}}
    ) == ("Merisiel is alive; there is no death to return from.")


def test_a_hero_point_buys_a_feat_only_when_it_is_awarded():
    state = fold(*SETUP, {"type": "hero_point.awarded", "data": {"character_id": "merisiel"}})
    after = fold({"type": "hero_point.spent", "data": {"character_id": "merisiel", "for": "feat"}}, state=state)
    assert character(after, character_id="merisiel")["hero_points"] == 0
    later = fold({"type": "ship.awarded", "data": {"ship": "Truewind"}}, state=state)
    assert rejection(later, {"type": "hero_point.spent", "data": {"character_id": "merisiel", "for": "feat"}}) == (
        "Merisiel can spend a hero point on a feat only when it is awarded, right after hero_point.awarded."
    )


def test_rerolling_with_a_hero_point_happens_during_a_scenario():
    state = fold(*SETUP, {"type": "hero_point.awarded", "data": {"character_id": "merisiel"}})
    assert rejection(state, {"type": "hero_point.spent", "data": {"character_id": "merisiel", "for": "reroll"}}) == (
        "No scenario is in progress, so Merisiel cannot do that now."
    )


def test_moving_the_commanding_character_takes_the_others_on_the_ship_along():
    state = fold(
        advance("merisiel"),
        {
            "type": "character.moved",
            "data": {"character_id": "merisiel", "to": "Tempest Cay", "moved_with": ["valeros"]},
        },
        state=playing(),
    )
    assert character(state, character_id="valeros")["location"] == "Tempest Cay"


def test_nobody_sails_along_on_a_wrecked_ship():
    state = fold(advance("merisiel"), {"type": "ship.damaged", "data": {"amount": 1}}, state=playing())
    reason = rejection(
        state,
        {
            "type": "character.moved",
            "data": {"character_id": "merisiel", "to": "Tempest Cay", "moved_with": ["valeros"]},
        },
    )
    assert reason == "The Merchantman is wrecked: other characters cannot move with Merisiel."


def test_only_characters_on_the_ship_sail_along():
    state = fold(
        {"type": "character.moved", "data": {"character_id": "valeros", "to": "Tempest Cay"}},
        advance("merisiel"),
        state=playing(),
    )
    reason = rejection(
        state,
        {
            "type": "character.moved",
            "data": {"character_id": "merisiel", "to": "Tempest Cay", "moved_with": ["valeros"]},
        },
    )
    assert reason == "Valeros is at Tempest Cay, not on the ship with Merisiel at Shark Island."


def test_a_character_joins_once():
    reason = rejection(
        fold(*SETUP),
        {
            "type": "character.joined",
            "data": {
                "character_id": "merisiel",
                "name": "Merisiel",
                "player": "Zed",
                "card": character_card("Merisiel"),
            },
        },
    )
    assert reason == "Merisiel has already joined this campaign, played by Ann."


def test_unknown_options_and_bad_hourglass_sizes_are_rejected_when_the_campaign_starts():
    with pytest.raises(Rejection, match="The campaign's rule options are not valid"):
        step(GAME, None, CampaignStarted(name="t", game=GAME.id, options={"hourglas": 20}), Meta(1))
    with pytest.raises(Rejection, match="The hourglass needs at least 1 blessing, not 0."):
        step(GAME, None, CampaignStarted(name="t", game=GAME.id, options={"hourglass": 0}), Meta(1))


def test_the_core_options_are_recorded():
    options = {
        "hourglass": 32,
        "location_count": -1,
        "location_size": "small",
        "wildcards": ["The Onslaughts"],
        "banes_level_up": True,
        "difficulty": "legendary",
    }
    state = fold(options=options)
    assert state.options.wildcards == ["The Onslaughts"] and state.options.banes_level_up is True
    state = fold(*SETUP, *START, state=state)
    assert GAME.views["scenario"].read(state)["bane_number"] == 1


def test_a_dice_roll_for_an_unknown_character_is_rejected():
    reason = rejection(
        playing(),
        {"type": "dice.rolled", "data": {"dice": [{"sides": 6, "face": 3}], "total": 3, "character_id": "lem"}},
    )
    assert reason == "No character lem has joined this campaign (characters: merisiel, valeros)."


def test_history_filters_card_moves_by_the_character_whose_zones_they_touch():
    event = {
        "type": "card.moved",
        "data": {
            "card": "Dagger",
            "verb": "draw",
            "from": {"zone": "deck", "character_id": "lem"},
            "to": {"zone": "hand", "character_id": "lem"},
        },
    }
    from tests.unit.pacg.pacg_world import from_payload

    assert GAME.character_of(from_payload(event)) == "lem"
    assert GAME.character_of(from_payload({"type": "loot.awarded", "data": {"card": "X", "to": "vault"}})) is None


def test_role_cards_cannot_wait_for_a_negative_number_of_adventures():
    from quartermaster.projections.game import Rejection
    from quartermaster.projections.pacg import initial

    with pytest.raises(Rejection) as refused:
        initial({"roles_after_adventures": -1})
    assert refused.value.reason == "Role cards cannot wait for -1 completed adventures; give 0 or more."


# ------------------------------------------------------------------ what the catalogue lacks, given once and kept


def bare_card(name):
    """A character card as a catalogue knows it from the rulebook: a Cards List, no hand size, no feat boxes."""
    found = character_card(name)
    return {"name": name, "cards_list": {t: {"count": line["count"]} for t, line in found["cards_list"].items()}}


def test_a_card_completed_after_joining_gives_the_boxes_the_catalogue_lacks():
    # Given Valeros joined with a card that records no hand size and no feat boxes (Character Cards; Feats)
    state = fold(
        *SETUP[:2],
        {
            "type": "character.joined",
            "data": {"character_id": "valeros", "name": "Valeros", "player": "Bo", "card": bare_card("Valeros")},
        },
    )
    # When the table gives the facts from the card in hand
    state = fold(
        {
            "type": "character.card_completed",
            "data": {
                "character_id": "valeros",
                "card": {
                    "hand_size": 4,
                    "skills": {"Strength": {"die": "d10", "feats": ["+1", "+2"]}},
                    "powers": {"Hand Size": ["5"]},
                    "card_feats": {"weapon": [3, 4]},
                },
            },
        },
        state=state,
    )
    # Then every feat box is there, and a skill feat and a card feat can be checked
    state = fold(
        {"type": "feat.gained", "data": {"character_id": "valeros", "kind": "skill", "feat": "Strength +1"}},
        {"type": "feat.gained", "data": {"character_id": "valeros", "kind": "card", "feat": "weapon 3"}},
        state=state,
    )
    valeros = state.characters["valeros"]
    assert valeros.card.hand_size == 4
    assert valeros.feats == {"skill|Strength": 1, "card|weapon": 1}


def test_a_fact_of_the_card_already_recorded_is_kept():
    reason = rejection(
        fold(*SETUP),
        {"type": "character.card_completed", "data": {"character_id": "merisiel", "card": {"hand_size": 6}}},
    )
    assert reason == (
        "Merisiel's character card already records a hand size of 3, not 6: a fact of the card is given once and kept."
    )


def test_a_card_feat_needs_a_line_of_the_cards_list():
    reason = rejection(
        fold(*SETUP),
        {
            "type": "character.card_completed",
            "data": {"character_id": "merisiel", "card": {"card_feats": {"loot": [1]}}},
        },
    )
    assert reason == "Merisiel's Cards List has no loot line (it lists weapon, spell, armor, item, ally, blessing)."


def test_a_hand_size_given_with_the_first_reset_is_kept_for_the_next():
    # Given Valeros, whose recorded card has no hand size, resetting with his hand size of 3 once
    state = fold(
        *SETUP[:2],
        {
            "type": "character.joined",
            "data": {
                "character_id": "valeros",
                "name": "Valeros",
                "player": "Bo",
                "card": {**character_card("Valeros"), "hand_size": None},
            },
        },
    )
    assert state.characters["valeros"].card.hand_size is None
    state = fold(
        *SETUP[3:],
        *START,
        {"type": "hourglass.advanced", "data": {"character_id": "valeros"}},
        {"type": "hand.reset", "data": {"character_id": "valeros", "hand_size": 3}},
        state=state,
    )
    # Then the card keeps it
    assert state.characters["valeros"].card.hand_size == 3
