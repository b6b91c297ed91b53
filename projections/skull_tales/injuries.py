"""Permanent Injuries, retirement, matelotage, prostheses, and the compensations the next Port pays.

Skull Tales: Full Sail! rulebook, Book I: Permanent Injuries and Retirement; Book II: Port Phase, Setup.
"""

from __future__ import annotations

import math

from msgspec.structs import replace

from quartermaster.events.skull_tales import InjurySuffered, MatelotageDone, PirateRetired, ProsthesisBought
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.skull_tales.booty import move, owe, pay, spend_time
from quartermaster.projections.skull_tales.pirates import take_item, without_item
from quartermaster.projections.skull_tales.skills import capacity, special_used
from quartermaster.projections.skull_tales.state import (
    Compensation,
    SkullTales,
    active_pirate,
    change,
    has_skill,
    pirate,
    put,
    require_phase,
)
from quartermaster.projections.skull_tales.words import count

INJURY_COMPENSATION = 5  # Book I: Permanent Injuries and Retirement, Permanent Injury Chart
RETIREMENT_COMPENSATION = 10  # Book I: Permanent Injuries and Retirement, Character Retirement
PROSTHESIS_COINS = 10  # Book II: Locations, Market Square
PROSTHESIS_FOR = {"hook": "hands", "eye_patch": "eyes", "peg_leg": "legs"}
PROSTHESIS_NAMES = {"hook": "a Hook", "eye_patch": "an Eye patch", "peg_leg": "a Peg leg"}


def injury_suffered(state: SkullTales, event: InjurySuffered) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    if not 1 <= event.roll <= 6:
        raise Rejection(f"The Permanent Injury chart is read on one die; {event.roll} is not a face of it.")
    if p.status == "must_retire":
        raise Rejection(f"{p.name} has already lost a pair and must retire.")
    # A failed revive: the Pirate discards all Wounds either way (Book I: Character Actions, Revive).
    p = change(p, wounds=0, status="active" if p.status == "unconscious" else p.status)
    if event.injury in p.injuries:
        # "If the roll is the same as a ... previously received injury, ignore the result" (Book I: Permanent Injuries and Retirement).
        return put(state, p)
    lost_pair = any(other != event.injury and _pair_of(other) == event.pair for other in p.injuries)
    changes = dict(p.injury_changes)
    for name, delta in event.attribute_changes.items():
        changes[name] = changes.get(name, 0) + delta
    p = change(
        p,
        injuries=[*p.injuries, event.injury],
        injury_changes=changes,
        movement=p.movement + event.movement,
        lost_hands=[*p.lost_hands, event.hand] if event.hand else p.lost_hands,
    )
    if lost_pair:
        # Without two matching limbs the Pirate retires (Book I: Permanent Injuries and Retirement, Character Retirement); no compensation for this injury (Book I: Permanent Injuries and Retirement, Permanent Injury Chart).
        return put(state, change(p, status="must_retire"))
    state = put(state, p)
    if event.pair in p.compensated_injuries:
        return state
    state = put(state, change(p, compensated_injuries=[*p.compensated_injuries, event.pair]))
    due = Compensation(kind="injury", payer=None, to=f"pirate:{p.id}", amount=INJURY_COMPENSATION, about=p.id)
    return replace(state, pending=[*state.pending, due])


def _pair_of(injury: str) -> str:
    return {"eye": "eyes", "hand": "hands", "leg": "legs"}[injury.split()[-1].lower()]


def retired(state: SkullTales, event: PirateRetired) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    if event.reason == "injury" and p.status != "must_retire":
        broken(f"{p.name} has not lost a pair of eyes, hands or legs and need not retire.")
    if event.reason == "legendary_pirate" and "Legendary Pirate" not in p.feats:
        broken(f"{p.name} cannot retire with the highest honours without the Legendary Pirate Feat.")
    to = f"pirate:{p.id}" if state.options.retirement_compensation == "retiree" else "sink:retirement"
    due = Compensation(kind="retirement", payer=None, to=to, amount=RETIREMENT_COMPENSATION, about=p.id)
    # What was still at risk in the phase was never written on the Record Sheet, so it leaves with the Pirate.
    state = move(state, f"risk:{p.id}", "sink:retired", p.phase_coins, "at risk when retiring")
    p = state.pirates[p.id]
    state = put(state, change(p, status="retired", retired_reason=event.reason, phase_fame=0))
    if state.captain == p.id:
        state = replace(state, captain=None, former_captains=[*state.former_captains, p.id])
    for ally in state.allies.values():
        if ally.hirer == p.id and ally.status == "hired":
            state = replace(state, allies={**state.allies, ally.id: replace(ally, status="dismissed")})
    if event.reason == "legendary_pirate":
        return state
    return replace(state, pending=[*state.pending, due])


def matelotage(state: SkullTales, event: MatelotageDone) -> SkullTales:
    old = pirate(state, event.retired_id)
    new = active_pirate(state, event.new_id)
    if old.status != "retired":
        raise Rejection(f"{old.name} has not retired; matelotage follows a retirement.")
    if new.replaces != old.id:
        raise Rejection(f"{new.name} did not replace {old.name}; matelotage passes to the new Pirate only.")
    if old.matelotage_done:
        broken(f"{old.name}'s matelotage with {new.name} is done; it happens once.")
    half = math.ceil(old.coins / 2)
    if not 0 <= event.coins <= half:
        broken(f"{old.name} can give {new.name} at most half of {count(old.coins, 'Coin')}, {half}, not {event.coins}.")
    state = move(state, f"pirate:{old.id}", f"pirate:{new.id}", event.coins, "matelotage")
    if event.item is not None:
        items = without_item(old, event.item, "pass on")
        item = next(i for i in old.items if i.name == event.item)
        state = put(state, change(state.pirates[old.id], items=items))
        if item.kind == "legendary":
            state = replace(state, legendary={k: v for k, v in state.legendary.items() if k != item.name})
        state = take_item(state, state.pirates[new.id], item)
    # "Everything else is returned to the box" (Book I: Permanent Injuries and Retirement, Character Retirement).
    old = state.pirates[old.id]
    state = move(state, f"pirate:{old.id}", "sink:returned_to_box", old.coins, "returned to the box")
    for item in old.items:
        if state.legendary.get(item.name) == old.id:
            state = replace(state, legendary={k: v for k, v in state.legendary.items() if k != item.name})
    state = put(state, change(state.pirates[old.id], items=[], matelotage_done=True))
    if event.free_skill is not None:
        if old.retired_reason != "legendary_pirate":
            broken(f"Only a Legendary Pirate teaches a free skill on retiring, and {old.name} is not one.")
        skill = next((s for s in old.skills if s.name == event.free_skill), None)
        if skill is None:
            raise Rejection(f"{old.name} never learned {event.free_skill}.")
        n = state.pirates[new.id]
        if has_skill(n, skill.name):
            raise Rejection(f"{n.name} already knows {skill.name}.")
        # "Learning through a game effect also fails if no slot is free" (Book II: Feats, Classes and Skills, Special Skills).
        if skill.special and special_used(n) >= capacity(n):
            broken(
                f"{n.name} cannot learn {skill.name}: it is a Special Skill and {n.name} has used all "
                f"{count(capacity(n), 'slot')} of Special Skill capacity."
            )
        state = put(state, change(n, skills=[*n.skills, replace(skill, phase_serial=state.phase_serial)]))
    return state


def prosthesis_bought(state: SkullTales, event: ProsthesisBought) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "port", "Buying a prosthesis")
    name = PROSTHESIS_NAMES[event.prosthesis]
    pair = PROSTHESIS_FOR[event.prosthesis]
    if not any(_pair_of(i) == pair for i in p.injuries):
        broken(f"{p.name} cannot buy {name}: {p.name} has no Permanent Injury to the {pair}.")
    if event.prosthesis in p.prostheses:
        raise Rejection(f"{p.name} already has {name}.")
    state = spend_time(state, p.id, 1, f"buy {name}")
    state = pay(state, f"pirate:{p.id}", PROSTHESIS_COINS, f"buy {name}", "prosthesis", p.name)
    p = state.pirates[p.id]
    # A Peg leg gives back 1 Movement (not the Agility); an Eye patch +1 Perception (computed in attribute()).
    movement = p.movement + (1 if event.prosthesis == "peg_leg" else 0)
    return put(state, change(p, prostheses=[*p.prostheses, event.prosthesis], movement=movement))


def pay_compensations(state: SkullTales) -> SkullTales:
    """At the start of a Port Phase: injuries (5 from each other Pirate), retirements (10, a sink), lost Allies."""
    for due in state.pending:
        if due.kind == "injury" and state.pirates[due.about].status == "retired":
            continue  # only an injury that does not force retirement is compensated (Book I: Permanent Injuries and Retirement, Permanent Injury Chart)
        payers = (
            [due.payer]
            if due.payer
            else [
                o.id
                for o in state.pirates.values()
                if o.status != "retired" and o.id != due.about and o.replaces != due.about
            ]
        )
        if due.kind == "lost_ally":
            # `about` names the Ally's archetype, not a Pirate.
            reason = f"compensation for the lost Ally {due.about}"
        elif due.kind == "injury":
            reason = f"compensation for {state.pirates[due.about].name}'s Permanent Injury"
        else:
            reason = f"compensation for {state.pirates[due.about].name}'s retirement"
        for payer in payers:
            state = owe(state, payer, due.to, due.amount, reason)
    return replace(state, pending=[])
