"""Every event told as a short sentence in the game's words, from its payload and the state it was folded in.

Each game has a `sentences` module whose `SENTENCES` table maps every event type it accepts (the common ones
included, through `common`) to a function `(state, event) -> str`, where `state` is the state right before the
event. A sentence names characters, pirates and places by name, never by id, wherever the state knows the name:
"Merisiel recharged the Dagger." History pages, the table page and the audit all read sentences through `tell`.
"""

from __future__ import annotations

import logging
import string
from collections.abc import Callable, Collection, Mapping
from typing import Any

from quartermaster.events.base import Event, summary
from quartermaster.events.campaign import (
    CampaignForked,
    CampaignStarted,
    DiceRolled,
    EventRedone,
    EventUndone,
    MemberJoined,
    NoteAdded,
)

log = logging.getLogger("quartermaster")

Sentence = Callable[[Any, Any], str]
Names = Callable[[Any, str], str]
Counts = Callable[[int, str], str]


def tell(sentences: Mapping[type[Event], Sentence], state: Any, event: Event) -> str:
    """The event's sentence; a renderer that fails never fails a page, it falls back to what the type means."""
    render = sentences.get(type(event))
    if render is not None:
        try:
            told = render(state, event)
            if told:
                return told[:1].upper() + told[1:]
        except Exception:  # a history page must never fail for a sentence; the log says which renderer broke
            log.exception("the sentence of a %s event failed", type(event).__name__)
    return summary(type(event)) or type(event).__name__


def against_the_rules(sentence: str, reason: str | None, broken: list[str]) -> str:
    """An event's sentence with its override said after it: the table's reason and the rules it broke (none, when
    the log as it stands lets the event through after all: an undo before it, say)."""
    if reason is None:
        return sentence
    reason = reason if reason.endswith((".", "!", "?")) else reason + "."
    what = f"Broken: {' '.join(broken)}" if broken else "As the log stands it breaks no rule."
    return f"{sentence} (against the rules: {reason} {what})"


def listing(items: list[str], last: str = "and") -> str:
    """ "a", "a and b", "a, b and c"."""
    items = [str(item) for item in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def plural(amount: int, noun: str, many: str | None = None) -> str:
    """ "1 card", "2 cards", "-1 Coin"."""
    return f"{amount} {noun if abs(amount) == 1 else (many or noun + 's')}"


# The words a field is told in: the words of each value, or a function of the value that answers them.
Words = Mapping[Any, str] | Callable[[Any], str]
# A sentence's wording, and for a field whose value chooses the words, its words.
Wording = str | tuple[str, Mapping[str, Words]]


def given(words: str) -> Callable[[Any], str]:
    """The words of a field that may be left out, told only when it is set: `given(", played by {}")` tells "Lily"
    as ", played by Lily", and None or "" as nothing."""
    return lambda value: words.format(value) if value else ""


def said(
    wordings: Mapping[type[Event], Wording], *, name: Names, characters: Collection[str], count: Counts
) -> dict[type[Event], Sentence]:
    """The sentences that are only their event's fields in a line, from their wording: `{field}` is the field as it
    is, or the character it names where the field is one of `characters` ("{pirate_id} was Cursed.": "Anne was
    Cursed."), `{field:noun}` counts the noun ("{amount:Coin}": "1 Coin", "5 Coins"), and a field given its words
    with the wording is told in the words of its value (("{ship} {outcome}.", {"outcome": {"evaded": "was
    evaded"}})) or in what a function of its value answers (("{name} joined{player}.", {"player": given(", played
    by {}")})); a field of `characters` given its words is told in them by the character's name, when it is set
    (("{pirate_id} used Purge{cursed_id}.", {"cursed_id": given(", freeing {}")})). A placeholder that is not a
    field of its event fails here, as the game is loaded, not when a page tells it."""
    told: dict[type[Event], Sentence] = {}
    for event_type, wording in wordings.items():
        text, words = (wording, {}) if isinstance(wording, str) else wording
        parts = list(string.Formatter().parse(text))
        fields = {field for _, field, _, _ in parts if field is not None}
        unknown = (fields | set(words)) - set(event_type.__struct_fields__)
        if unknown:
            raise ValueError(f"{event_type.__name__} has no field {sorted(unknown)} for its sentence {text!r}")
        told[event_type] = _saying(parts, name, set(characters), count, words)
    return told


def _saying(
    parts: list[tuple[str, str | None, str | None, str | None]],
    name: Names,
    characters: set[str],
    count: Counts,
    words: Mapping[str, Words],
) -> Sentence:
    def told(state: Any, event: Any) -> str:
        line = []
        for literal, field, noun, _ in parts:
            line.append(literal)
            if field is not None:
                value = getattr(event, field)
                if field in words:
                    if field in characters and value:
                        value = name(state, value)
                    told_in = words[field]
                    line.append(told_in(value) if callable(told_in) else told_in[value])
                elif field in characters:
                    line.append(name(state, value))
                else:
                    line.append(count(value, noun) if noun else str(value))
        return "".join(line)

    return told


def _dice_spelt(dice: Any) -> str:
    """Dice rolled without an expression, as a table says them: "1d4+1d8" for a d4 and a d8, "2d6" for two d6."""
    sides: dict[int, int] = {}
    for die in dice:
        sides[die.sides] = sides.get(die.sides, 0) + 1
    return "+".join(f"{n}d{s}" for s, n in sides.items()) or "no dice"


def common(title: str, name: Names) -> dict[type[Event], Sentence]:
    """The sentences of the events every game shares; `name(state, id)` names a character of this game."""

    def started(state: Any, event: CampaignStarted) -> str:
        return f"The campaign “{event.name}” began, playing {title}."

    def joined(state: Any, event: MemberJoined) -> str:
        if event.role == "display":
            return f"A table display, {event.name}, was linked to the table: it shows the game and changes nothing."
        return f"{event.name} joined the table as {'the' if event.role == 'owner' else 'a'} {event.role}."

    def noted(state: Any, event: NoteAdded) -> str:
        return f"Note: {event.text}"

    def rolled(state: Any, event: DiceRolled) -> str:
        who = name(state, event.character_id) if event.character_id and state is not None else "The table"
        faces = listing([str(die.face) for die in event.dice])
        what = event.expression or _dice_spelt(event.dice)
        purpose = event.skill or event.purpose
        told = f"{who} rolled {what}{f' for {purpose}' if purpose else ''}: {faces}"
        if event.modifier or len(event.dice) > 1:
            told += f", {event.total} in all"
        if event.target is not None and event.successes is not None:
            told += f": {plural(event.successes, 'success', 'successes')} over {event.target}"
        if event.difficulty is not None:
            told += f" against difficulty {event.difficulty}"
        if event.success is not None:
            told += ", a success" if event.success else ", a failure"
        return told + ("" if event.source == "table" else " (the server's dice)") + "."

    def positions(targets: list[int], one: str, many: str) -> str:
        if len(targets) == 1:
            return f"the event at position {targets[0]} {one}"
        return f"the events at positions {listing([str(t) for t in targets])} {many}"

    def undone(state: Any, event: EventUndone) -> str:
        told = f"Undone: {positions(event.targets, 'no longer counts', 'no longer count')}"
        return told + (f" ({event.reason})." if event.reason else ".")

    def redone(state: Any, event: EventRedone) -> str:
        told = f"Redone: {positions(event.targets, 'counts again', 'count again')}"
        return told + (f" ({event.reason})." if event.reason else ".")

    def forked(state: Any, event: CampaignForked) -> str:
        return f"Forked from “{event.from_name}” as the table saw it at position {event.at}."

    return {
        CampaignForked: forked,
        CampaignStarted: started,
        MemberJoined: joined,
        NoteAdded: noted,
        DiceRolled: rolled,
        EventUndone: undone,
        EventRedone: redone,
    }
