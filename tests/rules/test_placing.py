"""Placing a tile and scoring it: RULES.md "Placing a tile" and "Scoring a placement"."""

from __future__ import annotations

from mathable import Place, check, real_equations
from mathable.arithmetic import makes
from tests.rules.helpers import arranged, play, position, refusal, sq


def test_pair_in_any_order_allows_sum_difference_product_and_quotient() -> None:
    assert sorted(makes(3, 9)) == [3, 6, 12, 27]
    assert sorted(makes(9, 3)) == [3, 6, 12, 27]


def test_division_must_leave_no_remainder() -> None:
    assert 2 not in makes(7, 3) and 3 not in makes(7, 2)
    assert 2 in makes(6, 3)


def test_division_by_zero_is_never_an_equation_but_zero_divided_is() -> None:
    assert makes(0, 5)[0] == {"x", "/"}  # 0 x 5 and 0 / 5
    assert makes(5, 0)[5] == {"+", "-"}  # never 5 / 0
    assert makes(0, 0) == {0: frozenset({"+", "-", "x"})}


def test_a_pair_that_fits_by_two_operations_is_still_one_equation() -> None:
    # 2 and 2 make 4 by + and by x; placed next to one such pair, 4 scores 4.
    pos = position(B1=2, C1=2)
    assert pos.equations(sq("D1"), 4) == 1
    assert pos.points(sq("D1"), 4) == 4


def test_tile_goes_next_to_a_pair_in_a_row_or_column_never_diagonally() -> None:
    pos = position()
    assert pos.equations(sq("I8"), 12) == 1  # right of 3, 4
    assert pos.equations(sq("I9"), 12) == 0  # diagonal to the 4
    assert pos.equations(sq("I6"), 3) == 0  # diagonal to 1 2 is not a pair


def test_the_square_between_two_tiles_does_not_form_a_pair() -> None:
    pos = position(A1=5, C1=2)
    assert pos.equations(sq("B1"), 7) == 0
    assert pos.equations(sq("B1"), 3) == 0


def test_tile_on_minus_square_needs_subtraction() -> None:
    # F3 is a - square; above it nothing, below it F4, F5.
    pos = position(F4=9, F5=3)
    assert pos.equations(sq("F3"), 6) == 1
    for other in (12, 27, 3):
        assert pos.equations(sq("F3"), other) == 0
    state = arranged([(12, 6, 1), (1,)], board={"F4": 9, "F5": 3})
    err = refusal(state, Place(0, sq("F3"), 12))
    assert err.code == "wrong_operation"
    assert "demands -" in err.message and "9 and 3 make" in err.message


def test_refusal_explains_which_pairs_the_square_has_and_what_they_make() -> None:
    state = arranged([(13, 1), (1,)])
    err = refusal(state, Place(0, sq("I8"), 13))
    assert err.code == "no_equation"
    assert err.message.startswith("13 at I8:")
    assert "4 and 3 make 1 by -, 7 by +, 12 by x" in err.message
    err = refusal(state, Place(0, sq("A1"), 13))
    assert err.code == "no_pair"


def test_placement_must_be_a_tile_from_the_rack_on_an_empty_square() -> None:
    state = arranged([(12,), (1,)])
    assert refusal(state, Place(0, sq("I8"), 7)).code == "tile_not_in_rack"
    assert refusal(state, Place(0, sq("G8"), 12)).code == "square_taken"
    state = play(state, Place(0, sq("I8"), 12))
    state = arranged([(12, 12), (1,)], board={"I8": 12})
    assert refusal(state, Place(0, sq("I8"), 12)).code == "square_taken"


def test_only_the_player_whose_turn_it_is_may_place() -> None:
    state = arranged([(12,), (12,)])
    assert refusal(state, Place(1, sq("I8"), 12)).code == "not_your_turn"


def test_points_are_tile_times_equations_times_premium() -> None:
    # The example of RULES.md: a 40 right of 5 and 8 and below 64 and 24.
    pos = position(A4=5, B4=8, C2=64, C3=24)
    c4 = sq("C4")
    assert len(real_equations(pos, c4, 40)) == 2
    assert pos.points(c4, 40) == 80
    # The same on the 2x square D4: right of 5, 8 in row 4, below 64, 24 in column D.
    pos = position(B4=5, C4=8, D2=64, D3=24)
    assert pos.points(sq("D4"), 40) == 160


def test_three_times_square_triples_the_points() -> None:
    pos = position(B1=5, C1=4)
    assert pos.points(sq("A1"), 9) == 27
    assert pos.points(sq("A1"), 20) == 60


def test_a_placed_zero_scores_zero() -> None:
    pos = position(B1=3, C1=3)
    assert pos.points(sq("A1"), 0) == 0
    assert pos.equations(sq("A1"), 0) == 1
    state = arranged([(0, 5), (1,)], board={"B1": 3, "C1": 3})
    state = play(state, Place(0, sq("A1"), 0))
    assert state.turn is not None and state.turn.points == 0
    assert state.position.cells[sq("A1")] == 0


def test_equations_of_a_placement_are_recorded_with_their_operation() -> None:
    state = arranged([(8, 1), (1,)], board={"G9": 2, "F9": 6})
    (event,) = check(state, Place(0, sq("H9"), 8))
    ops = sorted((e.op, e.near, e.far) for e in event.equations)  # type: ignore[attr-defined]
    assert ops == [("+", sq("G9"), sq("F9")), ("x", sq("H8"), sq("H7"))]
    assert event.points == 16  # type: ignore[attr-defined]
