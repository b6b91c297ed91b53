"""The log folds as it was written: a rule of the game made stricter after an event was recorded does not unmake
it when the log is folded again (rebuilds, state at N), while integrity still raises as drift."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from quartermaster.events.base import Event
from quartermaster.events.campaign import CampaignStarted
from quartermaster.projections.game import Game, Meta, Rejection, RuleBroken, broken, fold, step


class Spent(Event, kw_only=True, tag="coins.paid"):
    amount: int


class Purse(msgspec.Struct, frozen=True):
    coins: int = 0


def initial(options: dict[str, Any]) -> Purse:
    return Purse(coins=int(options.get("coins", 0)))


def looser_apply(state: Purse, event: Spent, meta: Meta) -> Purse:
    if event.amount > state.coins:
        raise Rejection(f"Cannot spend {event.amount} coins: the purse holds {state.coins}.")
    return Purse(state.coins - event.amount)


def stricter_apply(state: Purse, event: Spent, meta: Meta) -> Purse:
    if event.amount > state.coins:
        raise Rejection(f"Cannot spend {event.amount} coins: the purse holds {state.coins}.")
    if event.amount > 2:
        broken(f"At most 2 coins may be spent at once now, not {event.amount}.")
    return Purse(state.coins - event.amount)


GAME = Game(id="paid-purse", title="Purse", state_type=Purse, event_types=(Spent,), initial=initial, apply=looser_apply)
START = CampaignStarted(name="t", game="paid-purse", options={"coins": 10})
STRICTER = Game(
    id="paid-purse",
    title="Stricter purse",
    state_type=Purse,
    event_types=(Spent,),
    initial=initial,
    apply=stricter_apply,
)


def test_an_event_recorded_under_a_looser_rule_folds_again_under_a_stricter_one():
    log = [(START, Meta(1)), (Spent(amount=4), Meta(2))]
    assert fold(GAME, log) == Purse(6)
    assert fold(STRICTER, log) == Purse(6)
    with pytest.raises(RuleBroken):
        step(STRICTER, Purse(10), Spent(amount=4), Meta(3))


def test_an_integrity_rule_still_raises_when_the_log_is_folded_again():
    log = [(CampaignStarted(name="t", game="paid-purse", options={"coins": 1}), Meta(1)), (Spent(amount=4), Meta(2))]
    with pytest.raises(Rejection) as drift:
        fold(STRICTER, log)
    assert drift.value.kind == "integrity"
