"""The arithmetic of a pair (``mathable.games.mathable.arithmetic``): what it makes,
and in words (RULES.md "Placing a tile")."""

from __future__ import annotations

import pytest

from mathable.games.mathable.arithmetic import describe, is_equation, makes

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_board.py -----------------
# Board geometry, arithmetic, tiles, bags and errors, pinned value by value (RULES.md).


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
