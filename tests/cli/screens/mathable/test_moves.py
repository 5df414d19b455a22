"""Mathable's moves in words (``screens/mathable/moves.py``): an equation told as it is
worked out.

Found in a new user's trial of issue 27's features (the former test_trial_findings.py).
"""

from __future__ import annotations

import mathable
from mathable.games.mathable.board import parse_square
from mathable_cli.screens.mathable.moves import equations_words


def test_a_difference_is_told_larger_first_as_it_is_worked_out() -> None:
    """F7=1 next to the centre's 1 and 2 (G7, H7): 2 - 1, never 1 - 2 (read as -1)."""
    position = mathable.position_from({})
    assert equations_words(position, parse_square("F7"), 1) == "2 - 1"
    assert equations_words(position, parse_square("G6"), 2) == "3 - 1"
