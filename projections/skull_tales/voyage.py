"""What a Voyage can take from the crew: Schemes in the «Cabins» against the Crew's Booty (Solo Mode's Allies
too), and the surrender that strips every Record Sheet.

Skull Tales: Full Sail! rulebook, Book III: Voyage Phase, Voyage Posts/Stations; Book III: Voyage Phase Sequence,
Crew Round; Book III: End of the Voyage Phase.
"""

from __future__ import annotations

from msgspec.structs import replace

from quartermaster.events.skull_tales import AllySchemeResolved, CrewSurrendered, SchemeResolved
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.skull_tales.booty import move
from quartermaster.projections.skull_tales.ship import sunk
from quartermaster.projections.skull_tales.state import (
    Ally,
    SkullTales,
    active_pirate,
    attribute,
    change,
    in_play,
    put,
    require_phase,
)

CAUGHT_TRUST = 5
BADMOUTH_TRUST = 3
RAID_COINS = 3  # one die + 3
TRUST_MAX = 20


def _trust(state: SkullTales, character_id: str, amount: int) -> SkullTales:
    trust = min(max(state.trust.get(character_id, 0) + amount, 0), TRUST_MAX)
    return replace(state, trust={**state.trust, character_id: trust})


def scheme_resolved(state: SkullTales, event: SchemeResolved) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "voyage", "A Scheme")
    if state.captain == p.id:
        broken(
            f"{p.name} is the Captain; only another Pirate schemes in the «Cabins» (Book III: Voyage Phase Sequence, Crew Round)."
        )
    if p.status == "unconscious":
        # An Unconscious Character lies in the «Sickbay», not on the 'Scheme' space of the «Cabins» (Book III:
        # Voyage Phase, Unconscious / Incapacitated; Voyage Phase Sequence, Crew Round).
        broken(f"{p.name} is Unconscious in the «Sickbay» and cannot Scheme in the «Cabins».")
    if p.id in state.caught_scheming:
        broken(
            f"{p.name} was caught scheming and cannot Scheme again this Voyage Phase (Book III: Voyage Phase Sequence, Crew Round)."
        )
    if event.guard is not None and (state.captain is None or state.ship is None or state.ship.groups == 0):
        broken(
            "Nobody can Guard: it takes a Captain and a Group of Pirates on the 'Guard' space (Book III: Voyage Phase Sequence, Crew Round)."
        )
    if event.coin is None:
        _no_extras(event, "an empty hand")
        return state
    if event.coin == event.guard:
        _no_extras(event, "a caught Pirate")
        state = _trust(state, p.id, -CAUGHT_TRUST)
        return replace(state, caught_scheming=[*state.caught_scheming, p.id])
    if event.coin == "gold":
        if event.roll is None or not 1 <= event.roll <= 6:
            raise Rejection(f"{p.name}'s Raid takes one die +3 Coins: log the die (roll 1-6).")
        # "if there are not enough coins, take whatever is left" (Book III: Voyage Phase Sequence, Crew Round)
        amount = min(event.roll + RAID_COINS, state.crew_booty)
        return move(state, "crew_booty", f"pirate:{p.id}", amount, "a Raid on the Crew's Booty")
    if event.roll is not None:
        raise Rejection(f"Only a Raid (gold) rolls a die; {p.name} showed {event.coin}.")
    if event.coin == "silver":
        _no_extras(event, "Badmouth")
        return _trust(state, p.id, BADMOUTH_TRUST)
    # Copper - Theft: a Rum token recovers all Wounds, a Supplies token discards them, "if there are Goods available".
    if event.goods is None:
        return state
    have = state.ship.goods.get(event.goods, 0) if state.ship else 0
    if state.ship is None or have == 0:
        raise Rejection(f"{p.name} cannot steal {event.goods}: the Hold has none.")
    goods = {**state.ship.goods, event.goods: have - 1}
    if goods[event.goods] == 0:
        del goods[event.goods]
    state = replace(state, ship=replace(state.ship, goods=goods))
    return put(state, change(state.pirates[p.id], wounds=0))


def ally_scheme_resolved(state: SkullTales, event: AllySchemeResolved) -> SkullTales:
    """Solo Mode's Ally Scheme (Book III: Voyage Phase Sequence, Crew Round)."""
    require_phase(state, "voyage", "An Ally's Scheme")
    if not state.solo:
        broken("Allies scheme only in Solo Mode; in a crew of Pirates, Pirates scheme (scheme.resolved).")
    ally = _hired(state, event.ally_id, "scheme")
    if ally.id in state.caught_scheming:
        broken(f"The {ally.archetype} was caught scheming and cannot Scheme again this Voyage Phase.")
    guard = _guard_charisma(state, event, ally)
    if guard is None:
        if event.ally_roll is not None or event.guard_roll is not None:
            raise Rejection("With nobody on Guard there is no confronted Charisma roll to log.")
        return _ally_got_away(state, ally, event)
    for roll in (event.ally_roll, event.guard_roll):
        if roll is None or not 1 <= roll <= 6:
            raise Rejection(
                "A guarded Scheme is a confronted Charisma roll: log both dice (ally_roll, guard_roll, 1-6)."
            )
    assert event.ally_roll is not None and event.guard_roll is not None
    mine, theirs = ally.charisma + event.ally_roll, guard + event.guard_roll
    if mine > theirs:
        return _ally_got_away(state, ally, event)
    if event.supplies:
        raise Rejection(f"Only an Ally that gets away spends a Supplies token; the {ally.archetype} did not.")
    if mine == theirs:
        return state  # "In case of a tie, nothing happens."
    state = _trust(state, ally.id, -CAUGHT_TRUST)
    if event.guard in state.allies:
        state = _trust(state, event.guard, 1)
    return replace(state, caught_scheming=[*state.caught_scheming, ally.id])


def _hired(state: SkullTales, ally_id: str, doing: str) -> Ally:
    ally = state.allies.get(ally_id)
    if ally is None or ally.status != "hired":
        raise Rejection(f"There is no hired Ally {ally_id!r} to {doing}.")
    return ally


def _guard_charisma(state: SkullTales, event: AllySchemeResolved, ally: Ally) -> int | None:
    """The Charisma the guard side rolls with, or None when nobody Guards."""
    if event.guard is None:
        return None
    if state.captain is None:
        raise Rejection("Nobody can Guard without a Captain.")
    captain = attribute(state.pirates[state.captain], "charisma")
    if event.guard == "group":
        if state.ship is None or state.ship.groups == 0:
            broken("No Group of Pirates is left to Guard.")
        return captain
    if event.guard == state.captain:
        return captain
    if event.guard == ally.id:
        broken(f"The {ally.archetype} cannot guard itself.")
    guard = _hired(state, event.guard, "Guard")
    return guard.charisma if state.options.solo_scheme_guard_charisma == "guard" else captain


def _ally_got_away(state: SkullTales, ally: Ally, event: AllySchemeResolved) -> SkullTales:
    """ "they spend 1 Supplies token to discard their wounds, if possible. In addition, they gain as many coins from
    the Crew's Booty and Trust Points as their Charisma" (if not enough Coins are left, whatever is left)."""
    if event.supplies:
        have = state.ship.goods.get("Supplies", 0) if state.ship else 0
        if state.ship is None or have == 0:
            raise Rejection(f"The {ally.archetype} cannot spend a Supplies token: the Hold has none.")
        goods = {**state.ship.goods, "Supplies": have - 1}
        if goods["Supplies"] == 0:
            del goods["Supplies"]
        state = replace(state, ship=replace(state.ship, goods=goods))
    state = _trust(state, ally.id, ally.charisma)
    amount = min(ally.charisma, state.crew_booty)
    return move(state, "crew_booty", f"ally:{ally.id}", amount, f"the {ally.archetype}'s Scheme")


def _no_extras(event: SchemeResolved, what: str) -> None:
    if event.roll is not None or event.goods is not None:
        raise Rejection(f"With {what} there is no die to roll and no Goods to take.")


def crew_surrendered(state: SkullTales, event: CrewSurrendered) -> SkullTales:
    require_phase(state, "voyage", "Surrender")
    if event.cause == "sickbay" and not state.options.sickbay_surrender_wipe:
        broken(
            "This campaign reads all the Characters in the «Sickbay» as a choice of annex, not a surrender "
            "(option sickbay_surrender_wipe); log the annex played instead."
        )
    # Each cause as Book III: End of the Voyage Phase gives it: "If Morale reaches 0 and no Pirate has carried out a
    # Mutiny, the crew revolts"; "If the Pirate Ship is sunk" (its «Hold» Impact at column 1, Book III: Naval
    # Combat); "when all the Characters are at the «Sickbay»".
    if event.cause == "revolt" and state.morale > 0:
        broken(f"The crew revolts only when Morale reaches 0, and it is {state.morale}.")
    if event.cause == "sunk" and (state.ship is None or not sunk(state.ship)):
        broken("The Pirate Ship has not sunk: its «Hold» Impact token has not reached column 1.")
    if event.cause == "sickbay" and any(p.status != "unconscious" for p in in_play(state)):
        standing = [p.name for p in in_play(state) if p.status != "unconscious"]
        verb = "stands" if len(standing) == 1 else "stand"
        broken(f"Not every Character is in the «Sickbay»: {', '.join(standing)} still {verb}.")
    # "the Characters lose all their Coins and any items they had listed on their respective Record Sheets ...
    # the Captain loses all the Crew's Booty registered on their Record Sheet" (Book III: End of the Voyage Phase).
    for p in in_play(state):
        state = move(state, f"pirate:{p.id}", "sink:surrender", state.pirates[p.id].coins, "surrender")
        state = put(state, change(state.pirates[p.id], items=[]))
    lost = {item for item, holder in state.legendary.items() if state.pirates[holder].status != "retired"}
    state = replace(state, legendary={k: v for k, v in state.legendary.items() if k not in lost})
    state = move(state, "crew_booty", "sink:surrender", state.crew_booty, "surrender")
    # The text names neither the Goods in the Hold nor the ship: each is an option, kept by default.
    if state.options.surrender_ship == "lost":
        state = replace(state, ship=None)
    elif state.options.surrender_goods == "lost" and state.ship is not None:
        state = replace(state, ship=replace(state.ship, goods={}))
    if event.cause == "revolt":
        # "The Pirates lose any Allies they had" (Book III: End of the Voyage Phase).
        allies = {a.id: replace(a, status="dismissed") if a.status == "hired" else a for a in state.allies.values()}
        state = replace(state, allies=allies)
    return state
