"""Mathable's state (``mathable.games.mathable.state``): equations and turns."""

from __future__ import annotations

from mathable import Equation
from mathable.games.mathable.state import MathableTurn, PlacedTile

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_codec_state.py -----------
# Event field codecs and the state's helpers, pinned with their exact refusals.


# --- state --------------------------------------------------------------------------------


def test_an_equation_prints_as_near_op_far() -> None:
    assert str(Equation(106, 105, "x")) == "I8xH8"


def test_a_turn_scores_the_sum_of_its_placements() -> None:
    turn = MathableTurn(seat=0, started_with=7)
    assert turn.points == 0
    placed = (PlacedTile(106, 12, (), 12), PlacedTile(107, 16, (), 32))
    turn = MathableTurn(0, 7, placements=placed)
    assert turn.points == 44
