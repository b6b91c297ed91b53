"""Captaincy: election after an Adventure, Trust Points and Morale, Mutiny with sealed bids, Ally mutiny, Command
Points, Assignments.

Skull Tales: Full Sail! rulebook, Book I: End of the Adventure; Book III: Voyage Phase, Trust Points, Mutiny and
Command Points; Book II: Port Phase, Setup.
"""

from __future__ import annotations

import math

from msgspec.structs import replace

from quartermaster.events.skull_tales import (
    AllyMutinyResolved,
    AssignmentResolved,
    AssignmentTaken,
    CaptainElected,
    CommandIssued,
    MoraleChanged,
    MutinyResolved,
    TrustChanged,
)
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.skull_tales.booty import bosun_acted, gain_coins, move, pay, require_captain, spend_time
from quartermaster.projections.skull_tales.options import active
from quartermaster.projections.skull_tales.words import count
from quartermaster.projections.skull_tales.pirates import add_fame, lose_fame
from quartermaster.projections.skull_tales.state import (
    Assignment,
    Pirate,
    SkullTales,
    active_pirate,
    attribute,
    change,
    in_play,
    pirate,
    put,
    require_phase,
)

TRUST_MAX = 20  # Book III: Voyage Phase, Voyage Components
MORALE_MAX = 20
MUTINY_COIN = 10  # Coins per bidding coin (Book III: Voyage Phase, Mutiny)


def morale_max(state: SkullTales) -> int:
    return 18 if active(state.options, "admiral.voyage.max_morale_18") else MORALE_MAX


def fame_leaders(state: SkullTales) -> tuple[int, list[Pirate]]:
    """The most Fame gained in the Adventure, and the Pirates who gained it."""
    crew = in_play(state)
    best = max((state.adventure_fame.get(o.id, 0) for o in crew), default=0)
    return best, [o for o in crew if state.adventure_fame.get(o.id, 0) == best]


def election_due(state: SkullTales) -> bool:
    """A Captain is elected after a successful Adventure when the crew has none (Book I: End of the Adventure)."""
    return (
        state.captain is None
        and "adventure" in state.phases_done
        and state.phase is None
        and state.adventure_succeeded
        and bool(in_play(state))
    )


def captain_elected(state: SkullTales, event: CaptainElected) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    if state.captain is not None:
        broken(f"{p.name} cannot be elected: {state.pirates[state.captain].name} is the Captain.")
    if "adventure" not in state.phases_done or state.phase is not None:
        broken(f"{p.name} can take the captaincy only after an Adventure Phase ends (Book I: End of the Adventure).")
    elif not state.adventure_succeeded:
        broken(
            f"{p.name} cannot take the captaincy: it is decided after a successful Adventure, and this one failed "
            "(Book I: End of the Adventure)."
        )
    if event.method != "chapter":
        best, leading = fame_leaders(state)
        mine = state.adventure_fame.get(p.id, 0)
        leaders = [o.name for o in leading]
        if mine < best:
            broken(
                f"{p.name} gained {mine} Fame in the Adventure and {', '.join(leaders)} gained {best}: "
                "the captaincy goes to the most Fame (Book I: End of the Adventure)."
            )
        if event.method == "most_fame" and len(leaders) > 1:
            broken(
                f"{', '.join(leaders)} tie with {best} Fame: a confronted Charisma roll breaks the tie "
                "(log it, then elect with method charisma_tie)."
            )
    return replace(state, captain=p.id)


def _name(state: SkullTales, character_id: str) -> str:
    if character_id in state.pirates:
        return state.pirates[character_id].name
    if character_id in state.allies:
        return f"the {state.allies[character_id].archetype}"
    raise Rejection(f"There is no Character {character_id!r} aboard.")


def trust_changed(state: SkullTales, event: TrustChanged) -> SkullTales:
    require_phase(state, "voyage", "Trust Points")
    name = _name(state, event.character_id)
    if event.character_id in state.allies and state.allies[event.character_id].status != "hired":
        raise Rejection(f"{name[0].upper()}{name[1:]} is not a hired Ally.")
    if event.character_id in state.pirates:
        active_pirate(state, event.character_id)
    if event.character_id == state.captain and event.amount > 0 and "event" not in event.reason.lower():
        # "The Captain does not gain Trust Points for performing actions on the Pirate Ship. They can only gain
        # Trust Points when they successfully resolve a Voyage Event card." (Book III: Voyage Phase, Trust Points)
        broken(
            f"{name} is the Captain, who gains Trust Points only by resolving a Voyage Event card, not for "
            f"{event.reason or 'an action aboard'}: say which Event in the reason (Book III: Voyage Phase, Trust Points)."
        )
    trust = min(max(state.trust.get(event.character_id, 0) + event.amount, 0), TRUST_MAX)
    return replace(state, trust={**state.trust, event.character_id: trust})


def morale_changed(state: SkullTales, event: MoraleChanged) -> SkullTales:
    require_phase(state, "voyage", "Morale")
    return replace(state, morale=min(max(state.morale + event.amount, 0), morale_max(state)))


def trust_to_fame(state: SkullTales) -> SkullTales:
    """Every Character's Trust Points become Fame; a non-Captain hirer gains half their Ally's (Book III: Voyage Phase, Trust Points)."""
    for p in in_play(state):
        trust = state.trust.get(p.id, 0)
        if trust:
            state = add_fame(state, p.id, trust)
    for ally in state.allies.values():
        trust = state.trust.get(ally.id, 0)
        if ally.status == "hired" and trust and ally.hirer != state.captain and state.options.ally_trust_to_hirer:
            state = add_fame(state, ally.hirer, math.ceil(trust / 2))
    return replace(state, trust={})


def bank_voyage_fame(state: SkullTales) -> SkullTales:
    """At a Mutiny the converted Fame goes "to their Record Sheets" at once (Book III: Voyage Phase, Mutiny)."""
    for p in in_play(state):
        if p.phase_fame:
            state = put(state, change(p, fame=p.fame + p.phase_fame, phase_fame=0))
    return state


def coins_to_bid(state: SkullTales, pirate_id: str) -> int:
    coins = state.pirates[pirate_id].coins
    if state.options.mutiny_coin_rounding == "up":
        return math.ceil(coins / MUTINY_COIN)
    return coins // MUTINY_COIN


def mutiny_resolved(state: SkullTales, event: MutinyResolved) -> SkullTales:
    require_phase(state, "voyage", "A Mutiny")
    if state.captain is None:
        raise Rejection("There is no Captain to mutiny against.")
    captain = state.pirates[state.captain]
    instigator = active_pirate(state, event.instigator)
    captain_trust = state.trust.get(captain.id, 0)
    if instigator.id == captain.id:
        raise Rejection(f"{captain.name} is the Captain and cannot mutiny against themselves.")
    for pid in event.bids:
        p = active_pirate(state, pid)
        if pid != captain.id and state.trust.get(pid, 0) <= captain_trust:
            broken(
                f"{p.name} cannot join the Mutiny: {p.name} has {count(state.trust.get(pid, 0), 'Trust Point')} and the "
                f"Captain {captain.name} has {captain_trust}; a Mutineer must exceed the Captain (Book III: Voyage Phase, Mutiny)."
            )
    if instigator.id not in event.bids:
        raise Rejection(f"{instigator.name} instigates the Mutiny and must bid.")
    if captain.id not in event.bids:
        raise Rejection(f"The Captain {captain.name} bids in the Mutiny too (0 coins if nothing).")
    # First everyone's Trust becomes Fame on the Record Sheets, Morale goes back to 20, Trust to 0 (Book III: Voyage Phase, Mutiny).
    state = bank_voyage_fame(trust_to_fame(state))
    state = replace(state, morale=morale_max(state))
    for pid, bid in event.bids.items():
        p = state.pirates[pid]
        most = coins_to_bid(state, pid)
        minimum = 0 if pid == captain.id and state.options.captain_may_bid_zero else 1
        if not minimum <= bid <= most:
            broken(
                f"{p.name} cannot bid {count(bid, 'coin')}: {p.name} has {count(p.coins, 'Coin')}, "
                f"{count(most, 'bidding coin')}, "
                f"and must bid at least {minimum}."
            )
    best = max(event.bids.values())
    leaders = [pid for pid, bid in event.bids.items() if bid == best]
    if len(leaders) > 1:
        if event.tie_winner not in leaders:
            names = ", ".join(state.pirates[pid].name for pid in leaders)
            raise Rejection(f"{names} tie with {count(best, 'coin')}: name the winner of the confronted Charisma roll.")
        winner = event.tie_winner
    else:
        winner = leaders[0]
    # Every bidder loses 10 Coins per coin bid, winner or not (Book III: Voyage Phase, Mutiny). A coin rounded up from a remainder
    # (option mutiny_coin_rounding) costs only the remainder: nobody pays Coins they never had.
    for pid, bid in event.bids.items():
        cost = min(bid * MUTINY_COIN, state.pirates[pid].coins)
        state = move(state, f"pirate:{pid}", "sink:mutiny_bid", cost, "Mutiny bid")
    if winner != captain.id:
        state = replace(state, captain=winner, former_captains=[*state.former_captains, captain.id])
        if state.assignment is not None:
            state = replace(state, assignment=replace(state.assignment, holder=winner))
    return state


def ally_mutiny_resolved(state: SkullTales, event: AllyMutinyResolved) -> SkullTales:
    require_phase(state, "voyage", "An Ally's mutiny")
    if state.captain is None:
        raise Rejection("There is no Captain for an Ally to mutiny against.")
    ally = state.allies.get(event.ally_id)
    if ally is None or ally.status != "hired":
        raise Rejection(f"There is no hired Ally {event.ally_id!r}.")
    captain = state.pirates[state.captain]
    if state.trust.get(ally.id, 0) <= state.trust.get(captain.id, 0):
        broken(
            f"The {ally.archetype} has {count(state.trust.get(ally.id, 0), 'Trust Point')} and {captain.name} has "
            f"{state.trust.get(captain.id, 0)}: an Ally mutinies only when it exceeds the Captain."
        )
    if not 1 <= event.ally_roll <= 6:
        raise Rejection(f"The Ally rolls one die; {event.ally_roll} is not a face.")
    if event.coins_spent < 0 or event.coins_spent % MUTINY_COIN:
        broken(
            f"{captain.name} spends Coins in tens, 1 Charisma for each 10 (Book III: Voyage Phase, Mutiny), not {event.coins_spent}."
        )
    # "The Captain converts their Trust Points to Fame and adds them to their Record Sheet. The Pirate Flag token is
    # placed on space 20, and the Trust Points of each Character are reset to 0." (Book III: Mutiny): only the
    # Captain's Trust becomes Fame; everyone else's is lost, Allies' included, so no hirer gains half of it.
    captain_trust = state.trust.get(captain.id, 0)
    if captain_trust:
        state = put(state, change(state.pirates[captain.id], fame=state.pirates[captain.id].fame + captain_trust))
    state = replace(state, trust={}, morale=morale_max(state))
    state = pay(
        state, f"pirate:{captain.id}", event.coins_spent, "put down the Ally's mutiny", "ally_mutiny", captain.name
    )
    mine = attribute(captain, "charisma") + event.coins_spent // MUTINY_COIN
    theirs = ally.charisma + event.ally_roll
    if mine == theirs:
        if event.tie_winner is None:
            raise Rejection(
                f"{captain.name} and the {ally.archetype} tie at {mine}: name the confronted roll's winner."
            )
        captain_wins = event.tie_winner == "captain"
    else:
        captain_wins = mine > theirs
    if captain_wins:
        return state
    # The Captain is marooned and plays «Castaways» (Book III: Voyage Phase, Mutiny); the ship has no Captain until one is chosen.
    return replace(state, captain=None, former_captains=[*state.former_captains, captain.id])


def command_issued(state: SkullTales, event: CommandIssued) -> SkullTales:
    require_phase(state, "voyage", "Command Points")
    if state.captain is None:
        raise Rejection("There is no Captain to give orders.")
    captain = state.pirates[state.captain]
    own = 1 + (1 if "Leadership" in captain.feats else 0)
    most = own
    if event.quarterdeck_id is not None:
        if event.quarterdeck_id in state.pirates:
            most += attribute(active_pirate(state, event.quarterdeck_id), "charisma")
        elif event.quarterdeck_id in state.allies:
            most += state.allies[event.quarterdeck_id].charisma
        else:
            raise Rejection(f"There is no Character {event.quarterdeck_id!r} on the «Quarterdeck».")
    if not 0 < event.points <= most:
        broken(
            f"{captain.name} has {count(most, 'Command Point')} this round, not {event.points} (Book III: Voyage Phase, Command Points)."
        )
    # "If the Captain spends more than one Command Point thanks to a Character on the «Quarterdeck», other than the
    # Captain, that Character gains 1 Trust Point": only points beyond the Captain's own come from them.
    if event.quarterdeck_id is not None and event.quarterdeck_id != captain.id and event.points > own:
        trust = min(state.trust.get(event.quarterdeck_id, 0) + 1, TRUST_MAX)
        state = replace(state, trust={**state.trust, event.quarterdeck_id: trust})
    return state


def assignment_taken(state: SkullTales, event: AssignmentTaken) -> SkullTales:
    bosun = require_captain(state, event.pirate_id, f"draw the Assignment {event.assignment}", bosun_may=True)
    require_phase(state, "port", "Drawing an Assignment")
    if state.assignment is not None:
        broken(
            f"The Captain already has the Assignment {state.assignment.name}: one at a time until it succeeds or fails."
        )
    state = bosun_acted(spend_time(state, event.pirate_id, 1, "draw an Assignment"), event.pirate_id, bosun)
    # The Assignment is the Captain's, also when the Bosun draws it for them.
    holder = state.captain if bosun and state.captain is not None else event.pirate_id
    return replace(state, assignment=Assignment(name=event.assignment, holder=holder))


def assignment_resolved(state: SkullTales, event: AssignmentResolved) -> SkullTales:
    p = pirate(state, event.pirate_id)
    if state.assignment is None:
        raise Rejection("There is no active Assignment to resolve.")
    if state.assignment.holder != p.id:
        holder = state.pirates[state.assignment.holder].name
        broken(
            f"The Assignment's result goes to {holder}, Captain when it was completed, not {p.name} (Book II: Port Phase, Setup)."
        )
    if event.coins:
        if event.coins_to == "crew_booty":
            state = move(state, "source:assignment", "crew_booty", event.coins, "Assignment")
        else:
            state = gain_coins(state, p.id, event.coins, "assignment", "Assignment")
    if event.fame > 0:
        state = add_fame(state, p.id, event.fame)
    elif event.fame < 0:
        state = lose_fame(state, p.id, -event.fame, "a failed Assignment")
    p = state.pirates[p.id]
    if event.success:
        state = put(state, change(p, assignments_as_captain=p.assignments_as_captain + 1))
    return replace(state, assignment=None)
