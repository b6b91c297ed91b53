"""Chapel Atonement's penances, and the logged events that break one in the Adventure that follows.

Skull Tales: Full Sail! rulebook, Book II: Locations, Saint Telmo's Chapel (Atonement).

Only two penances forbid something the log records: the Greedy takes no reward from a Fallen Enemy token
(`coins.changed` with source `fallen_enemy`) and the Prideful gains no Fame by defeating an Enemy (`fame.changed`
with source `enemy`, the Enemy Card's Fame for the final blow, Book I: Enemy Management, Fallen Enemy). The Wroth's "offensive actions against an
Enemy that has not previously attacked you" happen in combat, which the tracker does not log.
"""

from __future__ import annotations

from quartermaster.projections.game import broken
from quartermaster.projections.skull_tales.state import Pirate, SkullTales, change, put

PENANCES = {"greedy": 40, "wroth": 20, "prideful": 30}  # Coins, Book II: Locations, Saint Telmo's Chapel
FORBIDDEN = {
    # penance -> (the source it forbids, what the Pirate cannot do, its line)
    "greedy": ("fallen_enemy", "take rewards from Fallen Enemy tokens", "Book II: Locations, Saint Telmo's Chapel"),
    "prideful": ("enemy", "gain Fame by defeating Enemies", "Book II: Locations, Saint Telmo's Chapel"),
}


def title(penance: str) -> str:
    return f"the penance for the {penance.capitalize()}"


def in_penance_adventure(state: SkullTales, p: Pirate) -> bool:
    """The Adventure after the Port where the penance was chosen, while it is played (repeats included)."""
    return (
        p.penance is not None
        and not p.penance_done
        and state.phase == "adventure"
        and state.phase_serial > p.penance_serial
    )


def check(state: SkullTales, p: Pirate, source: str, what: str) -> SkullTales:
    """A gain from `source` during the penance's Adventure: refused, or the penance broken, per the option."""
    if not in_penance_adventure(state, p) or p.penance_broken is not None or p.penance not in FORBIDDEN:
        return state
    forbidden, cannot, line = FORBIDDEN[p.penance]
    if source != forbidden:
        return state
    if state.options.penance_breach == "refused":
        broken(f"{p.name} is doing {title(p.penance)} and cannot {cannot} in this Adventure ({line}).")
        # Overridden: the table lets the gain stand, and the penance is judged by the table, not broken here.
        return state
    return put(state, change(p, penance_broken=what))


def adventure_over(state: SkullTales) -> SkullTales:
    """The Adventure ended (not repeated): every penance chosen before it has had its Adventure."""
    for p in state.pirates.values():
        if in_penance_adventure(state, p):
            state = put(state, change(p, penance_done=True))
    return state
