"""Skills and Feats: who may learn what, and what it costs.

Skull Tales: Full Sail! rulebook, Book II: Feats, Classes and Skills.
"""

from __future__ import annotations

import math

import msgspec

from quartermaster.events.skull_tales import FeatGained, SkillLearned
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.skull_tales.booty import inside_manor, pay, spend_fame, spend_time
from quartermaster.projections.skull_tales.options import Options, active
from quartermaster.projections.skull_tales.words import count
from quartermaster.projections.skull_tales.pirates import add_fame
from quartermaster.projections.skull_tales.state import (
    LearnedSkill,
    Pirate,
    SkullTales,
    active_pirate,
    attribute,
    change,
    has_skill,
    put,
    require_phase,
)

LEARNING_TIME_UNITS = 7  # Book II: Locations, Docks and every master
MULTI_CLASS_COINS, MULTI_CLASS_FAME = 15, 10
SYNERGY_COINS = 10
MASTER_COINS, MASTER_FAME, MASTER_REWARD = 15, 10, 5  # Book II: Feats, Classes and Skills, Master and apprentice
APPROVAL_COINS, APPROVAL_FAME = 10, 10
SAVVY_COINS, SAVVY_FAME = 15, 10
AMBIDEXTROUS_COINS, AMBIDEXTROUS_FAME = 70, 50
MYSTIC = "Mystic"
TEACHER_LOCATIONS = {
    "Grace Jennings": "docks",
    "Maggie": "market_square",
    "Jerôme Feuilet": "chapel",
    "Francisco Carranza": "manor",
    "Gerrit Jensen": "tavern",
}


class Price(msgspec.Struct, frozen=True):
    coins: int
    fame: int


def class_price(coins: int, fame: int, skill_class: str, classes: list[str], options: Options) -> Price:
    """X / X+15 / X*1.5 Coins and X / X+10 / X*1.5 Fame, for single-class, multi-class and off-class (Book II: Feats, Classes and Skills, Master and apprentice)."""
    if skill_class == MYSTIC:
        return Price(coins, fame)
    own = skill_class in classes
    if not own and active(options, "cabin_boy.port.multiclass_all"):
        return Price(coins + MULTI_CLASS_COINS, fame + MULTI_CLASS_FAME)
    if own and len(classes) == 1:
        if active(options, "cabin_boy.port.multiclass_all") and not options.cabin_boy_multiclass_single_keeps_price:
            return Price(coins + MULTI_CLASS_COINS, fame + MULTI_CLASS_FAME)
        return Price(coins, fame)
    if own:
        return Price(coins + MULTI_CLASS_COINS, fame + MULTI_CLASS_FAME)
    # "round up" in every situation (Book I: How to start); the printed tiers are whole already.
    return Price(math.ceil(coins * 3 / 2), math.ceil(fame * 3 / 2))


def price(state: SkullTales, p: Pirate, event: SkillLearned) -> tuple[Price, list[str]]:
    """The price this pirate pays for this skill now, and the discounts that made it."""
    notes: list[str] = []
    if event.skill == "Ambidextrous" and p.dominant_hand in p.lost_hands:
        # Ambidextrous after losing the dominant hand: 70 Coins and 50 Fame whatever the class (Book II: Feats, Classes and Skills, Rogue Skills).
        return Price(AMBIDEXTROUS_COINS, AMBIDEXTROUS_FAME), ["lost dominant hand"]
    base = class_price(event.coins, event.fame, event.skill_class, p.classes, state.options)
    coins, fame = base.coins, base.fame
    if any(has_skill(p, s) for s in event.synergy):
        coins -= SYNERGY_COINS
        notes.append("synergy")
    if event.master_id is not None:
        coins -= MASTER_COINS
        fame -= MASTER_FAME
        notes.append("master")
    mark = p.approvals.get(event.teacher)
    if mark is not None and mark.kind == "approval":
        coins -= APPROVAL_COINS
        fame -= APPROVAL_FAME
        notes.append("approval")
    if has_skill(p, "Savvy"):
        coins -= SAVVY_COINS
        fame -= SAVVY_FAME
        notes.append("savvy")
    floor = state.options.skill_cost_floor
    return Price(max(coins, floor), max(fame, floor)), notes


def capacity(p: Pirate) -> int:
    """Special Skill capacity: the Fame Dial's value, +1 per Feat (Book II: Feats, Classes and Skills, Feats)."""
    return p.special_skill_capacity + len(p.feats)


def special_used(p: Pirate) -> int:
    return sum(1 for s in p.skills if s.special)


def skill_learned(state: SkullTales, event: SkillLearned) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    doing = f"learn {event.skill}"
    if has_skill(p, event.skill):
        raise Rejection(f"{p.name} already knows {event.skill}.")
    pre = event.prerequisites
    if pre.starting_only:
        broken(
            f"{p.name} cannot learn {event.skill}: it is a starting skill only (Book II: Feats, Classes and Skills, Mystic Skills)."
        )
    if event.skill_class == MYSTIC and MYSTIC not in p.classes:
        broken(
            f"{p.name} cannot learn {event.skill}: only Pirates with the Mystic class learn Mystic skills, "
            f"and {p.name} is {' and '.join(p.classes)}."
        )
    special_case = event.skill == "Ambidextrous" and p.dominant_hand in p.lost_hands
    if not special_case:
        _check_prerequisites(state, p, event)
    if event.unique:
        holder = next((o for o in state.pirates.values() if o.status != "retired" and has_skill(o, event.skill)), None)
        if holder is not None:
            broken(f"{p.name} cannot learn {event.skill}: only one Character may have it, and {holder.name} does.")
    if event.special and not special_case and special_used(p) >= capacity(p):
        broken(
            f"{p.name} cannot learn {event.skill}: it is a Special Skill and {p.name} has used all "
            f"{count(capacity(p), 'slot')} of Special Skill capacity."
        )
    if event.free:
        return _learn(state, p.id, event)
    require_phase(state, "port", f"Learning {event.skill}")
    mark = p.approvals.get(event.teacher)
    if mark is not None and mark.kind == "disapproval":
        broken(f"{p.name} cannot {doing}: {event.teacher} Disapproves of {p.name} until the next Port Phase.")
    master = None
    if event.master_id is not None:
        master = active_pirate(state, event.master_id)
        if master.id == p.id:
            broken(f"{p.name} cannot be their own master.")
        known_before = event.skill in master.starting_skills or any(
            s.name == event.skill and s.phase_serial < state.phase_serial for s in master.skills
        )
        if not known_before:
            broken(
                f"{master.name} cannot teach {event.skill} to {p.name}: {master.name} "
                + (
                    "learned it in this same Port Phase (Book II: Feats, Classes and Skills, Master and apprentice)."
                    if has_skill(master, event.skill)
                    else "does not know it."
                )
            )
    cost, _ = price(state, p, event)
    units = LEARNING_TIME_UNITS - (3 if active(state.options, "cabin_boy.port.skill_time_minus_3") else 0)
    if p.coins < cost.coins:
        raise Rejection(f"{p.name} cannot {doing}: it costs {count(cost.coins, 'Coin')} and {p.name} has {p.coins}.")
    if p.fame < cost.fame:
        raise Rejection(f"{p.name} cannot {doing}: it costs {cost.fame} Fame and {p.name} has {p.fame}.")
    state = spend_time(state, p.id, units, doing)
    if TEACHER_LOCATIONS.get(event.teacher) == "manor":
        # "the Manor is home to Francisco Carranza ... Spend 7 Time Units to be by his side" (Book II: Locations,
        # Madame Claude's Manor): inside it.
        state = inside_manor(state, p.id)
    state = pay(state, f"pirate:{p.id}", cost.coins, doing, "skill", p.name)
    state = spend_fame(state, p.id, cost.fame, doing)
    if master is not None:
        state = add_fame(state, master.id, MASTER_REWARD)
    return _learn(state, p.id, event)


def _check_prerequisites(state: SkullTales, p: Pirate, event: SkillLearned) -> None:
    pre = event.prerequisites
    for name, minimum in pre.attributes.items():
        if attribute(p, name) < minimum:
            broken(
                f"{p.name} cannot learn {event.skill}: it needs {name.capitalize()} {minimum} and "
                f"{p.name} has {attribute(p, name)}."
            )
    skills = list(pre.skills)
    if event.skill == "Analytical" and not state.options.analytical_requires_fencing:
        skills = [s for s in skills if s != "Fencing"]
    for needed in skills:
        if not has_skill(p, needed):
            broken(f"{p.name} cannot learn {event.skill}: it needs {needed}, which {p.name} does not know.")
    if pre.special_skill_capacity and capacity(p) < pre.special_skill_capacity:
        broken(
            f"{p.name} cannot learn {event.skill}: it needs Special Skill capacity {pre.special_skill_capacity} "
            f"and {p.name}'s is {capacity(p)}."
        )
    if pre.not_captain and state.captain == p.id:
        broken(f"{p.name} cannot learn {event.skill} while Captain.")


def _learn(state: SkullTales, pirate_id: str, event: SkillLearned) -> SkullTales:
    p = state.pirates[pirate_id]
    learned = LearnedSkill(
        name=event.skill,
        skill_class=event.skill_class,
        special=event.special,
        phase_serial=state.phase_serial,
        effects=dict(event.effects),
    )
    return put(state, change(p, skills=[*p.skills, learned]))


# --- Feats ---------------------------------------------------------------------------------------------------------

COUNTER_WORDS = {
    "adventures_total_success": "Adventure Phases completed with total Success",
    "campaigns_completed": "campaigns completed",
    "buried_booty": "Coins in a buried treasure",
    "assignments_as_captain": "Assignments completed as Captain",
    "feats": "of the previous Feats",
}


def counter(state: SkullTales, p: Pirate, name: str) -> int:
    if name == "adventures_total_success":
        return p.adventures_total_success
    if name == "campaigns_completed":
        return p.campaigns_completed
    if name == "assignments_as_captain":
        return p.assignments_as_captain
    if name == "buried_booty":
        if state.captain != p.id and not state.options.luxury_counts_former_captain:
            return 0
        return max(state.buried.get(p.id, {}).values(), default=0)
    if name == "feats":
        return len(p.feats)
    raise Rejection(f"The Feat names a counter the tracker does not keep: {name!r}.")


def feat_gained(state: SkullTales, event: FeatGained) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    doing = f"accomplish the {event.feat} Feat"
    require_phase(state, "port", f"The {event.feat} Feat")
    if event.feat in p.feats:
        raise Rejection(f"{p.name} already has the {event.feat} Feat.")
    for name, minimum in event.requires.items():
        have = counter(state, p, name)
        # "more than 100 Coins" (Luxury) is expressed as a minimum of 101.
        if have < minimum:
            broken(
                f"{p.name} cannot {doing}: it needs {minimum} {COUNTER_WORDS.get(name, name)} and {p.name} has {have}."
            )
    if p.coins < event.coins:
        raise Rejection(f"{p.name} cannot {doing}: it costs {count(event.coins, 'Coin')} and {p.name} has {p.coins}.")
    if p.fame < event.fame:
        raise Rejection(f"{p.name} cannot {doing}: it costs {event.fame} Fame and {p.name} has {p.fame}.")
    state = pay(state, f"pirate:{p.id}", event.coins, doing, "feat", p.name)
    state = spend_fame(state, p.id, event.fame, doing)
    return put(state, change(state.pirates[p.id], feats=[*state.pirates[p.id].feats, event.feat]))
