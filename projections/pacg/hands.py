"""Hands: the hand size with its Hand Size feats, and the reset near the end of a turn (hand.reset).

The reset follows the rulebook's order (Your Turn, Reset Your Hand; Core rules FAQ, Resetting): the character may
discard any number of cards, then must discard down to her hand size, then must draw up to it from her deck. The
cards move as card.moved events after hand.reset, as the discards for damage follow damage.dealt, so every copy
stays in exactly one zone. A deck that runs out before the hand is full kills her (Skull & Shackles Rulebook, Dying).
"""

from __future__ import annotations

import msgspec

from quartermaster.events.base import Event
from quartermaster.events.pacg import CardMoved, CharacterDied, HandReset
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.pacg import characters, steps, verbs
from quartermaster.projections.pacg.feats import groups
from quartermaster.projections.pacg.state import Character, Owed, Pile, State
from quartermaster.projections.pacg.zones import character_key

_EMPTY = Pile()

HAND_SIZE = "Hand Size"


def hand_size(found: Character) -> int | None:
    """The hand size on the character card, raised by the checked Hand Size power feat boxes."""
    prefix = "role|" if found.role is not None else "power|"
    checked = found.feats.get(prefix + HAND_SIZE, 0)
    base = found.card.hand_size
    if not checked:
        # Most characters most of the time: no box checked, so no label to read (every reset and turn asks).
        return base
    labels = groups(found, "power").get(HAND_SIZE, [])
    # A box is labelled with the hand size it gives ("5"), or on some cards with what it adds ("+1").
    label = labels[checked - 1].strip()
    if label.startswith("+") and label[1:].isdigit():
        return None if base is None else base + int(label[1:])
    if label.isdigit():
        return int(label)
    return base


def _cards_in(state: State, character_id: str, zone: str) -> int:
    pile = state.zones.get(character_key(character_id, zone), _EMPTY)
    return sum(pile.known.values()) + sum(pile.hidden.values())


def check_turn_ended(state: State, character_id: str, next_name: str) -> None:
    """The turn of `character_id` may end: her hand holds her hand size (Skull & Shackles Rulebook, Your Turn: Reset Your Hand, one
    of the required steps), she is dead, or a power let her keep her hand (hand.reset kept)."""
    found = state.characters[character_id]
    if not found.alive:
        return
    size = hand_size(found)
    name = found.name
    if size is None:
        broken(
            f"{name}'s turn ends with the reset, a required step, before {next_name}'s turn starts: {name}'s "
            f"character card records no hand size, so record hand.reset with {name}'s hand size."
        )
    held = _cards_in(state, character_id, "hand")
    if held != size:
        broken(
            f"{name} holds {held} card{'s' if held != 1 else ''}, not {name}'s hand size of {size}: {name}'s turn "
            f"ends with the reset, a required step, before {next_name}'s turn starts (hand.reset, then the discards "
            "or draws)."
        )


def hand_reset(state: State, event: HandReset) -> State:
    found, scenario = characters.playing(state, event.character_id)
    if scenario.turn == event.character_id:
        steps.finished_encounter(state, f"{found.name} resets her hand")
        scenario = steps.enter(state, scenario, "reset", event.character_id, f"{found.name} resetting her hand")
        state = msgspec.structs.replace(state, scenario=scenario)
    if event.kept:
        if scenario.turn != event.character_id:
            broken(f"Only the character whose turn it is keeps her hand at the end of her turn, not {found.name}.")
        # Kept, there is nothing to draw or discard: the turn has only its end left.
        kept = msgspec.structs.replace(scenario, reset_kept=True, reset_done=True, step="end")
        return msgspec.structs.replace(state, scenario=kept)
    size = hand_size(found)
    if size is None:
        if event.hand_size is None:
            raise Rejection(
                f"{found.name}'s character card records no hand size: give {found.name}'s hand size with the reset."
            )
        size = event.hand_size
        # The hand size given once is kept on the character card: the next reset needs none.
        card = msgspec.structs.replace(found.card, hand_size=size)
        characters_now = state.characters.copy()
        characters_now[event.character_id] = msgspec.structs.replace(found, card=card)
        state = msgspec.structs.replace(state, characters=characters_now)
    elif event.hand_size is not None and event.hand_size != size:
        broken(f"{found.name}'s hand size is {size} (character card and Hand Size feats), not {event.hand_size}.")
    if size < 1:
        raise Rejection(f"{found.name} cannot reset to a hand size of {size}.")
    if scenario.turn == event.character_id and not scenario.reset_done:
        state = msgspec.structs.replace(state, scenario=msgspec.structs.replace(scenario, reset_done=True))
    return msgspec.structs.replace(state, owed=Owed("reset", size, event.character_id))


def reset_over(state: State, character_id: str) -> State:
    """The state once a character's reset is over: nothing owed, and on her own turn only its end left."""
    scenario = state.scenario
    if scenario is not None and scenario.turn == character_id and scenario.step != "end":
        state = msgspec.structs.replace(state, scenario=msgspec.structs.replace(scenario, step="end"))
    return msgspec.structs.replace(state, owed=None)


def resetting(state: State, event: Event) -> State | None:
    """The state after an event of the reset in progress; None when the reset is over and the event comes after it."""
    due = state.owed
    assert due is not None
    character_id = due.character_id or ""
    size = due.count
    name = state.characters[character_id].name
    # The hand is counted where a rule weighs it: a discard of the reset needs no count.
    if type(event) is CardMoved and event.from_.character_id == character_id:
        source, target = event.from_.zone, event.to.zone
        if (
            event.verb == "discard"
            and source == "hand"
            and target == "discard"
            and event.to.character_id == character_id
        ):
            if due.drawing:
                broken(
                    f"{name} has begun drawing up to {name}'s hand size of {size}: the reset's discards come "
                    "before its draws."
                )
            return verbs.card_moved(state, event)
        if event.verb == "draw" and source == "deck" and target == "hand" and event.to.character_id == character_id:
            held = _cards_in(state, character_id, "hand")
            if held > size:
                broken(
                    f"{name} holds {held} cards, more than {name}'s hand size of {size}: the reset discards down to "
                    f"{size} and draws nothing."
                )
            if held == size:
                broken(
                    f"{name} already holds {size} card{'s' if size != 1 else ''}, {name}'s hand size: the reset "
                    "draws no more."
                )
            state = verbs.card_moved(state, event)
            # The draw that fills the hand finishes the reset.
            if held + 1 == size:
                return reset_over(state, character_id)
            return msgspec.structs.replace(state, owed=msgspec.structs.replace(due, drawing=True))
    held = _cards_in(state, character_id, "hand")
    deck = _cards_in(state, character_id, "deck")
    if held < size and deck < size - held:
        if type(event) is CharacterDied and event.character_id == character_id:
            return characters.died(state, event)
        short = size - held
        broken(
            f"{name} must draw {short} card{'s' if short != 1 else ''} to reach {name}'s hand size of {size}, "
            f"but {name}'s deck holds {deck}: {name} dies (character.died)."
        )
    if held > size:
        over = held - size
        broken(
            f"{name} holds {held} cards, more than {name}'s hand size of {size}: {name} must discard {over} "
            f"card{'s' if over != 1 else ''} before the reset ends."
        )
    if held < size:
        short = size - held
        broken(
            f"{name} holds {held} card{'s' if held != 1 else ''} and must draw {short} more from {name}'s deck to "
            f"reach {name}'s hand size of {size} before the reset ends."
        )
    return None
