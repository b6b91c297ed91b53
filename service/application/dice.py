"""Dice expressions: parse them, roll them on the server, or check the faces thrown at the table.

The grammar, with spaces allowed between tokens:

    expression = term { ("+" | "-") term } [ ">" number ]
    term       = [number] ("d" | "D") number      dice, e.g. 2d6 or d20 (one die)
               | number                           a constant, e.g. +2 or -1

`1d12+1d6+2` sums dice and constants; the total never drops below 0. `4d6>4` is a Skull Tales pool: its total
is the sum of its faces, and the dice that exceed 4 are its successes. `1d6+3` (a Charisma total) is a plain sum.
What a roll means in a campaign (successes, whether a check against a difficulty succeeded) is read by the game's
fold (`projections.dice.read`), never here.

Everything here is pure but for the default source of randomness, which comes in as an argument so tests are
deterministic and the server uses `secrets`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Literal

import msgspec

from quartermaster.events.campaign import DiceRolled, Die

# Limits. A hundred dice and a thousand sides are far past anything a rulebook asks for, and small enough that a
# roll can never make the server work hard or write a huge event.
MAX_LENGTH = 200
MAX_DICE = 100
MAX_SIDES = 1000
MAX_CONSTANT = 1000
# Skull Tales: "5 is the maximum number of dice that can be rolled for any roll of any Phase" (Skull Tales: Full
# Sail! rulebook, Book I: Dice Rolls). A pool is always a Skull Tales roll; any other expression is held to it when
# the campaign plays Skull Tales, so the error points at the expression's text.
MAX_SKULL_TALES_DICE = 5
SKULL_TALES = "skull-tales-full-sail"


class DiceError(ValueError):
    """A roll that cannot be made or logged, with the reason as a sentence a player understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class DiceSyntaxError(DiceError):
    """An expression that does not parse, with the column (1-based) where it went wrong."""

    def __init__(self, expression: str, column: int, reason: str) -> None:
        super().__init__(reason)
        self.expression = expression
        self.column = column

    @property
    def caret(self) -> str:
        """The expression with a caret under the column where it went wrong."""
        return f"{self.expression}\n{' ' * (self.column - 1)}^"

    def __str__(self) -> str:
        return f"{self.reason} (column {self.column})\n{self.caret}"


class Dice(msgspec.Struct, frozen=True):
    """`count` dice of `sides` sides, e.g. 2d6."""

    count: int
    sides: int


class Expression(msgspec.Struct, frozen=True, kw_only=True):
    """A parsed expression: dice terms in the order written, the sum of its constants, and a pool's target."""

    terms: tuple[Dice, ...]
    modifier: int = 0
    target: int | None = None

    @property
    def is_pool(self) -> bool:
        return self.target is not None

    @property
    def dice_count(self) -> int:
        return sum(term.count for term in self.terms)

    def sides_in_order(self) -> list[int]:
        """The sides of every die, one entry per die, in the order the expression names them."""
        return [term.sides for term in self.terms for _ in range(term.count)]


class Roll(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of an expression: every face, what they add up to, and for a pool how many beat its target.

    A preview for tests and tools; what a roll means in a campaign is the game's fold's to say.
    """

    dice: tuple[Die, ...]
    modifier: int
    total: int
    target: int | None = None
    successes: int | None = None
    source: Literal["server", "table"]


def render(expression: Expression) -> str:
    """The canonical text of an expression: `parse(render(e)) == e`."""
    text = "+".join(f"{term.count}d{term.sides}" for term in expression.terms)
    if expression.modifier > 0:
        text += f"+{expression.modifier}"
    elif expression.modifier < 0:
        text += f"-{-expression.modifier}"
    if expression.target is not None:
        text += f">{expression.target}"
    return text


class _Parser:
    """A hand-written parser, so every error knows its column."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def fail(self, index: int, reason: str) -> DiceSyntaxError:
        return DiceSyntaxError(self.text, index + 1, reason)

    def skip_spaces(self) -> None:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def peek(self) -> str:
        self.skip_spaces()
        return self.text[self.at] if self.at < len(self.text) else ""

    def number(self, what: str, limit: int) -> int:
        start = self.at
        while self.at < len(self.text) and self.text[self.at] in "0123456789":
            self.at += 1
        digits = self.text[start : self.at]
        # Compare lengths first so a thousand-digit number is refused without building it.
        if len(digits) > len(str(limit)) or int(digits) > limit:
            raise self.fail(start, f"{what} is at most {limit}; {digits} is too big.")
        return int(digits)

    def expect_number(self, what: str, limit: int, missing: str) -> int:
        if not self.peek().isdigit() or not self.peek().isascii():
            raise self.fail(self.at, missing)
        return self.number(what, limit)

    def parse(self) -> Expression:
        if len(self.text) > MAX_LENGTH:
            raise self.fail(
                MAX_LENGTH, f"An expression is at most {MAX_LENGTH} characters long; this one has {len(self.text)}."
            )
        if not self.peek():
            raise self.fail(self.at, "The expression is empty; write dice such as 1d20, 1d12+1d6+2 or 4d6>4.")
        terms: list[Dice] = []
        dice_count = 0
        modifier = 0
        first_constant: tuple[int, str] | None = None
        sign = "+"
        sign_at = -1
        while True:
            start = self.at
            dice = self.term()
            if isinstance(dice, Dice):
                if sign == "-":
                    raise self.fail(
                        sign_at,
                        f"Dice can only be added; '-{self.text[start : self.at].strip()}' subtracts dice. "
                        "Subtract a number instead, as in 1d20-2.",
                    )
                dice_count += dice.count
                if dice_count > MAX_DICE:
                    raise self.fail(
                        start, f"An expression rolls at most {MAX_DICE} dice; with this term it rolls {dice_count}."
                    )
                terms.append(dice)
            else:
                modifier += dice if sign == "+" else -dice
                if abs(modifier) > MAX_CONSTANT:
                    raise self.fail(
                        start,
                        f"The numbers add up to {modifier}; they may add up to at most {MAX_CONSTANT} either way.",
                    )
                if first_constant is None:
                    first_constant = (start, f"{sign}{dice}")
            following = self.peek()
            if following in ("+", "-"):
                sign, sign_at = following, self.at
                self.at += 1
                if not self.peek():
                    raise self.fail(self.at, f"The expression ends after '{sign}'; add dice or a number after it.")
                continue
            if following == ">":
                target = self.pool_target(terms, first_constant)
                return Expression(terms=tuple(terms), modifier=0, target=target)
            if following:
                raise self.fail(self.at, f"'{following}' cannot appear here; join terms with + or -, as in 1d12+1d6+2.")
            break
        if not terms:
            raise self.fail(0, f"There are no dice to roll in '{self.text.strip()}'; add dice such as 1d6.")
        return Expression(terms=tuple(terms), modifier=modifier, target=None)

    def term(self) -> Dice | int:
        """One term: dice (`2d6`, `d20`) or a constant (`3`)."""
        here = self.peek()
        start = self.at
        count: int | None = None
        if here.isascii() and here.isdigit():
            count = self.number("A number", max(MAX_CONSTANT, MAX_DICE))
            here = self.text[self.at] if self.at < len(self.text) else ""
        if here not in ("d", "D"):
            if count is None:
                shown = f"'{here}'"
                raise self.fail(self.at, f"{shown} cannot appear here; expected dice such as 2d6 or a number.")
            if count > MAX_CONSTANT:
                raise self.fail(start, f"A number is at most {MAX_CONSTANT}; {count} is too big.")
            return count
        self.at += 1
        if count is None:
            count = 1
        elif count > MAX_DICE:
            raise self.fail(start, f"An expression rolls at most {MAX_DICE} dice; {count} is too many.")
        elif count == 0:
            raise self.fail(start, "Roll at least one die: 0 dice roll nothing.")
        if not (self.at < len(self.text) and self.text[self.at].isascii() and self.text[self.at].isdigit()):
            raise self.fail(self.at, "A die needs its number of sides right after 'd', as in 1d6.")
        sides_at = self.at
        sides = self.number("A die's number of sides", MAX_SIDES)
        if sides < 2:
            raise self.fail(sides_at, f"A die has at least 2 sides; d{sides} is not a die.")
        return Dice(count, sides)

    def pool_target(self, terms: list[Dice], first_constant: tuple[int, str] | None) -> int:
        """The `>N` of a Skull Tales pool, checked against the dice before it."""
        gt_at = self.at
        self.at += 1
        if first_constant is not None:
            at, shown = first_constant
            raise self.fail(
                at, f"A pool such as 4d6>4 counts dice that beat the target; it cannot add a constant ({shown})."
            )
        sizes = sorted({term.sides for term in terms})
        if len(sizes) > 1:
            mixed = " and ".join(f"d{sides}" for sides in sizes)
            raise self.fail(gt_at, f"A pool rolls dice of one size; this one mixes {mixed}.")
        count = sum(term.count for term in terms)
        if count > MAX_SKULL_TALES_DICE:
            raise self.fail(0, f"A Skull Tales pool rolls at most {MAX_SKULL_TALES_DICE} dice; this one rolls {count}.")
        self.peek()
        target_at = self.at
        target = self.expect_number("A target", MAX_SIDES, "'>' needs a target number after it, as in 4d6>4.")
        sides = sizes[0]
        if not 1 <= target < sides:
            raise self.fail(target_at, f"A d{sides} pool needs a target from 1 to {sides - 1}, not {target}.")
        following = self.peek()
        if following:
            raise self.fail(self.at, f"'{following}' cannot follow a pool's target; a pool ends there, as in 4d6>4.")
        return target


def parse(text: str, *, game: str | None = None) -> Expression:
    """Parse a dice expression, raising `DiceSyntaxError` with the column where it went wrong.

    With `game="skull-tales-full-sail"` every roll, not only pools, is held to five dice.
    """
    expression = _Parser(text).parse()
    if game == SKULL_TALES and expression.dice_count > MAX_SKULL_TALES_DICE:
        raise DiceSyntaxError(
            text,
            1,
            f"A Skull Tales roll uses at most {MAX_SKULL_TALES_DICE} dice; this one rolls {expression.dice_count}.",
        )
    return expression


def _outcome(expression: Expression, dice: tuple[Die, ...], source: Literal["server", "table"]) -> Roll:
    if expression.target is not None:
        successes = sum(1 for die in dice if die.face > expression.target)
        return Roll(
            dice=dice,
            modifier=0,
            total=sum(die.face for die in dice),
            target=expression.target,
            successes=successes,
            source=source,
        )
    total = max(0, sum(die.face for die in dice) + expression.modifier)
    return Roll(dice=dice, modifier=expression.modifier, total=total, source=source)


def roll(expression: Expression, randbelow: Callable[[int], int] = secrets.randbelow) -> Roll:
    """Roll an expression on the server. `randbelow(n)` answers an int in [0, n), as `secrets.randbelow` does."""
    faces = []
    for sides in expression.sides_in_order():
        drawn = randbelow(sides)
        if not 0 <= drawn < sides:
            raise ValueError(f"randbelow({sides}) answered {drawn}, outside 0..{sides - 1}.")
        faces.append(Die(sides, drawn + 1))
    return _outcome(expression, tuple(faces), "server")


def read_faces(expression: Expression, faces: Sequence[int | Die]) -> Roll:
    """Check faces thrown with real dice against the expression and total them.

    Faces come in the order the expression names its dice, as plain numbers or as `Die(sides, face)`.
    """
    wanted = expression.sides_in_order()
    shown = render(expression)
    if len(faces) != len(wanted):
        raise DiceError(
            f"{shown} rolls {len(wanted)} {'die' if len(wanted) == 1 else 'dice'}, "
            f"but {len(faces)} {'face was' if len(faces) == 1 else 'faces were'} given."
        )
    dice = []
    for number, (sides, given) in enumerate(zip(wanted, faces, strict=True), start=1):
        if isinstance(given, Die):
            if given.sides != sides:
                raise DiceError(f"Die {number} of {shown} is a d{sides}, but a d{given.sides} was given.")
            face = given.face
        else:
            face = given
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
            raise DiceError(f"Die {number} of {shown} is a d{sides}: its face is from 1 to {sides}, not {face!r}.")
        dice.append(Die(sides, face))
    return _outcome(expression, tuple(dice), "table")


def to_event(
    expression: Expression,
    outcome: Roll,
    *,
    character_id: str | None = None,
    purpose: str | None = None,
    skill: str | None = None,
    difficulty: int | None = None,
    required: int | None = None,
) -> DiceRolled:
    """The `dice.rolled` event for a roll: its faces and what it is rolled against, still unread.

    What the roll means (its successes, whether the check succeeded) is the game's to say, in the state the
    campaign is in: `projections.dice.read` answers that, and the fold checks it again on append.
    """
    return DiceRolled(
        dice=list(outcome.dice),
        modifier=outcome.modifier,
        total=outcome.total,
        expression=render(expression),
        character_id=character_id,
        purpose=purpose,
        skill=skill,
        difficulty=difficulty,
        target=outcome.target,
        required=required,
        source=outcome.source,
    )
