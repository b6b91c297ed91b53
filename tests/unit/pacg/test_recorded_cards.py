"""The group's own cards: a scenario card and a product list recorded once, kept, and a scenario held to its card."""

import pytest

from quartermaster.projections.game import Meta, RuleBroken, step
from quartermaster.projections.pacg import GAME
from tests.unit.pacg.pacg_world import SCENARIO, SETUP, fold, from_payload, rejection

recorded_view = GAME.views["recorded"].read
scenario_view = GAME.views["scenario"].read

# Island Hopping as a group would type it from its own card (the counts are this test's, not a printed card's).
CARD = {
    "type": "scenario.card_recorded",
    "data": {
        "scenario": "Island Hopping",
        "villains": ["Jemma Redclaw"],
        "henchmen": ["Buccaneer"],
        "locations": [
            {"name": "Shark Island", "players": 1, "deck": {"monster": 2, "barrier": 1, "weapon": 1, "blessing": 1}},
            {"name": "Tempest Cay", "players": 2, "deck": {"monster": 2, "spell": 1, "item": 1, "blessing": 1}},
            {"name": "Fog Bank", "players": 3, "deck": {"monster": 1, "ally": 1}},
        ],
    },
}


def test_a_recorded_scenario_card_is_kept_and_listed_in_the_recorded_view():
    state = fold(CARD)
    (card,) = recorded_view(state)["scenario_cards"]
    assert card["scenario"] == "Island Hopping"
    assert [(loc["name"], loc["players"]) for loc in card["locations"]] == [
        ("Shark Island", 1),
        ("Tempest Cay", 2),
        ("Fog Bank", 3),
    ]


def test_recording_a_scenario_card_again_replaces_the_kept_one():
    again = {"type": "scenario.card_recorded", "data": dict(CARD["data"], villains=["Adaro Barbarian"])}
    (card,) = recorded_view(fold(CARD, again))["scenario_cards"]
    assert card["villains"] == ["Adaro Barbarian"]


def test_a_scenario_started_from_its_recorded_card_with_the_locations_for_two_players_is_accepted():
    # Given a party of two and the card; when the scenario starts with the card's locations for 1 and 2 players
    state = fold(*SETUP, CARD, SCENARIO)
    # then it is in progress with those locations.
    assert [loc["name"] for loc in scenario_view(state)["locations"]] == ["Shark Island", "Tempest Cay"]


def test_a_scenario_started_with_other_locations_than_its_card_lists_for_the_party_breaks_a_rule():
    data = dict(SCENARIO["data"], locations=[*SCENARIO["data"]["locations"], {"name": "Fog Bank", "deck": {}}])
    reason = rejection(fold(*SETUP, CARD), {"type": "scenario.started", "data": data})
    assert reason == (
        "The scenario card of Island Hopping lists Shark Island and Tempest Cay for 2 players, not Shark Island, "
        "Tempest Cay and Fog Bank."
    )
    with pytest.raises(RuleBroken):
        step(GAME, fold(*SETUP, CARD), from_payload({"type": "scenario.started", "data": data}), Meta(99))


def test_the_table_may_override_the_card_to_play_with_one_location_more():
    data = dict(SCENARIO["data"], locations=[*SCENARIO["data"]["locations"], {"name": "Fog Bank", "deck": {}}])
    event = from_payload({"type": "scenario.started", "data": data})
    state = step(GAME, fold(*SETUP, CARD), event, Meta(99, override="a harder game (Core Rules FAQ)"))
    assert len(scenario_view(state)["locations"]) == 3


def test_a_scenario_card_listing_a_location_twice_is_refused():
    data = dict(CARD["data"], locations=[CARD["data"]["locations"][0]] * 2)
    reason = rejection(fold(), {"type": "scenario.card_recorded", "data": data})
    assert reason == "The scenario card of Island Hopping lists a location twice: Shark Island, Shark Island."


def test_a_product_list_is_kept_and_listed():
    product = {
        "type": "product.list_recorded",
        "data": {"product": "1", "cards": [{"name": "Cutlass", "type": "weapon", "count": 2}]},
    }
    (listed,) = recorded_view(fold(product))["product_lists"]
    assert (listed["product"], listed["cards"][0]["count"]) == ("1", 2)


def test_an_empty_product_list_is_refused():
    reason = rejection(fold(), {"type": "product.list_recorded", "data": {"product": "1", "cards": []}})
    assert reason == "The card list of product 1 has no card in it."
