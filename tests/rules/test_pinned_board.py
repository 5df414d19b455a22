"""Board geometry, arithmetic, tiles, bags and errors, pinned value by value (RULES.md)."""

from __future__ import annotations

import pickle

import pytest

from mathable import (
    CENTRE,
    PAIRS,
    TILE_SET,
    OrderedBag,
    RandomBag,
    RuleError,
    SeededBag,
    parse_square,
    render,
    square_name,
)
from mathable.games.mathable.arithmetic import describe, is_equation, makes
from mathable.games.mathable.board import SIZE, SQUARES, _affected, _pairs, _squares
from mathable.games.mathable.tiles import RACK_SIZE, SINGLE_TILES, TILE_VALUES

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


# --- arithmetic ---------------------------------------------------------------------------


def test_a_value_is_an_equation_of_a_pair_by_any_operation_that_makes_it() -> None:
    assert is_equation(9, 3, 6) and is_equation(9, 3, 6, "-") and is_equation(3, 9, 6, "-")
    assert is_equation(9, 3, 3, "/") and is_equation(9, 3, 27, "x") and is_equation(9, 3, 12)
    assert not is_equation(9, 3, 6, "+")
    assert not is_equation(9, 3, 5) and not is_equation(9, 3, 5, "+")
    assert is_equation(0, 7, 0, "/") and is_equation(0, 7, 0, "x") and is_equation(0, 7, 7, "+")
    assert not is_equation(0, 7, 7, "/")  # nothing is divided by zero


def test_only_tile_values_are_made() -> None:
    assert makes(9, 3) == {12: {"+"}, 6: {"-"}, 27: {"x"}, 3: {"/"}}
    assert makes(90, 64) == {}  # 154, 26, 5760 and 90/64 are no tile values
    assert not is_equation(9, 9, 81 * 0 + 18, "x")


@pytest.mark.parametrize(
    "a, b, words",
    [
        (3, 4, "3 and 4 make 1 by -, 7 by +, 12 by x"),
        (2, 2, "2 and 2 make 0 by -, 1 by /, 4 by + or x"),
        (0, 5, "0 and 5 make 0 by / or x, 5 by + or -"),
        (90, 64, "90 and 64 make no tile value"),
    ],
)
def test_a_pair_describes_what_it_makes_in_words(a: int, b: int, words: str) -> None:
    assert describe(a, b) == words


# --- tiles, bags, errors ------------------------------------------------------------------


def test_the_tile_set_is_seven_of_one_to_ten_and_one_of_each_single_tile() -> None:
    assert len(TILE_SET) == 106 and list(TILE_SET) == sorted(TILE_SET)
    assert all(TILE_SET.count(v) == 7 for v in range(1, 11))
    assert all(TILE_SET.count(v) == 1 for v in SINGLE_TILES)
    assert TILE_VALUES == set(range(1, 11)) | set(SINGLE_TILES) and RACK_SIZE == 7


def test_an_ordered_bag_draws_from_the_front_in_order() -> None:
    assert OrderedBag().draw((5, 3, 9, 3), 3) == [5, 3, 9]
    assert OrderedBag().draw((5, 3), 0) == []


def test_a_seeded_bag_depends_on_seed_and_salt_but_not_on_the_bag_order() -> None:
    bag = tuple(TILE_SET)
    first = SeededBag(7, salt=1).draw(bag, 7)
    assert SeededBag(7, salt=1).draw(tuple(reversed(bag)), 7) == first
    assert SeededBag(7, salt=2).draw(bag, 7) != first
    assert SeededBag(8, salt=1).draw(bag, 7) != first
    assert SeededBag(7).draw(bag, 7) == SeededBag(7, salt=0).draw(bag, 7)
    assert len(first) == 7 and all(first.count(t) <= bag.count(t) for t in first)


def test_a_random_bag_draws_distinct_positions_of_the_bag() -> None:
    bag = tuple(range(50))
    drawn = RandomBag().draw(bag, 50)
    assert sorted(drawn) == list(bag)
    assert len(RandomBag().draw(bag, 5)) == 5


def test_a_rule_error_keeps_its_code_and_message_through_pickling() -> None:
    err = RuleError("square_taken", "I8 already holds 12")
    assert (err.code, err.message, str(err)) == (
        "square_taken",
        "I8 already holds 12",
        "square_taken: I8 already holds 12",
    )
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.code, copy.message, str(copy)) == (err.code, err.message, str(err))
    assert isinstance(err, ValueError)


def test_a_rule_error_keeps_its_details_as_a_dict_of_its_own_through_pickling() -> None:
    given = {"square": "I8", "holds": 12}
    err = RuleError("square_taken", "I8 already holds 12", given)
    assert err.details == given and type(err.details) is dict
    given["holds"] = 0  # the error keeps its own copy
    assert err.details == {"square": "I8", "holds": 12}
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.code, copy.message, copy.details) == (err.code, err.message, err.details)
    assert RuleError("bag_empty", "the bag is empty").details == {}
    assert RuleError("bag_empty", "the bag is empty", None).details == {}


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
