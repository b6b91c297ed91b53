"""The order of a character deck, as far as the log knows it: recharged cards go to the bottom, reloaded cards on
top, and a shuffle forgets both (Skull & Shackles Rulebook, Playing Cards: Recharge, "Put it facedown at the bottom
of your character deck"; Core Rules FAQ: "Playing a card by putting it on top of your deck is called reloading").

A draw takes the top card (Rules: Drawing Cards): when the log knows which card that is, a draw of another is
refused. Other ways out of the deck (a search, a discard from the deck) are not checked; the card leaves the known
order wherever it was.
"""

from __future__ import annotations

from quartermaster.events.pacg import CardMoved
from quartermaster.projections.game import Rejection
from quartermaster.projections.pacg.state import DeckOrder, Pile, State

_EMPTY = Pile()
_NONE = DeckOrder()


def _without(cards: tuple[str, ...], name: str, from_end: bool = False) -> tuple[str, ...] | None:
    if name not in cards:
        return None
    index = len(cards) - 1 - cards[::-1].index(name) if from_end else cards.index(name)
    return cards[:index] + cards[index + 1 :]


def check_draw(state: State, character_id: str, name: str) -> None:
    """Refuse a draw that contradicts the known order of the deck."""
    order = state.deck_order.get(character_id)
    if order is None:
        return
    who = state.characters[character_id].name
    if order.top:
        if order.top[0] != name:
            raise Rejection(
                f"The top card of {who}'s deck is the {order.top[0]}, reloaded there since the deck was last "
                f"shuffled: {who} draws the {order.top[0]}, not the {name}."
            )
        return
    pile = state.zones.get(f"{character_id}:deck", _EMPTY)
    size = sum(pile.known.values()) + sum(pile.hidden.values())
    between = size - len(order.bottom)
    if between <= 0 and order.bottom:
        if order.bottom[0] != name:
            raise Rejection(
                f"Every card left in {who}'s deck was recharged to the bottom since it was last shuffled, the "
                f"{order.bottom[0]} first: {who} draws the {order.bottom[0]}, not the {name}."
            )
        return
    unplaced = pile.known.get(name, 0) - order.bottom.count(name)
    if unplaced < 1 and name in order.bottom:
        raise Rejection(
            f"The {name} in {who}'s deck was recharged to the bottom since the deck was last shuffled, under "
            f"{between} other card{'s' if between != 1 else ''}: a draw takes the top card."
        )


def after_move(state: State, event: CardMoved) -> dict[str, DeckOrder]:
    """The known orders once this card has moved into or out of a character deck (`state` is before the move)."""
    source, target = event.from_, event.to
    orders = state.deck_order
    if target.zone != "deck" and (source.zone != "deck" or source.character_id not in orders):
        # Out of a deck whose order nobody knows (most draws), or nowhere near a deck: nothing known changes.
        return orders
    name = event.card if type(event.card) is str else None
    if source == target:
        return orders
    changed = dict(orders)
    if source.zone == "deck" and source.character_id is not None and name is not None:
        order = changed.get(source.character_id)
        if order is not None:
            top = _without(order.top, name)
            if top is not None:
                changed[source.character_id] = DeckOrder(top, order.bottom)
            else:
                pile = state.zones.get(f"{source.character_id}:deck", _EMPTY)
                # A copy between the known cards goes first; else the card was one recharged to the bottom.
                if pile.known.get(name, 0) - order.bottom.count(name) < 1:
                    bottom = _without(order.bottom, name, from_end=event.verb != "draw")
                    if bottom is not None:
                        changed[source.character_id] = DeckOrder(order.top, bottom)
    if target.zone == "deck" and target.character_id is not None:
        order = changed.get(target.character_id, _NONE)
        if event.verb == "recharge" and name is not None:
            changed[target.character_id] = DeckOrder(order.top, (*order.bottom, name))
        elif event.verb == "reload" and name is not None:
            changed[target.character_id] = DeckOrder((name, *order.top), order.bottom)
        else:
            # Any other card added to a deck is shuffled into it (Summoning and Adding Cards): the order is lost.
            changed.pop(target.character_id, None)
    return {who: order for who, order in changed.items() if order.top or order.bottom}


def forgotten(state: State, *character_ids: str) -> dict[str, DeckOrder]:
    """The orders without these characters' decks (shuffled, rebuilt, buried)."""
    if not any(who in state.deck_order for who in character_ids):
        return state.deck_order
    return {who: order for who, order in state.deck_order.items() if who not in character_ids}
