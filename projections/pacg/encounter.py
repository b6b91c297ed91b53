"""Exploring and encounters: the exploration, the cards in the encounter, closing locations, and the villain's escape."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from quartermaster.events.campaign import DiceRolled
from quartermaster.events.pacg import CardMoved, CardPower, EncounterEnded, VillainEscaped
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.pacg import powers, steps
from quartermaster.projections.pacg.characters import playing
from quartermaster.projections.pacg.ending import lose
from quartermaster.projections.pacg.scenario import in_progress
from quartermaster.projections.pacg.state import Encountering, Pile, Place, Scenario, State
from quartermaster.projections.pacg.zones import DEALT, ENCOUNTER, HOURGLASS, Work, listing, location_key, word

_EMPTY = Pile()


def _playing(state: State) -> Scenario:
    """The scenario in progress (a lost one has already ended: Ending a Scenario, Adventure, or Adventure Path)."""
    return in_progress(state)


def explored(state: State, event: CardMoved) -> Scenario:
    """The scenario after an exploration that names its explorer, who explores her own location on her own turn."""
    source, target = event.from_, event.to
    if event.explorer is None:
        raise Rejection("An exploration a card or power grants (explore_again) names its explorer.")
    if event.verb != "reveal" or source.zone != "location" or target.zone != "encounter":
        raise Rejection(
            f"Only exploring names an explorer: a card revealed from a location to the encounter, not {event.verb} "
            f"from {source.zone} to {target.zone}."
        )
    explorer, scenario = playing(state, event.explorer)
    name = explorer.name
    if scenario.turn != event.explorer:
        whose = f"it is {state.characters[scenario.turn].name}'s turn" if scenario.turn else "no turn has started yet"
        # The rulebook's "never" (Your Turn: Explore): no card overrules it.
        broken(f"{name} may never explore on another player's turn: {whose}.")
    steps.finished_encounter(state, f"{name} explores")
    scenario = steps.enter(state, scenario, "explore", event.explorer, f"{name} exploring {source.location}")
    if explorer.location != source.location:
        broken(f"{name} is at {explorer.location} and explores that location, not {source.location}.")
    if scenario.explored_this_turn and not event.explore_again and state.options.explore_once_per_turn:
        broken(
            f"{name} has already explored this turn: the free exploration is the first of the turn, and {name} "
            "explores again only when a card or power allows it (explore_again)."
        )
    if scenario.explored_this_turn:
        return scenario
    return msgspec.structs.replace(scenario, explored_this_turn=True)


def reopened(places: dict[str, Place]) -> dict[str, Place]:
    """Temporary closures last for one encounter with the villain; they open again after it."""
    for place in places.values():
        if place.temporarily_closed:
            break
    else:
        return places
    return {name: Place(closed=place.closed) if place.temporarily_closed else place for name, place in places.items()}


def _villain_encounter_over(scenario: Scenario) -> Scenario:
    """The villain's encounter is over: temporary closures open again (Encountering a Villain)."""
    return msgspec.structs.replace(scenario, villain_at=None, villain_outcome=None, places=reopened(scenario.places))


def encounter_ended(state: State, event: EncounterEnded) -> State:
    scenario = _playing(state)
    encounter = state.zones.get(ENCOUNTER, _EMPTY)
    if not encounter.known.get(event.card):
        held = listing(sorted(encounter.known)) or "nothing"
        raise Rejection(f"{event.card} is not being encountered (the encounter holds {held}).")
    entry = _latest(scenario.encounters, event.card)
    info = state.cards[event.card]
    if info.type == "villain" and scenario.villain_at is not None and (entry is None or entry.location is not None):
        if scenario.villain_outcome is not None:
            raise Rejection(f"The encounter with {event.card} already ended: {scenario.villain_outcome}.")
        if entry is not None:
            # The villain's encounter "works exactly as it does with other banes" (Encountering a Villain).
            check_outcome(state, entry, event.outcome)
        scenario = msgspec.structs.replace(scenario, villain_outcome=event.outcome)
        if event.outcome == "evaded":
            # Evaded, the villain is neither defeated nor undefeated and the encounter is over.
            scenario = msgspec.structs.replace(scenario, places=reopened(scenario.places))
        return msgspec.structs.replace(state, scenario=scenario)
    if entry is not None:
        if entry.outcome is not None:
            raise Rejection(f"The encounter with {event.card} already ended: {entry.outcome}.")
        check_outcome(state, entry, event.outcome)
        index = len(scenario.encounters) - 1 - scenario.encounters[::-1].index(entry)
        ended = msgspec.structs.replace(entry, outcome=event.outcome)
        scenario = msgspec.structs.replace(
            scenario, encounters=[*scenario.encounters[:index], ended, *scenario.encounters[index + 1 :]]
        )
    if (
        event.outcome == "defeated"
        and entry is not None
        and entry.location is not None
        and info.type == "henchman"
        and lets_close(info.powers)
    ):
        scenario = _may_close(scenario, entry.location, entry.character_id)
    return msgspec.structs.replace(state, scenario=scenario)


def _encounterer(state: State, entry: Encountering) -> str:
    found = state.characters.get(entry.character_id or "")
    return found.name if found is not None else "the character who encountered it"


def _checked(entry: Encountering) -> str:
    if entry.total is not None and entry.difficulty is not None:
        return f" ({entry.total} against a difficulty of {entry.difficulty})"
    return ""


def check_outcome(state: State, entry: Encountering, outcome: str) -> None:
    """The outcome of an encounter follows the check logged against the card (Encountering a Card: evasion comes
    before the check; Attempting a Check), and a card whose summoned ship was not defeated is undefeated."""
    card, who = entry.card, _encounterer(state, entry)
    printed = powers.card_powers(state, card)
    if outcome == "evaded":
        for power in powers.of_kind(printed, "may_not_be_evaded"):
            broken(f'{card} may not be evaded: "{power.text}" (the card wins: The Golden Rule).')
    if outcome == "defeated":
        for power in powers.of_kind(printed, "cannot_be_defeated"):
            broken(f'{card} cannot be defeated: "{power.text}"; it is undefeated.')
    if state.cards[card].type in BOONS and outcome != "evaded":
        broken(
            f"{card} is a boon: {who} acquires it or not (card.moved acquire, or banish); a boon is never {outcome} "
            "(Your Turn: Explore)."
        )
        return
    if entry.doubtful and outcome in ("defeated", "undefeated"):
        # A reroll replaces a result, sequential checks all count: the log cannot tell them apart.
        return
    if entry.success is True and outcome != "defeated":
        broken(
            f"{who}'s check to defeat {card} succeeded{_checked(entry)}: {card} is defeated, not {outcome} "
            "(Skull & Shackles Rulebook, Attempting a Check)."
        )
    elif entry.success is False and outcome != "undefeated":
        broken(
            f"{who}'s check to defeat {card} failed{_checked(entry)}: {card} is undefeated, not {outcome} "
            "(Skull & Shackles Rulebook, Attempting a Check)."
        )
    if outcome == "defeated" and entry.ship is not None and entry.ship_defeated is not True:
        how = "is still being encountered" if entry.ship_defeated is None else "was not defeated"
        broken(
            f"The {entry.ship} that {card} summoned {how}, so {card} is not defeated: if you do not defeat the "
            "summoned ship, the Enemy Ship is undefeated (Ships and Henchmen, Enemy Ship)."
        )


# The card types a character acquires (boons, and loot); every other type encountered is a bane.
BOONS = frozenset({"weapon", "spell", "armor", "item", "ally", "blessing", "loot"})


def check_fate(state: State, entry: Encountering, event: CardMoved) -> None:
    """Where a card goes when its encounter is over follows its type and the result (Encountering a Card;
    Attempting a Check; Summoning and Adding Cards): a summoned card is never part of a location deck; a boon is
    acquired by the character who encountered it, or banished when the check failed or was not attempted; a loot
    card met in a location is acquired; a defeated bane is banished and an undefeated one shuffled back."""
    card, target, verb = entry.card, event.to, event.verb
    info = state.cards[card]
    who = _encounterer(state, entry)
    if info.type == "villain" and entry.location is not None:
        return
    if info.type in BOONS and verb in ("acquire", "draw") and target.zone == "hand" and entry.named:
        if entry.character_id is not None and target.character_id != entry.character_id:
            taker = state.characters[target.character_id or ""].name
            broken(
                f"{who} encountered {card}: only the character who encounters a card may acquire it, not "
                f"{taker} (Skull & Shackles Rulebook, Things to Keep in Mind: No One Else Can Take Your Turn for "
                "You)."
            )
    if entry.location is None:
        if target.zone == "location":
            broken(
                f"{card} was summoned: cards that you summon are not part of any location deck, and a summoned card "
                "is banished after its encounter (Skull & Shackles Rulebook, Summoning and Adding Cards)."
            )
        if info.type in BOONS and verb in ("acquire", "draw") and entry.success is False:
            broken(f"{who} failed the check to acquire {card}{_checked(entry)}: it is banished, not acquired.")
        return
    if info.type in BOONS:
        if verb in ("acquire", "draw") and target.zone == "hand":
            if entry.success is False and info.type != "loot":
                broken(
                    f"{who} failed the check to acquire {card}{_checked(entry)}: a boon not acquired is banished "
                    "(Attempting a Check)."
                )
        elif verb == "banish":
            if info.type == "loot":
                broken(
                    f"{card} is a loot card met in {entry.location}: it is acquired with no check, into {who}'s hand."
                )
            elif entry.success is True:
                broken(f"{who} succeeded at the check to acquire {card}{_checked(entry)}: it goes into {who}'s hand.")
        elif target.zone == "location" and entry.outcome != "evaded":
            broken(
                f"{card} is a boon: if {who} does not acquire it, it is banished; it goes back into the location deck "
                "only when evaded (Your Turn: Explore; Encountering a Card)."
            )
        return
    if target.zone == "hand":
        broken(f"{card} is a bane: it is defeated or not, never acquired into a hand (Encountering a Card).")
    decided = entry.outcome is None and not entry.doubtful
    defeated = entry.outcome == "defeated" or (decided and entry.success is True)
    undefeated = entry.outcome == "undefeated" or (decided and entry.success is False)
    if verb == "banish" and undefeated and not powers.of_kind(info.powers, "banish_when_undefeated"):
        broken(
            f"{card} is undefeated: an undefeated bane is shuffled back into the {entry.location} location deck, "
            "not banished (Attempting a Check)."
        )
    if target.zone == "location":
        if defeated:
            broken(f"{card} was defeated: a defeated bane is banished, not shuffled back (Attempting a Check).")
        elif target.location != entry.location:
            broken(f"{card} came from the {entry.location} location deck and is shuffled back into it, not elsewhere.")


def _latest(encounters: list[Encountering], card: str) -> Encountering | None:
    for entry in reversed(encounters):
        if entry.card == card:
            return entry
    return None


def lets_close(printed: tuple[CardPower, ...]) -> bool:
    """A defeated henchman lets its location close when its card says so; a card whose text the log does not hold is
    taken at the rulebook's usual word (Closing a Location: New: Henchmen and Closing Locations). A henchman whose
    card opens the opportunity on being encountered has already opened it."""
    return not printed or bool(powers.of_kind(printed, "close_when_defeated", "close_when_encountered"))


def _may_close(scenario: Scenario, location: str, who: str | None = None) -> Scenario:
    closers = {**scenario.closers, location: who} if who is not None else scenario.closers
    if location in scenario.may_close:
        return msgspec.structs.replace(scenario, closers=closers)
    return msgspec.structs.replace(scenario, may_close=[*scenario.may_close, location], closers=closers)


def encounter_moved(before: State, after: State, event: CardMoved) -> State:
    """The encounters in progress once a card has moved into or out of the encounter."""
    scenario = after.scenario
    if scenario is None or not isinstance(event.card, str):
        return after
    card, source, target = event.card, event.from_, event.to
    info = after.cards[card]
    if target.zone == ENCOUNTER and source.zone != ENCOUNTER:
        origin = source.location if source.zone == "location" else None
        # The character whose turn it is encounters what she explores or summons (Encountering a Card), unless an
        # effect has another character summon and encounter it (Summoning and Adding Cards).
        who, named = scenario.turn, origin is not None
        if event.encountered_by is not None and event.explorer is None:
            playing(after, event.encountered_by)
            who, named = event.encountered_by, True
        met = Encountering(card, origin, who, named=named)
        # A henchman's "you may immediately attempt to close" is offered right after its encounter, not after the
        # next one (Closing a Location): a new encounter begins, and the opportunity has passed.
        scenario = msgspec.structs.replace(scenario, encounters=[*scenario.encounters, met], may_close=[], closers={})
        if info.type == "villain" and origin is not None:
            scenario = msgspec.structs.replace(scenario, villain_at=origin, villain_outcome=None)
        if origin is not None and info.type == "henchman" and powers.of_kind(info.powers, "close_when_encountered"):
            # "When you encounter the Pirate Shade Haunt, you may immediately attempt to close the location this
            # henchman came from": the opportunity opens with the encounter itself, not its defeat.
            scenario = _may_close(scenario, origin, who)
        return msgspec.structs.replace(after, scenario=scenario)
    if source.zone != ENCOUNTER or target.zone == ENCOUNTER:
        return after
    entry = _latest(scenario.encounters, card)
    if entry is not None:
        check_fate(before, entry, event)
        index = len(scenario.encounters) - 1 - scenario.encounters[::-1].index(entry)
        rest = scenario.encounters[:index] + scenario.encounters[index + 1 :]
        scenario = msgspec.structs.replace(scenario, encounters=rest)
        if (
            entry.location is not None
            and info.type == "henchman"
            and event.verb == "banish"
            and lets_close(info.powers)
        ):
            # A defeated bane is banished (Attempting a Check): its location may now be closed.
            scenario = _may_close(scenario, entry.location, entry.character_id)
    if info.type == "villain" and scenario.villain_at is not None and (entry is None or entry.location is not None):
        if target.zone == "location":
            if scenario.villain_outcome == "defeated":
                raise Rejection(
                    f"{card} was defeated: a defeated villain is never shuffled back into a location deck. Its "
                    "location closes, then it escapes into the open locations (villain.escaped), or the party wins."
                )
            if scenario.villain_outcome == "undefeated":
                raise Rejection(
                    f"{card} is undefeated: an undefeated villain escapes into the open locations, shuffled with "
                    "blessings from the hourglass (villain.escaped with defeated false)."
                )
        scenario = _villain_encounter_over(scenario)
    return msgspec.structs.replace(after, scenario=scenario)


def villain_escaped(state: State, event: VillainEscaped) -> State:
    scenario = _playing(state)
    outcome = scenario.villain_outcome
    said = "defeated" if event.defeated else "undefeated"
    if outcome in ("evaded",) or (outcome is not None and outcome != said):
        raise Rejection(
            f"{event.villain}'s encounter ended {outcome}, not {said}: "
            + (
                "an evaded villain is shuffled back into its location deck."
                if outcome == "evaded"
                else "record villain.escaped as it ended."
            )
        )
    at = scenario.villain_at
    if (
        event.defeated
        and at is not None
        and not scenario.places[at].closed
        and not scenario.places[at].temporarily_closed
    ):
        broken(
            f"{event.villain} was defeated at {at}: the villain's location closes first (location.closed), then the "
            "villain escapes into the other open locations (Encountering a Villain)."
        )
    open_places = [name for name, place in scenario.places.items() if not place.closed and not place.temporarily_closed]
    if not open_places:
        raise Rejection(f"{event.villain} has nowhere to escape to: the party wins (record scenario.ended won).")
    if sorted(event.to) != sorted(open_places):
        broken(f"{event.villain} escapes to every open location, that is {listing(open_places)}.")
    work = Work(state)
    work.move(ENCOUNTER, DEALT, event.villain)
    blessings = len(open_places) - 1
    if event.defeated:
        # A defeated villain is shuffled with blessings from the vault; an undefeated one with the hourglass's.
        work.vault_take_face_down("blessing", blessings)
        work.add_hidden(DEALT, "blessing", blessings)
        new = scenario
    else:
        left = work.hidden(HOURGLASS, "blessing")
        taken = min(left, blessings)
        work.add_hidden(HOURGLASS, "blessing", -taken)
        work.add_hidden(DEALT, "blessing", taken)
        new = scenario
        if left < blessings:
            short = f"the {word(state, 'hourglass')} ran out of cards to remove"
    for name in open_places:
        work.add_hidden(location_key(name), DEALT)
    entry = _latest(new.encounters, event.villain)
    if entry is not None:
        encounters = list(new.encounters)
        encounters.remove(entry)
        new = msgspec.structs.replace(new, encounters=encounters)
    escaped = work.commit(scenario=_villain_encounter_over(new))
    if not event.defeated and left < blessings:
        return lose(escaped, short)
    return escaped


def check_logged(state: State, roll: DiceRolled) -> State:
    """The state once a roll is logged: a check (a difficulty, or a success said) by the character encountering the
    latest card is that encounter's check, and its result decides the outcomes allowed (Attempting a Check); while the
    commander encounters an enemy ship, it is the check to defeat the ship (Encountering Ships). Another roll (damage,
    plunder, a check of another card's power) changes nothing."""
    scenario = state.scenario
    if scenario is None or roll.success is None:
        return state
    if roll.purpose is not None and not any(word in roll.purpose.lower() for word in _CHECK_WORDS):
        return state
    if scenario.ship_met is not None:
        if roll.difficulty is not None and roll.character_id in (None, scenario.ship_met.character_id):
            _ship_difficulty(state, scenario, scenario.ship_met.card, roll)
        ship = _with_check(state, scenario.ship_met, roll)
        return msgspec.structs.replace(state, scenario=msgspec.structs.replace(scenario, ship_met=ship))
    if not scenario.encounters:
        return state
    entry = scenario.encounters[-1]
    if entry.outcome is not None:
        return state
    info = state.cards.get(entry.card)
    if info is not None and roll.character_id in (None, entry.character_id):
        _raised_difficulty(scenario, entry.card, info.to_defeat, info.powers, roll)
    checked = _with_check(state, entry, roll)
    encounters = [*scenario.encounters[:-1], checked]
    return msgspec.structs.replace(state, scenario=msgspec.structs.replace(scenario, encounters=encounters))


def _ship_difficulty(state: State, scenario: Scenario, ship: str, roll: DiceRolled) -> None:
    card = state.fleet.ships.get(ship)
    if card is not None:
        _raised_difficulty(scenario, f"the {ship}", card.to_defeat, card.powers, roll)


def _raised_difficulty(
    scenario: Scenario, name: str, to_defeat: str | None, printed_powers: Iterable[CardPower], roll: DiceRolled
) -> None:
    """The check to defeat a card is at least as hard as the card prints it, raised by its own powers (Attempting a
    Check: Determine the Difficulty; the Wormwood: "increased by twice the adventure deck number, if any"; the
    Hammerhead Shark: "increased by the adventure deck number of the current scenario, if any")."""
    if roll.difficulty is None:
        return
    printed = powers.printed_checks(to_defeat)
    if not printed:
        return
    raised, raising = powers.raised_by(printed_powers, scenario.number)
    if not raising or raised <= 0:
        return
    skill = (roll.skill or "").strip().lower()
    base = printed[skill] if skill in printed else min(printed.values())
    if roll.difficulty < base + raised:
        said = "; ".join(f'"{power.text}"' for power in raising)
        broken(
            f"The check to defeat {name} is {to_defeat}, raised by {raised} in a scenario of adventure deck "
            f"{scenario.number} ({said}): its difficulty is at least {base + raised}, not {roll.difficulty}."
        )


def _with_check(state: State, entry: Encountering, roll: DiceRolled) -> Encountering:
    """The encounter once a check against its card is logged."""
    if roll.character_id is not None and not entry.named and entry.success is None:
        # A summoned card nobody was named for: the one who attempts its check is the one who encountered it.
        entry = msgspec.structs.replace(entry, character_id=roll.character_id, named=True)
    if roll.character_id is not None and entry.character_id is not None and roll.character_id != entry.character_id:
        # Sequential checks ("then"): any one character at the same location may attempt one of them, the one who
        # encountered the card at least one (Attempting a Check). Another's failed check there may leave the card
        # undefeated; it never decides alone.
        other = state.characters.get(roll.character_id)
        here = entry.location or state.characters[entry.character_id].location
        if other is None or other.location != here or roll.success is not False:
            return entry
        return msgspec.structs.replace(entry, doubtful=True)
    # A second check of the encounterer that disagrees is a reroll or the next of sequential checks.
    doubtful = entry.doubtful or (entry.success is not None and entry.success != roll.success)
    return msgspec.structs.replace(
        entry, difficulty=roll.difficulty, total=roll.total, success=roll.success, doubtful=doubtful
    )


# Words of a roll's purpose that make it the check against the card encountered ("check", "defeat the Bandit",
# "acquire Cutlass", "Combat"); a purpose without them ("damage", "plunder", "close") is another roll.
_CHECK_WORDS = ("check", "defeat", "acquire", "combat")
