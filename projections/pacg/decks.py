"""Building and rebuilding character decks against the cards list, the vault and the deck rules in force."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import msgspec

from quartermaster.events.pacg import CHARACTER_ZONES, DeckBuilt, DeckRebuilt
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.pacg import characters
from quartermaster.projections.pacg.state import Character, Pile, State
from quartermaster.projections.pacg.zones import SET_ASIDE, VAULT, Work, character_cards, character_key, word
from quartermaster.projections.sentences import listing

_EMPTY = Pile()

TEMPEST_RISING = "Tempest Rising"
# "The base set is designed to have no more than 4 character decks built at one time; the Character Add-On Deck ...
# expands the maximum number of concurrently built decks to 6" (Skull & Shackles Rulebook, Between Games).
BASE_DECKS = 4
WITH_ADD_ON_DECKS = 6
ADD_ON = "C"


def deck_limit(state: State) -> int:
    """How many character decks may be built at once: 6 once the Character Add-On Deck (product C) is in."""
    return WITH_ADD_ON_DECKS if ADD_ON in state.products else BASE_DECKS


def cards_list(character: Character) -> dict[str, int]:
    """How many cards of each type the deck must hold, with the card feats checked so far."""
    counts = {}
    for card_type, line in character.card.cards_list.items():
        checked = character.feats.get(f"card|{card_type}", 0)
        counts[card_type] = line.feats[checked - 1] if checked else line.count
    return counts


def mismatch(state: State, character: Character, names: Mapping[str, int]) -> str | None:
    """Why these cards do not make the character's deck, or None when they do. Loot counts as its type."""
    by_type: dict[str, int] = {}
    cards = state.cards
    for name, count in names.items():
        info = cards.get(name)
        if info is None:
            return f"Quartermaster knows no card named {name}."
        by_type[info.counts_as] = by_type.get(info.counts_as, 0) + count
    wanted = cards_list(character)
    if by_type == wanted:
        return None
    problems = []
    for card_type in sorted(set(wanted) | set(by_type)):
        have, want = by_type.get(card_type, 0), wanted.get(card_type, 0)
        if have != want:
            problems.append(f"{have} {_plural(card_type, have)} where the cards list asks for {want}")
    if problems:
        return f"{character.name}'s deck does not match the cards list: it has {'; '.join(problems)}."
    return None


def _plural(card_type: str, count: int) -> str:
    if count == 1:
        return card_type
    return "allies" if card_type == "ally" else f"{card_type}s"


def owner_of(traits: tuple[str, ...]) -> str | None:
    """The character a card's Owner trait names ("Owner: Merisiel", "Owner Merisiel"), or None."""
    for trait in traits:
        head, _, rest = trait.partition(" ")
        if head.rstrip(":").lower() == "owner" and rest.strip():
            return rest.strip().lstrip(":").strip().lower()
    return None


def vault_rule(state: State, name: str, character_name: str | None = None) -> str | None:
    """Why a card may not come from the vault into a deck under the rules in force, or None when it may."""
    info = state.cards[name]
    if state.options.deck_rule == "level":
        limit = max(0, state.last_number - 2)
        owner = owner_of(info.traits)
        if owner is not None and character_name is not None and owner == character_name.lower():
            # "If your character is the Owner of a card, you - and only you - may treat it as if it is level 0."
            return None
        if info.level > limit:
            return (
                f"{name} is level {info.level}; cards taken from the {word(state, 'vault')} may be at most level "
                f"{limit} (the latest scenario's # minus 2, minimum 0)."
            )
        return None
    if TEMPEST_RISING in state.adventures_begun and state.adventure is not None:
        # From Tempest Rising on: the base set, the Character Add-On Deck, and adventure decks at least 2 lower.
        if info.product in ("B", "C"):
            return None
        if info.product is not None and info.product.isdigit() and int(info.product) <= state.adventure.number - 2:
            return None
        if "basic" in (trait.lower() for trait in info.traits):
            return None
        return (
            f"{name} comes from product {info.product}; after Tempest Rising, cards from the "
            f"{word(state, 'vault')} must come from the base set, the Character Add-On Deck, or an adventure deck "
            f"numbered at most {state.adventure.number - 2}."
        )
    if "basic" not in (trait.lower() for trait in info.traits):
        return f"{name} does not have the Basic trait; a deck takes only Basic cards from the {word(state, 'vault')}."
    return None


def set_aside(character: Character) -> None:
    """A character set aside has her deck written down: she comes back with it before any deck is made for her."""
    if character.aside is not None:
        raise Rejection(
            f"{character.name} is set aside with her deck written down; bring her back (character.brought_back) "
            "before building or rebuilding her deck."
        )


def deck_built(state: State, event: DeckBuilt) -> State:
    """A new character's first deck, every card from the vault."""
    character = characters.character(state, event.character_id)
    if state.scenario is not None:
        broken(f"{character.name}'s deck cannot be built during the scenario {state.scenario.name}.")
    if character.has_deck or character_cards(state, event.character_id):
        raise Rejection(f"{character.name} already has a deck; rebuild it with deck.rebuilt between scenarios.")
    set_aside(character)
    built = [c.name for c in state.characters.values() if c.has_deck and c.alive]
    limit = deck_limit(state)
    if len(built) >= limit:
        with_add_on = "" if limit == WITH_ADD_ON_DECKS else " (6 with the Character Add-On Deck, product C)"
        broken(
            f"{character.name}'s deck would be deck {len(built) + 1}: the box holds at most {limit} character decks "
            f"at once{with_add_on}, and {listing(built)} have theirs (Skull & Shackles Rulebook, Between Games). "
            "Return a deck to the box first."
        )
    names = Counter(event.cards)
    problem = mismatch(state, character, names)
    if problem:
        broken(problem)
    work = Work(state)
    target = character_key(event.character_id, "deck")
    # The rule reads the card and the campaign, not the cards taken so far: each name is checked once, at its first
    # copy, so the first refusal is the one a card-by-card check would give.
    allowed: set[str] = set()
    for name in event.cards:
        if name not in allowed:
            reason = vault_rule(state, name, state.characters[event.character_id].name)
            if reason:
                broken(reason)
            allowed.add(name)
        work.vault_take(name)
        work.add_known(target, name)
    return _with_deck(work, state, event.character_id, character)


def deck_rebuilt(state: State, event: DeckRebuilt) -> State:
    """A deck made again between scenarios from the character's cards, the party's spare cards, then the vault."""
    character = characters.character(state, event.character_id)
    if state.scenario is not None:
        broken(f"{character.name}'s deck cannot be rebuilt during the scenario {state.scenario.name}.")
    if not character.alive:
        raise Rejection(f"{character.name} is dead; a dead character's deck is not rebuilt.")
    set_aside(character)
    names = Counter(event.cards)
    problem = mismatch(state, character, names)
    if problem:
        broken(problem)
    work = Work(state)
    # Gather every card the character owns into the spare pile, then take the new deck back out of it.
    spare = state.zones.get(SET_ASIDE, _EMPTY).known.copy()
    touched = False
    for zone in CHARACTER_ZONES:
        key = character_key(event.character_id, zone)
        owned = work.pile(key)[0]
        if owned:
            for name, count in owned.items():
                spare[name] = spare.get(name, 0) + count
            work.known_w[key] = {}
            touched = True
    deck: dict[str, int] = {}
    from_box: list[str] = []
    for name in event.cards:
        have = spare.get(name, 0)
        if have:
            if have == 1:
                del spare[name]
            else:
                spare[name] = have - 1
            touched = True
        else:
            if name not in state.cards:
                raise Rejection(f"Quartermaster knows no card named {name}.")
            reason = vault_rule(state, name, state.characters[event.character_id].name)
            if reason:
                broken(
                    f"{name} is neither among {character.name}'s cards nor the party's spare cards, and "
                    + reason[0].lower()
                    + reason[1:]
                )
            work.vault_take(name)
            from_box.append(name)
        deck[name] = deck.get(name, 0) + 1
    if from_box:
        _only_for_a_shortfall(state, character, from_box, spare)
    if touched:
        work.known_w[SET_ASIDE] = spare
    work.known_w[character_key(event.character_id, "deck")] = deck
    return _with_deck(work, state, event.character_id, character)


def _only_for_a_shortfall(state: State, character: Character, from_box: list[str], left: Mapping[str, int]) -> None:
    """Cards come from the box only for a type the group's own cards cannot fill: "If you can't construct a valid
    deck from the cards your group has available because you don't have enough of certain card types, choose the
    extra cards you need from the box" (Skull & Shackles Rulebook, Between Games)."""
    left_by_type: dict[str, list[str]] = {}
    for name, count in left.items():
        if count > 0:
            left_by_type.setdefault(state.cards[name].counts_as, []).append(name)
    for name in from_box:
        card_type = state.cards[name].counts_as
        spare = left_by_type.get(card_type)
        if spare:
            broken(
                f"{name} would come from the {word(state, 'vault')}, but the party's own cards still hold "
                f"{listing(sorted(spare))} ({_plural(card_type, 2)}): cards come from the box only to make up a "
                "shortfall (Skull & Shackles Rulebook, Between Games)."
            )
            return


def _with_deck(work: Work, state: State, character_id: str, character: Character) -> State:
    characters = state.characters.copy()
    characters[character_id] = msgspec.structs.replace(character, has_deck=True)
    return work.commit(characters=characters)


def deck_problem(state: State, character_id: str) -> str | None:
    """Why a character cannot start a scenario with the deck she has, or None."""
    character = state.characters[character_id]
    for zone in CHARACTER_ZONES:
        pile = state.zones.get(character_key(character_id, zone)) if zone != "deck" else None
        if pile is not None and any(pile.known.values()):
            return f"{character.name} still has cards outside the deck; rebuild it first."
    deck = state.zones.get(character_key(character_id, "deck"))
    problem = mismatch(state, character, deck.known if deck else {})
    if problem:
        return problem + " Rebuild it with deck.rebuilt first."
    return None


__all__ = ["cards_list", "deck_built", "deck_problem", "deck_rebuilt", "mismatch", "vault_rule", "VAULT"]
