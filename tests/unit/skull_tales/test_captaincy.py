"""Given/when/then for the captaincy: Mutiny bids under each rounding option."""

from __future__ import annotations

from tests.unit.skull_tales.chapter_one import CHAPTER_ONE, CREW, OPTIONS, event
from tests.unit.skull_tales.table import given, view, when


def at_sea(*extra, options=None):
    return given(
        *CREW,
        *CHAPTER_ONE,
        event("chapter.started", number=2),
        event("phase.started", phase="port"),
        event("phase.ended", phase="port"),
        event("phase.started", phase="voyage"),
        *extra,
        options=options if options is not None else OPTIONS,
    )


def test_a_bid_rounded_up_costs_at_most_what_the_record_sheet_holds():
    # Jack has 75 Coins: rounded up that is 8 bidding coins (option 22); bidding all 8 costs him his 75 Coins,
    # not 80 he never had (Book III: Voyage Phase, Mutiny).
    state = at_sea(
        event("coins.changed", pirate_id="jack", amount=5, source="event"),
        event("trust.changed", character_id="jack", amount=3),
        options={**OPTIONS, "mutiny_coin_rounding": "up"},
    )
    state = when(state, event("mutiny.resolved", instigator="jack", bids={"jack": 8, "anne": 6}))
    jack = view(state, "pirate", pirate_id="jack")
    assert (jack["coins"], jack["captain"]) == (0, True)
    assert view(state, "pirate", pirate_id="anne")["coins"] == 0


def test_a_bid_rounded_down_costs_ten_coins_a_coin_to_every_bidder():
    state = at_sea(
        event("coins.changed", pirate_id="jack", amount=5, source="event"),
        event("trust.changed", character_id="jack", amount=3),
    )
    state = when(state, event("mutiny.resolved", instigator="jack", bids={"jack": 7, "anne": 2}))
    assert view(state, "pirate", pirate_id="jack")["coins"] == 75 - 70
    assert view(state, "pirate", pirate_id="anne")["coins"] == 60 - 20
    assert view(state, "ship")["captain"] == "jack"
