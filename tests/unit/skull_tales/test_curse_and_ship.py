"""Given/when/then for the Purge skill and Atonement, buying a new ship, a ship sinking, and setting effects."""

from __future__ import annotations

from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, OPTIONS, ROUND_TRIP, WITCH, event
from tests.unit.skull_tales.table import given, refused, view, when


def in_port(*extra, options=None, crew=CREW):
    return given(
        *crew,
        *CHAPTER_ONE,
        event("chapter.started", number=2),
        event("phase.started", phase="port"),
        *extra,
        options=options if options is not None else OPTIONS,
    )


def test_purge_lifts_a_curse_at_sea_and_its_three_fame_wait_for_the_voyages_end():
    state = given(
        *CREW[:2],
        WITCH,
        event("chapter.started", number=1, phases=["voyage"]),
        event("phase.started", phase="voyage"),
        event("curse.gained", pirate_id="jack"),
        options=OPTIONS,
    )
    state = when(state, event("curse.removed", pirate_id="jack", by="purge", purger_id="tia"))
    assert view(state, "pirate", pirate_id="jack")["cursed"] is False
    assert (
        view(state, "pirate", pirate_id="tia")["at_risk"]["fame"] == 3
    )  # Book II: Feats, Classes and Skills, Mystic Skills
    state = when(state, event("phase.ended", phase="voyage"), 1001)
    assert view(state, "pirate", pirate_id="tia")["fame"] == 3


def test_purge_is_a_voyage_skill():
    state = given(
        *CREW[:2],
        WITCH,
        event("chapter.started", number=1, phases=["port"]),
        event("phase.started", phase="port"),
        event("curse.gained", pirate_id="jack"),
        options=OPTIONS,
    )
    assert refused(state, event("curse.removed", pirate_id="jack", by="purge", purger_id="tia")) == (
        "Lifting a Curse with Purge happens in the Voyage Phase, and this is the port phase."
    )


def test_atonement_costs_the_penance_and_lifts_the_curse_at_a_later_port():
    state = in_port(
        event("curse.gained", pirate_id="jack"), event("penance.chosen", pirate_id="jack", penance="greedy")
    )
    jack = view(state, "pirate", pirate_id="jack")
    assert (jack["coins"], jack["time_units"], jack["penance"]) == (
        70 - 40,
        20 - 1,
        "greedy",
    )  # Book II: Locations, Saint Telmo's Chapel
    state = given(*ROUND_TRIP, state=state)
    state = when(state, event("curse.removed", pirate_id="jack", by="atonement"))
    jack = view(state, "pirate", pirate_id="jack")
    assert (jack["cursed"], jack["penance"]) == (False, None)


def test_a_new_ship_keeps_the_goods_and_groups_and_loses_cannons_and_upgrades():
    state = in_port(
        event("coins.changed", pirate_id="mary", amount=200, source="event"),
        event("coins.given", from_pirate="mary", to="crew_booty", amount=300),
        event("ship.upgraded", pirate_id="anne", upgrade="Ram"),
    )
    state = when(state, event("ship.bought", pirate_id="anne", ship_type="Schooner", name="Swift"))
    ship = view(state, "ship")
    # Book II: Locations, Docks: Coins and Goods stay; Sails, Cannons and Upgrades bargain the price and are lost; 300 - 60 - 150.
    assert ship["crew_booty"] == 300 - 60 - 150
    assert (ship["ship"]["type"], ship["ship"]["cannons"], ship["ship"]["upgrades"]) == ("Schooner", 2, {})
    assert (ship["ship"]["goods"], ship["ship"]["groups_of_pirates"]) == ({"Rum": 2, "Supplies": 3}, 4)
    assert (ship["ship"]["sails"], ship["ship"]["hold"]) == (2, 6)


def test_a_new_ship_without_groups_when_the_option_says_so():
    state = in_port(
        event("coins.changed", pirate_id="mary", amount=100, source="event"),
        event("coins.given", from_pirate="mary", to="crew_booty", amount=200),
        options={**OPTIONS, "ship_purchase_keeps_groups": False},
    )
    state = when(state, event("ship.bought", pirate_id="anne", ship_type="Schooner"))
    assert view(state, "ship")["ship"]["groups_of_pirates"] == 0


def test_a_hold_impact_reaching_column_one_sinks_the_ship():
    state = in_port(event("phase.ended", phase="port"), event("phase.started", phase="voyage"))
    # The Southern Lady's Hold is 7 columns, its Impact token on column 8 ("Hold Capacity: 7 (place an Impact token
    # on column 8 ...)", Book III: Voyage Phase, Important Concepts); her 8 tokens (5 Goods, 3 Cannons) fill 4.
    state = when(state, event("ship.damaged", hold=5, discarded_goods={"Rum": 2, "Supplies": 3}, discarded_cannons=1))
    ship = view(state, "ship")["ship"]
    # 6 columns lost: the token stands on column 3, columns 1 and 2 still hold the 2 Cannons left.
    assert (ship["hold_impacts"], ship["hold_free"], ship["sunk"]) == (5, 2, False)
    one_left = when(state, event("ship.damaged", hold=1), position=1001)
    ship = view(one_left, "ship")["ship"]
    # The token on column 2: column 1 still holds the 2 Cannons, and the ship is afloat.
    assert (ship["hold_impacts"], ship["hold_free"], ship["sunk"]) == (6, 0, False)
    # The next Impact moves the token onto column 1: she sinks (Book III: Naval Combat, Assign Impacts).
    gone = view(when(one_left, event("ship.damaged", hold=1), position=1002), "ship")["ship"]
    assert (gone["hold_impacts"], gone["sunk"]) == (7, True)


def test_a_ship_with_one_column_left_has_not_sunk_and_one_with_none_has():
    state = in_port(event("phase.ended", phase="port"), event("phase.started", phase="voyage"))
    afloat = when(state, event("ship.damaged", hold=6, discarded_goods={"Rum": 2, "Supplies": 3}, discarded_cannons=1))
    assert refused(afloat, event("crew.surrendered", cause="sunk")) == (
        "The Pirate Ship has not sunk: its «Hold» Impact token has not reached column 1."
    )
    sunk = when(afloat, event("ship.damaged", hold=1, discarded_cannons=2), position=1001)
    assert when(sunk, event("crew.surrendered", cause="sunk"), position=1002).crew_booty == 0


def test_the_cabin_boy_extra_time_units_and_the_admiral_salary_cut():
    settings = [
        {"key": "cabin_boy.port.extra_time_units", "mode": "cabin_boy", "phase": "port", "fame": -2},
        {"key": "admiral.port.salary_reduced", "mode": "admiral", "phase": "port", "fame": 2},
    ]
    state = in_port(
        event("salary.collected", pirate_id="jack"),
        event("salary.collected", pirate_id="anne"),
        options={"settings": settings},
    )
    jack = view(state, "pirate", pirate_id="jack")
    # 25 Time Units (Appendix II: Admiral Mode and Cabin Boy Mode, Cabin Boy Mode) - 1; Salary 15 - 5; the Captain 50 - 10 and the crew 100 - 20 (Appendix II: Admiral Mode and Cabin Boy Mode, Admiral Mode, Voyage Phase).
    assert (jack["time_units"], jack["coins"]) == (25 - 1, 70 + 10)
    assert (view(state, "pirate", pirate_id="anne")["coins"], view(state, "ship")["crew_booty"]) == (60 + 40, 80)
    # At the end of the Port each setting's Fame applies: -2 + 2.
    assert view(when(state, event("phase.ended", phase="port")), "pirate", pirate_id="jack")["fame"] == 45 - 2 + 2
