"""The turn as the rulebook orders it: Advance the Blessings Deck, Give a Card, Move, Explore, Close a Location, Reset
Your Hand, End Your Turn (Skull & Shackles Rulebook, Your Turn).

An entry of the turn belongs to one step; once a later step has begun, an earlier one has passed and its entries
are refused (a rule of the game, overridable with a reason). What the rules allow at any time (playing a card on
another character's check, a power that says when it may be used, damage and its discards) belongs to no step and is
kept apart by the rule that allows it, in the module that folds it. The same functions answer what the turn view
offers, so the page never repeats a rule.
"""

from __future__ import annotations

import msgspec

from quartermaster.projections.game import broken
from quartermaster.projections.pacg.state import Scenario, State, Step

# The steps in their order; "start" is Advance the Blessings Deck (and the start-of-turn effects after it).
STEPS: tuple[Step, ...] = ("start", "give", "move", "explore", "close", "reset", "end")
_INDEX = {step: index for index, step in enumerate(STEPS)}

# Each step in the rulebook's words, for sentences and for the view.
NAMES: dict[Step, str] = {
    "start": "Advance the Blessings Deck",
    "give": "Give a Card",
    "move": "Move",
    "explore": "Explore",
    "close": "Close a Location",
    "reset": "Reset Your Hand",
    "end": "End Your Turn",
}


def current(scenario: Scenario) -> Step | None:
    """The step the turn in progress has reached, or None before the scenario's first turn."""
    if scenario.turn is None:
        return None
    return scenario.step


def passed(scenario: Scenario, step: Step) -> bool:
    """Whether the turn in progress has gone past `step` (a step may be taken again while it is the current one)."""
    now = current(scenario)
    return now is not None and _INDEX[now] > _INDEX[step]


def enter(state: State, scenario: Scenario, step: Step, who: str, doing: str) -> Scenario:
    """The scenario with the turn at `step`, for an entry of that step by the character whose turn it is; a rule
    broken when the turn has gone past it. `doing` says the entry in a player's words ("Merisiel gives Dagger")."""
    now = current(scenario)
    if now is None or scenario.turn != who:
        return scenario
    if _INDEX[now] > _INDEX[step]:
        name = state.characters[who].name
        broken(
            f"{doing} belongs to the {NAMES[step]} step, which comes before {NAMES[now]}, where {name}'s turn is "
            "now: the turn's steps come in the rulebook's order (Advance the Blessings Deck, Give a Card, Move, Explore, Close a "
            "Location, Reset Your Hand, End Your Turn), and a step passed is passed (Skull & Shackles Rulebook, "
            "Your Turn)."
        )
        return scenario
    if now == step:
        return scenario
    return msgspec.structs.replace(scenario, step=step)


def finished_encounter(state: State, doing: str) -> None:
    """A card still being encountered is resolved before anything new starts: "Finish One Thing Before You Start
    Something Else" (Skull & Shackles Rulebook, Things to Keep in Mind). A card summoned during an encounter is part
    of it, and is not refused here."""
    encounter = state.zones.get("encounter")
    held = sorted(name for name, count in encounter.known.items() if count) if encounter is not None else []
    if state.scenario is not None and state.scenario.enemy_ship is not None:
        # An enemy ship's encounter ends with ship.evaded, ship.defeated or its Structural damage.
        held.append(f"the {state.scenario.enemy_ship}")
    if held:
        told = " and ".join(held)
        broken(
            f"{told[0].upper()}{told[1:]} {'is' if len(held) == 1 else 'are'} still being encountered: finish one "
            "thing before you start something else, so the encounter is resolved (encounter.ended, and the card goes "
            f"where the rules send it) before {doing} (Skull & Shackles Rulebook, Things to Keep in Mind)."
        )


def later_or_same(step: Step, than: Step) -> bool:
    return _INDEX[step] >= _INDEX[than]


__all__ = ["NAMES", "STEPS", "Step", "current", "enter", "finished_encounter", "later_or_same", "passed"]
