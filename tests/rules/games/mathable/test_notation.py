"""Placement notation (``I8=12``, ``12@I8``): the parser the CLI uses for typed moves."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathable import COLUMNS, Placement, RuleError, parse_square


@pytest.mark.parametrize("text", ["I8=12", "i8=12", " I8 = 12 ", "12@I8", "12@i8"])
def test_placements_read_in_both_notations(text: str) -> None:
    assert Placement.parse(text) == Placement("I8", 12)


@pytest.mark.parametrize(
    "text, code",
    [
        ("I8", "bad_placement"),
        ("I8=", "bad_placement"),
        ("I8=x", "bad_placement"),
        ("I8=-3", "bad_placement"),
        ("I8=1234", "bad_placement"),
        ("Z8=12", "bad_square"),
        ("I15=12", "bad_square"),
        ("=12", "bad_square"),
    ],
)
def test_malformed_placements_are_refused_with_a_code(text: str, code: str) -> None:
    with pytest.raises(RuleError) as err:
        Placement.parse(text)
    assert err.value.code == code


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=20))
def test_any_text_parses_or_fails_with_a_rule_error(text: str) -> None:
    try:
        placement = Placement.parse(text)
    except RuleError as err:
        assert err.code in {"bad_placement", "bad_square"}
    else:
        assert Placement.parse(str(placement)) == placement


@given(col=st.sampled_from(COLUMNS), row=st.integers(1, 14), tile=st.integers(0, 999))
def test_every_square_and_number_round_trips(col: str, row: int, tile: int) -> None:
    placement = Placement.parse(f"{col}{row}={tile}")
    assert str(placement) == f"{col}{row}={tile}"
    assert Placement.parse(f"{tile}@{col.lower()}{row}") == placement


@pytest.mark.parametrize("text", ["I8=²", "I²=12", "I8=٣", "I٣=12"])
def test_non_ascii_digits_are_refused_not_crashed_on(text: str) -> None:
    with pytest.raises(RuleError):
        Placement.parse(text)


# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_movegen.py ---------------
# The position cache and move generation, pinned on boards whose answers are worked out by hand.


def test_placements_parse_either_notation_and_print_as_square_equals_tile() -> None:
    assert Placement.parse(" 7@f8 ") == Placement("F8", 7)
    assert str(Placement("F8", 7, 7)) == "F8=7"
    assert parse_square(Placement.parse("N14=0").square) == 195


def test_placement_notation_refusals_say_what_was_expected() -> None:
    with pytest.raises(RuleError) as err:
        Placement.parse("I8")
    assert err.value.message == "'I8': write a placement as I8=12 or 12@I8"
    with pytest.raises(RuleError) as err:
        Placement.parse(" I8=x ")
    assert err.value.message == "' I8=x ': 'x' is not a tile number"


def test_placement_notation_refusals_give_the_text_and_what_is_accepted() -> None:
    """docs/errors.md, ``bad_placement``: the ``text`` read (cut to 40), the ``value``
    refused (cut to 20) and what is ``accepted``."""
    long = "I8" + " " * 50
    with pytest.raises(RuleError) as err:
        Placement.parse(long)
    assert err.value.details == {"text": long[:40], "accepted": "I8=12 or 12@I8"}
    text = "I8=" + "x" * 60
    with pytest.raises(RuleError) as err:
        Placement.parse(text)
    assert err.value.details == {
        "text": text[:40],
        "value": "x" * 20,
        "accepted": "a tile number, 0 to 999",
    }


def test_a_placement_splits_at_its_first_equals_or_at_sign() -> None:
    with pytest.raises(RuleError) as err:
        Placement.parse("I8=12=3")  # square I8, tile "12=3"
    assert err.value.code == "bad_placement"
    with pytest.raises(RuleError) as err:
        Placement.parse("12@I8@3")  # tile 12, square "I8@3"
    assert err.value.code == "bad_square"


def test_a_placement_s_index_is_its_square_as_the_commands_take_it() -> None:
    assert [Placement(name, 1).index for name in ("A1", "N1", "J8", "N14")] == [0, 13, 107, 195]
    assert all(Placement(name, 1).index == parse_square(name) for name in ("G7", "B13"))
