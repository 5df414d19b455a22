"""Placing a tile and scoring it: RULES.md "Placing a tile" and "Scoring a placement"."""

from __future__ import annotations

import pytest

from mathable import Equation, Exchange, Place, PlayTurn, TurnPlacement, check, real_equations
from mathable.games.mathable.arithmetic import makes
from mathable.games.mathable.events import TilePlaced
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


def test_on_an_operation_square_an_equation_by_another_operation_does_not_count() -> None:
    # J8 is +: 12 + 4 across counts; 4 x 4 above is a true product but not a sum.
    state = arranged([(16, 1), (1,)], board={"I8": 12, "J7": 4, "J6": 4})
    (event,) = check(state, Place(0, sq("J8"), 16))
    assert isinstance(event, TilePlaced)
    assert event.equations == (Equation(sq("I8"), sq("H8"), "+"),)
    assert event.points == 16


def test_two_equations_by_the_squares_operation_both_count() -> None:
    # J8 is +: 12 + 4 across and 10 + 6 above.
    state = arranged([(16, 1), (1,)], board={"I8": 12, "J7": 10, "J6": 6})
    (event,) = check(state, Place(0, sq("J8"), 16))
    assert isinstance(event, TilePlaced)
    assert sorted(e.op for e in event.equations) == ["+", "+"] and event.points == 32


def test_a_tile_completing_three_equations_scores_three_times() -> None:
    # H9: 6 + 2 on its left, 5 + 3 on its right, 2 x 4 above.
    state = arranged([(8, 1), (1,)], board={"G9": 2, "F9": 6, "I9": 5, "J9": 3})
    (event,) = check(state, Place(0, sq("H9"), 8))
    assert isinstance(event, TilePlaced)
    assert len(event.equations) == 3 and event.points == 24


def test_the_premium_counts_only_for_the_tile_placed_on_it() -> None:
    # 7 on the 2x square E10 (21 / 3) scores 14; 10 below it on plain E11 (7 + 3) scores 10.
    state = arranged([(7, 10, 1), (1,)], board={"E8": 21, "E9": 3})
    state = play(state, Place(0, sq("E10"), 7))
    state = play(state, Place(0, sq("E11"), 10))
    assert state.turn is not None
    assert [p.points for p in state.turn.placements] == [14, 10]


def test_a_zero_placed_on_a_minus_square_is_legal_scores_zero_and_earns_the_extra_tile() -> None:
    # F3 is -: 9 - 9 = 0.
    state = arranged([(0, 5), (1,)], board={"F4": 9, "F5": 9}, bag=(30,))
    state = play(state, Place(0, sq("F3"), 0))
    assert state.position.cells[sq("F3")] == 0
    assert state.turn is not None and state.turn.points == 0 and state.turn.extra_available
    assert refusal(state, Place(0, sq("F3"), 5)).code == "square_taken"


def test_a_zero_on_a_times_square_needs_a_zero_in_the_pair() -> None:
    # G5 is x: below it G6 and G7. A board arranged with a 0 on G6 (0 x 1 = 0).
    state = arranged([(0, 5), (1,)], board={"G6": 0})
    state = play(state, Place(0, sq("G5"), 0))
    assert state.turn is not None and state.turn.points == 0
    assert state.turn.placements[0].equations == (Equation(sq("G6"), sq("G7"), "x"),)
    # With 2 and 1 below it, no equation makes 0 on G5.
    other = arranged([(0, 5), (1,)], board={"G6": 2})
    assert refusal(other, Place(0, sq("G5"), 0)).code == "no_equation"


@pytest.mark.parametrize("square", [-1, -196, 196, 10_000, True, "J8", 8.0, None])
def test_a_square_off_the_board_is_a_rule_error_and_changes_nothing(square: object) -> None:
    state = arranged([(12, 1), (1,)])
    assert refusal(state, Place(0, square, 12)).code == "bad_square"  # type: ignore[arg-type]
    turn = PlayTurn(0, (TurnPlacement(square, 12),))  # type: ignore[arg-type]
    err = refusal(state, turn)
    assert err.code == "bad_square" and err.message.startswith("placement 1:")
    players = arranged([(12, 1), (1,)], referee="players")
    bad = (Equation(square, sq("G8"), "x"),)  # type: ignore[arg-type]
    assert refusal(players, Place(0, sq("I8"), 12, claims=bad)).code == "bad_square"
    assert state == arranged([(12, 1), (1,)])


@pytest.mark.parametrize("tile", [True, "12", 12.0, None])
def test_a_tile_that_is_not_a_whole_number_is_a_rule_error(tile: object) -> None:
    state = arranged([(12, 1), (1,)], bag=(30,))
    assert refusal(state, Place(0, sq("I8"), tile)).code == "bad_tile"  # type: ignore[arg-type]
    assert refusal(state, Exchange(0, (tile,))).code == "bad_tile"  # type: ignore[arg-type]


def test_a_tile_number_out_of_range_is_a_rule_error() -> None:
    state = arranged([(12, 1), (1,)])
    for tile in (-12, 999, 2**70):
        assert refusal(state, Place(0, sq("I8"), tile)).code == "tile_not_in_rack"


def test_a_claim_with_an_unknown_operation_is_refused() -> None:
    state = arranged([(12, 1), (1,)], referee="players")
    bad = (Equation(sq("H8"), sq("G8"), "%"),)
    assert refusal(state, Place(0, sq("I8"), 12, claims=bad)).code == "bad_claim"


def test_a_seat_that_is_not_a_seat_number_is_refused() -> None:
    state = arranged([(12, 1), (1,)])
    assert refusal(state, Place(True, sq("I8"), 12)).code == "not_seated"  # type: ignore[arg-type]
    assert refusal(state, Place(-1, sq("I8"), 12)).code == "not_seated"
