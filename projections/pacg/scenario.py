"""Adventures and scenarios: an adventure's start, a scenario's setup, its end, and what the table sees of it."""

from __future__ import annotations

from typing import Any

import msgspec

from quartermaster.events.pacg import AdventureStarted, ScenarioEnded, ScenarioStarted
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.pacg.decks import deck_problem
from quartermaster.projections.pacg.ending import finish
from quartermaster.projections.pacg.fleet import may_sail
from quartermaster.projections.pacg.recorded import check_started
from quartermaster.projections.pacg.state import Adventure, Fleet, Place, Scenario, State
from quartermaster.projections.pacg.vault import add_cards
from quartermaster.projections.pacg.zones import (
    DEALT,
    ENCOUNTER,
    HOURGLASS,
    HOURGLASS_DISCARD,
    PLUNDER,
    SET_ASIDE,
    VAULT,
    Work,
    listing,
    location_key,
    word,
)


def in_progress(state: State) -> Scenario:
    scenario = state.scenario
    if scenario is None:
        raise Rejection("No scenario is in progress.")
    return scenario


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
    """A scenario set up: checked against the party, its card and the rules in force, then its cards dealt."""
    adventure, party, size = _check_setup(state, event)
    names = [location.name for location in event.locations]
    work = Work(state)
    # Spare cards left after rebuilding and plunder nobody took go back to the vault before the new setup.
    work.empty(SET_ASIDE, VAULT)
    work.empty(PLUNDER, VAULT)
    _deal(work, event, names, size)
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
        **_adventure_grown(state, event, adventure),
    )


def _check_setup(state: State, event: ScenarioStarted) -> tuple[str | None, list[str], int]:
    """What a scenario's start must hold before anything is dealt; (its adventure, the party, the hourglass size)."""
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
    return adventure, party, size


def _deal(work: Work, event: ScenarioStarted, names: list[str], size: int) -> None:
    """The setup's cards out of the vault: each location's deck, the villains and henchmen, the hourglass."""
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
    for place in names[: len(stack)]:
        work.add_hidden(location_key(place), DEALT)
    work.vault_take_face_down("blessing", size)
    work.add_hidden(HOURGLASS, "blessing", size)


def _adventure_grown(state: State, event: ScenarioStarted, adventure: str | None) -> dict[str, Any]:
    """The adventure in play, with this scenario added when it is the next one beyond those its start named."""
    playing = state.adventure
    if (
        playing is not None
        and adventure == playing.name
        and event.scenario not in playing.scenarios
        and len(playing.scenarios) < playing.size
    ):
        # The next scenario of the adventure beyond those its start named: it takes its place in the order now.
        return {"adventure": msgspec.structs.replace(playing, scenarios=[*playing.scenarios, event.scenario])}
    return {}


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


def scenario_ended(state: State, event: ScenarioEnded) -> State:
    if state.scenario is None and state.lost is not None:
        # The loss ended the scenario at once; the table's scenario.ended lost only says so again.
        if event.result == "won":
            raise Rejection(f"{state.lost}; it cannot end as won.")
        return state
    scenario = in_progress(state)
    if event.result == "won" and scenario.villain_at is not None:
        _cornered(scenario)
    return finish(state, event.result)


def _cornered(scenario: Scenario) -> None:
    """A villain encounter in progress wins the scenario only when the villain is defeated and has nowhere to escape
    (Encountering a Villain: If the Villain Has Nowhere to Escape to, You Win!)."""
    at = scenario.villain_at
    met = next((e for e in reversed(scenario.encounters) if e.location == at and e.card in scenario.villains), None)
    name = met.card if met is not None else "The villain"
    outcome = scenario.villain_outcome
    if outcome is None and met is not None and not met.doubtful and met.success is not None:
        outcome = "defeated" if met.success else "undefeated"
    if outcome in ("undefeated", "evaded"):
        broken(
            f"{name} was {outcome} at {at}: the party wins when it defeats the villain and the villain has nowhere "
            "to escape (Encountering a Villain); an undefeated villain escapes into the open locations."
        )
    open_places = [
        place
        for place, found in scenario.places.items()
        if place != at and not found.closed and not found.temporarily_closed
    ]
    if outcome == "defeated" and open_places:
        broken(
            f"{name} was defeated but can still escape to {', '.join(open_places)}: the party wins only when the "
            "villain has nowhere to escape (Encountering a Villain: Check to See Whether the Villain Escapes)."
        )


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
