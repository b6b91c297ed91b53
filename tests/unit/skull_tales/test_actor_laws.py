"""Laws over random tables: a Market loan is accepted exactly when it is no more than what the purchase lacks; the
ship sinks exactly when the «Hold» has no column left; a revive is accepted exactly from a Character standing; no
purse goes below nothing even when every event is logged against the rules; and the state after N events is the
fold of those N events.

Skull Tales: Full Sail! rulebook, Book II: Locations, Market Square; Book III: Naval Combat; Book I: Character
Actions, Revive.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given as for_all, settings, strategies as st

from quartermaster.projections.game import Meta, Rejection, RuleBroken, fold, step
from quartermaster.projections.skull_tales import GAME
from quartermaster.projections.skull_tales.state import SkullTales
from tests.unit.skull_tales.chapter_one import event
from tests.unit.skull_tales.stages import adventuring, at_sea, in_port
from tests.unit.skull_tales.table import decode, given

PORT = in_port()
SEA = at_sea()
ADVENTURE = adventuring()


def outcome(state: SkullTales, payload: dict[str, Any], override: str | None = None) -> str:
    """ "accepted", "rule" (a rule of the game refused it) or "integrity"."""
    try:
        step(GAME, state, decode(payload), Meta(position=5000, override=override))
    except RuleBroken:
        return "rule"
    except Rejection:
        return "integrity"
    return "accepted"


@settings(max_examples=60, deadline=None)
@for_all(purse=st.integers(0, 90), price=st.integers(1, 120), amount=st.integers(1, 50), named=st.booleans())
def test_a_market_loan_is_accepted_exactly_when_it_is_no_more_than_the_purchase_lacks(purse, price, amount, named):
    # Jack holds 70 Coins in the Port: spend or find Coins to reach the purse drawn.
    change = purse - 70
    state = PORT
    if change:
        state = given(
            event("coins.changed", pirate_id="jack", amount=change, source="event" if change > 0 else "gear"),
            state=PORT,
        )
    legal = purse < price and amount <= price - purse
    loan = event("loan.taken", pirate_id="jack", amount=amount, lender="market", **({"price": price} if named else {}))
    if named:
        assert outcome(state, loan) == ("accepted" if legal else "rule")
        assert outcome(state, loan, override="house rule") == "accepted"
        return
    borrowed = given(loan, state=state)
    purchase = event("item.gained", pirate_id="jack", item="Cutlass", price=price)
    if purse + amount < price:
        assert outcome(borrowed, purchase) == "integrity"  # what the purse does not hold is not paid
    else:
        assert outcome(borrowed, purchase) == ("accepted" if legal else "rule")


@settings(max_examples=40, deadline=None)
@for_all(impacts=st.lists(st.integers(1, 3), min_size=1, max_size=5))
def test_the_ship_sinks_exactly_when_the_hold_has_no_column_left(impacts):
    # The Southern Lady: 7 columns; her Goods and Cannons go overboard first, so that only the Impacts count.
    state = given(event("ship.damaged", discarded_goods={"Rum": 2, "Supplies": 3}, discarded_cannons=3), state=SEA)
    lost = 0
    for i, hold in enumerate(impacts):
        state = given(event("ship.damaged", hold=hold), state=state)
        lost = min(lost + hold, 7)
        assert state.ship is not None and state.ship.hold_impacts == lost, i
        sunk = outcome(state, event("crew.surrendered", cause="sunk"))
        assert sunk == ("accepted" if lost == 7 else "rule")


@settings(max_examples=40, deadline=None)
@for_all(
    down=st.sets(st.sampled_from(["anne", "jack", "mary"]), min_size=1),
    reviver=st.sampled_from(["anne", "jack", "mary"]),
)
def test_a_revive_is_accepted_exactly_from_a_pirate_standing(down, reviver):
    state = ADVENTURE
    for pid in sorted(down):
        state = given(event("pirate.unconscious", pirate_id=pid), state=state)
    target = sorted(down)[0]
    revive = event("pirate.revived", pirate_id=target, reviver_id=reviver)
    legal = reviver not in down
    assert outcome(state, revive) == ("accepted" if legal else "rule")


def _actions() -> st.SearchStrategy[dict[str, Any]]:
    who = st.sampled_from(["anne", "jack", "mary"])
    amount = st.integers(1, 90)
    return st.one_of(
        st.builds(lambda p, a: event("coins.changed", pirate_id=p, amount=-a, source="gear"), who, amount),
        st.builds(lambda p, a: event("coins.given", from_pirate=p, to="crew_booty", amount=a), who, amount),
        st.builds(lambda p: event("manor.entered", pirate_id=p), who),
        st.builds(lambda p, a: event("item.gained", pirate_id=p, item="Cutlass", price=a), who, amount),
        st.builds(lambda p: event("port.service_bought", pirate_id=p, service="luxury_treatment"), who),
        st.builds(lambda p, a: event("loan.repaid", pirate_id=p, amount=a), who, amount),
        st.builds(lambda p, a: event("loan.taken", pirate_id=p, amount=a, lender="market"), who, st.integers(1, 50)),
        st.just(event("group.hired", pirate_id="anne")),
        st.just(event("ship.upgraded", pirate_id="anne", upgrade="Cannon")),
        st.builds(lambda p: event("salary.collected", pirate_id=p), who),
    )


@settings(max_examples=40, deadline=None)
@for_all(actions=st.lists(_actions(), max_size=20))
def test_no_purse_goes_below_nothing_even_against_the_rules(actions):
    state = PORT
    for position, payload in enumerate(actions, start=5000):
        try:
            state = step(GAME, state, decode(payload), Meta(position=position, override="house rule"))
        except Rejection:
            continue
        assert state.crew_booty >= 0
        assert all(p.coins >= 0 and p.time_units >= 0 and p.fame >= 0 for p in state.pirates.values())


@settings(max_examples=25, deadline=None)
@for_all(actions=st.lists(_actions(), max_size=15), cut=st.integers(0, 15))
def test_the_state_after_n_events_is_the_fold_of_those_n(actions, cut):
    accepted = []
    state = PORT
    for position, payload in enumerate(actions, start=5000):
        try:
            state = step(GAME, state, decode(payload), Meta(position=position))
        except Rejection:
            continue
        accepted.append((decode(payload), Meta(position=position)))
    n = min(cut, len(accepted))
    stepped = PORT
    for folded, meta in accepted[:n]:
        stepped = step(GAME, stepped, folded, meta)
    assert fold(GAME, accepted[:n], PORT) == stepped
    if n == len(accepted):
        assert stepped == state
