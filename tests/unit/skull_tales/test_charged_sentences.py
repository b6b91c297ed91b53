"""The log says what the rules charged, not what was typed: wherever the fold computes a cost, a fee or a price, the
event's sentence names the amount the fold took and why it differs from the card's figure.

Skull Tales: Full Sail! rulebook sections are named in each test.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given as for_all, settings, strategies as st

from quartermaster.projections.game import Rejection
from quartermaster.projections.sentences import tell
from quartermaster.projections.skull_tales import GAME
from quartermaster.projections.skull_tales.state import SkullTales
from tests.unit.skull_tales.chapter_one import CAMPAIGN, OPTIONS, event
from tests.unit.skull_tales.stages import at_sea, in_port
from tests.unit.skull_tales.table import decode, given, when


def told(state: SkullTales, payload: dict[str, Any]) -> str:
    return tell(GAME.sentences, state, decode(payload))


def admiral(key: str, fame: int = 1) -> dict[str, Any]:
    setting = {"key": key, "mode": "admiral", "phase": "port", "fame": fame, "text": key}
    return {**OPTIONS, "settings": [*OPTIONS["settings"], setting]}


def paid(before: SkullTales, after: SkullTales) -> int:
    """Coins the fold moved into a rules sink."""
    return sum(e.amount for e in after.ledger[len(before.ledger) :] if e.to.startswith("sink:"))


# --- Book II: Locations, Madame Claude's Manor ----------------------------------------------------------------------


def test_the_manor_s_entry_fee_is_told_charged_doubled_or_waived():
    assert told(in_port(), event("manor.entered", pirate_id="jack")) == (
        "Jack entered the Manor, paying its entry fee of 7 Coins."
    )
    doubled = in_port(options=admiral("admiral.port.manor_double"))
    assert told(doubled, event("manor.entered", pirate_id="jack")) == (
        "Jack entered the Manor, paying its entry fee of 14 Coins (doubled by the Admiral setting)."
    )
    assert told(in_port(), event("manor.entered", pirate_id="anne")) == (
        "Anne entered the Manor free (the Captain enters free)."
    )


def test_a_manor_loan_is_told_with_its_time_units_fame_and_what_is_owed():
    state = in_port(event("manor.entered", pirate_id="jack"))
    assert told(state, event("loan.taken", pirate_id="jack", amount=10, lender="manor", fame=1)) == (
        "Jack borrowed 10 Coins from Monsieur Fontaine at the Manor for 2 Time Units and 1 Fame, and owes 12 Coins "
        "(6 for every 5 borrowed)."
    )
    assert told(state, event("port.service_bought", pirate_id="jack", service="luxury_treatment")) == (
        "Jack took a Luxury Treatment at the Manor for 10 Coins and 1 Time Unit."
    )


# --- Book II: Locations, Market Square ----------------------------------------------------------------------------


def test_a_black_market_card_is_told_at_the_price_charged_and_why():
    assert told(in_port(), event("item.gained", pirate_id="jack", item="Dagger", price=15, black_market=True)) == (
        "Jack bought the Dagger for 23 Coins (its price of 15 Coins, half again on the Black Market)."
    )
    assert told(in_port(), event("item.gained", pirate_id="jack", item="Dagger", price=15)) == (
        "Jack bought the Dagger for 15 Coins."
    )


def test_the_admiral_setting_s_five_coins_on_a_personal_item_are_told():
    state = in_port(options=admiral("admiral.port.personal_items_plus_5", 2))
    assert told(state, event("item.gained", pirate_id="jack", item="Dagger", price=15)) == (
        "Jack bought the Dagger for 20 Coins (its price of 15 Coins, 5 more for the Admiral setting)."
    )


# --- Book II: Locations, Docks --------------------------------------------------------------------------------------


def test_the_salary_told_is_the_one_the_fold_pays():
    assert told(in_port(), event("salary.collected", pirate_id="anne")) == (
        "Anne collected a Salary of 50 Coins at the Docks, and 100 Coins for the Crew's Booty."
    )
    assert told(in_port(), event("salary.collected", pirate_id="jack")) == (
        "Jack collected a Salary of 15 Coins at the Docks."
    )


def test_an_upgrade_under_the_admiral_setting_is_told_at_twenty_more():
    state = in_port(event("salary.collected", pirate_id="anne"), options=admiral("admiral.port.upgrade_plus_20"))
    assert told(state, event("ship.upgraded", pirate_id="anne", upgrade="Signal Codex")) == (
        "Anne fitted the ship with Signal Codex for 55 Coins from the Crew's Booty (its 35 Coins and 20 more for "
        "the Admiral setting)."
    )


def test_a_repair_is_told_with_its_price():
    state = at_sea(event("ship.damaged", sails=1, hold=1, discarded_goods={"Supplies": 1}))
    state = given(
        event("phase.ended", phase="voyage"),
        event("phase.started", phase="adventure"),
        event(
            "phase.ended",
            phase="adventure",
            degrees={"anne": "total_success", "jack": "total_success", "mary": "total_success"},
        ),
        event("chapter.ended", number=2),
        event("chapter.started", number=3),
        event("phase.started", phase="port"),
        event("salary.collected", pirate_id="anne"),
        state=state,
    )
    assert told(state, event("ship.repaired", pirate_id="anne", sails=1, hold=1)) == (
        "Anne had the ship repaired: 1 sail and 1 Hold Impact, for 75 Coins from the Crew's Booty (50 a sail, 25 a "
        "Hold Impact)."
    )


# --- Book III: Voyage Phase, Mutiny -----------------------------------------------------------------------------------


def test_a_mutiny_s_bids_are_told_with_what_every_bidder_paid():
    state = at_sea(event("trust.changed", character_id="jack", amount=3))
    assert told(state, event("mutiny.resolved", instigator="jack", bids={"jack": 7, "anne": 2})) == (
        "Jack led a Mutiny; the sealed bids were Jack 7 coins and Anne 2 coins, and the bidders paid 90 Coins for "
        "them (10 Coins a coin)."
    )


# --- the law: the Coins a sentence names are the Coins the fold charged ---------------------------------------------

_PAYING = [
    event("manor.entered", pirate_id="jack"),
    event("item.gained", pirate_id="jack", item="Dagger", price=15, black_market=True),
    event("item.gained", pirate_id="mary", item="Rum", price=5, half_space=True),
    event("port.service_bought", pirate_id="mary", service="charity", destiny=1),
    event("prosthesis.bought", pirate_id="jack", prosthesis="hook"),
    event("group.hired", pirate_id="anne"),
    event("ship.upgraded", pirate_id="anne", upgrade="Ram"),
]
_SETTINGS = ["admiral.port.personal_items_plus_5", "admiral.port.upgrade_plus_20", "admiral.port.manor_double"]


@settings(max_examples=25, deadline=None)
@for_all(st.lists(st.sampled_from(_PAYING), min_size=1, max_size=4), st.sets(st.sampled_from(_SETTINGS)))
def test_the_coins_a_sentence_names_are_the_coins_the_fold_charged(payloads, chosen):
    options = {**OPTIONS, "settings": [*OPTIONS["settings"], *(admiral(k)["settings"][-1] for k in chosen)]}
    # The Captain's Salary fills the Crew's Booty; Jack's injury lets him buy a Hook.
    state = in_port(
        event("salary.collected", pirate_id="anne"), event("injury.suffered", pirate_id="jack", roll=4), options=options
    )
    for i, payload in enumerate(payloads):
        sentence = told(state, payload)
        try:
            after = when(state, payload, position=2000 + i)
        except Rejection:
            continue  # bought twice, or beyond the purse: refused, and nothing was charged
        charge = paid(state, after)
        first = re.search(r"(\d+) Coins?", sentence)
        assert first is not None and int(first.group(1)) == charge, sentence
        state = after


# --- Book II: Port Phase, Setup (the compensations) -----------------------------------------------------------------


def test_the_port_s_setup_tells_every_compensation_paid():
    # Chapter 2 ends with Mary's Permanent Injury and Jack's retirement (Ned replaces him): chapter 3's Port pays.
    before = given(*CAMPAIGN[:-1], options=OPTIONS)
    assert told(before, CAMPAIGN[-1]) == (
        "The Port Phase began: Anne paid 5 Coins to Mary (compensation for Mary's Permanent Injury), Ned paid 5 "
        "Coins to Mary (compensation for Mary's Permanent Injury), Anne paid 10 Coins (compensation for Jack's "
        "retirement) and Mary paid 10 Coins (compensation for Jack's retirement)."
    )
    assert told(in_port(event("phase.ended", phase="port")), event("phase.started", phase="voyage")) == (
        "The Voyage Phase began."
    )


def test_a_manor_service_that_takes_a_pirate_in_tells_the_entry_fee_on_its_own():
    state = in_port()
    assert told(state, event("port.service_bought", pirate_id="jack", service="luxury_treatment")) == (
        "Jack took a Luxury Treatment at the Manor for 10 Coins and 1 Time Unit; entering the Manor cost 7 Coins."
    )
    assert told(state, event("skill.learned", pirate_id="mary", skill="Fencing", master_id="anne")) == (
        "Mary learned Fencing from Anne for 100 Coins and 60 Fame; entering the Manor cost 7 Coins."
    )
    inside = given(event("manor.entered", pirate_id="jack"), state=state)
    assert told(inside, event("port.service_bought", pirate_id="jack", service="luxury_treatment")) == (
        "Jack took a Luxury Treatment at the Manor for 10 Coins and 1 Time Unit."
    )
