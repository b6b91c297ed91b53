"""Dice statistics: faces per die size, success rates, and the chi-square test of each die size."""

from __future__ import annotations

import math

import msgspec
import pytest
from hypothesis import given, strategies as st

from quartermaster.events.campaign import DiceRolled, Die, NoteAdded
from quartermaster.projections.dice_stats import DiceStats, SuccessRate, chi2_sf, dice_stats, die_size


def rolled(*dice: Die, **fields) -> DiceRolled:
    return DiceRolled(dice=list(dice), total=sum(die.face for die in dice), **fields)


def throws(sides: int, counts: list[int], **fields) -> list[DiceRolled]:
    """One single-die roll per throw, so a test states face counts directly."""
    return [rolled(Die(sides, face), **fields) for face, count in enumerate(counts, start=1) for _ in range(count)]


# The chi-square survival function against printed tables

TABLE = [
    (3.841459, 1, 0.05),
    (6.634897, 1, 0.01),
    (10.827566, 1, 0.001),
    (5.991465, 2, 0.05),
    (7.814728, 3, 0.05),
    (11.070498, 5, 0.05),
    (15.086272, 5, 0.01),
    (14.067140, 7, 0.05),
    (16.918978, 9, 0.05),
    (19.675138, 11, 0.05),
    (10.117013, 19, 0.95),
    (27.203571, 19, 0.10),
    (30.143527, 19, 0.05),
    (36.190869, 19, 0.01),
]


@pytest.mark.parametrize(("x", "degrees_of_freedom", "p"), TABLE)
def test_the_survival_function_matches_the_printed_critical_values(x, degrees_of_freedom, p):
    assert chi2_sf(x, degrees_of_freedom) == pytest.approx(p, abs=2e-6)


def test_the_survival_function_of_two_degrees_of_freedom_is_a_plain_exponential():
    assert chi2_sf(2.0, 2) == pytest.approx(math.exp(-1), rel=1e-15)
    assert chi2_sf(7.3, 2) == pytest.approx(math.exp(-7.3 / 2), rel=1e-15)


@pytest.mark.parametrize("degrees_of_freedom", [1, 2, 3, 5, 19, 999])
def test_nothing_is_less_likely_than_no_deviation_at_all(degrees_of_freedom):
    assert chi2_sf(0.0, degrees_of_freedom) == 1.0


def test_a_huge_statistic_has_a_vanishing_but_not_overflowing_p_value():
    assert 0 < chi2_sf(1000.0, 19) < 1e-150
    assert chi2_sf(1e6, 5) == 0.0
    assert chi2_sf(math.inf, 3) == 0.0
    # exp(-y) alone underflows here; the log-space sum still gives the right answer close to 1.
    assert chi2_sf(1600.0, 1999) == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("degrees_of_freedom", [0, -1, 2.5, True])
def test_degrees_of_freedom_must_be_a_whole_number_of_at_least_one(degrees_of_freedom):
    with pytest.raises(ValueError) as caught:
        chi2_sf(1.0, degrees_of_freedom)

    assert str(caught.value) == (
        f"The degrees of freedom must be a whole number of at least 1, not {degrees_of_freedom!r}."
    )


def test_a_statistic_that_is_not_a_number_is_refused():
    with pytest.raises(ValueError, match="^The chi-square statistic is not a number.$"):
        chi2_sf(math.nan, 3)


def lower_gamma_series_sf(x: float, degrees_of_freedom: int) -> float:
    """An independent oracle: 1 - P(k/2, x/2), with P by its power series (Abramowitz and Stegun 6.5.29)."""
    a, y = degrees_of_freedom / 2, x / 2
    term = 1 / math.gamma(a + 1)
    total = term
    n = 1
    while term > 1e-18 * total:
        term *= y / (a + n)
        total += term
        n += 1
    return 1 - math.exp(-y) * y**a * total


@given(st.floats(0.01, 60), st.integers(1, 40))
def test_the_closed_forms_agree_with_the_incomplete_gamma_series(x, degrees_of_freedom):
    assert chi2_sf(x, degrees_of_freedom) == pytest.approx(lower_gamma_series_sf(x, degrees_of_freedom), abs=1e-9)


@given(st.floats(0, 500), st.floats(0, 500), st.integers(1, 60))
def test_the_survival_function_is_a_probability_that_falls_as_the_statistic_grows(a, b, degrees_of_freedom):
    low, high = sorted((a, b))

    assert 0.0 <= chi2_sf(high, degrees_of_freedom) <= chi2_sf(low, degrees_of_freedom) <= 1.0


# Face counts and goodness of fit per die size


def test_faces_are_counted_per_die_size_across_every_roll_and_other_events_are_ignored():
    events = [
        rolled(Die(12, 7), Die(6, 3)),
        NoteAdded(text="we misread the Raker Shoals rule here"),
        rolled(Die(6, 3), Die(6, 6), Die(20, 20)),
    ]

    stats = dice_stats(events)

    assert (stats.rolls, stats.dice) == (2, 5)
    assert [size.die for size in stats.sizes] == ["d6", "d12", "d20"]
    d6, d12, d20 = stats.sizes
    assert d6.faces == [0, 0, 2, 0, 0, 1]
    assert d6.rolls == 3
    assert d6.mean == 4.0
    assert d6.expected_mean == 3.5
    assert d12.faces == [0] * 6 + [1] + [0] * 5
    assert d20.faces[19] == 1 and sum(d20.faces) == 1


def test_a_perfectly_even_die_has_no_deviation_and_a_p_value_of_one():
    stats = dice_stats(throws(6, [5] * 6))

    (d6,) = stats.sizes
    assert d6.chi_square == 0.0
    assert d6.degrees_of_freedom == 5
    assert d6.p_value == 1.0
    assert d6.note is None


def test_uneven_counts_give_pearsons_statistic_and_its_p_value():
    # Expected 10 of each face: (25 + 4 + 1 + 4 + 0 + 100) / 10 = 13.4 on 5 degrees of freedom.
    (d6,) = dice_stats(throws(6, [5, 8, 9, 8, 10, 20])).sizes

    assert d6.chi_square == pytest.approx(13.4)
    assert d6.p_value == pytest.approx(0.01990, abs=5e-5)
    assert d6.p_value == chi2_sf(d6.chi_square, 5)


def test_a_die_that_only_throws_sixes_is_flagged_as_far_from_fair():
    (d6,) = dice_stats(throws(6, [0, 0, 0, 0, 0, 60])).sizes

    assert d6.chi_square == pytest.approx(300.0)
    assert d6.p_value < 1e-60


def test_a_d20_with_too_few_rolls_keeps_its_figure_and_says_why_it_is_weak():
    (d20,) = dice_stats(throws(20, [2] * 19 + [3])).sizes

    assert d20.rolls == 41
    assert d20.degrees_of_freedom == 19
    assert 0 < d20.p_value <= 1
    assert d20.note == (
        "Too few d20 rolls to judge the dice: 41 rolls expect 2.05 of each face, and the chi-square test wants "
        "at least 5 (100 rolls); read the p-value with care."
    )


def test_a_single_throw_is_noted_in_the_singular():
    (d6,) = dice_stats([rolled(Die(6, 1))]).sizes

    assert d6.note == (
        "Too few d6 rolls to judge the dice: 1 roll expects 0.16 of each face, and the chi-square test wants "
        "at least 5 (30 rolls); read the p-value with care."
    )


def test_the_expected_count_is_rounded_down_so_a_near_miss_never_reads_as_enough():
    assert "4.99 of each face" in die_size(100, [5] * 99 + [4]).note


def test_enough_rolls_for_five_of_each_face_carry_no_note():
    assert die_size(20, [5] * 20).note is None


def test_an_impossible_face_in_the_log_is_reported_rather_than_counted():
    with pytest.raises(ValueError) as caught:
        dice_stats([rolled(Die(6, 7))])

    assert str(caught.value) == "A d6 showed 7 in the log, which no d6 can show."


def test_statistics_can_be_kept_to_the_dice_thrown_at_the_table():
    events = [rolled(Die(20, 4), source="table"), rolled(Die(20, 9), source="server"), rolled(Die(6, 2))]

    table = dice_stats(events, source="table")
    server = dice_stats(events, source="server")

    assert table.rolls == 2 and [size.die for size in table.sizes] == ["d6", "d20"]
    assert server.rolls == 1 and server.sizes[0].faces[8] == 1


def test_a_campaign_without_rolls_has_empty_statistics():
    assert dice_stats([]) == DiceStats(
        rolls=0, dice=0, sizes=[], by_character=[], by_skill=[], by_character_and_skill=[]
    )


# Success rates


def test_success_rates_are_kept_per_character_per_skill_and_per_both_from_rolls_whose_success_is_known():
    events = [
        rolled(Die(12, 11), character_id="merisiel", skill="Dexterity", success=True),
        rolled(Die(12, 2), character_id="merisiel", skill="Dexterity", success=False),
        rolled(Die(8, 8), character_id="merisiel", skill="Combat", success=True),
        rolled(Die(10, 3), character_id="lirianne", skill="Dexterity", success=False),
        rolled(Die(6, 6), character_id="lirianne", success=True),
        rolled(Die(20, 20), character_id="lirianne", skill="Dexterity"),
        rolled(Die(6, 1), skill="Wisdom", success=True),
    ]

    stats = dice_stats(events)

    assert stats.by_character == [
        SuccessRate(character_id="lirianne", attempts=2, successes=1, rate=0.5),
        SuccessRate(character_id="merisiel", attempts=3, successes=2, rate=2 / 3),
    ]
    assert stats.by_skill == [
        SuccessRate(skill="Combat", attempts=1, successes=1, rate=1.0),
        SuccessRate(skill="Dexterity", attempts=3, successes=1, rate=1 / 3),
        SuccessRate(skill="Wisdom", attempts=1, successes=1, rate=1.0),
    ]
    assert stats.by_character_and_skill == [
        SuccessRate(character_id="lirianne", skill="Dexterity", attempts=1, successes=0, rate=0.0),
        SuccessRate(character_id="merisiel", skill="Combat", attempts=1, successes=1, rate=1.0),
        SuccessRate(character_id="merisiel", skill="Dexterity", attempts=2, successes=1, rate=0.5),
    ]
    # The roll with no known success still counts its face.
    assert stats.dice == 7


def test_the_statistics_encode_to_json_for_the_api():
    stats = dice_stats(throws(6, [1, 2, 3, 4, 5, 6], character_id="jaelle", success=True))

    encoded = msgspec.json.decode(msgspec.json.encode(stats))

    assert encoded["sizes"][0]["die"] == "d6"
    assert encoded["sizes"][0]["faces"] == [1, 2, 3, 4, 5, 6]
    assert encoded["sizes"][0]["note"].startswith("Too few d6 rolls")
    assert encoded["by_character"] == [
        {"character_id": "jaelle", "skill": None, "attempts": 21, "successes": 21, "rate": 1.0}
    ]


# Laws

die_lists = st.lists(
    st.integers(2, 20).flatmap(lambda sides: st.builds(Die, st.just(sides), st.integers(1, sides))),
    min_size=1,
    max_size=6,
)


@given(st.lists(die_lists, max_size=30))
def test_every_thrown_die_is_counted_once_under_its_size(rolls):
    stats = dice_stats([rolled(*dice) for dice in rolls])

    assert stats.dice == sum(len(dice) for dice in rolls)
    assert sum(size.rolls for size in stats.sizes) == stats.dice
    for size in stats.sizes:
        assert len(size.faces) == size.sides
        assert size.faces == [
            sum(1 for dice in rolls for die in dice if die.sides == size.sides and die.face == face)
            for face in range(1, size.sides + 1)
        ]
        assert size.chi_square >= 0
        assert 0.0 <= size.p_value <= 1.0
