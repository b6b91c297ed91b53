"""What a roll means: its total, how many dice beat a pool's target, and whether a check succeeded.

The service parses an expression and draws (or reads) the faces; the game's fold reads them. A game whose rules read
dice in their own way gives its own `read_roll` (Skull Tales does); this is the plain reading every other game uses:
a sum of faces and modifiers that succeeds when it is "greater than or equal to the difficulty" (Skull & Shackles
Rulebook, Attempting a Check), and a pool that counts the dice exceeding its target.
"""

from __future__ import annotations

from typing import TypeVar

from msgspec.structs import replace

from quartermaster.events.campaign import DiceRolled
from quartermaster.projections.game import Game, Rejection

S = TypeVar("S")


def count(amount: int, noun: str) -> str:
    """The amount and the noun, singular for one: 1 die, 2 dice, 1 success, 3 successes."""
    plural = {"die": "dice", "success": "successes"}.get(noun, noun + "s")
    return f"{amount} {noun if amount == 1 else plural}"


def shown(event: DiceRolled) -> str:
    """The roll as a player would name it: its expression, or its dice."""
    if event.expression:
        return event.expression
    return "+".join(f"d{die.sides}" for die in event.dice) or "a roll without dice"


def check_terms(event: DiceRolled) -> int | None:
    """The successes a pool requires (1 unless said), or None for a sum; a Rejection when the terms do not fit."""
    if event.target is None:
        if event.required is not None:
            raise Rejection(
                f"{shown(event)} adds its dice up; only a pool such as 4d6>4 requires a number of successes. "
                "Give a difficulty instead."
            )
        return None
    if event.difficulty is not None:
        raise Rejection(
            f"{shown(event)} is a pool that counts dice beating {event.target}; "
            "give how many successes it requires, not a difficulty."
        )
    required = 1 if event.required is None else event.required
    if not 1 <= required <= len(event.dice):
        raise Rejection(
            f"{shown(event)} rolls {count(len(event.dice), 'die')}, so it can require 1 to "
            f"{len(event.dice)} successes, not {required}."
        )
    return required


def agree(given: DiceRolled, read: DiceRolled) -> DiceRolled:
    """The reading, or a Rejection when the event already says something else (a table that logged its own)."""
    if given.successes is not None and read.successes is not None and given.successes != read.successes:
        raise Rejection(
            f"Dice {[die.face for die in given.dice]} against {given.target} give "
            f"{count(read.successes, 'success')}, not {given.successes}."
        )
    if given.success is not None and read.success is not None and given.success != read.success:
        verdict = "a success" if read.success else "a failure"
        if read.successes is not None:
            required = 1 if read.required is None else read.required
            raise Rejection(f"{count(read.successes, 'success')} of {required} needed is {verdict}.")
        raise Rejection(
            f"{shown(given)} totals {read.total} against a difficulty of {read.difficulty}, which is {verdict}."
        )
    return read


def plain(event: DiceRolled) -> DiceRolled:
    """The event with its total, successes and success as a plain reading gives them."""
    required = check_terms(event)
    faces = [die.face for die in event.dice]
    # "No matter how many penalties are applied to a die roll, the result cannot be reduced below 0."
    total = max(0, sum(faces) + event.modifier)
    # A pool's total is the sum of its faces; `/rolls` once recorded its successes there instead, and those stored
    # rolls still read.
    legacy = event.target is not None and event.total == sum(1 for face in faces if face > event.target)
    if event.total != total and event.total != sum(faces) + event.modifier and not legacy:
        raise Rejection(
            f"The dice show {sum(faces)} and the modifier is {event.modifier}, so the total is {total}, "
            f"not {event.total}."
        )
    successes = None
    success = event.success
    if required is not None:
        target = event.target
        assert target is not None
        successes = sum(1 for face in faces if face > target)
        success = successes >= required
    elif event.difficulty is not None:
        success = total >= event.difficulty
    return agree(event, replace(event, total=total, successes=successes, success=success))


def read(game: Game[S], state: S, event: DiceRolled) -> DiceRolled:
    """The roll as this game reads it in this state: what `/rolls` records and the fold checks on append."""
    if game.read_roll is None:
        return plain(event)
    reading: DiceRolled = game.read_roll(state, event)
    return reading
