"""Revive: who brings an Unconscious Pirate back, in an Adventure or out of the «Sickbay» at sea, and what the
reviver gains.

Skull Tales: Full Sail! rulebook, Book I: Character Actions, Revive; Book III: Voyage Phase, Voyage Posts/Stations
(Sickbay).
"""

from __future__ import annotations

from msgspec.structs import replace

from quartermaster.events.skull_tales import PirateRevived
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.skull_tales.state import Pirate, SkullTales, active_pirate, change, destiny_cap, put

TRUST_MAX = 20  # "neither the Morale nor the Trust Points can exceed 20" (Book III: Voyage Phase, Voyage Components)


def revive(state: SkullTales, event: PirateRevived) -> SkullTales:
    """The handler's work for `pirate.revived` (`pirates.revived` hands it here)."""
    p = active_pirate(state, event.pirate_id)
    if p.status != "unconscious":
        raise Rejection(f"{p.name} is not Unconscious.")
    # Revived in the Adventure, or out of the «Sickbay» in the Voyage (Book III: Voyage Phase, Voyage Posts/Stations,
    # Sickbay): no longer Unconscious when the Voyage ends. A Revive or an 'Assist' discards every Wound; the
    # Sickbay's own Intelligence 4 roll "a single Wound".
    wounds = 0
    if event.single_wound:
        if state.phase != "voyage":
            broken(f"Only in the «Sickbay» does {p.name} discard a single Wound; a Revive discards them all.")
        if event.reviver_id is not None:
            raise Rejection(f"An 'Assist' heals all of {p.name}'s Wounds; a single Wound is {p.name}'s own roll.")
        wounds = max(p.wounds - 1, 0)
    state = put(state, change(p, status="active", wounds=wounds, voyage_unconscious=False))
    if event.reviver_id is not None and event.reviver_id in state.allies:
        return _revived_by_ally(state, p, event.reviver_id)
    if event.reviver_id is not None:
        reviver = active_pirate(state, event.reviver_id)
        if reviver.id == p.id:
            broken(f"{p.name} cannot revive themselves.")
        elif reviver.status == "unconscious":
            broken(f"{reviver.name} is Unconscious and cannot revive {p.name} (Book I: Character Actions, Revive).")
        if state.phase == "voyage":
            # 'Assist': "If they succeed, the Character gains 1 Trust Point" (Book III: Voyage Phase Sequence, Crew
            # Round); "The Captain does not gain Trust Points for performing actions on the Pirate Ship" (Trust Points).
            if reviver.id != state.captain:
                trust = min(state.trust.get(reviver.id, 0) + 1, TRUST_MAX)
                state = replace(state, trust={**state.trust, reviver.id: trust})
            return state
        state = put(state, change(reviver, destiny=min(reviver.destiny + 1, destiny_cap(reviver))))
    return state


def _revived_by_ally(state: SkullTales, p: Pirate, ally_id: str) -> SkullTales:
    """'Revive' is a Character's action (Book I: Character Actions, Revive), an Ally's too: one in play, who has no
    Destiny Points to gain ("Allies ... do not have Action Points or Destiny Points", Book I: The Characters); at
    sea an 'Assist' gives a Character 1 Trust Point, an Ally's as well (Book III: Voyage Phase Sequence, Crew Round)."""
    ally = state.allies[ally_id]
    if ally.status != "hired":
        broken(f"{p.name} cannot be revived by the {ally.archetype}, who is no longer in play ({ally.status}).")
    elif state.phase == "adventure" and state.adventure_allies is not None and ally_id not in state.adventure_allies:
        broken(f"The {ally.archetype} stayed aboard and is not in this Adventure to revive {p.name}.")
    if state.phase == "voyage":
        trust = min(state.trust.get(ally_id, 0) + 1, TRUST_MAX)
        state = replace(state, trust={**state.trust, ally_id: trust})
    return state
