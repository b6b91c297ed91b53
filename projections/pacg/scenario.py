"""Adventures and scenarios: setup, the hourglass, closing locations, the villain's escape, and the end."""

from __future__ import annotations

from typing import Any

import msgspec

from events.pacg import (
    AdventureStarted,
    CardMoved,
    EncounterEnded,
    HiddenCard,
    HourglassAdvanced,
    LocationClosed,
    ScenarioEnded,
    ScenarioStarted,
    VillainEscaped,
)
from projections.game import Rejection, broken
from projections.pacg.characters import playing
from projections.pacg.decks import deck_problem
from projections.pacg.ending import finish, lose
from projections.pacg.fleet import may_sail
from projections.pacg.recorded import check_started
from projections.pacg.state import Adventure, Encountering, Fleet, Pile, Place, Scenario, State
from projections.pacg.vault import add_cards
from projections.pacg.zones import (
    DEALT,
    ENCOUNTER,
    HOURGLASS,
    HOURGLASS_DISCARD,
    PLUNDER,
    SET_ASIDE,
    VAULT,
    Work,
    a,
    character_key,
    listing,
    location_key,
    word,
)

_EMPTY = Pile()


def _in_progress(state: State) -> Scenario:
    scenario = state.scenario
    if scenario is None:
        raise Rejection("No scenario is in progress.")
    return scenario


def _playing(state: State) -> Scenario:
    """The scenario in progress (a lost one has already ended: Ending a Scenario, Adventure, or Adventure Path)."""
    return _in_progress(state)


def adventure_started(state: State, event: AdventureStarted) -> State:
    if state.scenario is not None:
        raise Rejection(f"{event.adventure} cannot begin during the scenario {state.scenario.name}.")
    current = state.adventure
    if current is not None:
        if current.name == event.adventure:
            raise Rejection(f"The party is already playing {event.adventure}.")
        unfinished = [name for name in current.scenarios if name not in state.completed]
        if unfinished:
            broken(
                f"The party has not completed {current.name}: {listing(unfinished)} still to be won before "
                f"{event.adventure} begins."
            )
    if event.number >= 1 and event.number != len(state.path_completed) + 1:
        done = len(state.path_completed)
        broken(
            f"The Adventure Path's adventures are played in order: the party has completed {done} of them, so the "
            f"next is adventure deck {done + 1}, not {event.adventure} (deck {event.number}) (Skull & Shackles "
            "Rulebook, After the Scenario: Ending a Scenario, Adventure, or Adventure Path)."
        )
    work = Work(state)
    changes: dict[str, Any] = {}
    if event.cards:
        if event.product is not None and event.product in state.products:
            raise Rejection(f"Product {event.product} is already in the {word(state, 'vault')}.")
        cards = dict(state.cards)
        # A new adventure's Adventure Deck goes into the vault, sorted in with the cards already there.
        add_cards(work, cards, event.cards, event.product)
        changes["cards"] = cards
        if event.product is not None:
            changes["products"] = [*state.products, event.product]
    count = _scenario_count(event)
    return work.commit(
        adventure=Adventure(event.adventure, event.number, list(event.scenarios), count),
        adventures_begun=[*state.adventures_begun, event.adventure],
        **changes,
    )


# Adventures whose scenario count the rulebook states: "Island Hopping; you can play it either by itself or as the
# first of five scenarios in the Plunder and Peril adventure" (Skull & Shackles Rulebook, Setting Up).
SCENARIO_COUNTS = {"Plunder and Peril": 5}


def _scenario_count(event: AdventureStarted) -> int:
    """How many scenarios the adventure's card lists: the rulebook's count, else the one given, else its list."""
    known = SCENARIO_COUNTS.get(event.adventure)
    named = len(event.scenarios)
    if known is not None:
        if event.scenario_count is not None and event.scenario_count != known:
            broken(
                f"{event.adventure} has {known} scenarios (Skull & Shackles Rulebook, Setting Up), not {event.scenario_count}."
            )
        if named > known:
            broken(
                f"{event.adventure} has {known} scenarios (Skull & Shackles Rulebook, Setting Up); {named} are listed."
            )
        return max(known, event.scenario_count or 0, named)
    if event.scenario_count is not None:
        if named > event.scenario_count:
            raise Rejection(
                f"{event.adventure} lists {named} scenarios, more than the {event.scenario_count} its card has."
            )
        return event.scenario_count
    if not named:
        raise Rejection(
            f"{event.adventure} names none of its scenarios: send them in order (`scenarios`), or how many its card "
            "lists (`scenario_count`), so that the party knows when it is complete."
        )
    return named


def scenario_started(state: State, event: ScenarioStarted) -> State:
    if state.scenario is not None:
        raise Rejection(f"{state.scenario.name} is still in progress; end it before starting {event.scenario}.")
    adventure = _adventure_of(state, event)
    _check_adventure(state, event, adventure)
    party = [cid for cid, c in state.characters.items() if c.alive and c.has_deck]
    if not party:
        raise Rejection(f"{event.scenario} needs at least one living character with a deck.")
    for character_id in party:
        problem = deck_problem(state, character_id)
        if problem:
            broken(problem)
    names = [location.name for location in event.locations]
    if not names:
        raise Rejection(f"{event.scenario} needs at least one location.")
    check_started(state, event, len(party))
    if len(set(names)) != len(names):
        raise Rejection(f"{event.scenario} lists a location twice: {', '.join(names)}.")
    size = event.hourglass if event.hourglass is not None else state.options.hourglass
    if size != state.options.hourglass:
        broken(
            f"This campaign plays with {state.options.hourglass} blessings in the {word(state, 'hourglass')}, "
            f"not {size}."
        )
    reason = may_sail(state, event.ship, event.ship_card)
    if reason:
        broken(reason)
    if event.anchored_at is not None and event.anchored_at not in names:
        raise Rejection(
            f"The ship cannot be anchored at {event.anchored_at}: it is not a location of {event.scenario}."
        )

    work = Work(state)
    # Spare cards left after rebuilding and plunder nobody took go back to the vault before the new setup.
    work.empty(SET_ASIDE, VAULT)
    work.empty(PLUNDER, VAULT)
    for location in event.locations:
        for card_type, count in location.deck.items():
            if count < 0:
                raise Rejection(f"{location.name} cannot hold {count} {card_type} cards.")
            if count:
                work.vault_take_face_down(card_type, count)
                work.add_hidden(location_key(location.name), card_type, count)
    # Villains, then henchmen from the top of the list, the last one repeated, as many as there are locations;
    # shuffled and dealt one to each location, so nobody knows which location holds which.
    # A villain or henchman the log has not met yet becomes known as what the scenario card calls it.
    for name in event.villains:
        work.define(name, "villain")
    for name in event.henchmen:
        if work.card(name) is None:
            work.define(name, "henchman")
    stack = list(event.villains) + list(event.henchmen)
    if event.henchmen:
        while len(stack) < len(names):
            stack.append(event.henchmen[-1])
    stack = stack[: len(names)]
    for name in stack:
        work.move(VAULT, DEALT, name)
    for location in names[: len(stack)]:
        work.add_hidden(location_key(location), DEALT)
    work.vault_take_face_down("blessing", size)
    work.add_hidden(HOURGLASS, "blessing", size)

    extra: dict[str, Any] = {}
    playing = state.adventure
    if (
        playing is not None
        and adventure == playing.name
        and event.scenario not in playing.scenarios
        and len(playing.scenarios) < playing.size
    ):
        # The next scenario of the adventure beyond those its start named: it takes its place in the order now.
        extra["adventure"] = msgspec.structs.replace(playing, scenarios=[*playing.scenarios, event.scenario])
    scenario = Scenario(
        name=event.scenario,
        adventure=adventure,
        number=event.number,
        places={name: Place() for name in names},
        villains=list(event.villains),
        henchmen=list(event.henchmen),
        hourglass_size=size,
        party=party,
    )
    fleet = state.fleet
    ships = dict(fleet.ships)
    if event.ship_card is not None:
        ships[event.ship] = event.ship_card
    characters = {
        cid: msgspec.structs.replace(c, location=None) if c.location is not None else c
        for cid, c in state.characters.items()
    }
    return work.commit(
        scenario=scenario,
        lost=None,
        fleet=Fleet(ships=ships, checked=fleet.checked, current=event.ship, wrecked=False, anchored=event.anchored_at),
        characters=characters,
        rewardable=[],
        dead_cards={},
        scenarios_played=state.scenarios_played + 1,
        last_number=event.number,
        deck_order={},
        reward_feats={},
        **extra,
    )


def _adventure_of(state: State, event: ScenarioStarted) -> str | None:
    """The adventure a scenario is played in: the one named, else the party's adventure when it lists the
    scenario, else none (a standalone scenario, such as Island Hopping; rulebook, Setting Up)."""
    if event.adventure is not None:
        return event.adventure
    adventure = state.adventure
    if adventure is not None and event.scenario in adventure.scenarios:
        return adventure.name
    return None


def _check_adventure(state: State, event: ScenarioStarted, name: str | None) -> None:
    if name is None:
        return
    adventure = state.adventure
    if adventure is None or adventure.name != name:
        playing_now = f"the party is playing {adventure.name}" if adventure else "no adventure has begun"
        broken(f"{event.scenario} cannot be played as part of {name}: {playing_now}.")
        return
    if event.scenario not in adventure.scenarios:
        if len(adventure.scenarios) < adventure.size:
            # One of the scenarios the adventure's card lists beyond those named: the next of them, once every
            # scenario before it is won.
            if any(name not in state.completed for name in adventure.scenarios):
                broken(f"{event.scenario} is not a scenario of {adventure.name}.")
            return
        broken(
            f"{event.scenario} is not a scenario of {adventure.name}: its {adventure.size} scenarios are "
            f"{listing(adventure.scenarios)}."
        )
        return
    if event.scenario in state.completed:
        return  # Replaying a completed scenario is allowed; its reward is not earned twice.
    for name in adventure.scenarios:
        if name == event.scenario:
            return
        if name not in state.completed:
            broken(f"{adventure.name}'s scenarios are played in order: {name} must be won before {event.scenario}.")


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
    if scenario.turn is None and state.options.starting_hand == "checked":
        _check_starting_hands(state, scenario)
    if scenario.turn is not None and state.options.reset == "required" and not scenario.reset_kept:
        from projections.pacg.hands import check_turn_ended

        check_turn_ended(state, scenario.turn, mover.name)
    scenario = _in_turn_order(state, scenario, event.character_id)
    places = _reopened(scenario.places)
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


def explored(state: State, event: CardMoved) -> Scenario:
    """The scenario after an exploration that names its explorer, who explores her own location on her own turn."""
    source, target = event.from_, event.to
    if event.explorer is None:
        raise Rejection("An exploration a card or power grants (explore_again) names its explorer.")
    if event.verb != "reveal" or source.zone != "location" or target.zone != "encounter":
        raise Rejection(
            f"Only exploring names an explorer: a card revealed from a location to the encounter, not {event.verb} "
            f"from {source.zone} to {target.zone}."
        )
    explorer, scenario = playing(state, event.explorer)
    name = explorer.name
    if scenario.turn != event.explorer:
        whose = f"it is {state.characters[scenario.turn].name}'s turn" if scenario.turn else "no turn has started yet"
        # The rulebook's "never" (Your Turn: Explore): no card overrules it.
        broken(f"{name} may never explore on another player's turn: {whose}.")
    if scenario.reset_done:
        broken(
            f"{name} has begun the reset that ends the turn: exploring comes before it, and nothing of the turn's "
            "steps follows it (Skull & Shackles Rulebook, Your Turn)."
        )
    if explorer.location != source.location:
        broken(f"{name} is at {explorer.location} and explores that location, not {source.location}.")
    if scenario.explored_this_turn and not event.explore_again and state.options.explore_once_per_turn:
        broken(
            f"{name} has already explored this turn: the free exploration is the first of the turn, and {name} "
            "explores again only when a card or power allows it (explore_again)."
        )
    if scenario.explored_this_turn:
        return scenario
    return msgspec.structs.replace(scenario, explored_this_turn=True)


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


def _reopened(places: dict[str, Place]) -> dict[str, Place]:
    """Temporary closures last for one encounter with the villain; they open again after it."""
    for place in places.values():
        if place.temporarily_closed:
            break
    else:
        return places
    return {name: Place(closed=place.closed) if place.temporarily_closed else place for name, place in places.items()}


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
    scenario = _playing(state)
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
        _closer(
            state,
            scenario,
            event.location,
            event.by,
            "a location closes after a henchman is defeated there, by the character who defeated it.",
        )
    elif how == "empty":
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


def _villain_encounter_over(scenario: Scenario) -> Scenario:
    """The villain's encounter is over: temporary closures open again (Encountering a Villain)."""
    return msgspec.structs.replace(scenario, villain_at=None, villain_outcome=None, places=_reopened(scenario.places))


def encounter_ended(state: State, event: EncounterEnded) -> State:
    scenario = _playing(state)
    encounter = state.zones.get(ENCOUNTER, _EMPTY)
    if not encounter.known.get(event.card):
        held = listing(sorted(encounter.known)) or "nothing"
        raise Rejection(f"{event.card} is not being encountered (the encounter holds {held}).")
    entry = _latest(scenario.encounters, event.card)
    info = state.cards[event.card]
    if info.type == "villain" and scenario.villain_at is not None and (entry is None or entry.location is not None):
        if scenario.villain_outcome is not None:
            raise Rejection(f"The encounter with {event.card} already ended: {scenario.villain_outcome}.")
        scenario = msgspec.structs.replace(scenario, villain_outcome=event.outcome)
        if event.outcome == "evaded":
            # Evaded, the villain is neither defeated nor undefeated and the encounter is over.
            scenario = msgspec.structs.replace(scenario, places=_reopened(scenario.places))
        return msgspec.structs.replace(state, scenario=scenario)
    if event.outcome == "defeated" and entry is not None and entry.location is not None and info.type == "henchman":
        scenario = _may_close(scenario, entry.location)
    return msgspec.structs.replace(state, scenario=scenario)


def _latest(encounters: list[Encountering], card: str) -> Encountering | None:
    for entry in reversed(encounters):
        if entry.card == card:
            return entry
    return None


def _may_close(scenario: Scenario, location: str) -> Scenario:
    if location in scenario.may_close:
        return scenario
    return msgspec.structs.replace(scenario, may_close=[*scenario.may_close, location])


def encounter_moved(before: State, after: State, event: CardMoved) -> State:
    """The encounters in progress once a card has moved into or out of the encounter."""
    scenario = after.scenario
    if scenario is None or not isinstance(event.card, str):
        return after
    card, source, target = event.card, event.from_, event.to
    info = after.cards[card]
    if target.zone == ENCOUNTER and source.zone != ENCOUNTER:
        origin = source.location if source.zone == "location" else None
        scenario = msgspec.structs.replace(scenario, encounters=[*scenario.encounters, Encountering(card, origin)])
        if info.type == "villain" and origin is not None:
            scenario = msgspec.structs.replace(scenario, villain_at=origin, villain_outcome=None)
        return msgspec.structs.replace(after, scenario=scenario)
    if source.zone != ENCOUNTER or target.zone == ENCOUNTER:
        return after
    entry = _latest(scenario.encounters, card)
    if entry is not None:
        index = len(scenario.encounters) - 1 - scenario.encounters[::-1].index(entry)
        rest = scenario.encounters[:index] + scenario.encounters[index + 1 :]
        scenario = msgspec.structs.replace(scenario, encounters=rest)
        if entry.location is not None and info.type == "henchman" and event.verb == "banish":
            # A defeated bane is banished (Attempting a Check): its location may now be closed.
            scenario = _may_close(scenario, entry.location)
    if info.type == "villain" and scenario.villain_at is not None and (entry is None or entry.location is not None):
        if target.zone == "location":
            if scenario.villain_outcome == "defeated":
                raise Rejection(
                    f"{card} was defeated: a defeated villain is never shuffled back into a location deck. Its "
                    "location closes, then it escapes into the open locations (villain.escaped), or the party wins."
                )
            if scenario.villain_outcome == "undefeated":
                raise Rejection(
                    f"{card} is undefeated: an undefeated villain escapes into the open locations, shuffled with "
                    "blessings from the hourglass (villain.escaped with defeated false)."
                )
        scenario = _villain_encounter_over(scenario)
    return msgspec.structs.replace(after, scenario=scenario)


def villain_escaped(state: State, event: VillainEscaped) -> State:
    scenario = _playing(state)
    outcome = scenario.villain_outcome
    said = "defeated" if event.defeated else "undefeated"
    if outcome in ("evaded",) or (outcome is not None and outcome != said):
        raise Rejection(
            f"{event.villain}'s encounter ended {outcome}, not {said}: "
            + (
                "an evaded villain is shuffled back into its location deck."
                if outcome == "evaded"
                else "record villain.escaped as it ended."
            )
        )
    at = scenario.villain_at
    if (
        event.defeated
        and at is not None
        and not scenario.places[at].closed
        and not scenario.places[at].temporarily_closed
    ):
        broken(
            f"{event.villain} was defeated at {at}: the villain's location closes first (location.closed), then the "
            "villain escapes into the other open locations (Encountering a Villain)."
        )
    open_places = [name for name, place in scenario.places.items() if not place.closed and not place.temporarily_closed]
    if not open_places:
        raise Rejection(f"{event.villain} has nowhere to escape to: the party wins (record scenario.ended won).")
    if sorted(event.to) != sorted(open_places):
        broken(f"{event.villain} escapes to every open location, that is {listing(open_places)}.")
    work = Work(state)
    work.move(ENCOUNTER, DEALT, event.villain)
    blessings = len(open_places) - 1
    if event.defeated:
        # A defeated villain is shuffled with blessings from the vault; an undefeated one with the hourglass's.
        work.vault_take_face_down("blessing", blessings)
        work.add_hidden(DEALT, "blessing", blessings)
        new = scenario
    else:
        left = work.hidden(HOURGLASS, "blessing")
        taken = min(left, blessings)
        work.add_hidden(HOURGLASS, "blessing", -taken)
        work.add_hidden(DEALT, "blessing", taken)
        new = scenario
        if left < blessings:
            short = f"the {word(state, 'hourglass')} ran out of cards to remove"
    for name in open_places:
        work.add_hidden(location_key(name), DEALT)
    entry = _latest(new.encounters, event.villain)
    if entry is not None:
        encounters = list(new.encounters)
        encounters.remove(entry)
        new = msgspec.structs.replace(new, encounters=encounters)
    escaped = work.commit(scenario=_villain_encounter_over(new))
    if not event.defeated and left < blessings:
        return lose(escaped, short)
    return escaped


def scenario_ended(state: State, event: ScenarioEnded) -> State:
    if state.scenario is None and state.lost is not None:
        # The loss ended the scenario at once; the table's scenario.ended lost only says so again.
        if event.result == "won":
            raise Rejection(f"{state.lost}; it cannot end as won.")
        return state
    _in_progress(state)
    return finish(state, event.result)


def view(state: State) -> dict[str, Any]:
    scenario = state.scenario
    if scenario is None:
        return {
            "in_progress": False,
            # The latest scenario, when a loss ended it at once.
            "lost": state.lost,
            "completed": list(state.completed),
            "adventure": state.adventure.name if state.adventure else None,
            "rewards_open": list(state.rewardable),
        }
    locations = []
    for name, place in scenario.places.items():
        pile = state.zones.get(location_key(name))
        status = "closed" if place.closed else "temporarily closed" if place.temporarily_closed else "open"
        locations.append(
            {
                "name": name,
                "status": status,
                "cards": (sum(pile.known.values()) + sum(pile.hidden.values())) if pile else 0,
                "known": dict(pile.known) if pile else {},
                "face_down": dict(pile.hidden) if pile else {},
                "characters": [
                    cid
                    for cid in scenario.party
                    if state.characters[cid].location == name and state.characters[cid].alive
                ],
            }
        )
    hourglass = state.zones.get(HOURGLASS)
    discards = state.zones.get(HOURGLASS_DISCARD)
    encounter = state.zones.get(ENCOUNTER)
    return {
        "in_progress": True,
        "name": scenario.name,
        "adventure": scenario.adventure,
        "number": scenario.number,
        "bane_number": scenario.number + (1 if state.options.banes_level_up else 0),
        "status": scenario.status,
        "loss": scenario.loss,
        "turn": scenario.turn,
        "turns": scenario.turns,
        "hourglass": {
            "name": word(state, "hourglass"),
            "left": (sum(hourglass.known.values()) + sum(hourglass.hidden.values())) if hourglass else 0,
            "discards": (sum(discards.known.values()) + sum(discards.hidden.values())) if discards else 0,
            "discards_known": dict(discards.known) if discards else {},
            "hour": scenario.hour,
        },
        "locations": locations,
        "characters": {
            cid: {"location": state.characters[cid].location, "alive": state.characters[cid].alive}
            for cid in scenario.party
        },
        "encounter": dict(encounter.known) if encounter else {},
        "villains": list(scenario.villains),
        "henchmen": list(scenario.henchmen),
    }


def _next_turn(scenario: Scenario, places: dict[str, Place], character_id: str, hour: str | None) -> Scenario:
    """The scenario as a new turn starts: whose it is, one more turn, the per-turn limits lifted."""
    return msgspec.structs.replace(
        scenario,
        places=places,
        turn=character_id,
        turns=scenario.turns + 1,
        plunder_banished_this_turn=False,
        explored_this_turn=False,
        gave_this_turn=False,
        moved_this_turn=False,
        reset_kept=False,
        reset_done=False,
        may_close=[],
        enemy_ship=None,
        defeated_ship=None,
        encounters=[],
        villain_at=None,
        villain_outcome=None,
        hour=hour,
    )
