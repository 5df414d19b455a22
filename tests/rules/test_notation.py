"""Placement notation (``I8=12``, ``12@I8``): the parser the CLI uses for typed moves."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathable import COLUMNS, Placement, RuleError


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
