"""Conditions on who acts, not only on the entry's own numbers, each from both sides: a loan only for what the
purchase lacks, a loan repaid at the Manor, a revive by a Character still standing (an Ally's too).

Skull Tales: Full Sail! rulebook sections are named in each test.
"""

from __future__ import annotations

from typing import Any

import pytest

from quartermaster.projections.game import Meta, Rejection, RuleBroken, step
from quartermaster.projections.skull_tales import GAME
from quartermaster.projections.skull_tales.state import SkullTales
from tests.unit.skull_tales.chapter_one import event
from tests.unit.skull_tales.stages import adventuring, in_port
from tests.unit.skull_tales.table import decode, given, when

WITCH = {"ally_id": "witch", "archetype": "Witch", "charisma": 2, "salary": 0, "fame_cost": 0}


def broken(state: SkullTales, payload: dict[str, Any]) -> str:
    """The sentence of a rule of the game the payload breaks (overridable)."""
    with pytest.raises(RuleBroken) as caught:
        step(GAME, state, decode(payload), Meta(position=1000))
    return caught.value.reason


def overridden(state: SkullTales, payload: dict[str, Any]) -> SkullTales:
    result = step(GAME, state, decode(payload), Meta(position=1000, override="house rule"))
    assert result is not None
    return result


# --- Book II: Locations, Market Square (a loan "equal to the amount you need") ---------------------------------------


def test_a_market_loan_for_what_the_gear_lacks_is_accepted():
    # Jack has 70 Coins; a 85-Coin Gear card lacks 15.
    state = in_port()
    after = when(state, event("loan.taken", pirate_id="jack", amount=15, lender="market", price=85))
    assert after.pirates["jack"].coins == 85
    assert after.pirates["jack"].loan is not None and after.pirates["jack"].loan.owed == 18


def test_a_market_loan_above_what_the_gear_lacks_is_refused():
    state = in_port()
    assert broken(state, event("loan.taken", pirate_id="jack", amount=20, lender="market", price=85)) == (
        "Jack cannot borrow 20 Coins for Gear costing 85 Coins: Jack has 70, and a loan is only the amount needed, "
        "15 (Book II: Locations, Market Square; Docks)."
    )
    assert overridden(state, event("loan.taken", pirate_id="jack", amount=20, lender="market", price=85))


def test_a_market_loan_for_gear_the_purse_can_pay_is_refused():
    assert broken(in_port(), event("loan.taken", pirate_id="jack", amount=10, lender="market", price=30)) == (
        "Jack cannot borrow for Gear costing 30 Coins: Jack has 70, enough to pay for it (Book II: Locations, "
        "Market Square; Docks)."
    )


def test_a_market_loan_without_its_price_is_held_to_the_purchase_that_follows():
    state = in_port(event("loan.taken", pirate_id="jack", amount=15, lender="market"))
    # 70 + 15 for an 85-Coin card: the amount needed.
    bought = when(state, event("item.gained", pirate_id="jack", item="Blunderbuss", price=85))
    assert bought.pirates["jack"].coins == 0
    # The same loan for a 75-Coin card was 10 more than it lacked.
    assert broken(state, event("item.gained", pirate_id="jack", item="Blunderbuss", price=75)) == (
        "Jack cannot borrow 15 Coins for Gear costing 75 Coins: Jack has 70, and a loan is only the amount needed, "
        "5 (Book II: Locations, Market Square; Docks)."
    )
    # Once held to its purchase, the loan is not looked at again.
    assert when(bought, event("coins.changed", pirate_id="jack", amount=20, source="event"), position=1001)


def test_the_black_market_s_charged_price_is_what_a_loan_is_held_to():
    # A 20-Coin card from the Black Market costs 30 (cost plus half): Jack, with 20 after buying, lacks 10.
    state = in_port(event("coins.changed", pirate_id="jack", amount=-50, source="gear"))
    borrowed = when(state, event("loan.taken", pirate_id="jack", amount=10, lender="market"))
    after = when(
        borrowed, event("item.gained", pirate_id="jack", item="Pistol", price=20, black_market=True), position=1001
    )
    assert after.pirates["jack"].coins == 0


# --- Book II: Locations, Docks (the ship loan "for the amount needed") ----------------------------------------------


def test_a_ship_loan_is_for_what_the_crews_booty_lacks():
    # Anne collects the Captain's Salary: the Crew's Booty holds 100; a Cannon costs 100, an Auxiliary Sail 100.
    state = in_port(event("salary.collected", pirate_id="anne"))
    assert state.crew_booty == 100
    assert broken(state, event("loan.taken", pirate_id="anne", amount=10, lender="ship", price=100)) == (
        "Anne cannot borrow for an upgrade costing 100 Coins: the Crew's Booty holds 100, enough to pay for it "
        "(Book II: Locations, Market Square; Docks)."
    )
    spent = given(event("group.hired", pirate_id="anne"), state=state)  # 30 from the Crew's Booty: 70 left
    after = when(spent, event("loan.taken", pirate_id="anne", amount=30, lender="ship", price=100))
    assert after.crew_booty == 100
    assert broken(spent, event("loan.taken", pirate_id="anne", amount=40, lender="ship", price=100)).endswith(
        "a loan is only the amount needed, 30 (Book II: Locations, Market Square; Docks)."
    )


def test_a_ship_loan_without_its_price_is_held_to_the_upgrade_that_follows():
    state = in_port(
        event("salary.collected", pirate_id="anne"),
        event("group.hired", pirate_id="anne"),
        event("loan.taken", pirate_id="anne", amount=50, lender="ship"),
    )
    # 70 + 50 for a 100-Coin Cannon: 20 more than it lacked.
    assert broken(state, event("ship.upgraded", pirate_id="anne", upgrade="Cannon")) == (
        "Anne cannot borrow 50 Coins for an upgrade costing 100 Coins: the Crew's Booty holds 70, and a loan is "
        "only the amount needed, 30 (Book II: Locations, Market Square; Docks)."
    )
    fitted = when(
        in_port(
            event("salary.collected", pirate_id="anne"),
            event("group.hired", pirate_id="anne"),
            event("loan.taken", pirate_id="anne", amount=30, lender="ship"),
        ),
        event("ship.upgraded", pirate_id="anne", upgrade="Cannon"),
    )
    assert fitted.crew_booty == 0


# --- Book II: Locations, Madame Claude's Manor (Loans: "you must return to the Manor") -----------------------------


def test_a_loan_is_repaid_at_the_manor_paying_its_entry_fee():
    state = in_port(event("loan.taken", pirate_id="jack", amount=20, lender="market"))
    # Not yet inside: repaying takes him in, and the fee is charged (Book II: Locations, Madame Claude's Manor).
    after = when(state, event("loan.repaid", pirate_id="jack", amount=24))
    assert after.pirates["jack"].loan is None and after.pirates["jack"].coins == 70 + 20 - 7 - 24
    # Already inside this Port Phase: no second fee.
    inside = given(event("manor.entered", pirate_id="jack"), state=state)
    assert inside.pirates["jack"].coins == 70 + 20 - 7
    again = when(inside, event("loan.repaid", pirate_id="jack", amount=24))
    assert again.pirates["jack"].coins == 70 + 20 - 7 - 24


def test_the_captain_enters_the_manor_free_to_repay_the_ship_loan_from_the_crews_booty():
    state = in_port(
        event("salary.collected", pirate_id="anne"),
        event("group.hired", pirate_id="anne"),
        event("loan.taken", pirate_id="anne", amount=30, lender="ship"),
        event("ship.upgraded", pirate_id="anne", upgrade="Cannon"),
        event("coins.given", from_pirate="mary", to="crew_booty", amount=36),
    )
    after = when(state, event("loan.repaid", pirate_id="anne", amount=36, paid_from="crew_booty"))
    assert after.pirates["anne"].loan is None and after.crew_booty == 0
    assert after.pirates["anne"].coins == state.pirates["anne"].coins


def test_the_manor_s_services_take_a_pirate_in_once_a_port_paying_the_fee():
    # Francisco Carranza's lesson, the Manor's Rumors and the Luxury Treatment, each had inside the Manor: the first
    # takes Jack in for 7 Coins, the others find him inside.
    state = in_port(
        event("coins.changed", pirate_id="jack", amount=200, source="event"),
        event("fame.changed", pirate_id="jack", amount=100, source="event"),
    )
    learned = when(state, event("skill.learned", pirate_id="jack", skill="Fencing"))
    paid = state.pirates["jack"].coins - learned.pirates["jack"].coins
    rumors = when(learned, event("rumors.heard", pirate_id="jack", where="manor"), position=1001)
    assert rumors.pirates["jack"].coins == learned.pirates["jack"].coins
    treated = when(rumors, event("port.service_bought", pirate_id="jack", service="luxury_treatment"), position=1002)
    assert treated.pirates["jack"].coins == rumors.pirates["jack"].coins - 10
    # The same lesson at the Tavern's master costs no fee; the difference is the Manor's 7.
    tavern = when(state, event("rumors.heard", pirate_id="jack", where="tavern"))
    assert tavern.pirates["jack"].coins == state.pirates["jack"].coins
    manor = when(state, event("rumors.heard", pirate_id="jack", where="manor"))
    assert manor.pirates["jack"].coins == state.pirates["jack"].coins - 7
    assert paid > 7
    # The Captain enters free.
    anne = when(state, event("rumors.heard", pirate_id="anne", where="manor"))
    assert anne.pirates["anne"].coins == state.pirates["anne"].coins


# --- Book I: Character Actions, Revive ------------------------------------------------------------------------------


def _down_with_the_witch() -> SkullTales:
    state = in_port(event("ally.hired", pirate_id="jack", **WITCH))
    return given(
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        event("phase.ended", phase="voyage"),
        event("phase.started", phase="adventure"),
        event("pirate.unconscious", pirate_id="mary"),
        state=state,
    )


def test_an_ally_in_play_revives_a_pirate_and_gains_no_destiny_point():
    state = _down_with_the_witch()
    after = when(state, event("pirate.revived", pirate_id="mary", reviver_id="witch"))
    assert after.pirates["mary"].status == "active"
    assert {k: p.destiny for k, p in after.pirates.items()} == {k: p.destiny for k, p in state.pirates.items()}


def test_a_dead_ally_revives_nobody():
    state = given(event("ally.died", ally_id="witch"), state=_down_with_the_witch())
    assert broken(state, event("pirate.revived", pirate_id="mary", reviver_id="witch")) == (
        "Mary cannot be revived by the Witch, who is no longer in play (dead)."
    )


def test_an_unconscious_pirate_revives_nobody_and_a_standing_one_does():
    state = given(event("pirate.unconscious", pirate_id="jack"), state=adventuring())
    down = given(event("pirate.unconscious", pirate_id="mary"), state=state)
    assert broken(down, event("pirate.revived", pirate_id="mary", reviver_id="jack")) == (
        "Jack is Unconscious and cannot revive Mary (Book I: Character Actions, Revive)."
    )
    after = when(down, event("pirate.revived", pirate_id="mary", reviver_id="anne"))
    assert after.pirates["mary"].status == "active"


def test_at_sea_an_ally_s_assist_gains_it_a_trust_point():
    state = in_port(event("ally.hired", pirate_id="jack", **WITCH))
    state = given(
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        event("pirate.unconscious", pirate_id="mary"),
        state=state,
    )
    after = when(state, event("pirate.revived", pirate_id="mary", reviver_id="witch"))
    assert after.trust.get("witch") == 1 and after.pirates["mary"].status == "active"
    with pytest.raises(Rejection):
        step(GAME, state, decode(event("pirate.revived", pirate_id="mary", reviver_id="nobody")), Meta(position=1000))


# --- Book I: Character and Enemy States, Unconscious ("does not play their turn") ---------------------------------


def test_an_unconscious_pirate_takes_no_coins_from_a_search_or_a_fallen_enemy_until_revived():
    down = given(event("pirate.unconscious", pirate_id="mary"), state=adventuring())
    assert broken(down, event("coins.changed", pirate_id="mary", amount=6, source="search_card")) == (
        "Mary is Unconscious and cannot take Coins from a Search card until revived."
    )
    assert broken(down, event("coins.changed", pirate_id="mary", amount=3, source="fallen_enemy")).startswith(
        "Mary is Unconscious and cannot take Coins from a Fallen Enemy token"
    )
    up = given(event("pirate.revived", pirate_id="mary", reviver_id="anne"), state=down)
    assert when(up, event("coins.changed", pirate_id="mary", amount=6, source="search_card")).pirates[
        "mary"
    ].phase_coins == (up.pirates["mary"].phase_coins + 6)
    # What the Goals Chart pays is not an action of hers.
    assert when(down, event("coins.changed", pirate_id="mary", amount=10, source="goal"))


# --- Book II: Port Phase, End of the Port Phase ("immediately ends for your Pirate") -------------------------------


def test_a_pirate_back_aboard_buys_nothing_more_ashore_but_may_trade_aboard():
    aboard = in_port(event("pirate.boarded", pirate_id="jack"))
    assert broken(aboard, event("item.gained", pirate_id="jack", item="Cutlass", price=20)) == (
        "Jack cannot buy Cutlass: Jack's Port Phase is over, back aboard the Pirate Ship."
    )
    assert broken(aboard, event("manor.entered", pirate_id="jack")).startswith(
        "Jack cannot enter Madame Claude's Manor"
    )
    assert broken(aboard, event("loan.taken", pirate_id="jack", amount=10, lender="market")).endswith(
        "Port Phase is over, back aboard the Pirate Ship."
    )
    # Aboard, Pirates may still trade Coins between them (Book II: Port Phase, Important Concepts).
    assert when(aboard, event("coins.given", from_pirate="jack", to="mary", amount=10)).pirates["jack"].coins == 60
    # Ashore, the same purchase is accepted.
    assert when(in_port(), event("item.gained", pirate_id="jack", item="Cutlass", price=20)).pirates["jack"].coins == 50


def test_a_pirate_carried_aboard_unconscious_buys_nothing_more_but_one_on_their_last_time_unit_does():
    down = in_port(event("pirate.unconscious", pirate_id="jack"))
    assert broken(down, event("manor.entered", pirate_id="jack")).endswith(
        "Port Phase is over, back aboard the Pirate Ship."
    )
    # The last Time Unit spent on a Haggle: the Gear card it finds is still bought.
    spent = in_port(event("time.spent", pirate_id="jack", amount=20, purpose="Haggle"))
    assert when(spent, event("item.gained", pirate_id="jack", item="Cutlass", price=20)).pirates["jack"].coins == 50


def test_a_market_loan_is_held_to_a_purchase_logged_as_the_coins_it_cost():
    state = in_port(event("loan.taken", pirate_id="jack", amount=15, lender="market"))
    assert when(state, event("coins.changed", pirate_id="jack", amount=-85, source="gear")).pirates["jack"].coins == 0
    assert broken(state, event("coins.changed", pirate_id="jack", amount=-30, source="gear")).startswith(
        "Jack cannot borrow for Gear costing 30 Coins: Jack has 70, enough to pay for it"
    )


def test_a_loan_repaid_at_sea_against_the_rules_charges_no_manor_fee():
    state = in_port(event("loan.taken", pirate_id="jack", amount=20, lender="market"))
    state = given(event("phase.ended", phase="port"), event("phase.started", phase="voyage"), state=state)
    after = overridden(state, event("loan.repaid", pirate_id="jack", amount=24))
    assert after.pirates["jack"].coins == 70 + 20 - 24
