"""The board position: which tile is on each square, and which values each empty square accepts.

``Position`` keeps, for every empty square next to at least one complete pair,
the values it accepts and how many equations each completes (respecting the
square's operation). Placing a tile only recomputes the squares near it.

>>> pos = Position.initial()
>>> from mathable.games.mathable.board import parse_square
>>> pos.accepts[parse_square("I8")][12], pos.points(parse_square("I8"), 12)
(1, 12)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

from mathable.games.mathable.arithmetic import makes
from mathable.games.mathable.board import AFFECTED, CENTRE, EMPTY, OPERATION, PAIRS, PREMIUM, SIZE

_NO_VALUES: Final[Mapping[int, int]] = {}


def accepted_values(cells: tuple[int, ...] | list[int], square: int) -> dict[int, int]:
    """Values an empty square accepts now, each with its number of equations."""
    counts: dict[int, int] = {}
    if cells[square] != EMPTY:
        return counts
    op = OPERATION[square]
    for near, far in PAIRS[square]:
        a = cells[near]
        if a == EMPTY:
            continue
        b = cells[far]
        if b == EMPTY:
            continue
        for value, ops in makes(a, b).items():
            if op is None or op in ops:
                counts[value] = counts.get(value, 0) + 1
    return counts


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable board: 196 cells (``EMPTY`` or a tile value) and the accepted-values cache."""

    cells: tuple[int, ...]
    accepts: Mapping[int, Mapping[int, int]] = field(repr=False, compare=False)

    @classmethod
    def initial(cls) -> Position:
        """The board at the start: the four printed centre numbers."""
        return cls.from_tiles(CENTRE)

    @classmethod
    def from_tiles(cls, tiles: Mapping[int, int]) -> Position:
        """A position holding ``tiles`` (square -> value); centre numbers are always present."""
        cells = [EMPTY] * (SIZE * SIZE)
        for square, value in CENTRE.items():
            cells[square] = value
        for square, value in tiles.items():
            cells[square] = value
        near: set[int] = set()
        for square, value in enumerate(cells):
            if value != EMPTY:
                near.update(AFFECTED[square])
        accepts = {}
        for square in near:
            values = accepted_values(cells, square)
            if values:
                accepts[square] = values
        return cls(tuple(cells), accepts)

    def tiles(self) -> dict[int, int]:
        """Every occupied square with its value, centre numbers included."""
        return {s: v for s, v in enumerate(self.cells) if v != EMPTY}

    def placed(self) -> dict[int, int]:
        """The squares holding tiles placed by players (not the centre numbers)."""
        return {s: v for s, v in enumerate(self.cells) if v != EMPTY and s not in CENTRE}

    def with_changes(self, changes: Iterable[tuple[int, int]]) -> Position:
        """A new position with ``(square, value)`` set (``EMPTY`` removes a tile)."""
        cells = list(self.cells)
        touched: set[int] = set()
        for square, value in changes:
            cells[square] = value
            touched.add(square)
            touched.update(AFFECTED[square])
        accepts = dict(self.accepts)
        for square in touched:
            values = accepted_values(cells, square)
            if values:
                accepts[square] = values
            else:
                accepts.pop(square, None)
        return Position(tuple(cells), accepts)

    def place(self, square: int, value: int) -> Position:
        """A new position with ``value`` on ``square``; the caller has checked it."""
        return self.with_changes(((square, value),))

    def equations(self, square: int, value: int) -> int:
        """How many equations ``value`` would complete on ``square`` (0: illegal)."""
        return self.accepts.get(square, _NO_VALUES).get(value, 0)

    def points(self, square: int, value: int) -> int:
        """What placing ``value`` on ``square`` would score now (0 if illegal)."""
        return value * self.equations(square, value) * PREMIUM[square]
