"""Scenarios: setup, the hourglass, closing locations, the villain's escape, the end, adventures in order."""

from quartermaster.projections.pacg import GAME
from tests.unit.pacg.pacg_world import HANDS, SCENARIO, SETUP, START, fold, move, rejection, zone

scenario_view = GAME.views["scenario"].read
vault_view = GAME.views["vault"].read


def playing(**options):
    return fold(*SETUP, *START, options=options or None)


def advance(who, card=None):
    data = {"character_id": who}
    if card:
        data["card"] = card
    return {"type": "hourglass.advanced", "data": data}


def test_setup_builds_face_down_location_decks_the_dealt_stack_and_a_hourglass_of_thirty():
    view = scenario_view(playing())
    assert view["hourglass"]["left"] == 30
    assert [loc["face_down"] for loc in view["locations"]] == [
        {"monster": 2, "barrier": 1, "weapon": 1, "blessing": 1, "dealt": 1},
        {"monster": 2, "spell": 1, "item": 1, "blessing": 1, "dealt": 1},
    ]
    state = playing()
    assert state.zones["dealt"].known == {"Jemma Redclaw": 1, "Buccaneer": 1}


def test_the_hourglass_size_is_the_campaigns_option():
    state = playing(hourglass=20)
    assert scenario_view(state)["hourglass"]["left"] == 20
    data = dict(SCENARIO["data"], hourglass=25)
    reason = rejection(fold(*SETUP, options={"hourglass": 20}), {"type": "scenario.started", "data": data})
    assert reason == "This campaign plays with 20 blessings in the hourglass, not 25."


def test_classic_naming_speaks_of_the_box_and_the_blessings_deck():
    state = fold(*SETUP, options={"naming": "classic"})
    data = dict(SCENARIO["data"], hourglass=25)
    reason = rejection(state, {"type": "scenario.started", "data": data})
    assert reason == "This campaign plays with 30 blessings in the blessings deck, not 25."


def test_advancing_the_hourglass_discards_its_top_card_and_starts_the_turn():
    state = fold(advance("merisiel", "Blessing of the Gods"), state=playing())
    view = scenario_view(state)
    assert view["hourglass"]["left"] == 29
    assert view["hourglass"]["hour"] == "Blessing of the Gods"
    assert view["turn"] == "merisiel"


def test_the_first_turn_waits_for_the_setup_plunder():
    reason = rejection(fold(*SETUP, *START[:1]), advance("merisiel"))
    assert reason == "Stash the setup plunder card under the Merchantman before the first turn."


def test_advancing_an_empty_hourglass_loses_the_scenario():
    state = playing(hourglass=1)
    state = fold(*HANDS, advance("merisiel"), advance("valeros"), state=state)
    # Then the scenario ends at once (Skull & Shackles Rulebook, Ending a Scenario, Adventure, or Adventure Path)
    view = scenario_view(state)
    assert view["in_progress"] is False
    assert view["lost"] == "Island Hopping was lost (the hourglass had no card left to advance)"
    assert state.zones["merisiel:deck"].known == {
        name: 1 for name in ["Dagger", "Pistol", "Cure", "Leather Armor", "Rum Bottle", "Sailor"]
    } | {"Blessing of the Gods": 2}
    reason = rejection(state, {"type": "scenario.ended", "data": {"result": "won"}})
    assert reason == "Island Hopping was lost (the hourglass had no card left to advance); it cannot end as won."
    # And the table's scenario.ended lost only says so again
    state = fold({"type": "scenario.ended", "data": {"result": "lost"}}, state=state)
    assert scenario_view(state)["completed"] == []


def test_every_character_dead_loses_the_scenario():
    state = fold(
        {"type": "character.died", "data": {"character_id": "merisiel"}},
        {"type": "character.died", "data": {"character_id": "valeros"}},
        state=playing(),
    )
    assert scenario_view(state)["lost"] == "Island Hopping was lost (every character is dead)"


def test_after_a_loss_explorations_moves_and_damage_wait_for_the_next_scenario():
    state = fold(
        {"type": "character.died", "data": {"character_id": "merisiel"}},
        {"type": "character.died", "data": {"character_id": "valeros"}},
        state=playing(),
    )
    refused = (
        "Island Hopping was lost (every character is dead) and ended at once: nothing more is explored, moved "
        "or dealt in it; the next scenario starts anew."
    )
    for event in (
        move("Dire Rat", "reveal", zone("location", location="Shark Island"), zone("encounter")),
        {"type": "character.moved", "data": {"character_id": "merisiel", "to": "Tempest Cay"}},
        {"type": "damage.dealt", "data": {"character_id": "valeros", "amount": 1}},
    ):
        assert rejection(state, event) == refused


def test_closing_a_location_banishes_its_cards_to_the_vault():
    state = fold(
        move("Buccaneer", "reveal", zone("location", location="Shark Island"), zone("encounter")),
        move("Buccaneer", "banish", zone("encounter"), zone("vault")),
        {"type": "location.closed", "data": {"location": "Shark Island"}},
        state=playing(),
    )
    shark = scenario_view(state)["locations"][0]
    assert shark["status"] == "closed" and shark["cards"] == 0
    assert state.face_down_out == {"monster": 2, "spell": 1, "item": 1, "blessing": 31, "weapon": 1}


def test_a_location_with_unsearched_dealt_cards_cannot_close():
    reason = rejection(playing(), {"type": "location.closed", "data": {"location": "Shark Island", "how": "power"}})
    assert reason == (
        "Shark Island cannot close before its deck is searched for villains: reveal its dealt cards first."
    )


def test_a_location_holding_the_villain_cannot_close():
    state = fold(
        move(
            "Jemma Redclaw",
            "reveal",
            zone("location", location="Shark Island"),
            zone("location", location="Shark Island"),
        ),
        state=playing(),
    )
    reason = rejection(state, {"type": "location.closed", "data": {"location": "Shark Island", "how": "power"}})
    assert reason == (
        "Shark Island cannot close: Jemma Redclaw is in its deck. Banish the other cards instead; the location is "
        "only temporarily closed."
    )


def test_closing_a_closed_location_again_is_rejected():
    state = fold(
        move("Buccaneer", "reveal", zone("location", location="Shark Island"), zone("encounter")),
        move("Buccaneer", "banish", zone("encounter"), zone("vault")),
        {"type": "location.closed", "data": {"location": "Shark Island"}},
        state=playing(),
    )
    assert rejection(state, {"type": "location.closed", "data": {"location": "Shark Island"}}) == (
        "Shark Island is already closed."
    )


def test_ending_a_scenario_returns_every_card_of_play_to_the_vault_and_the_decks_to_their_owners():
    state = fold(
        advance("merisiel"),
        move("Dagger", "draw", zone("deck", "merisiel"), zone("hand", "merisiel")),
        move("Dagger", "discard", zone("hand", "merisiel"), zone("discard", "merisiel")),
        {"type": "scenario.ended", "data": {"result": "won"}},
        state=playing(),
    )
    assert state.face_down_out == {"weapon": 1}  # the plunder, now loot to hand out
    assert GAME.views["character"].read(state, character_id="merisiel")["counts"]["deck"] == 8
    assert scenario_view(state)["completed"] == ["Island Hopping"]


ADVENTURE = {
    "type": "adventure.started",
    "data": {"adventure": "Plunder and Peril", "number": 0, "scenarios": ["Island Hopping", "Second Voyage"]},
}


def adventure_scenario(name, adventure="Plunder and Peril"):
    return {"type": "scenario.started", "data": dict(SCENARIO["data"], scenario=name, adventure=adventure)}


def test_an_adventures_scenarios_are_played_in_order():
    reason = rejection(fold(*SETUP, ADVENTURE), adventure_scenario("Second Voyage"))
    assert (
        reason == "Plunder and Peril's scenarios are played in order: Island Hopping must be won before Second Voyage."
    )


def test_a_lost_scenario_must_be_replayed_before_the_next():
    state = fold(
        *SETUP, ADVENTURE, adventure_scenario("Island Hopping"), {"type": "scenario.ended", "data": {"result": "lost"}}
    )
    reason = rejection(state, adventure_scenario("Second Voyage"))
    assert reason.endswith("Island Hopping must be won before Second Voyage.")


def test_completing_every_scenario_completes_the_adventure_and_opens_both_rewards():
    two = {"type": "adventure.started", "data": {"adventure": "Two Voyages", "scenarios": ["Island Hopping", "Second"]}}
    state = fold(
        *SETUP,
        two,
        adventure_scenario("Island Hopping", "Two Voyages"),
        {"type": "scenario.ended", "data": {"result": "won"}},
        adventure_scenario("Second", "Two Voyages"),
        {"type": "scenario.ended", "data": {"result": "won"}},
    )
    assert state.completed == ["Island Hopping", "Second", "Two Voyages"]
    assert state.rewardable == ["Second", "Two Voyages"]


def test_plunder_and_peril_is_not_complete_before_its_five_scenarios_are_won():
    # Given Plunder and Peril started with two scenarios named, both won (the rulebook gives it five)
    state = fold(
        *SETUP,
        ADVENTURE,
        adventure_scenario("Island Hopping"),
        {"type": "scenario.ended", "data": {"result": "won"}},
        adventure_scenario("Second Voyage"),
        {"type": "scenario.ended", "data": {"result": "won"}},
    )
    # Then the adventure is not complete and its reward is not open
    assert state.completed == ["Island Hopping", "Second Voyage"]
    assert state.rewardable == ["Second Voyage"]
    # When the three scenarios after the named ones are won, in order, then it is
    for name in ("Third", "Fourth", "Fifth"):
        state = fold(adventure_scenario(name), {"type": "scenario.ended", "data": {"result": "won"}}, state=state)
    assert state.completed[-1] == "Plunder and Peril"
    assert state.adventure.scenarios == ["Island Hopping", "Second Voyage", "Third", "Fourth", "Fifth"]


def test_a_new_adventure_waits_for_the_current_one_and_adds_its_deck_to_the_vault():
    reason = rejection(
        fold(*SETUP, ADVENTURE),
        {"type": "adventure.started", "data": {"adventure": "The Wormwood Mutiny", "number": 1}},
    )
    assert reason == (
        "The party has not completed Plunder and Peril: Island Hopping and Second Voyage still to be won before "
        "The Wormwood Mutiny begins."
    )
    state = fold(
        *SETUP,
        {
            "type": "adventure.started",
            "data": {
                "adventure": "The Wormwood Mutiny",
                "number": 1,
                "product": "1",
                "scenarios": ["Press Ganged!"],
                "cards": [{"name": "Bilge Rat", "type": "monster", "count": 2}],
            },
        },
    )
    assert vault_view(state)["cards"]["Bilge Rat"] == 2
    assert "1" in vault_view(state)["products"]


def test_starting_a_scenario_while_one_is_in_progress_is_rejected():
    assert rejection(playing(), SCENARIO) == (
        "Island Hopping is still in progress; end it before starting Island Hopping."
    )


def test_a_checked_starting_hand_needs_a_card_of_the_favoured_type():
    from tests.unit.pacg.pacg_world import draw, rejection

    # Given a campaign that checks starting hands, Merisiel draws no weapon, her favoured type
    state = fold(
        *SETUP, *START, draw("merisiel", "Cure"), draw("valeros", "Longsword"), options={"starting_hand": "checked"}
    )
    # When the first turn starts, then her hand is refused with the weapon her deck still holds
    reason = rejection(state, {"type": "hourglass.advanced", "data": {"character_id": "valeros"}})
    assert reason == (
        "Merisiel begins Island Hopping without a weapon in hand, though Merisiel's deck holds Dagger: a starting "
        "hand holds at least 1 card of the favoured type (discard it and draw again)."
    )
    # When she has drawn again, then the turn starts
    state = fold(
        draw("merisiel", "Pistol"), {"type": "hourglass.advanced", "data": {"character_id": "valeros"}}, state=state
    )
    assert state.scenario.turn == "valeros"


def test_starting_hands_are_only_recorded_by_default():
    state = fold(*SETUP, *START, {"type": "hourglass.advanced", "data": {"character_id": "merisiel"}})
    assert state.scenario.turn == "merisiel"
