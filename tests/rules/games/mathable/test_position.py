"""The position cache (``mathable.games.mathable.position``): the values each square
accepts, with the count of pairs, pinned on boards worked out by hand."""

from __future__ import annotations

import random

from mathable import EMPTY, Position
from mathable.games.mathable.position import accepted_values
from tests.rules.helpers import position, sq
from tests.rules.movegen_helpers import random_position

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_movegen.py ---------------
# The position cache and move generation, pinned on boards whose answers are worked out by hand.


# --- position -------------------------------------------------------------------------------


def test_an_empty_square_accepts_each_value_its_pairs_make_with_the_count_of_pairs() -> None:
    # I8 pairs with H8, G8 (4, 3) only; H9 with H8, H7 (4, 2) only: 2 is 4 - 2 and 4 / 2,
    # still one equation. Both are plain squares.
    pos = Position.initial()
    assert accepted_values(pos.cells, sq("I8")) == {7: 1, 1: 1, 12: 1}
    assert accepted_values(pos.cells, sq("H9")) == {6: 1, 2: 1, 8: 1}
    assert dict(pos.accepts[sq("H9")]) == {6: 1, 2: 1, 8: 1}


def test_an_operation_square_accepts_only_what_its_operation_makes() -> None:
    # J8 (+) pairs with I8, H8; K8 (x) with J8, I8.
    pos = position(I8=12)
    assert accepted_values(pos.cells, sq("J8")) == {16: 1}
    pos = position(I8=2, J8=6)
    assert accepted_values(pos.cells, sq("K8")) == {12: 1}


def test_an_occupied_square_accepts_nothing() -> None:
    pos = Position.initial()
    assert accepted_values(pos.cells, sq("H8")) == {}
    assert sq("H8") not in pos.accepts and pos.equations(sq("H8"), 4) == 0


def test_a_value_completing_two_pairs_counts_twice_and_scores_twice() -> None:
    pos = position(F9=6, G9=2)  # H9: 2 + 6 across, 4 x 2 down... and 4 / 2, 4 - 2
    assert pos.equations(sq("H9"), 8) == 2
    assert pos.points(sq("H9"), 8) == 16
    assert pos.equations(sq("H9"), 13) == 0 and pos.points(sq("H9"), 13) == 0


def test_points_count_the_premium_of_the_square() -> None:
    pos = position(B1=2, C1=5)  # A1 is 3x: 7 by one pair
    assert pos.points(sq("A1"), 7) == 7 * 1 * 3


def test_tiles_lists_the_centre_and_placed_only_what_players_placed() -> None:
    pos = position(I8=12)
    centre = {sq("G7"): 1, sq("H7"): 2, sq("G8"): 3, sq("H8"): 4}
    assert pos.tiles() == centre | {sq("I8"): 12}
    assert pos.placed() == {sq("I8"): 12}
    assert Position.initial().placed() == {}


def test_taking_a_tile_off_gives_back_the_position_before_it() -> None:
    before = Position.initial()
    after = before.place(sq("I8"), 12)
    assert after.cells[sq("I8")] == 12 and sq("J8") in after.accepts
    undone = after.with_changes([(sq("I8"), EMPTY)])
    assert undone == before
    assert {s: dict(v) for s, v in undone.accepts.items()} == {
        s: dict(v) for s, v in before.accepts.items()
    }


def test_the_cache_after_any_changes_equals_the_cache_built_from_scratch() -> None:
    rng = random.Random(19)
    for seed in range(15):
        pos = random_position(seed, 20)
        placed = list(pos.placed())
        removed = rng.sample(placed, min(3, len(placed)))
        pos = pos.with_changes((s, EMPTY) for s in removed)
        fresh = Position.from_tiles(pos.placed())
        assert fresh.cells == pos.cells
        assert {s: dict(v) for s, v in pos.accepts.items()} == {
            s: dict(v) for s, v in fresh.accepts.items()
        }


def test_a_position_built_from_tiles_caches_every_square_that_accepts_a_value() -> None:
    # A1 is surrounded: both its pairs are full, no square of them is empty.
    pos = position(B1=2, C1=5, A2=1, A3=6)
    assert dict(pos.accepts[sq("A1")]) == accepted_values(pos.cells, sq("A1"))
    assert pos.equations(sq("A1"), 7) == 2  # 2 + 5 and 1 + 6
    for square in range(196):
        assert dict(pos.accepts.get(square, {})) == accepted_values(pos.cells, square)
