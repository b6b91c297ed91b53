"""What the table display shows of a Skull Tales game: the chapter and its phase, the Captain, each Pirate's Fame and
Coins and, in the Port Phase, her Time Units left, and what the chapter does next. Read from the turn view, so the
shared screen and the phones never disagree."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from quartermaster.projections.skull_tales.state import SkullTales


def display(turn: Callable[[SkullTales], dict[str, Any]]) -> Callable[[SkullTales], dict[str, Any]]:
    """The shared screen's part of the game, read from `turn`, the game's turn view.

    Shape: `{"chapter": number, "phase": "adventure" | "voyage" | "port" | null, "phases": [...], "phases_done":
    [...], "captain": name | null, "pirates": [{name, status, fame, coins, time_units (null outside the Port
    Phase, where none are spent)}], "next": {action, number or phase}}`.
    """

    def read(state: SkullTales) -> dict[str, Any]:
        view = turn(state)
        # Time Units are spent in the Port Phase (Skull Tales: Full Sail! rulebook, Book II: Port Phase); elsewhere they are not in play.
        in_port = view["phase"] == "port"
        return {
            "chapter": view["chapter"],
            "phase": view["phase"],
            "phases": view["phases"],
            "phases_done": view["phases_done"],
            "captain": view["captain"]["name"] if view["captain"] else None,
            "pirates": [
                {
                    "name": p["name"],
                    "status": p["status"],
                    "fame": p["fame"],
                    "coins": p["coins"],
                    "time_units": p["time_units"] if in_port else None,
                }
                for p in view["pirates"]
            ],
            "next": view["next"],
        }

    return read
