"""A tiny game for testing the log machinery (undo, redo, time travel) apart from any real game's rules.

A purse: coins are earned and spent, and spending more than the purse holds is refused, so removing an earlier
earning can make a later spending impossible, which is exactly the dependency undo must detect.
"""

from __future__ import annotations

from typing import Any

import msgspec

from quartermaster.events.base import Event
from quartermaster.events.campaign import DiceRolled
from quartermaster.projections.game import Game, Meta, Rejection


class Earned(Event, kw_only=True, tag="coins.earned"):
    amount: int


class Spent(Event, kw_only=True, tag="coins.spent"):
    amount: int


class Purse(msgspec.Struct, frozen=True):
    coins: int = 0
    history: tuple[int, ...] = ()


def apply(state: Purse, event: Event, meta: Meta) -> Purse:
    match event:
        case Earned(amount=amount):
            return Purse(state.coins + amount, (*state.history, meta.position))
        case Spent(amount=amount):
            if amount > state.coins:
                raise Rejection(f"Cannot spend {amount} coins: the purse holds {state.coins}.")
            return Purse(state.coins - amount, (*state.history, meta.position))
        case DiceRolled():
            return state
    raise Rejection(f"The purse knows nothing of {type(event).__name__}.")


def initial(options: dict[str, Any]) -> Purse:
    return Purse(coins=int(options.get("coins", 0)))


GAME = Game(id="purse", title="Purse", state_type=Purse, event_types=(Earned, Spent), initial=initial, apply=apply)
