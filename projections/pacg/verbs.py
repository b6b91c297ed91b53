"""The rulebook's verbs: which zones each one may move a card between (card.moved)."""

from __future__ import annotations

import msgspec

from quartermaster.events.pacg import CHARACTER_ZONES, CardMoved, Zone
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.pacg import steps
from quartermaster.projections.pacg.deck_order import after_move, check_draw
from quartermaster.projections.pacg.encounter import encounter_moved, explored
from quartermaster.projections.pacg.fleet import check_can_stash
from quartermaster.projections.pacg.state import Scenario, State
from quartermaster.projections.pacg.zones import Work, describe, not_there

_ALL = frozenset(
    CHARACTER_ZONES
    | {"vault", "location", "plunder", "hourglass", "hourglass_discard", "encounter", "set_aside", "dealt"}
)
_OWN = CHARACTER_ZONES

# verb -> [(from kinds, to kinds, relation)]; relation "same": one character's own zones; "other": from one
# character to another; "here": the card stays where it is (reveal, examine); "any": no character relation.
RULES: dict[str, list[tuple[frozenset[str], frozenset[str], str]]] = {
    "draw": [
        (frozenset({"deck", "discard", "buried", "recovery", "displayed"}), frozenset({"hand"}), "same"),
        (frozenset({"vault", "encounter"}), frozenset({"hand"}), "any"),
    ],
    "acquire": [(frozenset({"encounter"}), frozenset({"hand"}), "any")],
    "discard": [
        (frozenset({"hand", "deck", "displayed", "recovery", "set_aside"}), frozenset({"discard"}), "same"),
        (frozenset({"hourglass"}), frozenset({"hourglass_discard"}), "any"),
    ],
    "recharge": [(frozenset({"hand", "discard", "displayed", "recovery", "set_aside"}), frozenset({"deck"}), "same")],
    "bury": [
        (frozenset({"hand", "deck", "discard", "displayed", "recovery", "set_aside"}), frozenset({"buried"}), "same")
    ],
    "banish": [(_ALL - {"vault", "dealt"}, frozenset({"vault"}), "any")],
    "display": [
        (frozenset({"hand"}), frozenset({"displayed"}), "same"),
        (frozenset({"encounter"}), frozenset({"displayed"}), "any"),
    ],
    "reveal": [
        (frozenset({"hand", "deck"}), frozenset({"hand", "deck"}), "here"),
        (frozenset({"location"}), frozenset({"encounter"}), "any"),
        (frozenset({"location", "plunder", "hourglass"}), frozenset({"location", "plunder", "hourglass"}), "here"),
    ],
    "give": [(frozenset({"hand"}), frozenset({"hand"}), "other"), (frozenset({"deck"}), frozenset({"deck"}), "other")],
    "shuffle": [
        (frozenset({"hand", "discard", "displayed", "recovery"}), frozenset({"deck"}), "same"),
        (frozenset({"encounter"}), frozenset({"location", "deck"}), "any"),
    ],
    "reload": [(frozenset({"hand", "discard"}), frozenset({"deck"}), "same")],
    "stash": [(frozenset({"vault"}), frozenset({"plunder"}), "any")],
    "return": [
        (frozenset({"encounter", "set_aside"}), frozenset({"vault", "location", "deck", "hand", "discard"}), "any")
    ],
    "summon": [(frozenset({"vault"}), frozenset({"encounter"}), "any")],
    "set_aside": [(_OWN | {"encounter"}, frozenset({"set_aside"}), "any")],
}


# (verb, from kind, to kind) -> the relations that allow it, built once.
_RELATIONS: dict[tuple[str, str, str], tuple[str, ...]] = {}
for _verb, _rules in RULES.items():
    for _from_kinds, _to_kinds, _relation in _rules:
        for _f in _from_kinds:
            for _t in _to_kinds:
                _RELATIONS[(_verb, _f, _t)] = (*_RELATIONS.get((_verb, _f, _t), ()), _relation)


def _allowed(verb: str, source: Zone, target: Zone) -> bool:
    for relation in _RELATIONS.get((verb, source.zone, target.zone), ()):
        # A card played and set aside (FAQ: until a check decides where it goes) belongs to no zone of a character.
        if relation == "same" and source.zone != "set_aside" and source.character_id != target.character_id:
            continue
        if relation == "other" and source.character_id == target.character_id:
            continue
        if relation == "here" and source != target:
            continue
        return True
    return False


def _allowed_words(verb: str) -> str:
    pairs = [f"{' or '.join(sorted(a))} to {' or '.join(sorted(b))}" for a, b, _ in RULES[verb]]
    return "; ".join(pairs)


def _check_zone(state: State, zone: Zone, during: bool) -> str:
    """The zone's key (`merisiel:hand`, `location:Raker Shoals`, `vault`), once the zone is one a card can be in now."""
    kind = zone.zone
    if kind in CHARACTER_ZONES:
        if zone.character_id is None:
            raise Rejection(f"A card in a {kind} zone needs the character_id it belongs to.")
        character = state.characters.get(zone.character_id)
        if character is None:
            raise Rejection(f"No character {zone.character_id} has joined this campaign.")
        scenario = state.scenario
        if during and scenario is not None:
            if zone.character_id not in scenario.party:
                raise Rejection(f"{character.name} is not playing {scenario.name}.")
            if not character.alive:
                raise Rejection(f"{character.name} is dead and can do nothing for the rest of {scenario.name}.")
        return f"{zone.character_id}:{kind}"
    if zone.character_id is not None:
        raise Rejection(f"The {kind} belongs to no character; leave out character_id.")
    if kind == "location":
        if zone.location is None:
            raise Rejection("A card in a location zone needs the location's name.")
        scenario = state.scenario
        if scenario is None or zone.location not in scenario.places:
            where = f"{scenario.name}" if scenario else "any scenario in progress"
            raise Rejection(f"{zone.location} is not a location of {where}.")
        return f"location:{zone.location}"
    return kind


def card_moved(state: State, event: CardMoved) -> State:
    """A card moved between zones by one of the rulebook's verbs, from where it really is."""
    if event.explorer is not None or event.explore_again:
        plain = msgspec.structs.replace(event, explorer=None, explore_again=False)
        return card_moved(msgspec.structs.replace(state, scenario=explored(state, event)), plain)
    source, target, verb, card = event.from_, event.to, event.verb, event.card
    trading = verb == "give" and source.zone == "deck"
    from_key, to_key = _zone_keys(state, event, trading)
    _after_the_reset(state, event)
    scenario = _giving(state, event) if verb == "give" and not trading else state.scenario
    if verb == "stash":
        check_can_stash(state)
        if isinstance(card, str):
            raise Rejection("A plunder card is stashed face down: give its type as {hidden: type}, not its name.")
    work = Work(state)
    _know_card(work, event)
    if verb == "summon":
        if not isinstance(card, str):
            raise Rejection("Name the card you summon; a summoned card is read at once.")
        work.info(card)
        work.summon(card)
        return encounter_moved(state, work.commit(), event)
    if verb == "draw" and source.zone == "deck":
        _check_drawing(state, work, event, from_key)
    if from_key == to_key:
        return _revealed(state, work, event, from_key)
    work.move(from_key, to_key, card)
    changes: dict[str, object] = {}
    if source.zone == "deck" or target.zone == "deck":
        changes["deck_order"] = after_move(state, event)
    if verb == "give" and not trading and scenario is not None:
        changes["scenario"] = msgspec.structs.replace(scenario, gave_this_turn=True)
    after = work.commit(**changes)
    if source.zone == "encounter" or target.zone == "encounter":
        return encounter_moved(state, after, event)
    return after


def _zone_keys(state: State, event: CardMoved, trading: bool) -> tuple[str, str]:
    """The keys of the zones a card moves between, each checked, and the verb checked against them."""
    source, target, verb = event.from_, event.to, event.verb
    if trading:
        if state.scenario is not None:
            broken("Characters trade cards from their decks between scenarios, not during one.")
    elif state.scenario is None:
        raise Rejection("No scenario is in progress: cards move between zones only while one is played.")
    from_key = _check_zone(state, source, True)
    if source.character_id is not None and target.character_id == source.character_id and target.zone in _OWN:
        # Another zone of the character just checked (most moves: draw, discard, recharge, bury): the same checks.
        to_key = f"{target.character_id}:{target.zone}"
    else:
        to_key = _check_zone(state, target, True)
    if not _allowed(verb, source, target):
        broken(
            f"{verb.capitalize().replace('_', ' ')} moves a card only from {_allowed_words(verb)}; "
            f"not from {describe(state, from_key)} to {describe(state, to_key)}."
        )
    return from_key, to_key


def _after_the_reset(state: State, event: CardMoved) -> None:
    """Once the active character resets her hand, she plays no more cards this turn: only the reset's own discards
    and draws follow (Your Turn: Reset Your Hand: "After resolving these effects, you may no longer play cards or use
    powers for the rest of the turn"). End-of-turn effects come before the reset is logged."""
    scenario, source = state.scenario, event.from_
    if scenario is None or scenario.turn is None or not scenario.reset_done:
        return
    if source.zone != "hand" or source.character_id != scenario.turn or event.verb == "discard":
        return
    name = state.characters[scenario.turn].name
    broken(
        f"{name} has reset her hand: after the end-of-turn effects she may no longer play cards or use powers this "
        f"turn, so only the reset's discards and draws follow, not a {event.verb.replace('_', ' ')} (Skull & Shackles "
        "Rulebook, Your Turn: Reset Your Hand)."
    )


def _giving(state: State, event: CardMoved) -> Scenario | None:
    """A card given during a scenario (Give a Card step): the scenario with the turn at that step."""
    source, target, scenario = event.from_, event.to, state.scenario
    giver = state.characters[source.character_id or ""]
    taker = state.characters[target.character_id or ""]
    if scenario is not None and scenario.turn != source.character_id:
        broken(f"{giver.name} can give a card only on {giver.name}'s own turn.")
    if scenario is not None:
        scenario = steps.enter(
            state, scenario, "give", source.character_id or "", f"{giver.name} giving a card to {taker.name}"
        )
    if scenario is not None and scenario.gave_this_turn:
        broken(
            f"{giver.name} has already given a card this turn: the Give a Card step gives 1 card from the hand "
            "to another character at the same location, once a turn."
        )
    if giver.location != taker.location:
        broken(
            f"{giver.name} is at {giver.location} and {taker.name} at {taker.location}: a card is given only "
            "to a character at the same location."
        )
    return scenario


def _know_card(work: Work, event: CardMoved) -> None:
    """A named card is one the log knows, or becomes known here by the type the table gives it."""
    card = event.card
    if event.card_type is not None:
        if not isinstance(card, str):
            raise Rejection("A face-down card is known by its type already; card_type goes with a named card.")
        work.define(card, event.card_type)
    elif isinstance(card, str) and work.card(card) is None:
        raise Rejection(
            f"Quartermaster knows no card named {card}: say its type (card_type) the first time the table names it."
        )


def _check_drawing(state: State, work: Work, event: CardMoved, from_key: str) -> None:
    """A draw from a deck: the deck holds a card, and the card drawn may be the one on top."""
    source, card = event.from_, event.card
    if not work.holds(from_key):
        name = state.characters[source.character_id or ""].name
        raise Rejection(
            f"{name}'s deck is empty: {name} cannot draw from it. A character who must draw from an empty deck "
            "dies (character.died)."
        )
    if isinstance(card, str):
        check_draw(state, source.character_id or "", card)


def _revealed(state: State, work: Work, event: CardMoved, key: str) -> State:
    """A card shown where it stays: in a hand or deck it must be there; a face-down card becomes known by name."""
    card = event.card
    if not isinstance(card, str):
        raise Rejection(f"Name the card revealed in {describe(state, key)}.")
    if event.from_.zone in ("hand", "deck"):
        if work.known(key, card) < 1:
            raise Rejection(not_there(state, card, key))
        return state
    # Examining a face-down card: it stays where it is, now known by name.
    work.move(key, key, card)
    return work.commit()
