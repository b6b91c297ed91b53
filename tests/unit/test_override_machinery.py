"""The two kinds of refusal: a rule of the game, which a recorded override lets through, and an integrity rule,
which nothing does. Shown on a toy purse whose rule caps one spending at five coins."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from quartermaster.events.base import Event
from quartermaster.events.campaign import CampaignStarted
from quartermaster.projections.game import (
    BatchRejected,
    Game,
    Meta,
    Rejection,
    RuleBroken,
    broken,
    fold_batch,
    overriding,
    step,
)


class Spent(Event, kw_only=True, tag="coins.spent"):
    amount: int


class Purse(msgspec.Struct, frozen=True):
    coins: int = 0


def apply(state: Purse, event: Event, meta: Meta) -> Purse:
    match event:
        case Spent(amount=amount):
            if amount > state.coins:
                raise Rejection(f"Cannot spend {amount} coins: the purse holds {state.coins}.")
            if amount > 5:
                broken(f"At most 5 coins may be spent at once, not {amount}.")
            return Purse(state.coins - amount)
    raise Rejection(f"The purse knows nothing of {type(event).__name__}.")


def initial(options: dict[str, Any]) -> Purse:
    return Purse(coins=int(options.get("coins", 0)))


GAME = Game(
    id="capped-purse", title="Capped purse", state_type=Purse, event_types=(Spent,), initial=initial, apply=apply
)
START = CampaignStarted(name="t", game="capped-purse", options={"coins": 10})


def test_a_broken_rule_is_refused_as_a_rule_without_an_override() -> None:
    state = step(GAME, None, START, Meta(1))
    with pytest.raises(RuleBroken) as refused:
        step(GAME, state, Spent(amount=7), Meta(2))
    assert refused.value.kind == "rule"
    assert "At most 5 coins" in refused.value.reason


def test_an_overridden_rule_is_folded_as_if_the_rule_allowed_it() -> None:
    state = step(GAME, None, START, Meta(1))
    assert step(GAME, state, Spent(amount=7), Meta(2, override="house rule: big spenders")) == Purse(3)


def test_an_override_notes_the_rules_it_broke() -> None:
    state = step(GAME, None, START, Meta(1))
    with overriding("house rule") as noted:
        apply(state, Spent(amount=7), Meta(2))
    assert noted == ["At most 5 coins may be spent at once, not 7."]


def test_an_integrity_rule_holds_under_an_override() -> None:
    state = step(GAME, None, START, Meta(1))
    with pytest.raises(Rejection) as refused:
        step(GAME, state, Spent(amount=11), Meta(2, override="we want to"))
    assert refused.value.kind == "integrity"


def test_the_override_ends_with_its_event() -> None:
    state = step(GAME, None, START, Meta(1))
    state = step(GAME, state, Spent(amount=6), Meta(2, override="once"))
    with pytest.raises(RuleBroken):
        step(GAME, Purse(10), Spent(amount=6), Meta(3))


def test_a_refused_batch_says_whether_every_refusal_could_be_overridden() -> None:
    state = step(GAME, None, START, Meta(1))
    with pytest.raises(BatchRejected) as rules_only:
        fold_batch(GAME, state, [(Spent(amount=6), Meta(2)), (Spent(amount=4), Meta(3))])
    assert rules_only.value.kinds == ["rule"] and rules_only.value.overridable
    with pytest.raises(BatchRejected) as mixed:
        fold_batch(GAME, state, [(Spent(amount=6), Meta(2)), (Spent(amount=40), Meta(3))])
    assert mixed.value.kinds == ["rule", "integrity"] and not mixed.value.overridable
