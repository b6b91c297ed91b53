"""The turn: the hourglass advanced as a turn starts, the order of turns, the starting hands, and what a new turn lifts."""

from __future__ import annotations

import msgspec

from quartermaster.events.pacg import HiddenCard, HourglassAdvanced
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.pacg import powers, steps
from quartermaster.projections.pacg.characters import playing
from quartermaster.projections.pacg.encounter import reopened
from quartermaster.projections.pacg.ending import lose
from quartermaster.projections.pacg.hands import check_turn_ended
from quartermaster.projections.pacg.state import Pile, Place, Scenario, State
from quartermaster.projections.pacg.zones import (
    HOURGLASS,
    HOURGLASS_DISCARD,
    PLUNDER,
    Work,
    a,
    character_key,
    listing,
    word,
)

_EMPTY = Pile()


def hourglass_advanced(state: State, event: HourglassAdvanced) -> State:
    mover, scenario = playing(state, event.character_id)
    if not scenario.setup_stashed:
        broken(f"Stash the setup plunder card under the {state.fleet.current} before the first turn.")
    if mover.location is None:
        raise Rejection(f"Place {mover.name}'s token at a location before {mover.name}'s first turn.")
    fleet = state.fleet
    plunder = state.zones.get(PLUNDER)
    if (
        scenario.turn is not None
        and fleet.wrecked
        and plunder is not None
        and (plunder.hidden or plunder.known)
        and not scenario.plunder_banished_this_turn
    ):
        broken(
            f"The {fleet.current} is wrecked: banish 1 random plunder card at the end of "
            f"{state.characters[scenario.turn].name}'s turn before the next turn starts."
        )
    if scenario.turn is not None:
        steps.finished_encounter(state, f"{mover.name}'s turn starts")
    if scenario.turn is None and state.options.starting_hand == "checked":
        _check_starting_hands(state, scenario)
    if scenario.turn is not None and state.options.reset == "required" and not scenario.reset_kept:
        check_turn_ended(state, scenario.turn, mover.name)
    scenario = _in_turn_order(state, scenario, event.character_id)
    state = _exchanged(state)
    places = reopened(scenario.places)
    zones = state.zones
    hourglass = zones.get(HOURGLASS, _EMPTY)
    left = hourglass.hidden.get("blessing", 0)
    if event.card is None and left:
        # The usual turn: one face-down blessing from the hourglass to its discards; two piles change.
        hidden = hourglass.hidden.copy()
        if left == 1:
            del hidden["blessing"]
        else:
            hidden["blessing"] = left - 1
        discards = zones.get(HOURGLASS_DISCARD, _EMPTY)
        into = discards.hidden.copy()
        into["blessing"] = into.get("blessing", 0) + 1
        zones = zones.copy()
        zones[HOURGLASS] = Pile(hourglass.known, hidden)
        zones[HOURGLASS_DISCARD] = Pile(discards.known, into)
        new = _next_turn(scenario, places, event.character_id, None)
        return msgspec.structs.replace(state, zones=zones, scenario=new)
    work = Work(state)
    if work.size(HOURGLASS) == 0:
        # Advancing an empty hourglass ends the scenario at once: the party loses.
        return lose(state, f"the {word(state, 'hourglass')} had no card left to advance")
    if event.card is not None:
        if work.card(event.card) is None:
            work.define(event.card, "blessing")
        info = work.info(event.card)
        if info.type != "blessing":
            raise Rejection(f"{event.card} is not a blessing; the {word(state, 'hourglass')} holds only blessings.")
    work.move(HOURGLASS, HOURGLASS_DISCARD, event.card if event.card is not None else HiddenCard("blessing"))
    return work.commit(scenario=_next_turn(scenario, places, event.character_id, event.card))


def _exchanged(state: State) -> State:
    """At the start of a turn a wrecked ship whose card says so is banished and exchanged for the ship it names (the
    Wormwood: "exchange it for the ship Merchantman"); the new ship is intact."""
    fleet = state.fleet
    if not fleet.wrecked:
        return state
    for power in powers.of_kind(powers.ship_in_force(state), "exchange_when_wrecked"):
        if power.ship:
            changed = msgspec.structs.replace(fleet, current=power.ship, wrecked=False)
            return msgspec.structs.replace(state, fleet=changed)
    return state


def _in_turn_order(state: State, scenario: Scenario, character_id: str) -> Scenario:
    """The scenario with the turn order as this turn keeps it: in the first round each character takes her first
    turn in the order the group chooses; after it the turn passes to the next living character in that order."""
    order = scenario.turn_order
    living = [cid for cid in scenario.party if state.characters[cid].alive]
    name = state.characters[character_id].name
    if character_id not in order:
        return msgspec.structs.replace(scenario, turn_order=[*order, character_id])
    waiting = [cid for cid in living if cid not in order]
    if waiting:
        broken(
            f"{name} has had a turn already, and {listing([state.characters[c].name for c in waiting])} not yet: "
            "each character takes a turn before anyone takes a second, and the turn passes around the table in "
            "that order (Skull & Shackles Rulebook, Your Turn: End Your Turn)."
        )
        return scenario
    previous = scenario.turn
    if previous is None or previous not in order:
        return scenario
    seated = [cid for cid in order if cid in living or cid == previous]
    expected = seated[(seated.index(previous) + 1) % len(seated)]
    if expected != character_id:
        broken(
            f"After {state.characters[previous].name}'s turn comes {state.characters[expected].name}'s, not "
            f"{name}'s: the turn passes to the player on the left, in the order of the first round (Skull & "
            "Shackles Rulebook, Your Turn: End Your Turn)."
        )
    return scenario


def _check_starting_hands(state: State, scenario: Scenario) -> None:
    """Each living character begins with a card of a favoured type in hand, when her cards hold one."""
    cards = state.cards
    for character_id in scenario.party:
        character = state.characters[character_id]
        favored = character.card.favored
        if not character.alive or not favored:
            continue
        hand = state.zones.get(character_key(character_id, "hand"), _EMPTY).known
        if any(cards[name].counts_as in favored for name in hand):
            continue
        owned = [
            name
            for zone in ("deck", "discard")
            for name in state.zones.get(character_key(character_id, zone), _EMPTY).known
            if cards[name].counts_as in favored
        ]
        if not owned:
            continue
        kinds = " or ".join(a(kind) for kind in favored)
        broken(
            f"{character.name} begins {scenario.name} without {kinds} in hand, though {character.name}'s deck holds "
            f"{owned[0]}: a starting hand holds at least 1 card of the favoured type (discard it and draw again)."
        )


# What the character whose turn it is has done of the turn's once-a-turn steps: none of it, as a turn starts.
_NOTHING_DONE = dict.fromkeys(
    (
        "plunder_banished_this_turn",
        "explored_this_turn",
        "gave_this_turn",
        "moved_this_turn",
        "reset_kept",
        "reset_done",
    ),
    False,
)


def _next_turn(scenario: Scenario, places: dict[str, Place], character_id: str, hour: str | None) -> Scenario:
    """The scenario as a new turn starts: whose it is, one more turn, the per-turn limits lifted."""
    return msgspec.structs.replace(
        scenario,
        places=places,
        turn=character_id,
        turns=scenario.turns + 1,
        step="start",
        **_NOTHING_DONE,
        may_close=[],
        closers={},
        enemy_ship=None,
        defeated_ship=None,
        ship_met=None,
        encounters=[],
        villain_at=None,
        villain_outcome=None,
        hour=hour,
    )
