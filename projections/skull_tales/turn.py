"""The turn view of Skull Tales: the nearest thing it has to a turn is the chapter's phase, with each pirate's Time
Units in Port, and the entries the phase allows.

Which phase an entry belongs to is read from the fold's own handlers: a handler whose body begins by requiring a
phase (`require_phase(state, "port", ...)` as one of its statements) belongs to that phase, so the view repeats no
rule. An entry whose handler requires no phase that way may be logged in any phase, its other conditions checked
when it is logged.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable, Mapping
from typing import Any

from quartermaster.events.base import Event, tag_of
from quartermaster.projections.game import Rejection
from quartermaster.projections.skull_tales.booty import require_captain
from quartermaster.projections.skull_tales.captaincy import election_due, fame_leaders
from quartermaster.projections.skull_tales.chapters import degrees_allowed
from quartermaster.projections.skull_tales.state import SkullTales, in_play


def phases_of_entries(handlers: Mapping[type[Event], Callable[..., Any]]) -> dict[str, tuple[str, ...]]:
    """Each event type's tag -> the phases its handler allows it in, or () for an entry of any phase."""
    return {tag_of(event_type): _required_phases(handler) for event_type, handler in handlers.items()}


def _phase_of(node: ast.AST) -> str | None:
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "require_phase"
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ):
        return node.args[1].value
    return None


def _required_phases(handler: Any) -> tuple[str, ...]:
    """The phases a handler requires: none unless one of its own statements requires a phase; then that phase and
    any other a branch of it requires (a curse lifted by atonement in Port, by Purge in the Voyage)."""
    try:
        source = textwrap.dedent(inspect.getsource(handler))
    except (OSError, TypeError):
        return ()
    function = ast.parse(source).body[0]
    if not isinstance(function, ast.FunctionDef):
        return ()
    always = [
        phase
        for statement in function.body
        if isinstance(statement, ast.Expr) and (phase := _phase_of(statement.value))
    ]
    if not always:
        return ()
    return tuple(sorted({phase for node in ast.walk(function) if (phase := _phase_of(node)) is not None}))


class TurnView:
    """The view, reading the fold's handler table once, at its first use."""

    def __init__(self, handlers: Mapping[type[Event], Callable[..., Any]]) -> None:
        self.handlers = handlers
        self.table: dict[str, tuple[str, ...]] | None = None

    def __call__(self, state: SkullTales) -> dict[str, Any]:
        if self.table is None:
            self.table = phases_of_entries(self.handlers)
        return turn_view(state, self.table)


def turn_view(state: SkullTales, table: Mapping[str, tuple[str, ...]]) -> dict[str, Any]:
    """The chapter's phase and what may be logged in it.

    Shape: `{"chapter": number, "phase": "adventure" | "voyage" | "port" | null, "phases": [the chapter's
    phases], "phases_done": [...], "captain": {pirate_id, name} | null, "pirates": [{pirate_id, name, status,
    time_units, fame, coins, at_risk: {fame, coins}, degrees, salary_collected, boarded, skills, items: [{name,
    kind, value}], captain_actions}] (Time Units left, spent in the Port Phase; `degrees`: the degrees of success the Pirate may end an
    Adventure with when it succeeds; `skills` known, starting ones first; `captain_actions`: she may take the
    Captain's actions in Port, trading at the Docks among them),
    "pending_compensations": [{kind, to, amount, about}], "next": what the chapter does next ({"action": "start
    chapter" | "start phase" | "end phase" | "end chapter", "number" or "phase"}), "election": {"method",
    "candidates": [{pirate_id, name, fame}]} when a Captain is to be elected, else null, "crew_booty": Coins,
    "hold": {Goods: tokens} in the ship's Hold, "gear_cards": [{name, price, half_space, equipped}] (each Gear card
    the table priced before, to buy again without typing), "offered": [event types
    that belong to this phase], "any_phase": [event types of any phase]}`.
    """
    phase = state.phase
    return {
        "chapter": state.chapter,
        "phase": phase,
        "phases": list(state.chapter_phases),
        "phases_done": list(state.phases_done),
        "captain": (
            {"pirate_id": state.captain, "name": state.pirates[state.captain].name}
            if state.captain in state.pirates
            else None
        ),
        "pirates": [
            {
                "pirate_id": p.id,
                "name": p.name,
                "status": p.status,
                "time_units": p.time_units,
                "fame": p.fame,
                "coins": p.coins,
                "at_risk": {"fame": p.phase_fame, "coins": p.phase_coins},
                "degrees": list(degrees_allowed(p)) if phase == "adventure" else [],
                "salary_collected": p.salary_collected,
                "boarded": p.boarded,
                "skills": [*p.starting_skills, *(s.name for s in p.skills)],
                "items": [{"name": i.name, "kind": i.kind, "value": i.value} for i in p.items],
                "captain_actions": _captain_actions(state, p.id),
            }
            for p in in_play(state)
        ],
        "next": _next(state),
        "election": _election(state),
        "pending_compensations": [
            {"kind": c.kind, "to": c.to, "amount": c.amount, "about": c.about} for c in state.pending
        ],
        "crew_booty": state.crew_booty,
        "hold": dict(state.ship.goods) if state.ship else {},
        "gear_cards": [
            {"name": name, "price": c.price, "half_space": c.half_space, "equipped": c.equipped}
            for name, c in sorted(state.gear_cards.items())
        ],
        "offered": sorted(tag for tag, needed in table.items() if phase is not None and phase in needed),
        "any_phase": sorted(tag for tag, needed in table.items() if not needed),
    }


def _next(state: SkullTales) -> dict[str, Any]:
    """What the chapter does next: start one, start or end its phase in order, or end it (Book I: Chapters)."""
    if not state.chapter_phases:
        return {"action": "start chapter", "number": state.chapter + 1}
    if state.phase is not None:
        return {"action": "end phase", "phase": state.phase}
    done = len(state.phases_done)
    if done < len(state.chapter_phases):
        return {"action": "start phase", "phase": state.chapter_phases[done]}
    return {"action": "end chapter", "number": state.chapter}


def _election(state: SkullTales) -> dict[str, Any] | None:
    """The Captain's election when it is due: the most Adventure Fame takes it, a tie broken by a confronted
    Charisma roll between the tied Pirates (Book I: End of the Adventure)."""
    if not election_due(state):
        return None
    best, leaders = fame_leaders(state)
    return {
        "method": "most_fame" if len(leaders) == 1 else "charisma_tie",
        "candidates": [{"pirate_id": p.id, "name": p.name, "fame": best} for p in leaders],
    }


def _captain_actions(state: SkullTales, pirate_id: str) -> bool:
    """Whether the Pirate may take the Captain's actions in Port: the Captain, or a Bosun with the Captain's
    approval (Book II: Feats, Classes and Skills, Scholar Skills), as the fold's own rule says."""
    if state.phase != "port":
        return False
    try:
        require_captain(state, pirate_id, "act as Captain", bosun_may=True)
    except Rejection:
        return False
    return True
