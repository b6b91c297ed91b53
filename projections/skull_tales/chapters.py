"""Chapters and their Port, Voyage and Adventure phases: what each phase's start sets up and what its end banks,
halves or loses, the Cabin Boy / Admiral settings' Fame, and the snapshot that "repeat the Adventure" restores."""

from __future__ import annotations

import math

from msgspec.structs import replace

from quartermaster.events.skull_tales import ChapterEnded, ChapterStarted, PhaseEnded, PhaseStarted
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.skull_tales.allies import (
    SOLO_START_ALLIES,
    adventure_payout,
    choose_adventure_allies,
    unpaid_leave,
)
from quartermaster.projections.skull_tales.booty import balance, move
from quartermaster.projections.skull_tales import penance
from quartermaster.projections.skull_tales.captaincy import morale_max, trust_to_fame
from quartermaster.projections.skull_tales.injuries import pay_compensations
from quartermaster.projections.skull_tales.options import PHASES, active
from quartermaster.projections.skull_tales.pirates import add_fame, lose_fame
from quartermaster.projections.skull_tales.ship import discard_used_ammunition
from quartermaster.projections.skull_tales.state import Pirate, Snapshot, SkullTales, change, has_skill, in_play, put

PORT_TIME_UNITS = 20  # Book II: Port Phase, Setup
LATE_FAME = 5  # Book II: Port Phase, Port Components


def chapter_started(state: SkullTales, event: ChapterStarted) -> SkullTales:
    if state.chapter_phases:
        raise Rejection(f"Chapter {state.chapter} has not ended yet.")
    if event.number not in (state.chapter, state.chapter + 1) or event.number < 1:
        broken(
            f"After chapter {state.chapter} comes chapter {state.chapter + 1} (or chapter {state.chapter} again), "
            f"not chapter {event.number}."
        )
    if event.phases is not None:
        phases = list(event.phases)
    elif event.number == 1:
        phases = list(state.options.chapter_one_phases)
    else:
        phases = list(PHASES)
    if not phases or len(set(phases)) != len(phases):
        raise Rejection(f"Chapter {event.number} needs one to three different phases, not {', '.join(phases)}.")
    solo = event.solo or state.options.solo
    crew = in_play(state)
    if solo and len(crew) > 1:
        broken(f"Solo Mode is played by one Pirate, and the crew has {len(crew)} (Book I: Game Modes, Lone Pirates).")
    captain = state.captain
    if solo and captain is None and len(crew) == 1:
        # "In Solo Mode, you choose a Pirate as Captain" (Book I: Game Modes, Lone Pirates).
        captain = crew[0].id
    return replace(
        state, chapter=event.number, chapter_phases=phases, phases_done=[], phase=None, solo=solo, captain=captain
    )


def phase_started(state: SkullTales, event: PhaseStarted) -> SkullTales:
    if not state.chapter_phases:
        raise Rejection("No chapter is open: start a chapter first.")
    if state.phase is not None:
        raise Rejection(f"The {state.phase} phase has not ended yet.")
    done = len(state.phases_done)
    if done >= len(state.chapter_phases):
        raise Rejection(f"Chapter {state.chapter} has played all its phases ({', '.join(state.chapter_phases)}).")
    expected = state.chapter_phases[done]
    if event.phase != expected:
        broken(f"The next phase of chapter {state.chapter} is the {expected} phase, not the {event.phase} phase.")
    if event.phase != "adventure" and event.allies is not None:
        raise Rejection("Allies are chosen for an Adventure; the Port and the Voyage take every hired Ally.")
    if state.phase_serial == 0 and state.solo:
        _solo_start(state)
    state = replace(state, phase=event.phase, phase_serial=state.phase_serial + 1)
    if event.phase == "port":
        return _port_setup(state)
    if event.phase == "voyage":
        if state.ship is None:
            # Only after a surrender that took the ship (option surrender_ship).
            raise Rejection("The crew has no ship to sail: the Captain buys one at the Docks first.")
        state = replace(state, trust={}, morale=morale_max(state), caught_scheming=[], purged=[])
        for p in in_play(state):
            if has_skill(p, "Bosun") and p.id != state.captain:
                # The Bosun "stops working if its holder becomes Captain" (Book II: Scholar Skills, Bosun).
                # Bosun: "You always start the Voyage Phase with 1 extra Fame."
                state = add_fame(state, p.id, 1)
        return state
    snapshot = Snapshot(
        pirates=dict(state.pirates),
        allies=dict(state.allies),
        ledger_length=len(state.ledger),
        crew_booty=state.crew_booty,
        pending=list(state.pending),
    )
    state = replace(state, snapshot=snapshot, adventure_fame={})
    state = choose_adventure_allies(state, event.allies)
    return _feats_heal(state)


def _solo_start(state: SkullTales) -> None:
    """Solo Mode's start: "you choose a Pirate as Captain and 3 random Allies" (Book I: Game Modes, Lone Pirates).
    The captaincy follows by itself (`pirate.recruited`); the Allies are drawn at the table (`ally.drawn`)."""
    drawn = [a for a in state.allies.values() if a.drawn == "solo_start"]
    if len(drawn) < SOLO_START_ALLIES:
        broken(
            f"In Solo Mode the Lone Pirate starts with {SOLO_START_ALLIES} random Allies, and {len(drawn)} "
            f"{'is' if len(drawn) == 1 else 'are'} drawn: log each (ally.drawn) before the first phase "
            "(Book I: Game Modes, Lone Pirates)."
        )


# Book II: Feats, Classes and Skills, Feats: Bravery "Discard 1 Wound at the start of the Adventure Phase"; Luxury
# "Recover 1 Wound at the start of the Adventure Phase". Each Feat heals its own Wound.
HEALING_FEATS = ("Bravery", "Luxury")


def _feats_heal(state: SkullTales) -> SkullTales:
    for p in in_play(state):
        heal = sum(1 for feat in HEALING_FEATS if feat in p.feats)
        if heal and p.wounds:
            state = put(state, change(p, wounds=max(p.wounds - heal, 0)))
    return state


def _port_setup(state: SkullTales) -> SkullTales:
    units = PORT_TIME_UNITS
    if active(state.options, "cabin_boy.port.extra_time_units"):
        units += 5
    if active(state.options, "admiral.port.time_units_minus_3"):
        units -= 3
    for p in in_play(state):
        state = put(
            state,
            change(p, time_units=units, salary_collected=False, status="active", boarded=False, port_unconscious=False),
        )
    return pay_compensations(state)


def _settings_fame(state: SkullTales, phase: str) -> SkullTales:
    for setting in state.options.settings:
        if setting.phase != phase:
            continue
        for p in in_play(state):
            amount = setting.fame
            if p.id == state.captain and setting.captain_fame is not None:
                amount = setting.captain_fame
            if amount > 0:
                state = add_fame(state, p.id, amount)
            elif amount < 0:
                state = lose_fame(state, p.id, -amount, setting.text or setting.key)
    return state


def _halve(p_fame: int) -> int:
    """Discard half the Fame, the half discarded rounded up ("In any situation where rounding is necessary, always
    round up", Book I: How to start)."""
    return p_fame - math.ceil(p_fame / 2)


def _half_kept(p_fame: int) -> int:
    """Start the next Phase with half the Fame, the half kept rounded up (Book I: How to start)."""
    return math.ceil(p_fame / 2)


def phase_ended(state: SkullTales, event: PhaseEnded) -> SkullTales:
    if state.phase != event.phase:
        now = f"the {state.phase} phase" if state.phase else "no phase"
        raise Rejection(f"The {event.phase} phase cannot end: this is {now}.")
    if event.phase == "adventure":
        return _adventure_ended(state, event)
    if event.phase == "voyage":
        return _voyage_ended(state, event)
    state = unpaid_leave(state)
    for p in in_play(state):
        if p.status == "active" and not p.boarded and not p.port_unconscious and p.time_units == 0:
            # "If your Time Units are reduced to zero before you have returned to the Pirate Ship, you lose 5 Fame"
            # (Book II: Port Phase, Port Components): a Pirate out of Time Units who never came back aboard is late.
            state = lose_fame(state, p.id, LATE_FAME, "being late for reembarking")
    for p in in_play(state):
        approvals = {m: mark for m, mark in p.approvals.items() if mark.permanent}
        state = put(state, change(p, approvals=approvals, time_units=0))
    state = replace(state, phase=None, phases_done=[*state.phases_done, "port"])
    return _settings_fame(state, "port")


def _voyage_ended(state: SkullTales, event: PhaseEnded) -> SkullTales:
    if event.outcome == "repeat":
        raise Rejection("Only an Adventure is repeated; a Voyage succeeds or fails.")
    if event.outcome == "success" or state.options.failed_voyage_trust_to_fame:
        state = trust_to_fame(state)
    for p in in_play(state):
        p = state.pirates[p.id]
        fame = p.fame + p.phase_fame
        if p.status == "unconscious":
            # "a Character who ended this Phase Unconscious starts the next Phase with half of their Fame" (Book III:
            # End of the Voyage Phase): the half kept, rounded up. A Pirate who left the «Sickbay» before the end
            # (`pirate.revived`) is not Unconscious when it ends and keeps it all.
            if state.options.unconscious_half_fame == "total":
                fame = _half_kept(fame)
            else:
                fame = p.fame + _half_kept(p.phase_fame)
        state = put(state, change(p, fame=fame, phase_fame=0, voyage_unconscious=False, status="active"))
    state = discard_used_ammunition(state)
    state = replace(state, phase=None, phases_done=[*state.phases_done, "voyage"], trust={})
    return _settings_fame(state, "voyage")


def degrees_allowed(p: Pirate) -> tuple[str, ...]:
    """A Pirate's degrees of success when the Adventure succeeds: a failure is being Unconscious at its end while
    another Character succeeds; a Pirate on their feet succeeds in total or in part (Book I: End of the Adventure)."""
    return ("failure",) if p.status == "unconscious" else ("total_success", "partial_success")


def _adventure_ended(state: SkullTales, event: PhaseEnded) -> SkullTales:
    crew = in_play(state)
    if event.outcome == "repeat":
        # "if all Characters are Unconscious ... the Adventure Phase must be replayed"; "If the Pirates have
        # achieved a partial success that allows them to continue the campaign, they may decide to repeat the
        # mission to improve their result" (Book I: End of the Adventure).
        everyone_down = all(p.status == "unconscious" for p in crew)
        if not everyone_down and "partial_success" not in event.degrees.values():
            broken(
                "An Adventure is played again when every Pirate is Unconscious, or by choice after a partial "
                "success: give the degrees that show it (Book I: End of the Adventure)."
            )
        return _repeat(state)
    success = event.outcome == "success"
    if success:
        missing = [p.name for p in crew if p.id not in event.degrees]
        if missing:
            raise Rejection(
                f"Say how the Adventure ended for {', '.join(missing)}: total success, partial success or failure."
            )
        for p in crew:
            if event.degrees[p.id] in degrees_allowed(p):
                continue
            if p.status == "unconscious":
                broken(
                    f"{p.name} is Unconscious at the end of the Adventure, which is a failure (Book I: End of the Adventure)."
                )
            else:
                broken(
                    f"{p.name} ends the Adventure on their feet: a failure is being Unconscious at its end while "
                    "another Character succeeds; say total or partial success (Book I: End of the Adventure)."
                )
        if all(p.status == "unconscious" for p in crew):
            broken(
                "Every Pirate is Unconscious: the Adventure Phase must be replayed (outcome repeat), without "
                "deciding who succeeded (Book I: End of the Adventure)."
            )
    for pid in event.degrees:
        if pid not in state.pirates:
            raise Rejection(f"There is no pirate {pid!r} in this crew.")
    state = adventure_payout(state, success)
    for p in crew:
        p = state.pirates[p.id]
        if success or state.options.failed_adventure_coins == "banked":
            state = move(state, f"risk:{p.id}", f"pirate:{p.id}", p.phase_coins, "banked at the end of the Adventure")
        else:
            state = move(state, f"risk:{p.id}", "sink:failed_adventure", p.phase_coins, "lost with the Adventure")
        p = state.pirates[p.id]
        fame = p.fame + (p.phase_fame if success else 0)
        if success and p.status == "unconscious":
            # "they continue the campaign and discard half of their Fame" (Book I: Character and Enemy States, Unconscious)
            if state.options.unconscious_half_fame == "total":
                fame = _halve(fame)
        total = p.adventures_total_success + (1 if event.degrees.get(p.id) == "total_success" else 0)
        state = put(state, change(p, fame=fame, phase_fame=0, status="active", adventures_total_success=total))
    state = penance.adventure_over(state)
    state = replace(
        state,
        phase=None,
        phases_done=[*state.phases_done, "adventure"],
        snapshot=None,
        adventure_allies=None,
        adventure_succeeded=success,
    )
    return _settings_fame(state, "adventure")


def _repeat(state: SkullTales) -> SkullTales:
    """Everything gained in the attempt is discarded; the crew starts again as it began (Book I: End of the Adventure)."""
    snapshot = state.snapshot
    if snapshot is None:
        # Every Adventure's start takes the snapshot, and only an Adventure in play can end: no event reaches this.
        raise ValueError("an Adventure in play without its starting snapshot")
    accounts = ["crew_booty"]
    for pid in set(state.pirates) | set(snapshot.pirates):
        accounts += [f"pirate:{pid}", f"risk:{pid}"]
    for aid in set(state.allies) | set(snapshot.allies):
        accounts.append(f"ally:{aid}")
    before = replace(
        state,
        pirates={**state.pirates, **snapshot.pirates},
        allies={**state.allies, **snapshot.allies},
        crew_booty=snapshot.crew_booty,
    )
    restored = state
    for account in accounts:
        now = balance(state, account) if _exists(state, account) else 0
        then = balance(before, account) if _exists(before, account) else 0
        if now > then:
            restored = move(restored, account, "sink:repeated_adventure", now - then, "the Adventure is repeated")
        elif then > now:
            restored = move(restored, "source:repeated_adventure", account, then - now, "the Adventure is repeated")
    return replace(
        restored,
        pirates=dict(snapshot.pirates),
        allies=dict(snapshot.allies),
        crew_booty=snapshot.crew_booty,
        phase=None,
        adventure_fame={},
        snapshot=None,
        adventure_allies=None,
        pending=list(snapshot.pending),
        legendary={
            k: v
            for k, v in state.legendary.items()
            if any(i.name == k for p in snapshot.pirates.values() for i in p.items)
        },
    )


def _exists(state: SkullTales, account: str) -> bool:
    kind, _, rest = account.partition(":")
    if kind in ("pirate", "risk"):
        return rest in state.pirates
    if kind == "ally":
        return rest in state.allies
    return True


def chapter_ended(state: SkullTales, event: ChapterEnded) -> SkullTales:
    if not state.chapter_phases or event.number != state.chapter:
        raise Rejection(f"Chapter {event.number} is not the open chapter.")
    if state.phase is not None:
        raise Rejection(f"The {state.phase} phase of chapter {state.chapter} has not ended yet.")
    return replace(state, chapter_phases=[], phases_done=[])
