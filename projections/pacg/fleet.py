"""The party's ships: the fleet card, the ship in play, Structural damage, repairs, seizing, and plunder."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from quartermaster.events.pacg import (
    HiddenCard,
    PlunderBanished,
    PlunderStashed,
    ShipAnchored,
    ShipAwarded,
    ShipBanished,
    ShipDamaged,
    ShipDefeated,
    ShipEncountered,
    ShipEvaded,
    ShipRepaired,
    ShipSeized,
)
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.pacg import powers, steps
from quartermaster.projections.pacg.characters import playing
from quartermaster.projections.pacg.ending import lose
from quartermaster.projections.pacg.feats import check_reward
from quartermaster.projections.pacg.state import Encountering, Owed, Scenario, State
from quartermaster.projections.pacg.zones import HOURGLASS, HOURGLASS_DISCARD, PLUNDER, VAULT, Work, a, word

# The plunder table: a d6 gives the type of the face-down card drawn from the vault; 6 lets the party choose.
PLUNDER_TABLE = {1: "weapon", 2: "spell", 3: "armor", 4: "item", 5: "ally"}
PLUNDER_TYPES = tuple(PLUNDER_TABLE.values())


def _scenario(state: State, doing: str) -> Scenario:
    scenario = state.scenario
    if scenario is None:
        raise Rejection(f"No scenario is in progress, so nothing can {doing}.")
    return scenario


def check_can_stash(state: State) -> None:
    _scenario(state, "be stashed")
    if state.fleet.wrecked:
        broken(f"The {state.fleet.current} is wrecked: no plunder can be stashed under a wrecked ship.")


_PLUNDER_LIMIT = re.compile(r"may have no more than (\d+) plunder cards? under it", re.IGNORECASE)


def plunder_limit(state: State) -> int | None:
    """The most plunder cards the party's ship may hold, when its card's When Commanding power says (the
    Sanbalot: "This ship may have no more than 3 plunder cards under it. If you would stash more, ignore them.")."""
    card = state.fleet.ships.get(state.fleet.current or "")
    if card is None or state.fleet.wrecked:
        return None
    for printed in card.powers:
        if printed.kind == "plunder_limit" and printed.when == "commanding":
            return printed.amount
    for power in card.when_commanding:
        found = _PLUNDER_LIMIT.search(power)
        if found:
            return int(found[1])
    return None


def plunder_stashed(state: State, event: PlunderStashed) -> State:
    scenario = _scenario(state, "be stashed")
    check_can_stash(state)
    limit = plunder_limit(state)
    held = state.zones.get(PLUNDER)
    count = (sum(held.known.values()) + sum(held.hidden.values())) if held is not None else 0
    if limit is not None and count >= limit:
        broken(
            f"The {state.fleet.current} may have no more than {limit} plunder cards under it, and has {count}: its "
            'card says "If you would stash more, ignore them." (the card wins: Skull & Shackles Rulebook, The Golden '
            "Rule)."
        )
    if scenario.turn is None and scenario.setup_stashed:
        broken(
            'The setup stashes 1 plunder card, once: "After you place your ship, stash 1 plunder card" (Skull & '
            "Shackles Rulebook, Setting Up: Place Your Party's Ship). One more before the first turn needs a card "
            "that says so."
        )
    roll, card_type = event.roll, event.card_type
    if scenario.defeated_ship is not None:
        for power in powers.of_kind(powers.enemy_ship(state, scenario.defeated_ship), "stash_instead"):
            if roll is not None or card_type != power.card_type:
                broken(
                    f"The {scenario.defeated_ship} was defeated: its card says to stash {a(power.card_type or '')} "
                    f'instead of rolling for the plunder card type ("{power.text}").'
                )
    if roll is not None and not 1 <= roll <= 6:
        raise Rejection(f"The plunder table is rolled on a d6; {roll} is not a face of a d6.")
    if roll is not None and roll <= 5:
        rolled = PLUNDER_TABLE[roll]
        if card_type is not None and card_type != rolled:
            raise Rejection(f"A {roll} on the plunder table is {a(rolled)}, not {a(card_type)}.")
        card_type = rolled
    if card_type is None:
        raise Rejection("A 6 on the plunder table lets the party choose the type: give card_type.")
    if card_type not in PLUNDER_TYPES:
        raise Rejection(f"Plunder is a weapon, spell, armor, item or ally, never {a(card_type)}.")
    work = Work(state)
    work.take(VAULT, HiddenCard(card_type))
    work.add_hidden(PLUNDER, card_type)
    return work.commit(scenario=msgspec.structs.replace(scenario, setup_stashed=True))


def plunder_banished(state: State, event: PlunderBanished) -> State:
    scenario = _scenario(state, "be banished")
    work = Work(state)
    if event.card is not None:
        if work.card(event.card) is None:
            work.define(event.card, event.card_type)
        info = work.info(event.card)
        if info.type != event.card_type:
            raise Rejection(f"{event.card} is {a(info.type)}, not {a(event.card_type)}.")
        work.move(PLUNDER, VAULT, event.card)
    else:
        work.move(PLUNDER, VAULT, HiddenCard(event.card_type))
    return work.commit(scenario=msgspec.structs.replace(scenario, plunder_banished_this_turn=True))


def ship_damaged(state: State, event: ShipDamaged) -> State:
    scenario = _scenario(state, "be damaged")
    fleet = state.fleet
    if event.amount < 0 or event.prevented < 0:
        raise Rejection("Structural damage and the damage prevented are never negative.")
    if event.prevented > event.amount:
        raise Rejection(f"Only {event.amount} Structural damage was dealt; {event.prevented} cannot be prevented.")
    met = scenario.ship_met
    if met is not None and scenario.enemy_ship == met.card:
        _ship_check(state, scenario, met.card, "undefeated")
        short = _shortfall(met)
        if short is not None and event.dealt is not None and event.dealt != short:
            broken(
                f"The check to defeat the {met.card} failed by {short} ({met.total} against a difficulty of "
                f"{met.difficulty}): it deals {short} Structural damage before any power changes it, not "
                f"{event.dealt} (Structural Damage)."
            )
    if event.dealt is not None:
        after, changing = powers.structural(state, event.dealt)
        if event.dealt < 0:
            raise Rejection(f"Structural damage is never negative, not {event.dealt}.")
        if after != event.amount:
            said = "; ".join(power.text for power in changing) or "no power changes it"
            raise Rejection(
                f"{event.dealt} Structural damage dealt to the {fleet.current} is {after} after its card's powers "
                f"({said}), not {event.amount}."
            )
    dealt = event.amount - event.prevented
    wrecked = fleet.wrecked or dealt > 0
    if event.wrecked is not None and event.wrecked != wrecked:
        if wrecked:
            raise Rejection(
                f"The {fleet.current} is wrecked: any Structural damage that gets through wrecks a ship, whatever "
                "the amount."
            )
        raise Rejection(f"The {fleet.current} is not wrecked: all {event.amount} Structural damage was prevented.")
    changes: dict[str, Any] = {}
    work = Work(state)
    lost = False
    if fleet.wrecked and dealt:
        # A wrecked ship dealt damage discards that many cards from the hourglass; too few, and the party loses.
        left = work.hidden(HOURGLASS, "blessing")
        for _ in range(min(dealt, left)):
            work.move(HOURGLASS, HOURGLASS_DISCARD, HiddenCard("blessing"))
        if left < dealt:
            lost = True
    if wrecked != fleet.wrecked:
        changes["fleet"] = msgspec.structs.replace(fleet, wrecked=True)
    if event.prevented and not lost:
        changes["owed"] = Owed("prevention", event.prevented)
    if scenario.enemy_ship is not None:
        # The Structural damage of a failed check to defeat a ship ends that encounter (Encountering Ships).
        encounters = _ship_met(scenario, scenario.enemy_ship, False)
        changes["scenario"] = msgspec.structs.replace(scenario, enemy_ship=None, encounters=encounters, ship_met=None)
    damaged = work.commit(**changes)
    if lost:
        return lose(damaged, f"the {word(state, 'hourglass')} ran out of cards to discard")
    return damaged


def _shortfall(met: Encountering) -> int | None:
    """How much a failed check to defeat a ship fell short: the Structural damage it deals (Structural Damage)."""
    if met.success is not False or met.doubtful or met.difficulty is None or met.total is None:
        return None
    return max(0, met.difficulty - met.total)


def commander(state: State, scenario: Scenario, character_id: str | None, doing: str) -> str:
    """The character commanding the party's ship: the one whose turn it is, at the ship's location when it is
    anchored (Skull & Shackles Rulebook, Commanding and Moving Ships). Refused for anyone else."""
    ship = state.fleet.current
    if scenario.turn is None:
        raise Rejection(f"Nobody commands the {ship} before the first turn, so nobody can {doing}.")
    who = character_id or scenario.turn
    found = state.characters.get(who)
    if found is None:
        raise Rejection(f"No character {who} has joined this campaign.")
    if who != scenario.turn:
        whose = state.characters[scenario.turn].name
        broken(
            f"Only the commander can {doing}: it is {whose}'s turn, so {whose} commands the {ship}, not {found.name}."
        )
    anchored = state.fleet.anchored
    if anchored is not None and found.location != anchored:
        broken(
            f"The {ship} is anchored at {anchored} and {found.name} is at {found.location}: {found.name} is not "
            f"commanding it, so cannot {doing}."
        )
    return who


def ship_repaired(state: State, event: ShipRepaired) -> State:
    scenario = _scenario(state, "be repaired")
    if not state.fleet.wrecked:
        raise Rejection(f"The {state.fleet.current} is not wrecked; there is nothing to repair.")
    who = commander(state, scenario, event.character_id, "attempt a repair")
    name = state.characters[who].name
    # The repair is attempted at the start of the Move step (Ships and Henchmen, Repairing).
    scenario = steps.enter(state, scenario, "move", who, f"{name} attempting to repair the {state.fleet.current}")
    if scenario.moved_this_turn:
        broken(
            f"{name} has moved this turn: the commander attempts a repair at the start of the move step "
            "(Wrecked Ships)."
        )
    return msgspec.structs.replace(state, fleet=msgspec.structs.replace(state.fleet, wrecked=False), scenario=scenario)


def ship_seized(state: State, event: ShipSeized) -> State:
    scenario = _scenario(state, "be seized")
    fleet = state.fleet
    if event.ship == fleet.current:
        raise Rejection(f"The party already sails the {event.ship}.")
    card = event.ship_card or fleet.ships.get(event.ship)
    if card is not None and (card.cannot_be_seized or any(p.kind == "cannot_be_seized" for p in card.powers)):
        broken(f'The {event.ship} cannot be seized: its card says "This ship cannot be seized."')
    if scenario.defeated_ship != event.ship:
        broken(
            f"The party has not defeated the {event.ship} this turn: a card lets you seize a ship you defeat "
            "(Seizing Ships; ship.encountered, then ship.defeated)."
        )
    ships = dict(fleet.ships)
    if event.ship_card is not None:
        ships[event.ship] = event.ship_card
    # The seized ship replaces the party's ship, which is banished; it keeps the plunder and the anchoring.
    return msgspec.structs.replace(
        state,
        fleet=msgspec.structs.replace(fleet, ships=ships, current=event.ship, wrecked=False),
        scenario=msgspec.structs.replace(scenario, defeated_ship=None),
    )


def ship_encountered(state: State, event: ShipEncountered) -> State:
    scenario = _scenario(state, "be encountered")
    if scenario.enemy_ship is not None:
        raise Rejection(f"The commander is already encountering the {scenario.enemy_ship}; finish that first.")
    try:
        who = commander(state, scenario, event.character_id, "encounter another ship")
    except Rejection as refused:
        raise Rejection(f"{refused.reason} A ship anyone else would encounter is banished (ship.banished).") from None
    fleet = state.fleet
    ships = fleet.ships
    if event.ship_card is not None and ships.get(event.ship) != event.ship_card:
        ships = {**ships, event.ship: event.ship_card}
    encounters = scenario.encounters
    if encounters and encounters[-1].ship is None:
        # A ship met during a card's encounter is the one that card summoned (the henchman Enemy Ship).
        encounters = [*encounters[:-1], msgspec.structs.replace(encounters[-1], ship=event.ship)]
    return msgspec.structs.replace(
        state,
        fleet=msgspec.structs.replace(fleet, ships=ships) if ships is not fleet.ships else fleet,
        scenario=msgspec.structs.replace(
            scenario, enemy_ship=event.ship, encounters=encounters, ship_met=Encountering(event.ship, None, who)
        ),
    )


def _ship_check(state: State, scenario: Scenario, ship: str, outcome: str) -> None:
    """The end of a ship's encounter follows the check logged against it, as a bane's does (Encountering Ships:
    "encountering a ship is much like encountering a bane"; Encountering a Card: evasion comes before the check)."""
    met = scenario.ship_met
    if met is None or met.card != ship or met.success is None or met.doubtful:
        return
    who = state.characters[met.character_id].name if met.character_id in state.characters else "The commander"
    told = f" ({met.total} against a difficulty of {met.difficulty})" if met.difficulty is not None else ""
    if outcome == "evaded":
        broken(
            f"{who} has already attempted the check to defeat the {ship}{told}: a ship is evaded before the check, "
            "not after (Encountering a Card: Apply Any Evasion Effects)."
        )
    elif met.success and outcome != "defeated":
        broken(
            f"{who}'s check to defeat the {ship} succeeded{told}: the {ship} is defeated and deals no Structural "
            "damage (Encountering Ships)."
        )
    elif not met.success and outcome == "defeated":
        broken(
            f"{who}'s check to defeat the {ship} failed{told}: the {ship} is not defeated; it deals Structural damage "
            "to the party's ship (Encountering Ships)."
        )


def _ship_met(scenario: Scenario, ship: str | None, defeated: bool) -> list[Encountering]:
    """The encounters with whether the ship a card summoned was defeated, once its encounter ends."""
    encounters = scenario.encounters
    for index in range(len(encounters) - 1, -1, -1):
        if ship is not None and encounters[index].ship == ship and encounters[index].ship_defeated is None:
            marked = msgspec.structs.replace(encounters[index], ship_defeated=defeated)
            return [*encounters[:index], marked, *encounters[index + 1 :]]
    return encounters


def _encountering(state: State, ship: str, doing: str) -> Scenario:
    scenario = _scenario(state, doing)
    if scenario.enemy_ship != ship:
        now = f"the {scenario.enemy_ship}" if scenario.enemy_ship else "no ship"
        raise Rejection(f"The commander is encountering {now}, so the {ship} cannot {doing} (ship.encountered first).")
    return scenario


def ship_evaded(state: State, event: ShipEvaded) -> State:
    scenario = _encountering(state, event.ship, "be evaded")
    for power in powers.of_kind(powers.enemy_ship(state, event.ship), "may_not_be_evaded"):
        broken(f'The {event.ship} may not be evaded: "{power.text}"')
    _ship_check(state, scenario, event.ship, "evaded")
    encounters = _ship_met(scenario, event.ship, False)
    return msgspec.structs.replace(
        state, scenario=msgspec.structs.replace(scenario, enemy_ship=None, encounters=encounters, ship_met=None)
    )


def ship_defeated(state: State, event: ShipDefeated) -> State:
    scenario = _encountering(state, event.ship, "be defeated")
    _ship_check(state, scenario, event.ship, "defeated")
    encounters = _ship_met(scenario, event.ship, True)
    ended = msgspec.structs.replace(
        scenario, enemy_ship=None, defeated_ship=event.ship, encounters=encounters, ship_met=None
    )
    return msgspec.structs.replace(state, scenario=ended)


def ship_banished(state: State, event: ShipBanished) -> State:
    scenario = _scenario(state, "be banished")
    found, _ = playing(state, event.character_id)
    anchored = state.fleet.anchored
    if scenario.turn == event.character_id and (anchored is None or found.location == anchored):
        broken(
            f"{found.name} commands the {state.fleet.current}: the commander encounters the {event.ship} "
            "(ship.encountered); only a character not commanding a ship banishes it."
        )
    return state


def ship_anchored(state: State, event: ShipAnchored) -> State:
    scenario = _scenario(state, "be anchored")
    if event.location not in scenario.places:
        raise Rejection(f"{event.location} is not a location of {scenario.name}.")
    return msgspec.structs.replace(state, fleet=msgspec.structs.replace(state.fleet, anchored=event.location))


def ship_awarded(state: State, event: ShipAwarded) -> State:
    if state.scenario is not None:
        broken(
            f"The party is rewarded with a ship after the scenario, not during {state.scenario.name} (Ending a "
            "Scenario, Adventure, or Adventure Path); a ship taken during play is seized (ship.seized)."
        )
    check_reward(state, event.reward_of)
    fleet = state.fleet
    if event.ship in fleet.checked:
        raise Rejection(f"The {event.ship} is already checked off on the fleet card.")
    ships = dict(fleet.ships)
    if event.ship_card is not None:
        ships[event.ship] = event.ship_card
    return msgspec.structs.replace(
        state, fleet=msgspec.structs.replace(fleet, ships=ships, checked=[*fleet.checked, event.ship])
    )


def may_sail(state: State, ship: str, card: Any) -> str | None:
    """Why the party cannot sail this ship, or None: it is checked off, or a promo of a checked ship's class."""
    fleet = state.fleet
    if ship in fleet.checked:
        return None
    card = card or fleet.ships.get(ship)
    if card is not None and card.set == "P" and card.ship_class is not None:
        classes = {fleet.ships[name].ship_class for name in fleet.checked if name in fleet.ships}
        if card.ship_class in classes:
            return None
    return (
        f"The {ship} is not checked off on the fleet card (checked: {', '.join(fleet.checked)}); the party sails "
        "only a checked ship, or a promo ship of a checked ship's class."
    )


def view(state: State) -> dict[str, Any]:
    fleet = state.fleet
    plunder = state.zones.get(PLUNDER)
    by_type = dict(sorted(plunder.hidden.items())) if plunder else {}
    known = dict(sorted(plunder.known.items())) if plunder else {}
    return {
        "checked": list(fleet.checked),
        "current": fleet.current,
        "wrecked": fleet.wrecked,
        "anchored": fleet.anchored,
        "plunder": sum(by_type.values()) + sum(known.values()),
        "plunder_by_type": by_type,
        "plunder_known": known,
        "ships": {name: msgspec.to_builtins(card) for name, card in sorted(fleet.ships.items())},
        # What the party's ship does now, as its card prints it: When Commanding, or When Commanding (Wrecked).
        "powers": _powers(fleet.ships.get(fleet.current or ""), fleet.wrecked),
        # Those of them the tracker cannot apply: the table applies them itself.
        "by_hand": powers.by_hand(powers.ship_in_force(state)),
        "encountering": _enemy(state),
    }


def _powers(card: Any, wrecked: bool) -> list[str]:
    if card is None:
        return []
    return list(card.when_wrecked if wrecked else card.when_commanding)


def _enemy(state: State) -> dict[str, Any] | None:
    """The enemy ship the commander is encountering, with its When Encountering powers."""
    scenario = state.scenario
    if scenario is None or scenario.enemy_ship is None:
        return None
    card = state.fleet.ships.get(scenario.enemy_ship)
    raised, _ = powers.raised_by(card.powers if card else (), scenario.number)
    met = scenario.ship_met
    return {
        "ship": scenario.enemy_ship,
        "to_defeat": card.to_defeat if card else None,
        "powers": list(card.when_encountering) if card else [],
        "cannot_be_seized": bool(card and card.cannot_be_seized),
        # Added to the printed difficulty by the ship's own powers in this scenario (its adventure deck number).
        "difficulty_raised_by": raised,
        # The powers the table applies itself, as printed.
        "by_hand": powers.by_hand(power for power in card.powers if power.when == "encountering") if card else [],
        "result": None if met is None or met.success is None else "success" if met.success else "failure",
    }
