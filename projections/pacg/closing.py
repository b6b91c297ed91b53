"""Closing a location: for its empty deck in the Close a Location step, after a henchman that says so, for the
villain defeated there, or temporarily while the villain is encountered elsewhere.

Skull & Shackles Rulebook, Your Turn: Close a Location; Closing a Location (New: Henchmen and Closing Locations);
Encountering a Villain; Things to Keep in Mind (No One Else Can Take Your Turn for You).
"""

from __future__ import annotations

import msgspec

from quartermaster.events.pacg import LocationClosed
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.pacg import steps
from quartermaster.projections.pacg.characters import playing
from quartermaster.projections.pacg.scenario import in_progress
from quartermaster.projections.pacg.state import Pile, Place, Scenario, State
from quartermaster.projections.pacg.zones import DEALT, VAULT, Work, location_key

_EMPTY = Pile()


def _closer(state: State, scenario: Scenario, location: str, by: str | None, what: str) -> None:
    """The character who closes a location is there, alive and playing; with nobody named, someone is."""
    if by is not None:
        found, _ = playing(state, by)
        if found.location != location:
            broken(f"{found.name} is at {found.location}, not at {location}: {what}")
        return
    if not any(state.characters[cid].alive and state.characters[cid].location == location for cid in scenario.party):
        broken(f"Nobody is at {location}: {what}")


def _deck_size(state: State, location: str) -> int:
    pile = state.zones.get(location_key(location), _EMPTY)
    return sum(pile.known.values()) + sum(pile.hidden.values())


def location_closed(state: State, event: LocationClosed) -> State:
    scenario = in_progress(state)
    place = scenario.places.get(event.location)
    if place is None:
        raise Rejection(f"{event.location} is not a location of {scenario.name}.")
    if place.closed:
        raise Rejection(f"{event.location} is already closed.")
    places = scenario.places.copy()
    if event.temporary:
        return _closed_for_the_encounter(state, scenario, event, place)
    how = event.how or _opportunity(state, scenario, event.location)
    if how == "villain":
        if scenario.villain_at != event.location or scenario.villain_outcome not in (None, "defeated"):
            broken(
                f"{event.location} closes for the villain only when a character defeats the villain there "
                "(Encountering a Villain: If You Defeat the Villain, Close the Villain's Location)."
            )
        scenario = msgspec.structs.replace(scenario, villain_outcome="defeated")
    elif how == "henchman":
        if event.location not in scenario.may_close:
            broken(
                f"{event.location} cannot close for a henchman: no henchman from its deck has been defeated there "
                "this turn. A summoned henchman is part of no location deck and never lets a location close "
                "(Summoning and Adding Cards)."
            )
        earned = scenario.closers.get(event.location)
        if event.by is not None and earned is not None and event.by != earned:
            broken(
                f"{state.characters[earned].name} earned the chance to close {event.location}: only she attempts "
                f"it, not {state.characters[event.by].name} (Skull & Shackles Rulebook, Things to Keep in Mind: No "
                "One Else Can Take Your Turn for You)."
            )
        _closer(
            state,
            scenario,
            event.location,
            event.by,
            "a location closes after a henchman is defeated there, by the character who defeated it.",
        )
    elif how == "empty":
        if scenario.turn is not None and event.by is not None and event.by != scenario.turn:
            broken(
                f"{event.location} closes for its empty deck in the Close a Location step of the turn, by the "
                f"character whose turn it is ({state.characters[scenario.turn].name}), not "
                f"{state.characters[event.by].name} (Your Turn: Close a Location)."
            )
        if scenario.turn is not None and (event.by is None or event.by == scenario.turn):
            # The Close a Location step of the turn: once it is taken, exploring has passed.
            who = state.characters[scenario.turn].name
            scenario = steps.enter(state, scenario, "close", scenario.turn, f"{who} closing {event.location}")
        left = _deck_size(state, event.location)
        if left:
            broken(
                f"{event.location} still holds {left} card{'s' if left != 1 else ''}: a location closes for an "
                "empty deck only once its deck has run out (Your Turn: Close a Location)."
            )
        _closer(
            state,
            scenario,
            event.location,
            event.by,
            "a character at a location with no cards left may attempt to close it (Your Turn: Close a Location).",
        )
    key = location_key(event.location)
    pile = state.zones.get(key)
    if pile is not None:
        villains = [name for name in pile.known if state.cards[name].type == "villain"]
        if villains:
            broken(
                f"{event.location} cannot close: {', '.join(villains)} is in its deck. Banish the other cards "
                "instead; the location is only temporarily closed."
            )
        if pile.hidden.get(DEALT):
            broken(
                f"{event.location} cannot close before its deck is searched for villains: reveal its dealt cards first."
            )
    work = Work(state)
    # Closing banishes every card of the location deck to the vault.
    work.empty(key, VAULT)
    places[event.location] = Place(closed=True)
    may_close = [name for name in scenario.may_close if name != event.location]
    return work.commit(scenario=msgspec.structs.replace(scenario, places=places, may_close=may_close))


def _opportunity(state: State, scenario: Scenario, location: str) -> str:
    """How a location may be closed now, when the event does not say (Closing a Location)."""
    if scenario.villain_at == location and scenario.villain_outcome in (None, "defeated"):
        return "villain"
    if location in scenario.may_close:
        return "henchman"
    if _deck_size(state, location) == 0:
        return "empty"
    broken(
        f"{location} cannot be closed now: a location closes after a henchman from its deck is defeated, once its "
        "deck runs out, or when the villain is defeated there (Closing a Location); for a card or scenario that "
        "closes it, say how: power."
    )
    return "power"


def _closed_for_the_encounter(state: State, scenario: Scenario, event: LocationClosed, place: Place) -> State:
    """A temporary closure: only while a character encounters the villain, by a character at another open location
    (Encountering a Villain: Attempt to Temporarily Close Open Locations)."""
    if scenario.villain_at is None or scenario.villain_outcome is not None:
        broken(
            f"{event.location} can be closed temporarily only while a character encounters the villain, so that "
            "the villain cannot escape there."
        )
    met = next(
        (e for e in reversed(scenario.encounters) if e.location == scenario.villain_at and e.card in scenario.villains),
        None,
    )
    if met is not None and met.success is not None:
        broken(
            f"{event.location} is closed temporarily before the villain's check, not after it: the other characters "
            "attempt to close their locations when the villain is encountered, then the villain is encountered "
            "(Encountering a Villain)."
        )
    if place.temporarily_closed:
        raise Rejection(f"{event.location} is already temporarily closed for this encounter.")
    if event.location == scenario.villain_at:
        broken(
            f"The villain is encountered at {event.location}: characters at the other locations temporarily close "
            "theirs; the villain's own location closes only if the villain is defeated."
        )
    _closer(
        state,
        scenario,
        event.location,
        event.by,
        "each character at another location may temporarily close her own location.",
    )
    places = scenario.places.copy()
    places[event.location] = Place(temporarily_closed=True)
    return msgspec.structs.replace(state, scenario=msgspec.structs.replace(scenario, places=places))
