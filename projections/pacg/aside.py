"""A character set aside and brought back (Skull & Shackles Rulebook, Between Games): "If you switch characters for
some reason, it's best to write down the cards in the previous character's deck ... and return the cards to the box
until you want to play that character again."

Setting her aside writes her cards down (the event's list, which must be exactly the cards she holds) and puts every
copy back in the vault; she has no deck while aside, so she counts against no deck limit and plays no scenario.
Bringing her back takes the same copies out again. A copy another character took from the box meanwhile stays where
it is: the table is told which, and may log her return anyway, with her deck short of those copies to rebuild.
"""

from __future__ import annotations

from collections import Counter

import msgspec

from quartermaster.events.pacg import CHARACTER_ZONES, CharacterBroughtBack, CharacterSetAside
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.pacg import characters
from quartermaster.projections.pacg.decks import WITH_ADD_ON_DECKS, deck_limit
from quartermaster.projections.pacg.state import State
from quartermaster.projections.pacg.zones import VAULT, Work, character_cards, character_key, listing, where, word

BETWEEN_GAMES = "(Skull & Shackles Rulebook, Between Games)"


def _copies(counts: Counter[str] | dict[str, int]) -> str:
    return listing([f"{count} {name}" if count > 1 else name for name, count in sorted(counts.items())])


def set_aside(state: State, event: CharacterSetAside) -> State:
    """Her deck written down, every card she holds back in the vault."""
    found = characters.character(state, event.character_id)
    if found.aside is not None:
        raise Rejection(f"{found.name} is already set aside; bring her back before setting her aside again.")
    if not found.alive:
        raise Rejection(f"{found.name} is dead; her cards went to the party at the end of the scenario she died in.")
    scenario = state.scenario
    if scenario is not None and event.character_id in scenario.party:
        raise Rejection(f"{found.name} is playing {scenario.name}; set her aside once it has ended {BETWEEN_GAMES}.")
    for zone in CHARACTER_ZONES:
        pile = state.zones.get(character_key(event.character_id, zone))
        if pile is not None and pile.hidden:
            raise Rejection(
                f"{found.name} holds cards nobody has named ({_copies(pile.hidden)} face down): name them before "
                "her deck is written down."
            )
    held = Counter(character_cards(state, event.character_id))
    if not held:
        raise Rejection(f"{found.name} holds no cards: there is no deck to write down.")
    written = Counter(event.cards)
    if written != held:
        missing, extra = held - written, written - held
        parts = []
        if missing:
            parts.append(f"it leaves out {_copies(missing)}")
        if extra:
            parts.append(f"it names {_copies(extra)} she does not hold")
        raise Rejection(
            f"The list written down for {found.name} must be every card she holds ({sum(held.values())}): "
            f"{'; '.join(parts)}."
        )
    work = Work(state)
    for zone in CHARACTER_ZONES:
        key = character_key(event.character_id, zone)
        for name, count in list(work.pile(key)[0].items()):
            for _ in range(count):
                work.move(key, VAULT, name)
    people = dict(state.characters)
    people[event.character_id] = msgspec.structs.replace(
        found, aside=tuple(sorted(event.cards)), has_deck=False, location=None
    )
    orders = {who: order for who, order in state.deck_order.items() if who != event.character_id}
    return work.commit(characters=people, deck_order=orders)


def brought_back(state: State, event: CharacterBroughtBack) -> State:
    """The written deck taken out of the vault again; copies the vault no longer holds are named, and stay out."""
    found = characters.character(state, event.character_id)
    if found.aside is None:
        raise Rejection(f"{found.name} is not set aside; her cards are already hers.")
    if state.scenario is not None:
        broken(f"{found.name} comes back between scenarios, not during {state.scenario.name} {BETWEEN_GAMES}.")
    built = [c.name for c in state.characters.values() if c.has_deck and c.alive]
    limit = deck_limit(state)
    if len(built) >= limit:
        with_add_on = "" if limit == WITH_ADD_ON_DECKS else " (6 with the Character Add-On Deck, product C)"
        broken(
            f"{found.name}'s deck would be deck {len(built) + 1}: the box holds at most {limit} character decks at "
            f"once{with_add_on}, and {listing(built)} have theirs {BETWEEN_GAMES}. Set one of them aside first."
        )
    short = missing(state, event.character_id)
    if short:
        broken(
            f"{found.name} cannot come back with her whole deck: {shortfall(state, short)}. Give the copies back "
            "to the box, or bring her back anyway and rebuild her deck."
        )
    work = Work(state)
    deck = character_key(event.character_id, "deck")
    for name, wanted in Counter(found.aside).items():
        for _ in range(min(wanted, work.known(VAULT, name))):
            work.move(VAULT, deck, name)
    people = dict(state.characters)
    people[event.character_id] = msgspec.structs.replace(found, aside=None, has_deck=True)
    return work.commit(characters=people)


def missing(state: State, character_id: str) -> dict[str, int]:
    """The copies of a set-aside character's written deck that the vault does not hold now, by name."""
    found = state.characters[character_id]
    vault = state.zones.get(VAULT)
    held = vault.known if vault is not None else {}
    return {
        name: wanted - held.get(name, 0)
        for name, wanted in sorted(Counter(found.aside or ()).items())
        if wanted > held.get(name, 0)
    }


def shortfall(state: State, short: dict[str, int]) -> str:
    """ "the Pistol is in Valeros's deck; 2 Cure are not in the vault: in ..." """
    parts = []
    for name, count in short.items():
        places = [place for place in where(state, name) if place != f"the {word(state, 'vault')}"]
        copies = f"the {name} is" if count == 1 else f"{count} copies of {name} are"
        parts.append(f"{copies} not in the {word(state, 'vault')} ({listing(places) or 'nowhere the log knows'})")
    return "; ".join(parts)
