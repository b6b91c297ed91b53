"""Phase-scoped values: what an Adventure risks, what repeating it restores, what Allies bring home."""

from __future__ import annotations

from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, OPTIONS, event
from tests.unit.skull_tales.table import given, view, when

ADVENTURE = [event("chapter.started", number=1), event("phase.started", phase="adventure")]


def test_repeating_the_adventure_discards_what_the_attempt_gained():
    state = given(
        *CREW,
        *ADVENTURE,
        event("coins.changed", pirate_id="anne", amount=30, source="goal"),
        event("fame.changed", pirate_id="anne", amount=9, source="enemy"),
        event("wounds.changed", pirate_id="anne", amount=2),
        options=OPTIONS,
    )
    # A partial success the crew chooses to improve on (Book I: End of the Adventure).
    partial = {"anne": "partial_success", "jack": "partial_success", "mary": "partial_success"}
    state = when(state, event("phase.ended", phase="adventure", outcome="repeat", degrees=partial))
    anne = view(state, "pirate", pirate_id="anne")
    # Book I: End of the Adventure: start again "in identical conditions": no Coins, Fame or Wounds from the attempt.
    assert (anne["coins"], anne["fame"], anne["wounds"], anne["at_risk"]) == (0, 0, 0, {"fame": 0, "coins": 0})
    ledger = view(state, "ledger")
    assert sum(ledger["balances"].values()) == ledger["from_sources"] - ledger["to_sinks"]
    assert view(state, "chapter")["phase"] is None


def test_falling_unconscious_in_the_adventure_loses_its_fame_and_halves_the_record_at_the_end():
    state = given(
        *CREW,
        *CHAPTER_ONE,
        *ADVENTURE[:0],
        event("chapter.started", number=2, phases=["adventure"]),
        event("phase.started", phase="adventure"),
        event("fame.changed", pirate_id="mary", amount=5, source="enemy"),
        event("pirate.unconscious", pirate_id="mary"),
        options=OPTIONS,
    )
    state = when(
        state,
        event(
            "phase.ended",
            phase="adventure",
            degrees={"anne": "total_success", "jack": "total_success", "mary": "failure"},
        ),
    )
    # Mary had 72: the 5 of this Adventure are lost (Book I: Character and Enemy States, Unconscious), then she discards half, 36 (Book I: Character and Enemy States, Unconscious), then +2 Admiral.
    assert view(state, "pirate", pirate_id="mary")["fame"] == 72 - 36 + 2


def test_falling_unconscious_in_port_costs_five_coins_and_five_fame():
    state = given(
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2),
        event("phase.started", phase="port"),
        event("pirate.unconscious", pirate_id="jack"),
        options=OPTIONS,
    )
    jack = view(state, "pirate", pirate_id="jack")
    assert (jack["coins"], jack["fame"], jack["time_units"]) == (
        70 - 5,
        47 - 5,
        0,
    )  # Book II: Port Phase, Port Components


def test_an_allys_coins_go_half_to_the_hirer_at_the_end_of_the_adventure():
    state = given(
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2),
        event("phase.started", phase="port"),
        event("ally.hired", pirate_id="jack", ally_id="cook", archetype="Cook", charisma=2, salary=10, fame_cost=5),
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        event("phase.ended", phase="voyage"),
        event("phase.started", phase="adventure"),
        event("coins.changed", ally_id="cook", amount=9, source="search_card"),
        options=OPTIONS,
    )
    state = when(
        state,
        event(
            "phase.ended",
            phase="adventure",
            degrees={"anne": "total_success", "jack": "total_success", "mary": "total_success"},
        ),
    )
    # Jack: 70 - 10 to hire, + half of 9 rounded up = 5 (Book I: Allies; Book I: How to start).
    assert view(state, "pirate", pirate_id="jack")["coins"] == 70 - 10 + 5


def test_a_loan_is_repaid_six_for_every_five():
    state = given(
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2),
        event("phase.started", phase="port"),
        event("loan.taken", pirate_id="mary", amount=50, lender="market"),
        event("loan.repaid", pirate_id="mary", amount=60),
        options=OPTIONS,
    )
    mary = view(state, "pirate", pirate_id="mary")
    # Repaid inside the Manor, its 7 Coins paid to enter (Book II: Locations, Madame Claude's Manor).
    assert (mary["coins"], mary["loan_owed"], mary["debtor"]) == (120 + 50 - 60 - 7, 0, False)
