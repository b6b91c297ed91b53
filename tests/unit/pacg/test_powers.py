"""Cards' printed powers as data the fold applies: read from the printed words by the catalogue, applied by kind.

Skull & Shackles Ships and Henchmen notes (ships' When Encountering, When Commanding and Wrecked sections; henchmen's
Powers); Skull & Shackles Rulebook, The Golden Rule; Closing a Location (New: Henchmen and Closing Locations).
"""

from __future__ import annotations

from quartermaster.service.application.catalog import pacg as catalogue
from quartermaster.service.application.catalog.powers import read_power
from tests.unit.pacg.pacg_world import BOX, HANDS, SETUP, START, fold, move, rejection, zone

SHARK = zone("location", location="Shark Island")


def ev(type_, **data):
    return {"type": type_, "data": data}


CATALOGUE = catalogue.load()


def ship(name):
    return CATALOGUE["by"]["ship"][name]


def henchman(name):
    return next(c for c in CATALOGUE["products"]["products"]["B"]["cards"] if c["name"] == name)


def test_printed_powers_are_read_by_their_wording_and_the_rest_is_left_to_the_table():
    assert read_power("The Hammerhead Shark may not be evaded.")["kind"] == "may_not_be_evaded"
    assert read_power("If Hirgenzosk would be defeated, he is undefeated.")["kind"] == "cannot_be_defeated"
    assert read_power("Reduce Structural damage to this ship by 2.", "commanding")["amount"] == -2
    wrecked = read_power(
        "At the start of your turn, banish this card and exchange it for the ship Merchantman.", "wrecked"
    )
    assert wrecked["kind"] == "exchange_when_wrecked" and wrecked["ship"] == "Merchantman"
    assert read_power("You may discard a card from the blessings deck to evade a bane.")["kind"] == "by_hand"
    assert [p["kind"] for p in henchman("Hammerhead Shark")["powers"]] == [
        "may_not_be_evaded",
        "difficulty",
        "close_when_defeated",
    ]


def _playing_with(*extra_cards, ship_name="Merchantman", options=None, henchmen=("Buccaneer",)):
    box = [*BOX, *extra_cards]
    setup = [ev("vault.products_added", product="B", cards=box), *SETUP[1:]]
    data = {**START[0]["data"], "ship": ship_name, "ship_card": ship(ship_name), "henchmen": list(henchmen)}
    started = {**START[0], "data": data}
    state = fold(*setup, options={**(options or {})})
    if ship_name != "Merchantman":
        state = fold(ev("ship.awarded", ship=ship_name, ship_card=ship(ship_name)), state=state, options=None)
    return fold(started, *START[1:], *HANDS, ev("hourglass.advanced", character_id="merisiel"), state=state)


def test_a_card_that_may_not_be_evaded_is_not_evaded():
    shark = {**henchman("Hammerhead Shark"), "count": 1, "type": "monster"}
    state = _playing_with(shark)
    met = move("Hammerhead Shark", "summon", zone("vault"), zone("encounter"))
    state = fold(met, state=state)
    assert rejection(state, ev("encounter.ended", card="Hammerhead Shark", outcome="evaded")).startswith(
        'Hammerhead Shark may not be evaded: "The Hammerhead Shark may not be evaded."'
    )
    assert fold(ev("encounter.ended", card="Hammerhead Shark", outcome="defeated"), state=state)


def test_a_card_that_cannot_be_defeated_stays_undefeated():
    hirgenzosk = {**henchman("Hirgenzosk"), "count": 1}
    state = fold(move("Hirgenzosk", "summon", zone("vault"), zone("encounter")), state=_playing_with(hirgenzosk))
    assert rejection(state, ev("encounter.ended", card="Hirgenzosk", outcome="defeated")).startswith(
        "Hirgenzosk cannot be defeated"
    )
    assert fold(ev("encounter.ended", card="Hirgenzosk", outcome="undefeated"), state=state)


def test_a_ship_that_reduces_structural_damage_takes_less():
    state = _playing_with(ship_name="Thresher")
    assert fold(ev("ship.damaged", dealt=3, amount=2), state=state).fleet.wrecked
    assert rejection(state, ev("ship.damaged", dealt=3, amount=3)).startswith(
        "3 Structural damage dealt to the Thresher is 2 after its card's powers (Reduce Structural damage to this "
        "ship by 1.), not 3."
    )
    # Reduced to nothing, the ship stays intact
    assert not fold(ev("ship.damaged", dealt=1, amount=0), state=state).fleet.wrecked


def test_a_wrecked_ship_that_says_so_is_exchanged_for_the_ship_it_names_at_the_start_of_a_turn():
    state = fold(ev("ship.damaged", amount=1), state=_playing_with(ship_name="Wormwood"))
    assert state.fleet.wrecked and state.fleet.current == "Wormwood"
    state = fold(
        ev("hand.reset", character_id="merisiel", kept=True),
        ev("plunder.banished", card_type="weapon"),
        ev("hourglass.advanced", character_id="valeros"),
        state=state,
    )
    assert state.fleet.current == "Merchantman" and not state.fleet.wrecked


def test_a_defeated_ship_that_stashes_a_given_type_is_not_rolled_for():
    state = fold(
        ev("ship.encountered", ship="Devil's Pallor", ship_card=ship("Devil's Pallor")),
        ev("ship.defeated", ship="Devil's Pallor"),
        state=_playing_with(),
    )
    assert fold(ev("plunder.stashed", card_type="weapon"), state=state)
    assert rejection(state, ev("plunder.stashed", roll=2)).startswith(
        "The Devil's Pallor was defeated: its card says to stash a weapon instead of rolling"
    )


def test_a_henchman_whose_card_does_not_say_so_does_not_let_its_location_close():
    quiet = {
        "name": "Quiet Henchman",
        "type": "henchman",
        "count": 2,
        "powers": [{"kind": "by_hand", "text": "Nothing about closing."}],
    }
    met = move("Quiet Henchman", "reveal", SHARK, zone("encounter"))
    met["data"]["explorer"] = "merisiel"
    quietly = _playing_with(quiet, henchmen=("Quiet Henchman",))
    state = fold(met, ev("encounter.ended", card="Quiet Henchman", outcome="defeated"), state=quietly)
    assert state.scenario.may_close == []
    # A henchman whose card says so, or whose text the log does not hold, lets its location close
    met = move("Buccaneer", "reveal", SHARK, zone("encounter"))
    met["data"]["explorer"] = "merisiel"
    state = fold(met, ev("encounter.ended", card="Buccaneer", outcome="defeated"), state=_playing_with())
    assert state.scenario.may_close == ["Shark Island"]
