"""Dice expressions: parsing with errors that point at the column, rolling, faces thrown at the table."""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, strategies as st

from quartermaster.events.campaign import DiceRolled, Die
from quartermaster.projections.dice import plain
from quartermaster.projections.game import Rejection
from quartermaster.service.application.dice import (
    MAX_CONSTANT,
    MAX_DICE,
    MAX_LENGTH,
    MAX_SIDES,
    MAX_SKULL_TALES_DICE,
    SKULL_TALES,
    Dice,
    DiceError,
    DiceSyntaxError,
    Expression,
    parse,
    read_faces,
    render,
    roll,
    to_event,
)


def scripted(*draws: int):
    """A randbelow that answers the given draws in order (a draw of n-1 is a face of n)."""
    queue = list(draws)

    def randbelow(n: int) -> int:
        return queue.pop(0)

    return randbelow


# Parsing what the rulebooks write


def test_a_pacg_check_sums_dice_of_several_sizes_and_a_constant():
    assert parse("1d12+1d6+2") == Expression(terms=(Dice(1, 12), Dice(1, 6)), modifier=2)


def test_a_skull_tales_pool_keeps_its_target_and_no_modifier():
    expression = parse("4d6>4")

    assert expression == Expression(terms=(Dice(4, 6),), target=4)
    assert expression.is_pool


def test_a_skull_tales_charisma_total_is_a_plain_sum():
    expression = parse("1d6+3")

    assert expression == Expression(terms=(Dice(1, 6),), modifier=3)
    assert not expression.is_pool


def test_a_die_without_a_count_is_one_die_and_spaces_and_capital_d_are_accepted():
    assert parse(" d20 - 2 ") == Expression(terms=(Dice(1, 20),), modifier=-2)
    assert parse("2D6 + 1d4") == Expression(terms=(Dice(2, 6), Dice(1, 4)))
    assert parse("4d6 > 4") == Expression(terms=(Dice(4, 6),), target=4)


def test_constants_are_summed_into_one_modifier_and_rendered_canonically():
    expression = parse("1d8+3-5+1")

    assert expression.modifier == -1
    assert render(expression) == "1d8-1"


def test_the_largest_allowed_expression_parses():
    expression = parse(f"{MAX_DICE}d{MAX_SIDES}+{MAX_CONSTANT}")

    assert expression.dice_count == MAX_DICE
    assert expression.terms == (Dice(MAX_DICE, MAX_SIDES),)


# Errors: every one names a column and says what to write instead

SYNTAX_ERRORS = [
    ("", 1, "The expression is empty; write dice such as 1d20, 1d12+1d6+2 or 4d6>4."),
    ("   ", 4, "The expression is empty; write dice such as 1d20, 1d12+1d6+2 or 4d6>4."),
    ("1d6+", 5, "The expression ends after '+'; add dice or a number after it."),
    ("1d6 - ", 7, "The expression ends after '-'; add dice or a number after it."),
    ("1d", 3, "A die needs its number of sides right after 'd', as in 1d6."),
    ("2dx", 3, "A die needs its number of sides right after 'd', as in 1d6."),
    ("0d6", 1, "Roll at least one die: 0 dice roll nothing."),
    ("1d1", 3, "A die has at least 2 sides; d1 is not a die."),
    ("1d0", 3, "A die has at least 2 sides; d0 is not a die."),
    ("1d1001", 3, "A die's number of sides is at most 1000; 1001 is too big."),
    ("101d6", 1, "An expression rolls at most 100 dice; 101 is too many."),
    ("60d6+60d6", 6, "An expression rolls at most 100 dice; with this term it rolls 120."),
    ("1d6+5000", 5, "A number is at most 1000; 5000 is too big."),
    ("1d6+" + "9" * 40, 5, f"A number is at most 1000; {'9' * 40} is too big."),
    ("1d6+600+600", 9, "The numbers add up to 1200; they may add up to at most 1000 either way."),
    ("1d20-1d4", 5, "Dice can only be added; '-1d4' subtracts dice. Subtract a number instead, as in 1d20-2."),
    ("x", 1, "'x' cannot appear here; expected dice such as 2d6 or a number."),
    ("1d6++2", 5, "'+' cannot appear here; expected dice such as 2d6 or a number."),
    ("-2+1d6", 1, "'-' cannot appear here; expected dice such as 2d6 or a number."),
    (">4", 1, "'>' cannot appear here; expected dice such as 2d6 or a number."),
    ("1d6 2", 5, "'2' cannot appear here; join terms with + or -, as in 1d12+1d6+2."),
    ("1d6*2", 4, "'*' cannot appear here; join terms with + or -, as in 1d12+1d6+2."),
    ("3", 1, "There are no dice to roll in '3'; add dice such as 1d6."),
    ("2+3", 1, "There are no dice to roll in '2+3'; add dice such as 1d6."),
    ("4d6+2>4", 5, "A pool such as 4d6>4 counts dice that beat the target; it cannot add a constant (+2)."),
    ("4d6-1>4", 5, "A pool such as 4d6>4 counts dice that beat the target; it cannot add a constant (-1)."),
    ("2d6+1d8>4", 8, "A pool rolls dice of one size; this one mixes d6 and d8."),
    ("6d6>4", 1, "A Skull Tales pool rolls at most 5 dice; this one rolls 6."),
    ("3d6+3d6>4", 1, "A Skull Tales pool rolls at most 5 dice; this one rolls 6."),
    ("4d6>", 5, "'>' needs a target number after it, as in 4d6>4."),
    ("4d6>x", 5, "'>' needs a target number after it, as in 4d6>4."),
    ("4d6>6", 5, "A d6 pool needs a target from 1 to 5, not 6."),
    ("4d6> 0", 6, "A d6 pool needs a target from 1 to 5, not 0."),
    ("4d6>4+1", 6, "'+' cannot follow a pool's target; a pool ends there, as in 4d6>4."),
    ("4d6>4>2", 6, "'>' cannot follow a pool's target; a pool ends there, as in 4d6>4."),
]


@pytest.mark.parametrize(("text", "column", "reason"), SYNTAX_ERRORS, ids=[e[0] or "empty" for e in SYNTAX_ERRORS])
def test_an_invalid_expression_is_refused_with_the_column_and_a_sentence(text, column, reason):
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)

    assert caught.value.reason == reason
    assert caught.value.column == column
    assert caught.value.expression == text


def test_an_overlong_expression_is_refused_at_the_first_character_past_the_limit():
    text = "1d6+" * 60

    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)

    assert caught.value.reason == f"An expression is at most {MAX_LENGTH} characters long; this one has 240."
    assert caught.value.column == MAX_LENGTH + 1


def test_the_caret_sits_under_the_column_where_it_went_wrong():
    with pytest.raises(DiceSyntaxError) as caught:
        parse("1d12+1d6+")

    assert caught.value.caret == "1d12+1d6+\n         ^"
    assert str(caught.value) == (
        "The expression ends after '+'; add dice or a number after it. (column 10)\n1d12+1d6+\n         ^"
    )


def test_a_syntax_error_is_a_dice_error_so_one_handler_answers_both():
    with pytest.raises(DiceError):
        parse("1d")


def test_a_skull_tales_campaign_holds_every_roll_to_five_dice():
    assert parse("3d6+2d6+3", game=SKULL_TALES).dice_count == MAX_SKULL_TALES_DICE

    with pytest.raises(DiceSyntaxError) as caught:
        parse("3d6+3d6", game=SKULL_TALES)

    assert caught.value.reason == "A Skull Tales roll uses at most 5 dice; this one rolls 6."
    assert caught.value.column == 1


def test_other_games_may_roll_more_than_five_dice_in_a_sum():
    assert parse("3d6+3d6", game="pacg-skull-and-shackles").dice_count == 6


# Rolling on the server


def test_a_sum_adds_every_face_and_the_modifier():
    outcome = roll(parse("1d12+1d6+2"), scripted(9, 3))

    assert outcome.dice == (Die(12, 10), Die(6, 4))
    assert outcome.modifier == 2
    assert outcome.total == 16
    assert outcome.target is None and outcome.successes is None
    assert outcome.source == "server"


def test_a_negative_modifier_never_takes_the_total_below_zero():
    outcome = roll(parse("1d4-3"), scripted(0))

    assert outcome.dice == (Die(4, 1),)
    assert outcome.modifier == -3
    assert outcome.total == 0


def test_a_pool_counts_the_dice_that_exceed_its_target_and_a_tie_is_not_enough():
    outcome = roll(parse("4d6>4"), scripted(5, 3, 4, 0))

    assert [die.face for die in outcome.dice] == [6, 4, 5, 1]
    assert outcome.successes == 2
    assert outcome.total == 16
    assert outcome.target == 4
    assert outcome.modifier == 0


def test_the_default_randomness_is_secrets_and_stays_within_the_dice():
    outcome = roll(parse("5d20"))

    assert len(outcome.dice) == 5
    assert all(1 <= die.face <= 20 for die in outcome.dice)


def test_a_randomness_function_answering_out_of_range_is_refused_rather_than_logged():
    with pytest.raises(ValueError, match=r"randbelow\(6\) answered 6, outside 0..5."):
        roll(parse("1d6"), scripted(6))


# Faces thrown at the table


def test_faces_from_the_table_are_totalled_like_a_server_roll_but_marked_as_from_the_table():
    outcome = read_faces(parse("1d12+1d6+2"), [11, 2])

    assert outcome.dice == (Die(12, 11), Die(6, 2))
    assert outcome.total == 15
    assert outcome.source == "table"


def test_faces_may_be_given_as_dice_naming_their_sides():
    outcome = read_faces(parse("4d6>4"), [Die(6, 5), Die(6, 6), Die(6, 1), Die(6, 4)])

    assert outcome.successes == 2


@pytest.mark.parametrize(
    ("text", "faces", "reason"),
    [
        ("1d12+1d6+2", [3], "1d12+1d6+2 rolls 2 dice, but 1 face was given."),
        ("1d20", [3, 4], "1d20 rolls 1 die, but 2 faces were given."),
        ("4d6>4", [], "4d6>4 rolls 4 dice, but 0 faces were given."),
        ("1d12+1d6", [12, 7], "Die 2 of 1d12+1d6 is a d6: its face is from 1 to 6, not 7."),
        ("1d12+1d6", [0, 3], "Die 1 of 1d12+1d6 is a d12: its face is from 1 to 12, not 0."),
        ("1d8", ["5"], "Die 1 of 1d8 is a d8: its face is from 1 to 8, not '5'."),
        ("1d8", [True], "Die 1 of 1d8 is a d8: its face is from 1 to 8, not True."),
        ("1d12+1d6", [Die(12, 3), Die(8, 3)], "Die 2 of 1d12+1d6 is a d6, but a d8 was given."),
        ("2d6", [Die(6, 3), Die(6, 9)], "Die 2 of 2d6 is a d6: its face is from 1 to 6, not 9."),
    ],
)
def test_faces_that_do_not_fit_the_expression_are_refused_with_what_was_expected(text, faces, reason):
    with pytest.raises(DiceError) as caught:
        read_faces(parse(text), faces)

    assert caught.value.reason == reason


# The dice.rolled event, and its plain reading (every game but Skull Tales, which reads its own)


def test_a_check_succeeds_when_its_total_reaches_the_difficulty():
    expression = parse("1d12+1d6+2")

    reached = plain(
        to_event(
            expression,
            read_faces(expression, [6, 2]),
            character_id="merisiel",
            purpose="check",
            skill="Dexterity",
            difficulty=10,
        )
    )
    missed = plain(to_event(expression, read_faces(expression, [5, 2]), difficulty=10))

    assert reached == DiceRolled(
        dice=[Die(12, 6), Die(6, 2)],
        modifier=2,
        total=10,
        expression="1d12+1d6+2",
        character_id="merisiel",
        purpose="check",
        skill="Dexterity",
        difficulty=10,
        success=True,
        source="table",
    )
    assert missed.success is False


def test_a_roll_without_a_difficulty_leaves_success_unknown():
    expression = parse("1d6+3")

    event = plain(to_event(expression, roll(expression, scripted(2))))

    assert event.success is None
    assert event.total == 6
    assert event.source == "server"


def test_a_pool_succeeds_when_enough_dice_beat_the_target():
    expression = parse("3d6>4")

    enough = plain(to_event(expression, read_faces(expression, [5, 6, 1]), required=2))
    short = plain(to_event(expression, read_faces(expression, [5, 4, 1]), required=2))

    assert (enough.target, enough.successes, enough.required, enough.success) == (4, 2, 2, True)
    assert (short.successes, short.success) == (1, False)
    assert enough.expression == "3d6>4"


def test_the_event_records_the_canonical_expression_and_encodes_with_its_tag():
    expression = parse(" d20 + 1 ")

    event = to_event(expression, read_faces(expression, [17]), purpose="plunder")
    encoded = msgspec.json.decode(msgspec.json.encode(event))

    assert encoded["type"] == "dice.rolled"
    assert encoded["expression"] == "1d20+1"
    assert encoded["dice"] == [{"sides": 20, "face": 17}]


@pytest.mark.parametrize(
    ("text", "options", "reason"),
    [
        (
            "4d6>4",
            {"difficulty": 3},
            "4d6>4 is a pool that counts dice beating 4; give how many successes it requires, not a difficulty.",
        ),
        ("4d6>4", {"required": 5}, "4d6>4 rolls 4 dice, so it can require 1 to 4 successes, not 5."),
        ("4d6>4", {"required": 0}, "4d6>4 rolls 4 dice, so it can require 1 to 4 successes, not 0."),
        (
            "1d20",
            {"required": 1},
            "1d20 adds its dice up; only a pool such as 4d6>4 requires a number of successes. "
            "Give a difficulty instead.",
        ),
    ],
)
def test_asking_for_the_wrong_kind_of_success_is_refused(text, options, reason):
    expression = parse(text)
    outcome = roll(expression, random.Random(0).randrange)

    with pytest.raises(Rejection) as caught:
        plain(to_event(expression, outcome, **options))

    assert caught.value.reason == reason


# Laws

dice_terms = st.builds(Dice, st.integers(1, 8), st.integers(2, MAX_SIDES))
sums = st.builds(
    lambda terms, modifier: Expression(terms=tuple(terms), modifier=modifier),
    st.lists(dice_terms, min_size=1, max_size=5),
    st.integers(-MAX_CONSTANT, MAX_CONSTANT),
)


@st.composite
def pools(draw):
    sides = draw(st.integers(2, MAX_SIDES))
    counts = draw(
        st.lists(st.integers(1, MAX_SKULL_TALES_DICE), min_size=1, max_size=3).filter(
            lambda counts: sum(counts) <= MAX_SKULL_TALES_DICE
        )
    )
    target = draw(st.integers(1, sides - 1))
    return Expression(terms=tuple(Dice(count, sides) for count in counts), target=target)


expressions = st.one_of(sums, pools())


@given(expressions)
def test_parsing_a_rendered_expression_gives_it_back(expression):
    assert parse(render(expression)) == expression


@given(expressions, st.integers(0, 2**32))
def test_every_rolled_face_is_within_its_die_and_the_total_is_never_negative(expression, seed):
    outcome = roll(expression, random.Random(seed).randrange)

    assert [die.sides for die in outcome.dice] == expression.sides_in_order()
    assert all(1 <= die.face <= die.sides for die in outcome.dice)
    assert outcome.total >= 0
    if expression.is_pool:
        assert outcome.total == sum(die.face for die in outcome.dice)
        assert outcome.successes == sum(die.face > expression.target for die in outcome.dice)
    else:
        assert outcome.total == max(0, sum(die.face for die in outcome.dice) + expression.modifier)


@given(expressions, st.integers(0, 2**32))
def test_reading_the_faces_of_a_server_roll_gives_the_same_outcome_from_the_table(expression, seed):
    outcome = roll(expression, random.Random(seed).randrange)

    again = read_faces(expression, [die.face for die in outcome.dice])

    assert msgspec.structs.replace(again, source="server") == outcome


@given(st.text(max_size=30))
def test_any_text_either_parses_or_is_refused_with_a_column_inside_or_just_past_it(text):
    try:
        expression = parse(text)
    except DiceSyntaxError as error:
        assert 1 <= error.column <= len(text) + 1
        assert error.reason.endswith(".")
    else:
        assert parse(render(expression)) == expression


def test_a_pool_stored_with_its_successes_as_its_total_still_reads():
    # `/rolls` once recorded a pool's successes as its total; those stored rolls must fold again.
    stored = DiceRolled(dice=[Die(6, 5), Die(6, 6), Die(6, 1)], total=2, target=4, successes=2, success=True)

    assert (plain(stored).successes, plain(stored).success) == (2, True)
