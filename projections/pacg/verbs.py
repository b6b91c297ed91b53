"""The rulebook's verbs: which zones each one may move a card between (card.moved)."""

from __future__ import annotations

import msgspec

from events.pacg import CHARACTER_ZONES, CardMoved, HiddenCard, Zone
from projections.game import Rejection
from projections.pacg.scenario import explored
from projections.pacg.state import Pile, State
from projections.pacg.zones import ENCOUNTER, VAULT, Work, describe, key_of

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


def _check_zone(state: State, zone: Zone, during: bool) -> None:
    if zone.zone in CHARACTER_ZONES:
        if zone.character_id is None:
            raise Rejection(f"A card in a {zone.zone} zone needs the character_id it belongs to.")
        character = state.characters.get(zone.character_id)
        if character is None:
            raise Rejection(f"No character {zone.character_id} has joined this campaign.")
        scenario = state.scenario
        if during and scenario is not None:
            if zone.character_id not in scenario.party:
                raise Rejection(f"{character.name} is not playing {scenario.name}.")
            if not character.alive:
                raise Rejection(f"{character.name} is dead and can do nothing for the rest of {scenario.name}.")
    elif zone.character_id is not None:
        raise Rejection(f"The {zone.zone} belongs to no character; leave out character_id.")
    if zone.zone == "location":
        if zone.location is None:
            raise Rejection("A card in a location zone needs the location's name.")
        scenario = state.scenario
        if scenario is None or zone.location not in scenario.places:
            where = f"{scenario.name}" if scenario else "any scenario in progress"
            raise Rejection(f"{zone.location} is not a location of {where}.")


_EMPTY = Pile()


def _bumped(counts: dict[str, int], name: str, by: int) -> dict[str, int]:
    """A copy of the counts with one changed; a count that reaches 0 is dropped."""
    counts = counts.copy()
    value = counts.get(name, 0) + by
    if value:
        counts[name] = value
    else:
        del counts[name]
    return counts


def _plain_move(state: State, from_key: str, to_key: str, name: str) -> State | None:
    """The common moves, done on the few counts they change (Work does the rest, with the same results).

    A card known by name leaves a zone other than the vault (to the vault: its counts there go up), or a face-down
    card of its type turns out to be it on its way to a zone other than the vault. None for anything else (the
    vault as the source, summoned copies, dealt cards, refusals), which Work handles.
    """
    zones = state.zones
    source = zones.get(from_key)
    if source is None or from_key == VAULT:
        return None
    if from_key == ENCOUNTER and state.imagined.get(name):
        return None
    zones = zones.copy()
    have = source.known.get(name, 0)
    if have:
        zones[from_key] = Pile(_bumped(source.known, name, -1), source.hidden)
        if to_key == VAULT:
            card_type = state.cards[name].type
            vault = zones.get(VAULT, _EMPTY)
            zones[VAULT] = Pile(_bumped(vault.known, name, 1), vault.hidden)
            return msgspec.structs.replace(state, zones=zones, vault_types=_bumped(state.vault_types, card_type, 1))
    else:
        info = state.cards.get(name)
        if info is None or to_key == VAULT:
            return None
        card_type = info.type
        if not source.hidden.get(card_type):
            return None
        vault = zones.get(VAULT, _EMPTY)
        if not vault.known.get(name):
            return None
        # A face-down card dealt out of the vault turns out to be this one: it leaves the vault's counts.
        zones[from_key] = Pile(source.known, _bumped(source.hidden, card_type, -1))
        zones[VAULT] = Pile(_bumped(vault.known, name, -1), vault.hidden)
        target = zones.get(to_key, _EMPTY)
        zones[to_key] = Pile(_bumped(target.known, name, 1), target.hidden)
        return msgspec.structs.replace(
            state,
            zones=zones,
            vault_types=_bumped(state.vault_types, card_type, -1),
            face_down_out=_bumped(state.face_down_out, card_type, -1),
        )
    target = zones.get(to_key, _EMPTY)
    zones[to_key] = Pile(_bumped(target.known, name, 1), target.hidden)
    return msgspec.structs.replace(state, zones=zones)


def card_moved(state: State, event: CardMoved) -> State:
    if event.explorer is not None or event.explore_again:
        scenario = explored(state, event)
        plain = msgspec.structs.replace(event, explorer=None, explore_again=False)
        return msgspec.structs.replace(card_moved(state, plain), scenario=scenario)
    source, target, verb, card = event.from_, event.to, event.verb, event.card
    scenario = state.scenario
    trading = verb == "give" and source.zone == "deck"
    if trading:
        if scenario is not None:
            raise Rejection("Characters trade cards from their decks between scenarios, not during one.")
    elif scenario is None:
        raise Rejection("No scenario is in progress: cards move between zones only while one is played.")
    _check_zone(state, source, True)
    _check_zone(state, target, True)
    if not _allowed(verb, source, target):
        raise Rejection(
            f"{verb.capitalize().replace('_', ' ')} moves a card only from {_allowed_words(verb)}; "
            f"not from {describe(state, key_of(source))} to {describe(state, key_of(target))}."
        )
    from_key, to_key = key_of(source), key_of(target)
    if verb == "give" and not trading:
        giver = state.characters[source.character_id or ""]
        taker = state.characters[target.character_id or ""]
        if scenario is not None and scenario.turn != source.character_id:
            raise Rejection(f"{giver.name} can give a card only on {giver.name}'s own turn.")
        if giver.location != taker.location:
            raise Rejection(
                f"{giver.name} is at {giver.location} and {taker.name} at {taker.location}: a card is given only "
                "to a character at the same location."
            )
    if verb == "stash":
        from projections.pacg.fleet import check_can_stash

        check_can_stash(state)
        if type(card) is not HiddenCard:
            raise Rejection("A plunder card is stashed face down: give its type as {hidden: type}, not its name.")
    if type(card) is str and from_key != to_key and verb != "stash" and verb != "summon":
        moved = _plain_move(state, from_key, to_key, card)
        if moved is not None:
            return moved
    work = Work(state)
    if verb == "summon":
        if type(card) is HiddenCard:
            raise Rejection("Name the card you summon; a summoned card is read at once.")
        work.info(card)
        work.summon(card)
        return work.commit()
    if verb == "draw" and source.zone == "deck" and work.size(from_key) == 0:
        name = state.characters[source.character_id or ""].name
        raise Rejection(
            f"{name}'s deck is empty: {name} cannot draw from it. A character who must draw from an empty deck "
            "dies (character.died)."
        )
    if from_key == to_key:
        if type(card) is HiddenCard:
            raise Rejection(f"Name the card revealed in {describe(state, from_key)}.")
        if source.zone in ("hand", "deck"):
            if work.known(from_key, card) < 1:
                from projections.pacg.zones import not_there

                raise Rejection(not_there(state, card, from_key))
            return state
        # Examining a face-down card: it stays where it is, now known by name.
        work.move(from_key, to_key, card)
        return work.commit()
    work.move(from_key, to_key, card)
    return work.commit()
