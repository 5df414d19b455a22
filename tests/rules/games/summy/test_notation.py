"""Summy's play notation and its table drawn as text, refusal by refusal
(``mathable.games.summy.notation``, RULES.md, Summy)."""

from __future__ import annotations

import pytest

from mathable.core.errors import RuleError
from mathable.games.summy.notation import draw_table, play_words, read_play

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_summy_notation.py --------
# Summy's tiles as strings and its play notation, refusal by refusal (RULES.md, Summy).


# --- notation ------------------------------------------------------------------------------

FORM = "write a play as X,Y DIRECTION EQUATION, e.g. -3,0 across 1+2=3"
FIRST = ": the first square is X,Y (e.g. -3,0)"
WAY = ": the direction is across (a) or down (d)"


def test_a_play_reads_as_its_new_tiles_and_direction_skipping_table_tiles() -> None:
    table = {(0, 0): 14}
    assert read_play("-3,0 across 1+2=3", table) == (
        ((-3, 0, 1), (-2, 0, 10), (-1, 0, 2), (1, 0, 3)),
        "across",
    )
    assert read_play("0,-2 DOWN 4x=4", {(0, 0): 14, (0, -1): 12})[0] == ((0, -2, 4), (0, 1, 4))
    for way, direction in [("a", "across"), (">", "across"), ("d", "down"), ("v", "down")]:
        assert read_play(f"5,5 {way} 1", {})[1] == direction
    assert read_play("5,5 v 12", {})[0] == ((5, 5, 1), (5, 6, 2))
    assert read_play("  1000,-1000   a  7 ", {})[0] == ((1000, -1000, 7),)


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        ("0,0 across", "bad_notation", FORM),
        ("0,0 a 1 2", "bad_notation", FORM),
        ("00 a 1", "bad_notation", "'00'" + FIRST),
        ("x" * 30 + " a 1", "bad_notation", repr("x" * 20) + FIRST),
        ("a,0 a 1", "bad_notation", "'a' is not a whole number"),
        ("1,2,3 a 1", "bad_notation", "'2,3' is not a whole number"),
        ("0,abcdefghijklmnop a 1", "bad_notation", "'abcdefghijkl' is not a whole number"),
        ("1001,0 a 1", "off_table", "x and y lie between -1000 and 1000"),
        ("0,-1001 a 1", "off_table", "x and y lie between -1000 and 1000"),
        ("0,0 up 1", "bad_notation", "'up'" + WAY),
        ("0,0 sideways-long-way 1", "bad_notation", "'sideways-lon'" + WAY),
        ("0,0 a " + "1" * 2001, "bad_notation", "that equation is longer than any table"),
        ("0,0 down 4=4", "table_mismatch", "(0, 0) holds =, not 4 as written"),
        ("0,0 a =", "no_tiles", "every tile written is on the table: lay one of yours"),
        ("1,1 a 1?", "bad_tile", "'?' is not a Summy tile (0-9, +, -, x, :, =)"),
    ],
)  # fmt: skip
def test_a_play_that_cannot_be_read_is_refused_saying_why(
    text: str, code: str, message: str
) -> None:
    with pytest.raises(RuleError) as raised:
        read_play(text, {(0, 0): 14})
    assert (raised.value.code, raised.value.message) == (code, message)


WHOLE = "a whole number"
BOUNDS = {"min": -1000, "max": 1000}
WAYS = ["across", "a", ">", "down", "d", "v"]


@pytest.mark.parametrize(
    ("text", "code", "details"),
    [
        ("0,0 a 1 2 " + "3" * 80, "bad_notation",
         {"text": "0,0 a 1 2 " + "3" * 70, "accepted": "X,Y DIRECTION EQUATION"}),
        ("x" * 30 + " a 1", "bad_notation",
         {"field": "square", "text": "x" * 20, "accepted": "X,Y"}),
        ("a,0 a 1", "bad_notation", {"field": "x", "text": "a", "accepted": WHOLE}),
        ("0,abcdefghijklmnop a 1", "bad_notation",
         {"field": "y", "text": "abcdefghijkl", "accepted": WHOLE}),
        ("1001,0 a 1", "off_table", {"field": "x", "value": 1001, **BOUNDS}),
        ("0,-1001 a 1", "off_table", {"field": "y", "value": -1001, **BOUNDS}),
        ("0,0 sideways-long-way 1", "bad_notation",
         {"field": "direction", "text": "sideways-lon", "accepted": WAYS}),
        ("0,0 a " + "1" * 2001, "bad_notation", {"field": "equation", "length": 2001, "max": 2000}),
        ("0,0 a =", "no_tiles", {"field": "placements", "count": 0, "equation": "="}),
        ("-1,0 a ==", "no_tiles", {"field": "placements", "count": 0, "equation": "=="}),
    ],
)  # fmt: skip
def test_a_refused_play_says_what_was_wrong_as_data(
    text: str, code: str, details: dict[str, object]
) -> None:
    """The details of each refusal are the keys docs/errors.md lists for its code."""
    with pytest.raises(RuleError) as raised:
        read_play(text, {(0, 0): 14, (-1, 0): 14})
    assert (raised.value.code, raised.value.details) == (code, details)


def test_a_letter_that_differs_from_the_table_names_the_square_both_ways() -> None:
    """table_mismatch: the square as x and y, the tile there and the letter written
    (docs/errors.md, Summy)."""
    with pytest.raises(RuleError) as raised:
        read_play("3,-5 down 1+2=3", {(3, -2): 10})
    assert raised.value.code == "table_mismatch"
    assert raised.value.message == "(3, -2) holds +, not = as written"
    assert raised.value.details == {"square": {"x": 3, "y": -2}, "holds": "+", "written": "="}


def test_an_equation_as_long_as_the_table_is_read() -> None:
    placements, _ = read_play("-1000,1 a " + "1" * 2000, {})
    assert len(placements) == 2000


def test_play_words_writes_what_read_play_reads() -> None:
    assert play_words((-3, 0), "across", "1+2=3") == "-3,0 across 1+2=3"
    assert read_play(play_words((0, -2), "down", "4x=4"), {(0, 0): 14, (0, -1): 12})[1] == "down"


def test_the_table_is_drawn_with_a_margin_coordinates_and_stars_on_marked_squares() -> None:
    assert draw_table({(0, 0): 14, (1, 0): 3}, marked={(1, 0)}) == (
        "     -1  0  1  2\n -1   .  .  .  .\n  0   .  = *3  .\n  1   .  .  .  ."
    )
    assert draw_table({(0, 0): 14, (0, 1): 12, (-2, 1): 10}) == (
        "     -3 -2 -1  0  1\n"
        " -1   .  .  .  .  .\n"
        "  0   .  .  .  =  .\n"
        "  1   .  +  .  x  .\n"
        "  2   .  .  .  .  ."
    )
    assert draw_table({}) == "     -1  0  1\n -1   .  .  .\n  0   .  .  .\n  1   .  .  ."


def test_the_row_numbers_take_the_width_of_the_widest_first_or_last_row() -> None:
    deep = draw_table({(0, 0): 14, (0, 999): 1}).split("\n")
    assert len(deep) == 1003
    assert deep[:3] == ["      -1  0  1", "  -1   .  .  .", "   0   .  =  ."]
    assert deep[-2:] == [" 999   .  1  .", "1000   .  .  ."]
    high = draw_table({(0, -99): 14, (0, 0): 1}).split("\n")
    assert high[:2] == ["      -1  0  1", "-100   .  .  ."]
    assert high[-1] == "   1   .  .  ."


def test_the_columns_take_the_width_of_the_widest_first_or_last_column_and_a_space() -> None:
    assert draw_table({(0, 0): 14, (-9, 0): 1}).split("\n") == [
        "     -10  -9  -8  -7  -6  -5  -4  -3  -2  -1   0   1",
        " -1    .   .   .   .   .   .   .   .   .   .   .   .",
        "  0    .   1   .   .   .   .   .   .   .   .   =   .",
        "  1    .   .   .   .   .   .   .   .   .   .   .   .",
    ]
    wide = draw_table({(0, 0): 14, (99, 0): 1}).split("\n")
    assert wide[0] == "    " + "".join(f"{x:>4}" for x in range(-1, 101))
    assert wide[2] == "  0    .   =" + "   ." * 98 + "   1   ."
