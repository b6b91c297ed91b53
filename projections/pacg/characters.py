"""Characters: joining, moving between locations, damage, death and return, hero points."""

from __future__ import annotations

import msgspec

from quartermaster.events.pacg import (
    CHARACTER_ZONES,
    CardFacts,
    CardsListLine,
    CharacterCard,
    CharacterCardCompleted,
    CharacterDied,
    CharacterJoined,
    CharacterMoved,
    CharacterRevived,
    DamageDealt,
    HeroPointAwarded,
    HeroPointSpent,
)
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.pacg import steps
from quartermaster.projections.pacg.ending import lose
from quartermaster.projections.pacg.state import Character, Owed, Scenario, State
from quartermaster.projections.pacg.zones import SET_ASIDE, Work, character_key, listing

# The base set holds four character decks; the Character Add-On Deck raises the table to six.
MAX_CHARACTERS = 6


def character(state: State, character_id: str) -> Character:
    found = state.characters.get(character_id)
    if found is None:
        known = ", ".join(sorted(state.characters)) or "none yet"
        raise Rejection(f"No character {character_id} has joined this campaign (characters: {known}).")
    return found


def playing(state: State, character_id: str) -> tuple[Character, Scenario]:
    """A living character of the scenario in progress."""
    found = character(state, character_id)
    scenario = state.scenario
    if scenario is None:
        raise Rejection(f"No scenario is in progress, so {found.name} cannot do that now.")
    if character_id not in scenario.party:
        raise Rejection(f"{found.name} is not playing {scenario.name}.")
    if not found.alive:
        raise Rejection(f"{found.name} is dead and can do nothing for the rest of {scenario.name}.")
    return found, scenario


def _replace(state: State, character_id: str, **changes: object) -> dict[str, Character]:
    characters = state.characters.copy()
    characters[character_id] = msgspec.structs.replace(characters[character_id], **changes)
    return characters


def joined(state: State, event: CharacterJoined) -> State:
    existing = state.characters.get(event.character_id)
    if existing is not None:
        if existing.alive or state.scenario is not None:
            raise Rejection(f"{existing.name} has already joined this campaign, played by {existing.player}.")
    elif sum(1 for c in state.characters.values() if c.alive) >= MAX_CHARACTERS:
        broken(f"{event.name} cannot join: the game holds at most {MAX_CHARACTERS} characters at once.")
    if state.scenario is not None:
        broken(f"{event.name} cannot join during the scenario {state.scenario.name}; join between scenarios.")
    characters = state.characters.copy()
    # A character who died and starts again gets none of the feats she had (Skull & Shackles Rulebook, Dying).
    characters[event.character_id] = Character(name=event.name, player=event.player, card=event.card)
    return msgspec.structs.replace(state, characters=characters)


def _given_once(name: str, what: str, recorded: object, given: object) -> None:
    if recorded and given and recorded != given:
        raise Rejection(
            f"{name}'s character card already records {what} {_shown(recorded)}, not {_shown(given)}: a fact of "
            "the card is given once and kept."
        )


def _shown(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return str(value)


def completed(name: str, card: CharacterCard, facts: CardFacts) -> CharacterCard:
    """The card with the facts it lacked; a fact it already records must be given the same (Character Cards)."""
    _given_once(name, "a hand size of", card.hand_size, facts.hand_size)
    _given_once(name, "the favored card type", card.favored, facts.favored)
    _given_once(name, "proficiency with", card.proficiencies, facts.proficiencies)
    skills = dict(card.skills)
    for skill, line in facts.skills.items():
        old = skills.get(skill)
        if old is None:
            skills[skill] = line
            continue
        _given_once(name, f"{skill} as", old.die, line.die)
        _given_once(name, f"{skill}'s base skill", old.base, line.base)
        _given_once(name, f"the {skill} feat boxes", old.feats, line.feats)
        skills[skill] = msgspec.structs.replace(
            old,
            die=old.die or line.die,
            base=old.base or line.base,
            modifier=old.modifier or line.modifier,
            feats=old.feats or line.feats,
        )
    powers = dict(card.powers)
    for power, boxes in facts.powers.items():
        _given_once(name, f"the {power} power feat boxes", powers.get(power), boxes)
        powers[power] = powers.get(power) or list(boxes)
    cards_list = dict(card.cards_list)
    for card_type, counts in facts.card_feats.items():
        entry = cards_list.get(card_type)
        if entry is None:
            listed = ", ".join(cards_list) or "none"
            raise Rejection(f"{name}'s Cards List has no {card_type} line (it lists {listed}).")
        _given_once(name, f"the {card_type} card feat boxes", entry.feats, counts)
        cards_list[card_type] = CardsListLine(count=entry.count, feats=entry.feats or list(counts))
    return msgspec.structs.replace(
        card,
        hand_size=card.hand_size or facts.hand_size,
        favored=card.favored or list(facts.favored),
        proficiencies=card.proficiencies or list(facts.proficiencies),
        skills=skills,
        powers=powers,
        cards_list=cards_list,
    )


def card_completed(state: State, event: CharacterCardCompleted) -> State:
    found = character(state, event.character_id)
    card = completed(found.name, found.card, event.card)
    return msgspec.structs.replace(state, characters=_replace(state, event.character_id, card=card))


def moved(state: State, event: CharacterMoved) -> State:
    mover, scenario = playing(state, event.character_id)
    if event.to not in scenario.places:
        raise Rejection(f"{event.to} is not a location of {scenario.name}.")
    fleet = state.fleet
    if scenario.turn is None:
        if event.moved_with:
            broken("Before the first turn each player places her own token; nobody sails along.")
        if fleet.anchored is not None and event.to != fleet.anchored:
            broken(
                f"The {fleet.current} is anchored at {fleet.anchored}, so every character starts there, "
                f"not at {event.to}."
            )
        return msgspec.structs.replace(state, characters=_replace(state, event.character_id, location=event.to))
    if scenario.turn != event.character_id and event.moved_with:
        broken(f"Only the character whose turn it is commands the ship; {mover.name} cannot take others along.")
    if not event.by_power:
        if scenario.turn != event.character_id:
            whose = state.characters[scenario.turn].name
            broken(
                f"It is {whose}'s turn: {mover.name} moves in {mover.name}'s own Move step (Your Turn: Move), or sails "
                f"along with {whose} (moved_with), or is moved by a card or power that says so (by_power)."
            )
        elif scenario.moved_this_turn:
            broken(
                f"{mover.name} has already moved this turn: the Move step moves her once (Your Turn: Move); a card or "
                "power that moves her again says so (by_power)."
            )
    if event.to == mover.location:
        elsewhere = [name for name in scenario.places if name != event.to]
        if elsewhere:
            broken(
                f"{mover.name} is at {event.to} already: a character moves to her own location only when there is "
                f"no other location to move to, and {listing(elsewhere)} {'is' if len(elsewhere) == 1 else 'are'} "
                "in play (Core Rules FAQ, moving; closed locations may be moved to as well)."
            )
    if scenario.turn == event.character_id and not event.by_power:
        scenario = steps.enter(state, scenario, "move", event.character_id, f"{mover.name} moving to {event.to}")
        state = msgspec.structs.replace(state, scenario=msgspec.structs.replace(scenario, moved_this_turn=True))
    characters = _replace(state, event.character_id, location=event.to)
    if event.moved_with:
        if fleet.anchored is not None:
            broken(f"The {fleet.current} is anchored at {fleet.anchored}: nobody can sail along with {mover.name}.")
        if fleet.wrecked:
            broken(f"The {fleet.current} is wrecked: other characters cannot move with {mover.name}.")
        for other_id in event.moved_with:
            other, _ = playing(state, other_id)
            if other.location != mover.location:
                broken(f"{other.name} is at {other.location}, not on the ship with {mover.name} at {mover.location}.")
            characters[other_id] = msgspec.structs.replace(other, location=event.to)
    return msgspec.structs.replace(state, characters=characters)


def damage_dealt(state: State, event: DamageDealt) -> State:
    found, _ = playing(state, event.character_id)
    if event.amount < 0:
        raise Rejection(f"{found.name} cannot be dealt {event.amount} damage.")
    hand = state.zones.get(character_key(event.character_id, "hand"))
    in_hand = sum(hand.known.values()) if hand else 0
    # Damage discards that many cards from the hand; a short hand is discarded whole and the rest ignored.
    owed = min(event.amount, in_hand)
    if not owed:
        return state
    return msgspec.structs.replace(state, owed=Owed("damage", owed, event.character_id))


def died(state: State, event: CharacterDied) -> State:
    found, scenario = playing(state, event.character_id)
    work = Work(state)
    buried = character_key(event.character_id, "buried")
    # Bury deck, hand, recovery pile, displayed cards and discards (Core rules; the 2013 text names three of them).
    for zone in CHARACTER_ZONES:
        if zone != "buried":
            work.gather(character_key(event.character_id, zone), buried)
    characters = _replace(state, event.character_id, alive=False, died_in=state.scenarios_played, location=None)
    orders = {who: order for who, order in state.deck_order.items() if who != event.character_id}
    dead = work.commit(characters=characters, owed=None, deck_order=orders)
    if all(not characters[member].alive for member in scenario.party):
        return lose(dead, "every character is dead")
    return dead


def revived(state: State, event: CharacterRevived) -> State:
    found = character(state, event.character_id)
    scenario = state.scenario
    if found.alive:
        raise Rejection(f"{found.name} is alive; only the dead return from death.")
    if scenario is None or event.character_id not in scenario.party:
        broken(
            f"{found.name} can return from death by a card's power only during the scenario she died in; after it, "
            "spend hero points (hero_point.spent for return_from_death)."
        )
    return msgspec.structs.replace(state, characters=_replace(state, event.character_id, alive=True, died_in=None))


def hero_point_awarded(state: State, event: HeroPointAwarded) -> State:
    found = character(state, event.character_id)
    if not found.alive:
        broken(f"{found.name} is dead and cannot be awarded a hero point.")
    characters = _replace(state, event.character_id, hero_points=found.hero_points + 1)
    return msgspec.structs.replace(state, characters=characters, fresh_hero_point=event.character_id)


def hero_point_spent(state: State, event: HeroPointSpent) -> State:
    found = character(state, event.character_id)
    if found.hero_points < 1:
        raise Rejection(f"{found.name} has no hero point to spend.")
    if event.for_ == "feat":
        if state.fresh_hero_point != event.character_id:
            broken(
                f"{found.name} can spend a hero point on a feat only when it is awarded, right after "
                "hero_point.awarded."
            )
        characters = _replace(state, event.character_id, hero_points=found.hero_points - 1)
        # The feat it buys is the next event (Core Rules FAQ, Hero Points: "immediately spend it to gain a feat").
        return msgspec.structs.replace(state, characters=characters, hero_feat=event.character_id)
    if event.for_ == "reroll":
        playing(state, event.character_id)
        characters = _replace(state, event.character_id, hero_points=found.hero_points - 1)
        return msgspec.structs.replace(state, characters=characters)
    # Return from death: after the scenario, spend all hero points (at least 1).
    if found.alive:
        raise Rejection(f"{found.name} is alive; there is no death to return from.")
    if state.scenario is not None:
        broken(f"{found.name} can spend hero points to return from death only after the scenario ends.")
    if found.died_in != state.scenarios_played:
        broken(f"{found.name}'s death is permanent: it was not in the scenario just played.")
    work = Work(state)
    deck = character_key(event.character_id, "deck")
    # Her cards went to the party's spare cards when the scenario ended; they come back to her deck.
    for name, count in _own_cards(state, event.character_id).items():
        take = min(count, work.known(SET_ASIDE, name))
        if take:
            work.add_known(SET_ASIDE, name, -take)
            work.add_known(deck, name, take)
    characters = _replace(state, event.character_id, alive=True, died_in=None, hero_points=0)
    return work.commit(characters=characters)


def _own_cards(state: State, character_id: str) -> dict[str, int]:
    """The cards a character had when she died, as the scenario's end recorded them."""
    return state.dead_cards.get(character_id, {})
