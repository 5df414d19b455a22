"""Every legal equation for a hand on a table, and the best one (hints, bots).

Each row and column holding a table tile is searched on its own (columns as
rows of the transposed table) by ``linesearch``: from each ``=`` it could use
(the table's, or the hand's on an empty square), it bounds what the left side
can make against what the right side can show before laying a digit, so a
hand with no equation is proved so without trying every ordering of it.
``legal_moves`` gives the equations in the order of a search laying tiles left
to right from each start square (digits, then ``+ - x : =``); ``has_move``
stops at the first.

>>> from mathable.games.summy.tiles import parse_tiles
>>> sorted(str(m) for m in legal_moves({(0, 0): 14}, parse_tiles("12+3")))
['-3,0 across 1+2=3', '-3,0 across 2+1=3', '0,-3 down 1+2=3', '0,-3 down 2+1=3']
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

from mathable.games.summy.equation import text_of
from mathable.games.summy.linesearch import EMPTY as _EMPTY
from mathable.games.summy.linesearch import Find, Known, line_finds
from mathable.games.summy.moves import PlayEquation
from mathable.games.summy.state import ACROSS, DOWN, Square
from mathable.games.summy.tiles import NAMES


@dataclass(frozen=True, slots=True)
class Move:
    """A legal equation: the new tiles (x, y, tile), the direction, the whole line, points."""

    placements: tuple[tuple[int, int, int], ...]
    direction: str
    equation: str
    points: int
    #: The first square of the whole equation (table tiles included).
    start: tuple[int, int]

    def command(self, seat: int) -> PlayEquation:
        """The command that plays this move for ``seat``."""
        return PlayEquation(seat, self.placements, self.direction)

    def __str__(self) -> str:
        x, y = self.start
        return f"{x},{y} {self.direction} {self.equation}"


def _move(find: Find, offset: int, fixed: int, direction: str) -> Move:
    """A Move from an equation found in a line (``offset`` maps line index to coordinate)."""
    start, tiles, laid, points = find
    if direction == ACROSS:
        placements = tuple((p + offset, fixed, t) for p, t in laid)
        first = (start + offset, fixed)
    else:
        placements = tuple((fixed, p + offset, t) for p, t in laid)
        first = (fixed, start + offset)
    return Move(placements, direction, text_of(tiles), points, first)


def _lines(table: Mapping[Square, int], reach: int) -> Iterator[tuple[str, int, int, list[int]]]:
    """(direction, fixed coordinate, offset, cells) for each row and column with tiles;
    ``cells[i]`` is the tile at coordinate ``i + offset`` or ``_EMPTY``, with ``reach``
    empty cells or more at both ends."""
    rows: dict[int, dict[int, int]] = {}
    cols: dict[int, dict[int, int]] = {}
    for (x, y), tile in table.items():
        rows.setdefault(y, {})[x] = tile
        cols.setdefault(x, {})[y] = tile
    for direction, groups in ((ACROSS, rows), (DOWN, cols)):
        for fixed in sorted(groups):
            tiles = groups[fixed]
            low, high = min(tiles), max(tiles)
            offset = low - reach - 1
            cells = [_EMPTY] * (high - low + 2 * reach + 3)
            for pos, tile in tiles.items():
                cells[pos - offset] = tile
            yield direction, fixed, offset, cells


def _shut(
    closed: Collection[Square], direction: str, fixed: int, offset: int, n: int
) -> list[bool]:
    """``shut[i]``: the line's square ``i`` is closed (no tile may take it)."""
    shut = [False] * n
    for x, y in closed:
        along, across = (x, y) if direction == ACROSS else (y, x)
        if across == fixed and 0 <= along - offset < n:
            shut[along - offset] = True
    return shut


def _counts(hand: Sequence[int]) -> list[int]:
    counts = [0] * len(NAMES)
    for tile in hand:
        counts[tile] += 1
    return counts


def legal_moves(
    table: Mapping[Square, int], hand: Sequence[int], closed: Collection[Square] = ()
) -> Iterator[Move]:
    """Every legal equation ``hand`` can form on ``table`` (lazily, line by line), with
    no tile on a ``closed`` square (the ends of the equations on the table)."""
    counts = _counts(hand)
    size = len(hand)
    if size == 0:
        return
    known: Known = {}
    for direction, fixed, offset, cells in _lines(table, size):
        shut = _shut(closed, direction, fixed, offset, len(cells))
        for find in line_finds(cells, shut, counts, size, known=known):
            yield _move(find, offset, fixed, direction)


def best_move(
    table: Mapping[Square, int], hand: Sequence[int], closed: Collection[Square] = ()
) -> Move | None:
    """The highest-scoring legal equation (ties: more tiles laid, then the first found)."""
    best: Move | None = None
    counts = _counts(hand)
    floor = [0]
    digits = sum(t for t in hand if t <= 9)
    # The lines that could score most first: a good move found early prunes the rest.
    bounded = [
        (digits + sum(c for c in line[3] if 0 <= c <= 9), line) for line in _lines(table, len(hand))
    ]
    lines = sorted(bounded, key=lambda item: -item[0])
    known: Known = {}
    moves = (
        _move(find, offset, fixed, direction)
        for bound, (direction, fixed, offset, cells) in lines
        if bound >= floor[0]
        for find in line_finds(
            cells,
            _shut(closed, direction, fixed, offset, len(cells)),
            counts,
            len(hand),
            floor,
            known=known,
        )
    )
    for move in moves:
        if best is None or (move.points, len(move.placements)) > (
            best.points,
            len(best.placements),
        ):
            best = move
    return best


def has_move(
    table: Mapping[Square, int], hand: Sequence[int], closed: Collection[Square] = ()
) -> bool:
    """True when ``hand`` can form any equation on ``table`` (stops at the first)."""
    size = len(hand)
    if size == 0:
        return False
    counts = _counts(hand)
    known: Known = {}
    for direction, fixed, offset, cells in _lines(table, size):
        shut = _shut(closed, direction, fixed, offset, len(cells))
        if line_finds(cells, shut, counts, size, first=True, known=known):
            return True
    return False


__all__ = ["Move", "best_move", "has_move", "legal_moves"]
