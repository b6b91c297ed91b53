"""Dice rolls as the audit lists them, and the success rate per character."""

from __future__ import annotations

from typing import Any

from quartermaster.events.campaign import DiceRolled


def roll(position: int, event: DiceRolled, who: str | None) -> dict[str, Any]:
    """A dice roll as a report lists it: every die, the total, and the result when the table gave one."""
    return {
        "position": position,
        "character": event.character_id,
        "name": who,
        "purpose": event.purpose,
        "skill": event.skill,
        "dice": [f"d{d.sides}={d.face}" for d in event.dice],
        "modifier": event.modifier,
        "total": event.total,
        "difficulty": event.difficulty,
        "successes": event.successes,
        "required": event.required,
        "success": event.success,
    }


def success_rates(rolls: list[dict[str, Any]], names: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Per character, of the rolls whose result was recorded: how many, how many succeeded, the share."""
    rates: dict[str, dict[str, Any]] = {}
    for r in rolls:
        if r["character"] is None or r["success"] is None:
            continue
        rate = rates.setdefault(
            r["character"], {"name": names.get(r["character"], r["character"]), "checks": 0, "successes": 0}
        )
        rate["checks"] += 1
        rate["successes"] += bool(r["success"])
    for rate in rates.values():
        rate["rate"] = round(rate["successes"] / rate["checks"], 3)
    return dict(sorted(rates.items()))
