"""Summy's equations: what is one, what it is worth, and each refusal word for word
(RULES.md, Summy).

Folded from ``test_pinned_summy_equation.py``: tests written to kill the survivors of the
mutation runs (docs/mutation.md)."""

from __future__ import annotations

import pytest

from mathable.core.errors import RuleError
from mathable.games.summy.equation import MAX_DIGITS, check_equation, evaluate, text_of
from mathable.games.summy.tiles import DIVIDE, MINUS, PLUS, TIMES, parse_tiles

LONG = "1" * 41


@pytest.mark.parametrize(
    ("line", "points"),
    [
        ("8x15=120", 17),
        ("3-5+4=2", 14),
        ("2x3+4x5=26", 22),
        ("8:4:2=1", 15),
        ("0+0=0", 0),
        ("10-2-3=5", 11),
        ("9:3x2=6", 20),
        ("1+2x3-4:2=5", 17),
        ("0:5=0", 5),
        ("1" * 40 + "x1=" + "1" * 40, 81),
    ],
)
def test_an_equation_scores_the_sum_of_its_digits(line: str, points: int) -> None:
    assert check_equation(line) == points
    assert check_equation(parse_tiles(line)) == points


@pytest.mark.parametrize(
    ("line", "code", "message"),
    [
        ("1+2", "no_equals", "1+2: an equation has exactly one =, not none"),
        ("1=2=3", "two_equals", "1=2=3: an equation has exactly one =, not 2"),
        ("1=2=3=6", "two_equals", "1=2=3=6: an equation has exactly one =, not 3"),
        (
            "=1+2",
            "nothing_before_equals",
            "=1+2: before the = come two numbers or more, with signs",
        ),
        ("+1=1", "leading_operator", "+1: an equation never begins with +"),
        ("x1+1=2", "leading_operator", "x1+1: an equation never begins with x"),
        ("1++2=3", "adjacent_operators", "1++2: two signs in a row"),
        ("1+=3", "trailing_operator", "1+: a sign must be followed by a number"),
        ("1=1", "no_operator", "1=1: before the = come two numbers or more, with signs"),
        ("1+2=", "no_result", "1+2=: after the = comes one number"),
        ("1+2=3+0", "one_number_after_equals", "1+2=3+0: after the = comes exactly one number"),
        ("3-5=-2", "one_number_after_equals", "3-5=-2: after the = comes exactly one number"),
        ("01+2=3", "leading_zero", "01+2: no number starts with 0"),
        ("1+2=03", "leading_zero", "03: no number starts with 0"),
        ("7:2=3", "inexact_division", "7:2 does not come out whole"),
        ("2x7:4=3", "inexact_division", "14:4 does not come out whole"),
        ("7:0=1", "division_by_zero", "7:0 - nobody divides by zero"),
        ("2x3:0=1", "division_by_zero", "6:0 - nobody divides by zero"),
        ("1+2=4", "wrong_result", "1+2=4: the left side makes 3, not 4"),
        ("2+3x4=20", "wrong_result", "2+3x4=20: the left side makes 14, not 20"),
        (
            LONG + "+0=" + LONG,
            "number_too_long",
            f"{LONG}+0: a number has at most 40 digits",
        ),
    ],
)
def test_a_line_that_is_no_equation_is_refused_saying_why(
    line: str, code: str, message: str
) -> None:
    with pytest.raises(RuleError) as raised:
        check_equation(line)
    assert (raised.value.code, raised.value.message) == (code, message)


def test_numbers_are_read_digit_by_digit_up_to_forty_digits() -> None:
    assert MAX_DIGITS == 40
    big = "9" * 40
    assert check_equation(f"{big}-{big}=0") == 9 * 80
    assert check_equation("120:8=15") == 17


def test_times_and_divide_bind_first_and_each_rank_goes_left_to_right() -> None:
    assert evaluate([2, 3, 4], [PLUS, TIMES]) == 14
    assert evaluate([3, 5, 4], [MINUS, PLUS]) == 2
    assert evaluate([10, 2, 3], [MINUS, MINUS]) == 5
    assert evaluate([8, 4, 2], [DIVIDE, DIVIDE]) == 1
    assert evaluate([2, 3, 8, 2], [TIMES, MINUS, DIVIDE]) == 2
    assert evaluate([5, 2, 3, 4], [MINUS, TIMES, MINUS]) == -5
    assert evaluate([7], []) == 7


def test_a_line_prints_as_its_tiles_names() -> None:
    assert text_of(parse_tiles("8x15=120")) == "8x15=120"
    assert text_of([]) == ""


def test_a_whole_division_stays_exact_with_numbers_beyond_floating_point() -> None:
    big = 123456789012345678901234567890123
    assert evaluate([big, 1], [DIVIDE]) == big
    assert evaluate([big * 7, 7, 1], [DIVIDE, TIMES]) == big
    assert check_equation(f"{big}:1={big}") == 2 * sum(int(d) for d in str(big)) + 1


def test_numbers_and_operators_must_alternate_to_be_evaluated() -> None:
    with pytest.raises(ValueError):
        evaluate([1, 2], [PLUS, PLUS])
    with pytest.raises(ValueError):
        evaluate([1, 2, 3], [PLUS])


LEFT, RIGHT = {"side": "left"}, {"side": "right"}


@pytest.mark.parametrize(
    ("line", "code", "details"),
    [
        ("1+2", "no_equals", {"equals": 0}),
        ("1=2=3=6", "two_equals", {"equals": 3}),
        ("=1+2", "nothing_before_equals", {**LEFT, "part": ""}),
        ("x1+1=2", "leading_operator", {**LEFT, "part": "x1+1", "sign": "x"}),
        ("2-x3=3", "adjacent_operators", {**LEFT, "part": "2-x3", "signs": ["-", "x"]}),
        ("1+2:=3", "trailing_operator", {**LEFT, "part": "1+2:", "sign": ":"}),
        ("12=12", "no_operator", {**LEFT, "part": "12", "left": 12}),
        ("1+2=", "no_result", {**RIGHT, "part": ""}),
        ("1+2=3x", "one_number_after_equals", {**RIGHT, "part": "3x", "signs": ["x"]}),
        ("3-5=-2", "one_number_after_equals", {**RIGHT, "part": "-2", "signs": ["-"]}),
        ("1+2=03", "leading_zero", {**RIGHT, "part": "03", "number": "03"}),
        ("2x7:4=3", "inexact_division", {"dividend": 14, "divisor": 4, "remainder": 2}),
        ("3x4:0=0", "division_by_zero", {"dividend": 12, "divisor": 0}),
        ("1+2x3=3", "wrong_result", {"left": 7, "right": 3}),
        (LONG + "+1=2", "number_too_long", {**LEFT, "part": LONG + "+1", "digits": 41, "max": 40}),
        ("1+2=1" + "0" * 40, "number_too_long",
         {**RIGHT, "part": "1" + "0" * 40, "digits": 41, "max": 40}),
    ],
)  # fmt: skip
def test_a_line_that_is_no_equation_says_why_as_data(
    line: str, code: str, details: dict[str, object]
) -> None:
    """docs/errors.md, Summy: every refusal of an equation has ``equation``, the whole line
    as written, and most the ``side`` and its ``part``, then the keys of its code."""
    with pytest.raises(RuleError) as raised:
        check_equation(line)
    assert (raised.value.code, raised.value.details) == (code, {"equation": line, **details})
