"""Statistics over a campaign's dice: faces per die size, success rates, and whether each die size looks fair.

Pure: the service feeds it the effective events of a campaign (undone rolls left out) in one pass, so memory
stays flat in the length of the log. Events other than `dice.rolled` are ignored.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Literal

import msgspec

from quartermaster.events.base import Event
from quartermaster.events.campaign import DiceRolled

# Pearson's chi-square test is trusted once every face is expected at least this often (the usual rule of thumb).
MIN_EXPECTED_PER_FACE = 5


class DieSize(msgspec.Struct, frozen=True, kw_only=True):
    """Every face thrown on one die size, and Pearson's chi-square test of them against a fair die.

    `faces[i]` counts the throws that showed face i + 1. A small `p_value` (below 0.01, say) means a fair die
    would rarely throw counts this uneven. `note` says when there are too few throws to trust the figure.
    """

    die: str
    sides: int
    rolls: int
    faces: list[int]
    mean: float
    expected_mean: float
    chi_square: float
    degrees_of_freedom: int
    p_value: float
    note: str | None = None


class SuccessRate(msgspec.Struct, frozen=True, kw_only=True):
    """How often checks succeeded, counting only rolls whose success is known."""

    character_id: str | None = None
    skill: str | None = None
    attempts: int
    successes: int
    rate: float


class DiceStats(msgspec.Struct, frozen=True, kw_only=True):
    """Everything `GET /stats/dice` answers."""

    rolls: int
    dice: int
    sizes: list[DieSize]
    by_character: list[SuccessRate]
    by_skill: list[SuccessRate]
    by_character_and_skill: list[SuccessRate]


def chi2_sf(x: float, degrees_of_freedom: int) -> float:
    """P(X >= x) for X chi-square distributed with integer degrees of freedom, exactly, without scipy.

    This is the regularized upper incomplete gamma Q(k/2, x/2), which has closed forms for integer k:
    even k: exp(-y) * sum_{i<k/2} y^i / i!; odd k: erfc(sqrt y) + exp(-y) * sum_{1<=i<=(k-1)/2} y^(i-1/2) / G(i+1/2),
    with y = x/2. Terms are summed in log space so neither exp(-y) nor y^i overflows on long campaigns.
    """
    if isinstance(degrees_of_freedom, bool) or not isinstance(degrees_of_freedom, int) or degrees_of_freedom < 1:
        raise ValueError(f"The degrees of freedom must be a whole number of at least 1, not {degrees_of_freedom!r}.")
    if math.isnan(x):
        raise ValueError("The chi-square statistic is not a number.")
    if x <= 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    y = x / 2
    if y == 0.0:
        # x was the smallest subnormal float; halving it underflowed.
        return 1.0
    log_y = math.log(y)
    if degrees_of_freedom % 2 == 0:
        total = math.fsum(math.exp(-y + i * log_y - math.lgamma(i + 1)) for i in range(degrees_of_freedom // 2))
    else:
        total = math.erfc(math.sqrt(y)) + math.fsum(
            math.exp(-y + (i - 0.5) * log_y - math.lgamma(i + 0.5)) for i in range(1, (degrees_of_freedom - 1) // 2 + 1)
        )
    return min(1.0, max(0.0, total))


def die_size(sides: int, faces: list[int]) -> DieSize:
    """The counts of one die size with their mean and goodness-of-fit against a fair die."""
    rolls = sum(faces)
    expected = rolls / sides
    chi_square = math.fsum((observed - expected) ** 2 / expected for observed in faces) if rolls else 0.0
    degrees_of_freedom = sides - 1
    note = None
    if expected < MIN_EXPECTED_PER_FACE:
        needed = MIN_EXPECTED_PER_FACE * sides
        # Rounded down, so 4.999 never reads as the 5 the test wants.
        shown = f"{rolls * 100 // sides / 100:g}"
        note = (
            f"Too few d{sides} rolls to judge the dice: {rolls} "
            f"{'roll expects' if rolls == 1 else 'rolls expect'} {shown} of each face, and the chi-square "
            f"test wants at least {MIN_EXPECTED_PER_FACE} ({needed} rolls); read the p-value with care."
        )
    return DieSize(
        die=f"d{sides}",
        sides=sides,
        rolls=rolls,
        faces=faces,
        mean=math.fsum(face * count for face, count in enumerate(faces, start=1)) / rolls if rolls else 0.0,
        expected_mean=(sides + 1) / 2,
        chi_square=chi_square,
        degrees_of_freedom=degrees_of_freedom,
        p_value=chi2_sf(chi_square, degrees_of_freedom),
        note=note,
    )


def _rates(tally: dict[tuple[str | None, str | None], list[int]]) -> list[SuccessRate]:
    return [
        SuccessRate(
            character_id=character_id, skill=skill, attempts=attempts, successes=successes, rate=successes / attempts
        )
        for (character_id, skill), (attempts, successes) in sorted(
            tally.items(), key=lambda item: (item[0][0] or "", item[0][1] or "")
        )
    ]


def dice_stats(events: Iterable[Event], *, source: Literal["server", "table"] | None = None) -> DiceStats:
    """Statistics over the `dice.rolled` events among `events`, optionally only those from one source."""
    faces_by_sides: dict[int, list[int]] = {}
    by_character: dict[tuple[str | None, str | None], list[int]] = {}
    by_skill: dict[tuple[str | None, str | None], list[int]] = {}
    by_both: dict[tuple[str | None, str | None], list[int]] = {}
    rolls = 0
    dice = 0
    for event in events:
        if not isinstance(event, DiceRolled) or (source is not None and event.source != source):
            continue
        rolls += 1
        for die in event.dice:
            counts = faces_by_sides.get(die.sides)
            if counts is None:
                counts = faces_by_sides[die.sides] = [0] * die.sides
            # The fold checks faces on append; an out-of-range face here would be drift, and hiding it in a
            # neighbouring count would falsify the test, so let it raise.
            if not 1 <= die.face <= die.sides:
                raise ValueError(f"A d{die.sides} showed {die.face} in the log, which no d{die.sides} can show.")
            counts[die.face - 1] += 1
            dice += 1
        if event.success is None:
            continue
        won = 1 if event.success else 0
        keys: list[tuple[dict[tuple[str | None, str | None], list[int]], tuple[str | None, str | None]]] = []
        if event.character_id is not None:
            keys.append((by_character, (event.character_id, None)))
        if event.skill is not None:
            keys.append((by_skill, (None, event.skill)))
        if event.character_id is not None and event.skill is not None:
            keys.append((by_both, (event.character_id, event.skill)))
        for tally, key in keys:
            entry = tally.setdefault(key, [0, 0])
            entry[0] += 1
            entry[1] += won
    return DiceStats(
        rolls=rolls,
        dice=dice,
        sizes=[die_size(sides, faces_by_sides[sides]) for sides in sorted(faces_by_sides)],
        by_character=_rates(by_character),
        by_skill=_rates(by_skill),
        by_character_and_skill=_rates(by_both),
    )
