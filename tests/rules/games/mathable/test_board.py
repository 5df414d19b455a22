"""Board geometry pinned value by value (``mathable.games.mathable.board``, RULES.md
"The board"): the board as printed, square names, pairs."""

from __future__ import annotations

import pytest

from mathable import CENTRE, PAIRS, RuleError, parse_square, render, square_name
from mathable.games.mathable.board import SIZE, SQUARES, _affected, _pairs, _squares

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_board.py -----------------
# Board geometry, arithmetic, tiles, bags and errors, pinned value by value (RULES.md).


# RULES.md "The board", as printed there.
EMPTY_BOARD = """\
     A  B  C  D  E  F  G  H  I  J  K  L  M  N
 1  3x  .  .  .  .  . 3x 3x  .  .  .  .  . 3x
 2   . 2x  .  .  /  .  .  .  .  /  .  . 2x  .
 3   .  . 2x  .  .  -  .  .  -  .  . 2x  .  .
 4   .  .  . 2x  .  .  +  x  .  . 2x  .  .  .
 5   .  /  .  . 2x  .  x  +  . 2x  .  .  /  .
 6   .  .  -  .  .  .  .  .  .  .  .  -  .  .
 7  3x  .  .  x  +  .  1  2  .  x  +  .  . 3x
 8  3x  .  .  +  x  .  3  4  .  +  x  .  . 3x
 9   .  .  -  .  .  .  .  .  .  .  .  -  .  .
10   .  /  .  . 2x  .  +  x  . 2x  .  .  /  .
11   .  .  . 2x  .  .  x  +  .  . 2x  .  .  .
12   .  . 2x  .  .  -  .  .  -  .  . 2x  .  .
13   . 2x  .  .  /  .  .  .  .  /  .  . 2x  .
14  3x  .  .  .  .  . 3x 3x  .  .  .  .  . 3x"""


def test_the_empty_board_renders_as_printed_in_the_rules() -> None:
    assert render({}) == EMPTY_BOARD


def test_render_shows_tiles_given_by_name_or_index_over_the_square_kind() -> None:
    lines = render({"I8": 12, parse_square("A1"): 90, "N14": 0}).splitlines()
    assert lines[1] == " 1  90  .  .  .  .  . 3x 3x  .  .  .  .  . 3x"
    assert lines[8] == " 8  3x  .  .  +  x  .  3  4 12  +  x  .  . 3x"
    assert lines[14] == "14  3x  .  .  .  .  . 3x 3x  .  .  .  .  .  0"


@pytest.mark.parametrize(
    "name, square",
    [("A1", 0), ("N1", 13), ("A2", 14), ("J8", 107), ("A10", 126), ("N14", 195), (" j8 ", 107)],
)
def test_squares_are_named_column_letter_then_row_from_the_top_left(name: str, square: int) -> None:
    assert parse_square(name) == square
    assert square_name(square) == name.strip().upper()


@pytest.mark.parametrize("name", ["", "A", "A0", "A01", "A15", "O1", "1A", "A100", "AA1", "A1x"])
def test_anything_but_a_column_and_a_row_from_1_to_14_is_refused(name: str) -> None:
    with pytest.raises(RuleError) as err:
        parse_square(name)
    assert err.value.code == "bad_square"
    assert err.value.message == f"{name!r} is not a square: columns are A-N, rows 1-14"


def test_a_square_that_is_not_text_is_refused_not_crashed_on() -> None:
    with pytest.raises(RuleError) as err:
        parse_square(107)  # type: ignore[arg-type]
    assert err.value.message == "107 is not a square: columns are A-N, rows 1-14"


def test_square_lists_read_names_separated_by_spaces() -> None:
    assert _squares("A1  N14 J8") == frozenset({0, 195, 107})


def expected_pairs(square: int) -> tuple[tuple[int, int], ...]:
    """Left, right, above, below: the neighbour and the square beyond it, both on the board."""
    row, col = divmod(square, SIZE)
    out = []
    for near_row, near_col, far_row, far_col in (
        (row, col - 1, row, col - 2),
        (row, col + 1, row, col + 2),
        (row - 1, col, row - 2, col),
        (row + 1, col, row + 2, col),
    ):
        if far_row in range(SIZE) and far_col in range(SIZE):
            out.append((near_row * SIZE + near_col, far_row * SIZE + far_col))
    return tuple(out)


def test_every_square_pairs_with_its_neighbours_and_the_squares_beyond_them() -> None:
    for square in SQUARES:
        assert _pairs(square) == expected_pairs(square), square_name(square)
        assert PAIRS[square] == expected_pairs(square), square_name(square)


def test_pairs_reach_every_edge_of_the_board() -> None:
    name = square_name
    named = {name(s): [(name(a), name(b)) for a, b in _pairs(s)] for s in SQUARES}
    assert named["A1"] == [("B1", "C1"), ("A2", "A3")]
    assert named["N14"] == [("M14", "L14"), ("N13", "N12")]
    assert named["I12"] == [("H12", "G12"), ("J12", "K12"), ("I11", "I10"), ("I13", "I14")]
    assert named["B13"] == [("C13", "D13"), ("B12", "B11")]
    assert named["M2"] == [("L2", "K2"), ("M3", "M4")]


def test_centre_numbers_are_printed_on_the_board() -> None:
    assert {square_name(s): v for s, v in CENTRE.items()} == {"G7": 1, "H7": 2, "G8": 3, "H8": 4}


def test_a_square_affects_the_squares_whose_pairs_it_belongs_to() -> None:
    """``AFFECTED[s]``: the squares where a tile could make an equation with one on ``s``
    (the search looks again at exactly these after a placement). Built at import, so the
    builder is called here, and compared with a count made from the pairs."""
    from mathable.games.mathable.board import PAIRS, parse_square

    built = _affected()
    assert len(built) == len(SQUARES)
    for s in SQUARES:
        expected = sorted({t for t in SQUARES for pair in PAIRS[t] if s in pair})
        assert list(built[s]) == expected
    # H7 pairs with its neighbours and the squares beyond: G7 (G7-F7), H8 (H8-H9), ...
    h7 = parse_square("H7")
    assert parse_square("I7") in built[h7] and parse_square("H9") in built[h7]
    assert parse_square("A1") not in built[h7]
