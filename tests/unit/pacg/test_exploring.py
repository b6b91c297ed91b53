"""Exploring names its explorer: her own location, her own turn, and with explore_once_per_turn one free exploration."""

import msgspec
import pytest

from quartermaster.events.pacg import CardMoved
from tests.unit.pacg.pacg_world import HANDS, SETUP, START, event, fold, move, rejection, zone

SHARK = zone("location", location="Shark Island")
TEMPEST = zone("location", location="Tempest Cay")
ONCE = {"explore_once_per_turn": True}


def ev(type_, **data):
    return {"type": type_, "data": data}


def advance(who):
    return ev("hourglass.advanced", character_id=who)


def explore(name, who="merisiel", place=SHARK, **flags):
    found = move(name, "reveal", place, zone("encounter"))
    found["data"].update(explorer=who, **flags)
    return found


def with_data(found, **extra):
    return {"type": found["type"], "data": {**found["data"], **extra}}


def banish(name):
    return move(name, "banish", zone("encounter"), zone("vault"))


def turn_of(who, options=None):
    return fold(*SETUP, *START, advance(who), options=options)


def test_an_exploration_naming_its_explorer_reveals_the_card_and_counts_for_the_turn():
    state = fold(explore("Dire Rat"), state=turn_of("merisiel"))
    assert state.zones["encounter"].known == {"Dire Rat": 1}
    assert state.scenario.explored_this_turn is True


def test_a_second_free_exploration_in_a_turn_is_refused_when_the_campaign_counts_them():
    state = fold(explore("Dire Rat"), banish("Dire Rat"), state=turn_of("merisiel", ONCE))
    assert rejection(state, explore("Dire Rat")) == (
        "Merisiel has already explored this turn: the free exploration is the first of the turn, and Merisiel "
        "explores again only when a card or power allows it (explore_again)."
    )


def test_an_exploration_a_card_grants_may_follow_the_free_one():
    state = fold(
        explore("Dire Rat"),
        banish("Dire Rat"),
        explore("Dire Rat", explore_again=True),
        banish("Dire Rat"),
        explore("Buccaneer", explore_again=True),
        state=turn_of("merisiel", ONCE),
    )
    assert state.zones["encounter"].known == {"Buccaneer": 1}


def test_the_free_exploration_must_be_the_first_of_the_turn():
    state = fold(explore("Dire Rat", explore_again=True), banish("Dire Rat"), state=turn_of("merisiel", ONCE))
    assert rejection(state, explore("Dire Rat")).startswith("Merisiel has already explored this turn")


def test_the_next_turn_brings_a_new_free_exploration():
    state = fold(*SETUP, *START, *HANDS, advance("merisiel"), options=ONCE)
    state = fold(explore("Dire Rat"), banish("Dire Rat"), advance("valeros"), advance("merisiel"), state=state)
    assert state.scenario.explored_this_turn is False
    state = fold(explore("Dire Rat"), state=state)
    assert state.zones["encounter"].known == {"Dire Rat": 1}


def test_a_group_that_plays_otherwise_explores_without_limit():
    state = fold(
        explore("Dire Rat"),
        banish("Dire Rat"),
        explore("Dire Rat"),
        state=turn_of("merisiel", {"explore_once_per_turn": False}),
    )
    assert state.zones["encounter"].known == {"Dire Rat": 1}


def test_explorations_that_name_no_explorer_are_not_counted():
    state = fold(
        move("Dire Rat", "reveal", SHARK, zone("encounter")),
        banish("Dire Rat"),
        explore("Dire Rat"),
        state=turn_of("merisiel", ONCE),
    )
    assert state.zones["encounter"].known == {"Dire Rat": 1}


@pytest.mark.parametrize(
    ("given", "when", "then"),
    [
        (
            [advance("valeros")],
            explore("Dire Rat"),
            "Merisiel may never explore on another player's turn: it is Valeros's turn.",
        ),
        ([], explore("Dire Rat"), "Merisiel may never explore on another player's turn: no turn has started yet."),
        (
            [advance("merisiel")],
            explore("Dire Rat", place=TEMPEST),
            "Merisiel is at Shark Island and explores that location, not Tempest Cay.",
        ),
        (
            [advance("merisiel")],
            explore("Dire Rat", who="lem"),
            "No character lem has joined this campaign (characters: merisiel, valeros).",
        ),
        (
            [advance("merisiel"), move("Dagger", "draw", zone("deck", "merisiel"), zone("hand", "merisiel"))],
            with_data(
                move("Dagger", "discard", zone("hand", "merisiel"), zone("discard", "merisiel")), explorer="merisiel"
            ),
            "Only exploring names an explorer: a card revealed from a location to the encounter, not discard from hand to "
            "discard.",
        ),
        (
            [advance("merisiel")],
            with_data(move("Dire Rat", "reveal", SHARK, zone("encounter")), explore_again=True),
            "An exploration a card or power grants (explore_again) names its explorer.",
        ),
        (
            [advance("merisiel"), ev("character.died", character_id="merisiel")],
            explore("Dire Rat"),
            "Merisiel is dead and can do nothing for the rest of Island Hopping.",
        ),
    ],
    ids=[
        "another player's turn",
        "before the first turn",
        "another location",
        "an unknown explorer",
        "a move that is no exploration",
        "explore_again without its explorer",
        "a dead explorer",
    ],
)
def test_an_exploration_is_refused_with_the_real_situation(given, when, then):
    assert rejection(fold(*SETUP, *START, *given, options=ONCE), when) == then


def test_a_card_moved_recorded_before_explorers_existed_decodes_and_encodes_unchanged():
    recorded = (
        b'{"type":"card.moved","card":"Dire Rat","from":{"zone":"location","character_id":null,'
        b'"location":"Shark Island"},"to":{"zone":"encounter","character_id":null,"location":null},"verb":"reveal"}'
    )
    decoded = msgspec.json.decode(recorded, type=CardMoved)
    assert decoded.explorer is None and decoded.explore_again is False
    assert msgspec.json.encode(decoded) == recorded
    assert event("card.moved", **msgspec.json.decode(recorded)).explorer is None


def test_the_option_must_be_true_or_false():
    from quartermaster.projections.game import Rejection

    with pytest.raises(Rejection, match="The campaign's rule options are not valid"):
        fold(options={"explore_once_per_turn": "twice"})
