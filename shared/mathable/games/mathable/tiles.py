"""The 106 tiles of Mathable.

>>> len(TILE_SET), sum(TILE_SET) == sum(range(1, 11)) * 7 + sum(SINGLE_TILES)
(106, True)
"""

from __future__ import annotations

from typing import Final

SINGLE_TILES: Final = (
    0, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 24, 25, 27, 28, 30, 32, 35, 36,
    40, 42, 45, 48, 49, 50, 54, 56, 60, 63, 64, 70, 72, 80, 81, 90,
)  # fmt: skip

#: Every tile in the game, sorted: seven each of 1-10 and one of each single tile.
TILE_SET: Final[tuple[int, ...]] = tuple(
    sorted([v for v in range(1, 11) for _ in range(7)] + list(SINGLE_TILES))
)
#: The distinct tile values.
TILE_VALUES: Final[frozenset[int]] = frozenset(TILE_SET)
RACK_SIZE: Final = 7
