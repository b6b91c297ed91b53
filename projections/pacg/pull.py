"""The pull list: before a session, the cards to take out of the box for each character's deck as the log holds it.

A character's deck "as logged" is every card she holds, whatever zone it is in: between scenarios, after the rebuild
(Skull & Shackles Rulebook, Between Games), that is her deck. A character set aside has no deck to pull; her written
list is shown apart, its cards left in the box.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from quartermaster.projections.pacg.state import State
from quartermaster.projections.pacg.zones import character_cards, word


def decks(state: State) -> dict[str, dict[str, int]]:
    """Each living character's cards as logged, by character id, for the characters who have a deck."""
    return {
        character_id: dict(sorted(character_cards(state, character_id).items()))
        for character_id, found in state.characters.items()
        if found.alive and found.has_deck
    }


def view(state: State) -> dict[str, Any]:
    """For each character with a deck, the cards to pull from the box; the characters set aside, apart."""
    pulled = decks(state)
    total: Counter[str] = Counter()
    for cards in pulled.values():
        total.update(cards)
    return {
        "box": word(state, "vault"),
        "scenario": state.scenario.name if state.scenario is not None else None,
        "decks": [
            {
                "character_id": character_id,
                "name": state.characters[character_id].name,
                "player": state.characters[character_id].player,
                "cards": cards,
                "count": sum(cards.values()),
            }
            for character_id, cards in pulled.items()
        ],
        "set_aside": [
            {
                "character_id": character_id,
                "name": found.name,
                "player": found.player,
                "cards": dict(sorted(Counter(found.aside).items())),
                "count": len(found.aside),
            }
            for character_id, found in state.characters.items()
            if found.aside is not None
        ],
        "cards": dict(sorted(total.items())),
        "count": sum(total.values()),
    }
