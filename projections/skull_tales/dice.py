"""Dice as Skull Tales reads them: d6 only, at most 5 per roll, pools counting dice that exceed a target, Charisma
totals of one die plus the attribute, and a Destiny Point's +1 to each die (L212-234, L163)."""

from __future__ import annotations

from msgspec.structs import replace

from events.campaign import DiceRolled
from projections.game import Meta, Rejection
from projections.skull_tales.state import Roll, SkullTales
from projections.skull_tales.words import count

DICE_LIMIT = 5  # "5 is the maximum number of dice that can be rolled for any roll of any Phase." (L212)
ROLLS_KEPT = 50


def dice_rolled(state: SkullTales, event: DiceRolled, meta: Meta) -> SkullTales:
    if not event.dice:
        raise Rejection("A roll needs at least one die.")
    if len(event.dice) > DICE_LIMIT:
        raise Rejection(f"Skull Tales rolls at most {DICE_LIMIT} dice at once, and this roll has {len(event.dice)} (L212).")
    for die in event.dice:
        if die.sides != 6:
            raise Rejection(f"Skull Tales uses six-sided dice only, not a d{die.sides}.")
        if not 1 <= die.face <= 6:
            raise Rejection(f"A d6 shows 1 to 6, not {die.face}.")
    faces = [die.face for die in event.dice]
    if event.total != sum(faces) + event.modifier:
        raise Rejection(f"The dice show {sum(faces)} and the modifier is {event.modifier}, so the total is "
                        f"{sum(faces) + event.modifier}, not {event.total}.")
    who = event.character_id
    destiny = who is not None and who in state.plus_one
    bonus = 1 if destiny else 0
    successes = event.successes
    success = event.success
    if event.target is not None:
        if event.modifier and len(faces) == 1:
            # A Charisma roll: one die plus the attribute, against the difficulty (L216-218).
            value = faces[0] + bonus + event.modifier
            passed = value > event.target or (
                state.options.charisma_difficulty == "meet" and value == event.target
            )
            counted = 1 if passed else 0
        else:
            counted = sum(1 for face in faces if face + bonus > event.target)
        if successes is not None and successes != counted:
            plus = " with a Destiny Point's +1 to each die" if destiny else ""
            raise Rejection(
                f"Dice {faces} against {event.target}{plus} give {count(counted, 'success')}, not {successes}."
            )
        successes = counted
        required = event.required or 1
        if success is not None and success != (counted >= required):
            verdict = "a success" if counted >= required else "a failure"
            raise Rejection(f"{count(counted, 'success')} of {required} needed is {verdict}.")
        success = counted >= required
    roll = Roll(
        position=meta.position, character_id=who, purpose=event.purpose, faces=faces, target=event.target,
        successes=successes, success=success, destiny=destiny,
    )
    plus_one = [c for c in state.plus_one if c != who] if destiny else state.plus_one
    return replace(state, rolls=[*state.rolls[-(ROLLS_KEPT - 1):], roll], plus_one=plus_one)
