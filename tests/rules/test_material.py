"""Material and board: RULES.md "Material" and "The board"."""

from __future__ import annotations

import ast
import pathlib
import sys
from collections import Counter

import pytest

import mathable
from mathable import CENTRE, OPERATION, PAIRS, PREMIUM, TILE_SET, RuleError, parse_square, render
from mathable.games.mathable.board import SIZE, square_name

# The board of RULES.md, row by row.
DIAGRAM = """
3x  .  .  .  .  . 3x 3x  .  .  .  .  . 3x
 . 2x  .  .  /  .  .  .  .  /  .  . 2x  .
 .  . 2x  .  .  -  .  .  -  .  . 2x  .  .
 .  .  . 2x  .  .  +  x  .  . 2x  .  .  .
 .  /  .  . 2x  .  x  +  . 2x  .  .  /  .
 .  .  -  .  .  .  .  .  .  .  .  -  .  .
3x  .  .  x  +  .  1  2  .  x  +  .  . 3x
3x  .  .  +  x  .  3  4  .  +  x  .  . 3x
 .  .  -  .  .  .  .  .  .  .  .  -  .  .
 .  /  .  . 2x  .  +  x  . 2x  .  .  /  .
 .  .  . 2x  .  .  x  +  .  . 2x  .  .  .
 .  . 2x  .  .  -  .  .  -  .  . 2x  .  .
 . 2x  .  .  /  .  .  .  .  /  .  . 2x  .
3x  .  .  .  .  . 3x 3x  .  .  .  .  . 3x
"""


def _diagram() -> list[list[str]]:
    return [line.split() for line in DIAGRAM.strip("\n").splitlines()]


def test_tile_set_has_seven_of_each_small_number_and_one_of_each_large() -> None:
    counts = Counter(TILE_SET)
    assert len(TILE_SET) == 106
    assert all(counts[v] == 7 for v in range(1, 11))
    singles = [0, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 24, 25, 27, 28, 30, 32, 35, 36]
    singles += [40, 42, 45, 48, 49, 50, 54, 56, 60, 63, 64, 70, 72, 80, 81, 90]
    assert all(counts[v] == 1 for v in singles)
    assert set(counts) == set(range(1, 11)) | set(singles)


def test_board_squares_match_the_rules_diagram_square_for_square() -> None:
    rows = _diagram()
    assert len(rows) == SIZE and all(len(r) == SIZE for r in rows)
    for row in range(SIZE):
        for col in range(SIZE):
            s = row * SIZE + col
            cell = rows[row][col]
            if s in CENTRE:
                assert cell == str(CENTRE[s])
            elif cell in "+-x/":
                assert OPERATION[s] == cell, square_name(s)
                assert PREMIUM[s] == 1
            elif cell.endswith("x"):
                assert PREMIUM[s] == int(cell[0]) and OPERATION[s] is None, square_name(s)
            else:
                assert (OPERATION[s], PREMIUM[s]) == (None, 1), square_name(s)


def test_board_looks_the_same_turned_by_90_degrees_but_not_mirrored() -> None:
    def kind(row: int, col: int) -> object:
        s = row * SIZE + col
        return OPERATION[s] or PREMIUM[s]

    turned = all(
        kind(r, c) == kind(c, SIZE - 1 - r)
        for r in range(SIZE)
        for c in range(SIZE)
        if r * SIZE + c not in CENTRE
    )
    mirrored = all(kind(r, c) == kind(r, SIZE - 1 - c) for r in range(SIZE) for c in range(SIZE))
    assert turned and not mirrored


def test_centre_squares_hold_one_to_four_and_cannot_be_covered() -> None:
    assert {square_name(s): v for s, v in CENTRE.items()} == {"G7": 1, "H7": 2, "G8": 3, "H8": 4}
    assert mathable.Position.initial().placed() == {}
    assert all(s not in mathable.Position.initial().accepts for s in CENTRE)


def test_square_names_are_column_letter_then_row_number() -> None:
    assert square_name(parse_square("A1")) == "A1"
    assert parse_square("N14") == 195
    assert parse_square("b2") == SIZE + 1
    for bad in ["O1", "A0", "A15", "", "11", "AA", "A01", "J8x"]:
        with pytest.raises(RuleError) as err:
            parse_square(bad)
        assert err.value.code == "bad_square"


def test_pairs_are_the_two_squares_on_each_side_never_diagonal() -> None:
    pairs = {(square_name(a), square_name(b)) for a, b in PAIRS[parse_square("I8")]}
    assert pairs == {("H8", "G8"), ("J8", "K8"), ("I7", "I6"), ("I9", "I10")}
    corner = {(square_name(a), square_name(b)) for a, b in PAIRS[parse_square("A1")]}
    assert corner == {("B1", "C1"), ("A2", "A3")}


def test_render_shows_the_board_without_colour() -> None:
    lines = render(CENTRE).splitlines()
    assert lines[0].split() == list("ABCDEFGHIJKLMN")
    assert lines[8].split()[1:] == _diagram()[7]
    # Each column letter stands over the last character of its column's cells.
    top, *rows = render({"I8": 12}).splitlines()
    assert top.index("A") == rows[7].index("3x") + 1
    assert top.index("I") == rows[7].index("12") + 1


def test_rules_package_imports_only_the_standard_library() -> None:
    package = pathlib.Path(mathable.__file__).parent
    for path in package.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top == "mathable" or top in sys.stdlib_module_names, (path.name, name)
