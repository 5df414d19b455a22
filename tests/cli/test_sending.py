"""What every game's turn shares (``mathable_cli.sending``): a rack told in the order of its
numbers.

Found in a new user's trial of issue 27's features (the former test_trial_findings.py: "a
rack after a move").
"""

from __future__ import annotations

from mathable_cli.sending import _tile_order


def test_a_rack_is_told_in_the_order_of_its_numbers() -> None:
    assert sorted([14, 20, 24, 4, 6, 81, 9], key=_tile_order) == [4, 6, 9, 14, 20, 24, 81]
    assert sorted(["x", "9", "+", "1"], key=_tile_order) == ["+", "1", "9", "x"]
