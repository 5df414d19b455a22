"""Mathable's tiles (``mathable.games.mathable.tiles``, RULES.md "Material")."""

from __future__ import annotations

from mathable import TILE_SET
from mathable.games.mathable.tiles import RACK_SIZE, SINGLE_TILES, TILE_VALUES

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_board.py -----------------
# Board geometry, arithmetic, tiles, bags and errors, pinned value by value (RULES.md).


# --- tiles ----------------------------------------------------------------------------------


def test_the_tile_set_is_seven_of_one_to_ten_and_one_of_each_single_tile() -> None:
    assert len(TILE_SET) == 106 and list(TILE_SET) == sorted(TILE_SET)
    assert all(TILE_SET.count(v) == 7 for v in range(1, 11))
    assert all(TILE_SET.count(v) == 1 for v in SINGLE_TILES)
    assert TILE_VALUES == set(range(1, 11)) | set(SINGLE_TILES) and RACK_SIZE == 7
