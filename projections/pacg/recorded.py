"""The group's own cards: the scenario cards and product lists it typed once, kept in the campaign to reuse.

The rulebooks print neither, so the campaign keeps what the group recorded, and a scenario started from a recorded
card is held to that card: its locations are those listed for the party's number of players (Skull & Shackles
Rulebook, Setting Up: Set Out the Locations).
"""

from __future__ import annotations

from typing import Any

import msgspec

from quartermaster.events.pacg import ProductListRecorded, ScenarioCardRecorded, ScenarioStarted
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.pacg.state import State


def scenario_card_recorded(state: State, event: ScenarioCardRecorded) -> State:
    if not event.scenario.strip():
        raise Rejection("A scenario card needs the scenario's name.")
    names = [location.name for location in event.locations]
    if not names:
        raise Rejection(f"The scenario card of {event.scenario} lists no location.")
    if len(set(names)) != len(names):
        raise Rejection(f"The scenario card of {event.scenario} lists a location twice: {', '.join(names)}.")
    for location in event.locations:
        for card_type, count in location.deck.items():
            if count < 0:
                raise Rejection(f"{location.name}'s deck cannot hold {count} {card_type} cards.")
    if event.anchored_at is not None and event.anchored_at not in names:
        raise Rejection(
            f"The ship cannot be anchored at {event.anchored_at}: it is not a location of {event.scenario}."
        )
    return msgspec.structs.replace(state, scenario_cards={**state.scenario_cards, event.scenario: event})


def product_list_recorded(state: State, event: ProductListRecorded) -> State:
    if not event.product.strip():
        raise Rejection("A product's card list needs the product's letter or number.")
    if not event.cards:
        raise Rejection(f"The card list of product {event.product} has no card in it.")
    for card in event.cards:
        if card.count < 1:
            raise Rejection(f"The card list of product {event.product} holds {card.count} copies of {card.name}.")
    return msgspec.structs.replace(state, product_lists={**state.product_lists, event.product: event})


def locations_for(card: ScenarioCardRecorded, players: int) -> list[str]:
    """The card's locations used with this many players: every one listed for that number or fewer."""
    return [location.name for location in card.locations if location.players <= players]


def check_started(state: State, event: ScenarioStarted, players: int) -> None:
    """A scenario the group recorded, or one whose card the catalogue knows for this party's size, starts with the
    locations its card lists for the party's number of players (Setting Up: Set Out the Locations)."""
    card = state.scenario_cards.get(event.scenario)
    if card is None:
        # The scenario card the group did not type, as far as the catalogue knows it (Dangerous Waters).
        listed = event.listed_locations.get(str(players))
        if listed is None:
            return
        wanted = list(listed)
    else:
        wanted = locations_for(card, players)
    given = [location.name for location in event.locations]
    if sorted(given) != sorted(wanted):
        # A table playing with more or fewer locations on purpose (Core Rules FAQ: difficulty) overrides this rule.
        broken(
            f"The scenario card of {event.scenario} lists {_listing(wanted)} for {players} "
            f"player{'s' if players != 1 else ''}, not {_listing(given)}."
        )


def _listing(names: list[str]) -> str:
    if not names:
        return "no location"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def view(state: State) -> dict[str, Any]:
    """The scenario cards and product lists the group recorded, by name, as their events carry them."""
    return {
        "scenario_cards": [_data(card) for _, card in sorted(state.scenario_cards.items())],
        "product_lists": [_data(found) for _, found in sorted(state.product_lists.items())],
    }


def _data(event: ScenarioCardRecorded | ProductListRecorded) -> dict[str, Any]:
    # The event's data without its type: what the page sends again to start a scenario or to share the card.
    data: dict[str, Any] = msgspec.to_builtins(event)
    data.pop("type", None)
    return data
