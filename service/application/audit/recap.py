"""A recap of a session in Markdown, for the group's chat or a play-by-post forum.

The sentences of what counts, grouped by turn (Skull & Shackles: a turn starts when the hourglass advances) or by
phase (Skull Tales), then the rolls per character and the rewards: loot, feats, ships and roles for Skull &
Shackles; Fame and Coins banked, skills and feats for Skull Tales.
"""

from __future__ import annotations

import uuid
from typing import Any

from quartermaster.projections.game import Game
from quartermaster.service.application.audit.account import account, state_after
from quartermaster.service.store import Store

PACG = "pacg-skull-and-shackles"
PACG_REWARDS = frozenset({"loot.awarded", "feat.gained", "ship.awarded", "role.chosen", "hero_point.awarded"})
TALES_REWARDS = frozenset({"skill.learned", "feat.gained", "item.gained", "captain.elected"})
_PHASES = {"port": "Port Phase", "voyage": "Voyage Phase", "adventure": "Adventure Phase"}


def _person(game: Game[Any], state: Any, key: str | None) -> str:
    if not key or state is None:
        return key or "someone"
    people = state.characters if game.id == PACG else state.pirates
    found = people.get(key)
    return found.name if found is not None else key


async def recap(store: Store, campaign_id: uuid.UUID, game: Game[Any], name: str, start: int, end: int) -> str:
    """The Markdown recap of positions (start, end]."""
    lines = [f"# {name}: positions {start + 1} to {end}", ""]
    rewards: list[str] = []
    rolls: dict[str, list[int]] = {}
    first_state: Any = None
    said = 0
    async for told in account(store, campaign_id, game, start, end):
        if said == 0:
            first_state = told.before
        said += 1
        event, kind = told.event, told.recorded.type
        heading = None
        if kind == "scenario.started":
            heading = f"## {event.scenario}"  # type: ignore[attr-defined]
        elif kind == "chapter.started":
            number, title = event.number, event.title  # type: ignore[attr-defined]
            heading = f"## Chapter {number}" + (f": {title}" if title and title != f"Chapter {number}" else "")
        elif kind == "hourglass.advanced":
            heading = f"### {_person(game, told.before, event.character_id)}'s turn"  # type: ignore[attr-defined]
        elif kind == "phase.started":
            heading = f"### {_PHASES.get(event.phase, event.phase)}"  # type: ignore[attr-defined]
        if heading is not None:
            lines += [heading, ""] if lines[-1] == "" else ["", heading, ""]
        lines.append(f"- {told.sentence}")
        if kind == "dice.rolled" and getattr(event, "success", None) is not None:
            who = _person(game, told.before, event.character_id)  # type: ignore[attr-defined]
            tally = rolls.setdefault(who, [0, 0])
            tally[0] += bool(event.success)  # type: ignore[attr-defined]
            tally[1] += 1
        if kind in (PACG_REWARDS if game.id == PACG else TALES_REWARDS):
            rewards.append(told.sentence)
    if said == 0:
        return "\n".join([*lines, "Nothing that counts happened between these positions."]) + "\n"
    if rolls:
        lines += ["", "## Rolls", ""]
        lines += [f"- {who}: {won} of {made} succeeded" for who, (won, made) in rolls.items()]
    if game.id != PACG:
        lines += _sheets(first_state, await state_after(store, campaign_id, game, end))
    if rewards:
        lines += ["", "## Rewards", "", *(f"- {r}" for r in rewards)]
    return "\n".join(lines) + "\n"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _sheets(before: Any, after: Any) -> list[str]:
    """Skull Tales: each Record Sheet's Fame and Coins from the first position to the last."""
    if after is None:
        return []
    lines = ["", "## Fame and Coins", ""]
    for pirate in after.pirates.values():
        was = before.pirates.get(pirate.id) if before is not None else None
        fame, coins = (was.fame, was.coins) if was is not None else (0, 0)
        if (pirate.fame, pirate.coins) != (fame, coins):
            lines.append(
                f"- {pirate.name}: Fame {pirate.fame} ({_signed(pirate.fame - fame)}), Coins {pirate.coins} "
                f"({_signed(pirate.coins - coins)})"
            )
    return lines if len(lines) > 3 else []
