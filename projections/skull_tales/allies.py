"""Allies: hiring at the Tavern, upkeep each Port, their share of the booty, death and rehiring.

Skull Tales: Full Sail! rulebook, Book I: The Characters, Allies; Book I: Allies; Book II: Locations, Tavern.
"""

from __future__ import annotations

import math

from msgspec.structs import replace

from quartermaster.events.skull_tales import (
    AllyDied,
    AllyDismissed,
    AllyDrawn,
    AllyHired,
    AllyLoyaltyRolled,
    AllyUpkeepPaid,
)
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.skull_tales.booty import move, pay, spend_fame, spend_time
from quartermaster.projections.skull_tales.options import active
from quartermaster.projections.skull_tales.state import (
    Ally,
    Compensation,
    SkullTales,
    active_pirate,
    attribute,
    has_skill,
    in_play,
    require_phase,
)

CHARACTER_LIMIT = 5  # Book I: The Characters
SURCHARGE = 3  # Coins and Fame per point of Charisma difference (Book II: Locations, Tavern)
HIRING_TIME_UNITS = 3
LOYALTY_SETTING = "admiral.port.ally_charisma_roll"


def hired(state: SkullTales) -> list[Ally]:
    return [a for a in state.allies.values() if a.status == "hired"]


def solo_ally_limit(state: SkullTales) -> int:
    """Solo Mode: up to four Allies for the Voyage (Book II: Locations, Tavern)."""
    return 4


SOLO_START_ALLIES = (
    3  # "In Solo Mode, you choose a Pirate as Captain and 3 random Allies" (Book I: Game Modes, Lone Pirates)
)
FOURTH_ALLY_SETTING = "cabin_boy.adventure.fourth_solo_ally"


def adventure_ally_limit(state: SkullTales) -> int:
    """Solo Mode: "only three can be used in the Adventure Phase" (Book II: Locations, Tavern), four with the Cabin
    Boy setting "A fourth Ally can be used in Solo Mode" (Appendix II: Admiral Mode and Cabin Boy Mode)."""
    return 3 + (1 if active(state.options, FOURTH_ALLY_SETTING) else 0)


def in_adventure(state: SkullTales, ally: Ally) -> bool:
    """Whether a hired Ally is in the Adventure in play: in Solo Mode, only those the Captain took along."""
    return state.adventure_allies is None or ally.id in state.adventure_allies


def choose_adventure_allies(state: SkullTales, chosen: list[str] | None) -> SkullTales:
    """The Allies who go into the Adventure starting now (Book II: Locations, Tavern, Solo Mode): "Before starting
    the Adventure, the Captain must decide which three Allies will tag along with them"."""
    mine = hired(state)
    if chosen is None:
        if state.solo and len(mine) > adventure_ally_limit(state):
            broken(
                f"In Solo Mode only {adventure_ally_limit(state)} Allies go into the Adventure, and the Captain has "
                f"{len(mine)}: say which (allies) (Book II: Locations, Tavern)."
            )
        return replace(state, adventure_allies=None)
    if not state.solo:
        raise Rejection("Only in Solo Mode does the Captain choose the Allies of an Adventure; every hired Ally goes.")
    if len(set(chosen)) != len(chosen):
        raise Rejection("An Ally is named twice among those going into the Adventure.")
    ids = {a.id for a in mine}
    for ally_id in chosen:
        if ally_id not in ids:
            raise Rejection(f"There is no hired Ally {ally_id!r} to take into the Adventure.")
    if len(chosen) > adventure_ally_limit(state):
        broken(
            f"In Solo Mode the Captain leads at most {adventure_ally_limit(state)} Allies in the Adventure Phase, "
            f"not {len(chosen)} (Book I: Game Modes, Lone Pirates)."
        )
    return replace(state, adventure_allies=list(chosen))


def ally_drawn(state: SkullTales, event: AllyDrawn) -> SkullTales:
    """An Ally drawn at random, unpaid: a Solo campaign's three, or a castaway's (Book I: Game Modes, Lone Pirates)."""
    p = active_pirate(state, event.pirate_id)
    _in_the_bag(state, event, "with", f"The {event.archetype} is already in play, not in the Ally bag.")
    if event.reason == "solo_start":
        if not (state.options.solo or state.solo):
            broken(
                "Only a Lone Pirate starts with random Allies (Book I: Game Modes, Lone Pirates); a crew hires them."
            )
        if state.phase_serial > 0:
            broken("The Lone Pirate's 3 random Allies are drawn at the campaign's start, before its first phase.")
        if len([a for a in state.allies.values() if a.drawn == "solo_start"]) >= SOLO_START_ALLIES:
            broken(
                f"A Lone Pirate starts with {SOLO_START_ALLIES} random Allies, not more (Book I: Game Modes, Lone Pirates)."
            )
    elif p.id not in state.former_captains and not (state.options.solo or state.solo):
        broken(
            f"{p.name} was never marooned: only a stranded or marooned Captain draws Allies to play «Castaways» "
            "(Book III: Voyage Phase, Mutiny; Book I: Game Modes, Lone Pirates)."
        )
    if len(in_play(state)) + len(hired(state)) + 1 > CHARACTER_LIMIT:
        broken("There cannot be more than 5 Characters (Pirates and Allies) in play (Book I: The Characters).")
    ally = _joining(state, event, p.id)
    return replace(state, allies={**state.allies, ally.id: ally})


def _in_the_bag(state: SkullTales, event: AllyHired | AllyDrawn, held: str, in_play_refused: str) -> None:
    """The Ally comes out of the Ally bag: its id is not an Ally with a hirer already ("already `held` Anne"), and
    its archetype is neither a hired Ally's nor a Pirate's card in play (refused in the caller's words)."""
    existing = state.allies.get(event.ally_id)
    if existing is not None and existing.status == "hired":
        raise Rejection(
            f"The {existing.archetype} ({event.ally_id}) is already {held} {state.pirates[existing.hirer].name}."
        )
    if any(a.archetype == event.archetype for a in hired(state)) or any(
        o.archetype == event.archetype for o in in_play(state)
    ):
        raise Rejection(in_play_refused)


def _joining(state: SkullTales, event: AllyHired | AllyDrawn, hirer: str) -> Ally:
    """The Ally hired or drawn, led by `hirer`, its upkeep counted from this phase and its chapter this one."""
    return Ally(
        id=event.ally_id,
        archetype=event.archetype,
        hirer=hirer,
        charisma=event.charisma,
        salary=event.salary,
        fame_cost=event.fame_cost,
        paid_serial=state.phase_serial,
        hired_chapter=state.chapter,
        drawn=event.reason if isinstance(event, AllyDrawn) else None,
    )


def _price(state: SkullTales, hirer_id: str, ally: Ally) -> tuple[int, int]:
    p = state.pirates[hirer_id]
    coins, fame = ally.salary, ally.fame_cost
    gap = ally.charisma - attribute(p, "charisma")
    if gap > 0:
        coins += SURCHARGE * gap
        fame += SURCHARGE * gap
    if has_skill(p, "Grifter"):
        # "The Coins cost of Gear cards and Allies is reduced by half", rounded up (Book I: How to start).
        coins = math.ceil(coins / 2)
    return coins, fame


def _pay(state: SkullTales, hirer_id: str, coins: int, fame: int, paid_from: str, doing: str) -> SkullTales:
    p = state.pirates[hirer_id]
    if paid_from == "crew_booty":
        if not (state.options.solo or state.options.crew_booty_pays_allies == "always"):
            broken(
                f"{p.name} cannot pay an Ally from the Crew's Booty: only in Solo Mode (Book II: Port Phase, Important Concepts)."
            )
        if state.captain != p.id:
            broken(f"{p.name} cannot {doing} from the Crew's Booty: only the Captain manages it.")
        source = "crew_booty"
    else:
        source = f"pirate:{p.id}"
    if p.fame < fame:
        raise Rejection(f"{p.name} cannot {doing}: it costs {fame} Fame and {p.name} has {p.fame}.")
    state = pay(state, source, coins, doing, "ally", p.name)
    return spend_fame(state, p.id, fame, doing)


def ally_hired(state: SkullTales, event: AllyHired) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "port", f"Hiring {event.archetype}")
    doing = f"hire the {event.archetype}"
    _in_the_bag(
        state,
        event,
        "hired by",
        f"{p.name} cannot {doing}: the {event.archetype} is already in play, not in the Ally bag.",
    )
    players = state.options.players or len(in_play(state))
    if players >= CHARACTER_LIMIT:
        broken(f"{p.name} cannot {doing}: with 5 players there are no Allies (Book I: The Characters).")
    mine = [a for a in hired(state) if a.hirer == p.id]
    if state.options.solo:
        if len(mine) >= solo_ally_limit(state):
            broken(
                f"{p.name} cannot {doing}: in Solo Mode the Captain hires at most 4 Allies (Book II: Locations, Tavern)."
            )
    else:
        if p.ally_hired_chapter == state.chapter:
            broken(
                f"{p.name} cannot {doing}: each Pirate hires only one Ally per chapter (Book I: The Characters, Allies)."
            )
    # One hired Ally at a time outside Solo: the first goes back to the bag (Book I: The Characters, Allies).
    leaving = [] if state.options.solo else mine
    if len(in_play(state)) + len(hired(state)) - len(leaving) + 1 > CHARACTER_LIMIT:
        broken(
            f"{p.name} cannot {doing}: there cannot be more than 5 Characters (Pirates and Allies) in play (Book I: The Characters)."
        )
    ally = _joining(state, event, p.id)
    coins, fame = _price(state, p.id, ally)
    state = spend_time(state, p.id, HIRING_TIME_UNITS, doing)
    state = _pay(state, p.id, coins, fame, event.paid_from, doing)
    allies = {**state.allies, ally.id: ally}
    for old in leaving:
        allies[old.id] = replace(old, status="dismissed")
    state = replace(state, allies=allies)
    hirer = state.pirates[p.id]
    return replace(state, pirates={**state.pirates, p.id: replace(hirer, ally_hired_chapter=state.chapter)})


def upkeep_paid(state: SkullTales, event: AllyUpkeepPaid) -> SkullTales:
    ally = _hired_ally(state, event.ally_id)
    require_phase(state, "port", f"Paying the {ally.archetype}")
    if ally.paid_serial == state.phase_serial:
        raise Rejection(f"The {ally.archetype} is already paid for this Port Phase.")
    if active(state.options, LOYALTY_SETTING) and ally.loyalty_serial != state.phase_serial:
        broken(
            f"{state.pirates[ally.hirer].name} must first pass the confronted Charisma roll that keeps the "
            f"{ally.archetype} (Admiral setting, Appendix II: Admiral Mode and Cabin Boy Mode, Admiral Mode, Port Phase)."
        )
    # Keeping an Ally costs its Salary and Fame each Port; no Charisma surcharge (Book I: The Characters, Allies; Book II: Locations, Tavern).
    coins = math.ceil(ally.salary / 2) if has_skill(state.pirates[ally.hirer], "Grifter") else ally.salary
    state = _pay(state, ally.hirer, coins, ally.fame_cost, event.paid_from, f"keep the {ally.archetype}")
    return replace(state, allies={**state.allies, ally.id: replace(ally, paid_serial=state.phase_serial)})


def loyalty_rolled(state: SkullTales, event: AllyLoyaltyRolled) -> SkullTales:
    """Admiral setting: one die plus Charisma each, the highest wins, a tie is rolled again (Appendix II: Admiral Mode and Cabin Boy Mode, Admiral Mode, Port Phase; Book I: Dice Rolls, Charisma rolls)."""
    ally = _hired_ally(state, event.ally_id)
    require_phase(state, "port", f"The {ally.archetype}'s loyalty roll")
    if not active(state.options, LOYALTY_SETTING):
        broken(f"Allies stay loyal without a roll unless the crew plays the Admiral setting {LOYALTY_SETTING}.")
    hirer = state.pirates[ally.hirer]
    if ally.loyalty_serial == state.phase_serial:
        broken(f"{hirer.name} has already rolled to keep the {ally.archetype} in this Port Phase.")
    if ally.hired_chapter == state.chapter and ally.paid_serial == state.phase_serial:
        broken(f"The {ally.archetype} was hired in this Port Phase and needs no loyalty roll.")
    for roll in (event.hirer_roll, event.ally_roll):
        if not 1 <= roll <= 6:
            raise Rejection(f"A Charisma roll is one die; {roll} is not a face.")
    mine = attribute(hirer, "charisma") + event.hirer_roll
    theirs = ally.charisma + event.ally_roll
    if mine == theirs:
        raise Rejection(
            f"{hirer.name} and the {ally.archetype} tie at {mine}: the tied players roll again (Book I: Dice Rolls, Charisma rolls)."
        )
    if mine > theirs:
        return replace(state, allies={**state.allies, ally.id: replace(ally, loyalty_serial=state.phase_serial)})
    # The Ally leaves the crew and goes back to the Ally bag, carrying nothing (Book II: Port Phase, Setup).
    return ally_dismissed(state, AllyDismissed(ally_id=ally.id))


def _hired_ally(state: SkullTales, ally_id: str) -> Ally:
    ally = state.allies.get(ally_id)
    if ally is None or ally.status != "hired":
        raise Rejection(f"There is no hired Ally {ally_id!r}.")
    return ally


def ally_died(state: SkullTales, event: AllyDied) -> SkullTales:
    ally = _hired_ally(state, event.ally_id)
    require_phase(state, "adventure", f"The {ally.archetype} dying")
    if not in_adventure(state, ally):
        raise Rejection(f"The {ally.archetype} stayed aboard and is not in this Adventure.")
    # Everything the Ally obtained is discarded (Book I: Allies, Wounds and Revival); the hirer compensates the Ally's Salary at the next Port.
    state = move(state, f"ally:{ally.id}", "sink:ally_lost", ally.coins, f"the {ally.archetype} died")
    to = "crew_booty" if state.options.lost_ally_compensation == "crew_booty" else "sink:lost_ally"
    due = Compensation(kind="lost_ally", payer=ally.hirer, to=to, amount=ally.salary, about=ally.archetype)
    allies = {**state.allies, ally.id: replace(state.allies[ally.id], status="dead")}
    return replace(state, allies=allies, pending=[*state.pending, due])


def ally_dismissed(state: SkullTales, event: AllyDismissed) -> SkullTales:
    ally = _hired_ally(state, event.ally_id)
    state = move(state, f"ally:{ally.id}", "sink:ally_lost", ally.coins, f"the {ally.archetype} left")
    return replace(state, allies={**state.allies, ally.id: replace(state.allies[ally.id], status="dismissed")})


def unpaid_leave(state: SkullTales) -> SkullTales:
    """At the end of a Port Phase an unpaid Ally is discarded (Book II: Locations, Tavern)."""
    allies = dict(state.allies)
    for ally in hired(state):
        if ally.paid_serial != state.phase_serial:
            allies[ally.id] = replace(ally, status="dismissed")
    return replace(state, allies=allies)


def adventure_payout(state: SkullTales, success: bool) -> SkullTales:
    """End of the Adventure: half the Ally's Coins, rounded up, to the hirer; the rest stays with the Ally (Book I: Allies)."""
    for ally in hired(state):
        if ally.coins == 0:
            continue
        if success:
            share = math.ceil(ally.coins / 2)
            state = move(state, f"ally:{ally.id}", f"pirate:{ally.hirer}", share, f"the {ally.archetype}'s share")
        state = move(
            state,
            f"ally:{ally.id}",
            "sink:ally_keeps",
            state.allies[ally.id].coins,
            f"the {ally.archetype} keeps the rest",
        )
    return state
