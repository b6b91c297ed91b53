"""Dice as Skull Tales reads them: d6 only, at most 5 per roll, pools counting the dice that exceed a target,
Charisma totals of one die plus the attribute against a difficulty, and a Destiny Point's +1 to each die
(Skull Tales: Full Sail! rulebook, Book I: Dice Rolls, Charisma rolls, Difficulty rolls).

`read` is the one place that says what a roll means: `/rolls` records its answer, and the fold checks every
`dice.rolled` (from `/rolls` or logged whole by the table) with it.
"""

from __future__ import annotations

from msgspec.structs import replace

from quartermaster.events.campaign import DiceRolled
from quartermaster.projections.dice import agree, check_terms
from quartermaster.projections.game import Rejection
from quartermaster.projections.skull_tales.state import Roll, SkullTales, destiny_cap
from quartermaster.projections.skull_tales.words import count

# "Dice Limit: 5 is the maximum number of dice that can be rolled for any roll of any Phase." (Book I: Dice Rolls)
DICE_LIMIT = 5
ROLLS_KEPT = 50


def _passes(state: SkullTales, value: int, difficulty: int) -> bool:
    """A Charisma total against a difficulty: it must exceed it ("a value to exceed", Difficulty rolls), or meet it
    under the campaign option `charisma_difficulty: "meet"`."""
    return value > difficulty or (state.options.charisma_difficulty == "meet" and value == difficulty)


def read(state: SkullTales, event: DiceRolled) -> DiceRolled:
    """The roll with its total, successes and success as the rules read them in this state, or a Rejection."""
    if not event.dice:
        raise Rejection("A roll needs at least one die.")
    if len(event.dice) > DICE_LIMIT:
        raise Rejection(
            f"Skull Tales rolls at most {DICE_LIMIT} dice at once, and this roll has {len(event.dice)} "
            "(Book I: Dice Rolls, Dice Limit)."
        )
    for die in event.dice:
        if die.sides != 6:
            raise Rejection(f"Skull Tales uses six-sided dice only, not a d{die.sides}.")
        if not 1 <= die.face <= 6:
            raise Rejection(f"A d6 shows 1 to 6, not {die.face}.")
    faces = [die.face for die in event.dice]
    total = sum(faces) + event.modifier
    if event.total != total:
        raise Rejection(
            f"The dice show {sum(faces)} and the modifier is {event.modifier}, so the total is "
            f"{total}, not {event.total}."
        )
    # A Destiny Point spent with `plus_one` adds +1 to each die of the Pirate's next roll (Book I: Dice Rolls).
    bonus = 1 if event.character_id is not None and event.character_id in state.plus_one else 0
    required = check_terms(event)
    successes = None
    success = event.success
    if required is not None:
        target = event.target
        assert target is not None
        if event.modifier and len(faces) == 1:
            # Logged before `difficulty` carried Charisma checks: one die plus the attribute against the target.
            successes = 1 if _passes(state, faces[0] + bonus + event.modifier, target) else 0
        else:
            successes = sum(1 for face in faces if face + bonus > target)
        if event.successes is not None and event.successes != successes:
            plus = " with a Destiny Point's +1 to each die" if bonus else ""
            raise Rejection(
                f"Dice {faces} against {target}{plus} give {count(successes, 'success')}, not {event.successes}."
            )
        success = successes >= required
    elif event.difficulty is not None:
        # An attribute check against a difficulty, such as Charisma 5: one die plus the Charisma (Charisma rolls).
        success = _passes(state, total + bonus * len(faces), event.difficulty)
    return agree(event, replace(event, successes=successes, success=success))


def dice_rolled(state: SkullTales, event: DiceRolled) -> SkullTales:
    event = read(state, event)
    who = event.character_id
    destiny = who is not None and who in state.plus_one
    roll = Roll(
        position=state.position,
        character_id=who,
        purpose=event.purpose,
        faces=[die.face for die in event.dice],
        target=event.target if event.target is not None else event.difficulty,
        successes=event.successes,
        success=event.success,
        destiny=destiny,
    )
    plus_one = [c for c in state.plus_one if c != who] if destiny else state.plus_one
    state = replace(state, rolls=[*state.rolls[-(ROLLS_KEPT - 1) :], roll], plus_one=plus_one)
    return _failed_search(state, event)


def _failed_search(state: SkullTales, event: DiceRolled) -> SkullTales:
    """ "If you fail the roll ... if you roll at least a 1 on the failed roll, your Character gains 1 Destiny Point,
    if possible" (Book I: Character Actions, Search): a Pirate's failed Search roll in an Adventure, read as one by its
    purpose, with a 1 among its dice."""
    who = event.character_id
    purpose = (event.purpose or "").strip().strip("'").lower()
    if state.phase != "adventure" or who not in state.pirates or not purpose.startswith("search"):
        return state
    if event.success is not False or all(die.face != 1 for die in event.dice):
        return state
    p = state.pirates[who]
    destiny = min(p.destiny + 1, destiny_cap(p))
    return replace(state, pirates={**state.pirates, who: replace(p, destiny=destiny)})
