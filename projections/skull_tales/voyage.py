"""What a Voyage can take from the crew: Schemes in the «Cabins» against the Crew's Booty, and the surrender that
strips every Record Sheet (L1914, L2073-2084, L2414-2422)."""

from __future__ import annotations

from msgspec.structs import replace

from events.skull_tales import CrewSurrendered, SchemeResolved
from projections.game import Rejection
from projections.skull_tales.booty import move
from projections.skull_tales.state import SkullTales, active_pirate, change, in_play, put, require_phase

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
        raise Rejection(f"{p.name} is the Captain; only another Pirate schemes in the «Cabins» (L2073).")
    if p.id in state.caught_scheming:
        raise Rejection(f"{p.name} was caught scheming and cannot Scheme again this Voyage Phase (L2080).")
    if event.guard is not None and (state.captain is None or state.ship is None or state.ship.groups == 0):
        raise Rejection("Nobody can Guard: it takes a Captain and a Group of Pirates on the 'Guard' space (L2075).")
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
        # "if there are not enough coins, take whatever is left" (L2082)
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


def _no_extras(event: SchemeResolved, what: str) -> None:
    if event.roll is not None or event.goods is not None:
        raise Rejection(f"With {what} there is no die to roll and no Goods to take.")


def crew_surrendered(state: SkullTales, event: CrewSurrendered) -> SkullTales:
    require_phase(state, "voyage", "Surrender")
    if event.cause == "sickbay" and not state.options.sickbay_surrender_wipe:
        raise Rejection(
            "This campaign reads all the Characters in the «Sickbay» as a choice of annex, not a surrender "
            "(option sickbay_surrender_wipe); log the annex played instead."
        )
    # "the Characters lose all their Coins and any items they had listed on their respective Record Sheets ...
    # the Captain loses all the Crew's Booty registered on their Record Sheet" (L2416).
    for p in in_play(state):
        state = move(state, f"pirate:{p.id}", "sink:surrender", state.pirates[p.id].coins, "surrender")
        state = put(state, change(state.pirates[p.id], items=[]))
    lost = {item for item, holder in state.legendary.items() if state.pirates[holder].status != "retired"}
    state = replace(state, legendary={k: v for k, v in state.legendary.items() if k not in lost})
    state = move(state, "crew_booty", "sink:surrender", state.crew_booty, "surrender")
    if event.cause == "revolt":
        # "The Pirates lose any Allies they had" (L2422).
        allies = {a.id: replace(a, status="dismissed") if a.status == "hired" else a for a in state.allies.values()}
        state = replace(state, allies=allies)
    return state
