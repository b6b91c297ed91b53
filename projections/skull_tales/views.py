"""What the tracker shows: every Record Sheet, one pirate, the Captain and the ship, the booty ledger, the chapter."""

from __future__ import annotations

from typing import Any

from quartermaster.projections.game import shown
from quartermaster.projections.skull_tales.booty import debtor, salary
from quartermaster.projections.skull_tales.pirates import spaces_used
from quartermaster.projections.skull_tales.ship import cargo_rate, hold_spaces, sunk, tokens
from quartermaster.projections.skull_tales.skills import capacity, special_used
from quartermaster.projections.skull_tales.state import ATTRIBUTES, Pirate, SkullTales, attribute, destiny_cap


def record_sheet(state: SkullTales, p: Pirate) -> dict[str, Any]:
    """One pirate's Record Sheet as the table would write it."""
    ally = next((a for a in state.allies.values() if a.hirer == p.id and a.status == "hired"), None)
    return {
        **shown(p, "id", "name", "archetype", "player", "classes", "dominant_hand", "status"),
        "captain": state.captain == p.id,
        "attributes": {name: attribute(p, name) for name in ATTRIBUTES},
        "movement": p.movement,
        "action_points": p.action_points + sum(s.effects.get("action_points", 0) for s in p.skills),
        "health": p.health,
        "wounds": p.wounds,
        "destiny_points": p.destiny,
        "destiny_points_max": destiny_cap(p),
        "fame": p.fame,
        "coins": p.coins,
        "at_risk": {"fame": p.phase_fame, "coins": p.phase_coins},
        "salary": salary(state, p.id)[0] if p.status != "retired" else 0,
        "skills": [*p.starting_skills, *(s.name for s in p.skills)],
        "special_skills": {"used": special_used(p), "capacity": capacity(p)},
        "feats": p.feats,
        "starting_gear": p.starting_gear,
        "items": [i.name for i in p.items],
        "item_spaces_used": spaces_used(p.items) / 2,
        "injuries": p.injuries,
        "prostheses": p.prostheses,
        "cursed": p.cursed,
        "penance": p.penance,
        "penance_broken": p.penance_broken,
        "rumor": p.rumor,
        "debtor": p.status != "retired" and debtor(state, p.id),
        "loan_owed": p.loan.owed if p.loan else 0,
        "owed_from_next_salary": sum(d.amount for d in p.debts),
        "approvals": {m: mark.kind + (" (permanent)" if mark.permanent else "") for m, mark in p.approvals.items()},
        "time_units": p.time_units,
        "ally": ally.archetype if ally else None,
        "adventures_total_success": p.adventures_total_success,
        "campaigns_completed": p.campaigns_completed,
        "assignments_as_captain": p.assignments_as_captain,
        "buried_booty": state.buried.get(p.id, {}),
        "replaces": p.replaces,
    }


def pirates_view(state: SkullTales) -> list[dict[str, Any]]:
    return [record_sheet(state, p) for p in state.pirates.values()]


def pirate_view(state: SkullTales, pirate_id: str) -> dict[str, Any]:
    p = state.pirates.get(pirate_id)
    if p is None:
        crew = ", ".join(state.pirates) or "nobody yet"
        raise KeyError(f"There is no pirate {pirate_id!r} in this crew (the crew: {crew}).")
    return record_sheet(state, p)


def ship_view(state: SkullTales) -> dict[str, Any]:
    ship = state.ship
    return {
        "captain": state.captain,
        "captain_name": state.pirates[state.captain].name if state.captain else None,
        "crew_booty": state.crew_booty,
        "assignment": state.assignment.name if state.assignment else None,
        "buried": state.buried,
        "morale": state.morale,
        "trust": state.trust,
        "allies": [
            {
                **shown(a, "id", "archetype", "hirer", "status", "charisma", "salary"),
                # Solo Mode: whether the Captain took it into the Adventure in play (Book II: Locations, Tavern).
                "in_adventure": state.phase == "adventure"
                and a.status == "hired"
                and (state.adventure_allies is None or a.id in state.adventure_allies),
            }
            for a in state.allies.values()
        ],
        "ship": None
        if ship is None
        else {
            "name": ship.name,
            "type": ship.ship_type,
            **shown(ship, "sails", "sails_max", "sails_damaged", "hold", "hold_max", "hold_impacts"),
            "hold_free": max(hold_spaces(ship) - tokens(ship), 0),
            "sunk": sunk(ship),
            "cannons": ship.cannons,
            "groups_of_pirates": ship.groups,
            **shown(ship, "speed", "upgrades", "goods"),
            "cargo_rate": cargo_rate(state, ship),
        },
    }


def ledger_view(state: SkullTales) -> dict[str, Any]:
    balances: dict[str, int] = {"crew_booty": state.crew_booty}
    for p in state.pirates.values():
        balances[f"pirate:{p.id}"] = p.coins
        if p.phase_coins:
            balances[f"risk:{p.id}"] = p.phase_coins
    for a in state.allies.values():
        if a.coins:
            balances[f"ally:{a.id}"] = a.coins
    for burier, islands in state.buried.items():
        for island, amount in islands.items():
            balances[f"buried:{burier}:{island}"] = amount
    created = sum(e.amount for e in state.ledger if e.source.startswith("source:"))
    spent = sum(e.amount for e in state.ledger if e.to.startswith("sink:"))
    return {
        "entries": [
            {"position": e.position, "from": e.source, "to": e.to, "amount": e.amount, "reason": e.reason}
            for e in state.ledger
        ],
        "balances": balances,
        "from_sources": created,
        "to_sinks": spent,
    }


def chapter_view(state: SkullTales) -> dict[str, Any]:
    return {
        "chapter": state.chapter,
        "phases": state.chapter_phases,
        **shown(state, "phase", "phases_done", "solo", "captain"),
        "settings": [shown(s, "key", "mode", "phase", "fame", "captain_fame") for s in state.options.settings],
        "pending_compensations": [shown(c, "kind", "to", "amount", "about") for c in state.pending],
        "adventure_fame": state.adventure_fame,
    }
