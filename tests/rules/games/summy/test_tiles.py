"""Summy's tiles as strings (``mathable.games.summy.tiles``), refusal by refusal
(RULES.md, Summy)."""

from __future__ import annotations

import pytest

from mathable.core.errors import RuleError
from mathable.games.summy.tiles import (
    digit_sum,
    is_digit,
    parse_tile,
    parse_tiles,
    tile_name,
    tile_names,
)

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_summy_notation.py --------
# Summy's tiles as strings and its play notation, refusal by refusal (RULES.md, Summy).


# --- tiles ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code"),
    [("0", 0), ("9", 9), ("+", 10), ("-", 11), ("x", 12), (":", 13), ("=", 14),
     ("*", 12), ("×", 12), ("X", 12), ("/", 13), ("÷", 13), ("–", 11), ("−", 11)],
)  # fmt: skip
def test_each_tile_and_each_other_way_of_typing_a_sign_reads_as_its_code(
    text: str, code: int
) -> None:
    assert parse_tile(text) == code


@pytest.mark.parametrize(
    ("value", "shown", "data"),
    [
        ("10", "'10'", "10"),
        ("", "''", ""),
        (7, "'7'", 7),
        (None, "'None'", None),
        ("y" * 30, repr("y" * 20), "y" * 20),
        (("z" * 30,), repr("('" + "z" * 18), "('" + "z" * 18),
    ],
)
def test_what_is_not_a_tile_is_refused_as_bad_tile_showing_at_most_20_characters(
    value: object, shown: str, data: object
) -> None:
    """bad_tile's details: the value (cut to 20 characters) and every tile name
    (docs/errors.md, Summy)."""
    with pytest.raises(RuleError) as raised:
        parse_tile(value)
    assert raised.value.code == "bad_tile"
    assert raised.value.message == f"{shown} is not a Summy tile (0-9, +, -, x, :, =)"
    assert raised.value.details == {
        "value": data,
        "accepted": ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+", "-", "x", ":", "="],
    }


def test_tiles_print_by_name_and_digits_alone_count_points() -> None:
    assert parse_tiles("8x15=120") == [8, 12, 1, 5, 14, 1, 2, 0]
    assert tile_name(12) == "x" and tile_names([13, 0, 14]) == [":", "0", "="]
    assert digit_sum(parse_tiles("8x15=120")) == 8 + 1 + 5 + 1 + 2
    assert digit_sum(parse_tiles("9+-x:=")) == 9
    assert [t for t in range(-1, 16) if is_digit(t)] == list(range(10))
