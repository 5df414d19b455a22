"""The move generator of Summy as it was before issue 47: the exhaustive search.

A verbatim copy of ``mathable.games.summy.movegen`` at commit 2751051 (but for this
docstring). Each row and column is searched from every start
square by laying hand tiles left to right, every ordering of the hand in turn: it proves
"no equation" only by trying them all. The tests hold the faster search to it (the same
moves, in the same order; ``has_move`` the same answer), and ``bench/bench_summy_end.py``
times it as the baseline. Keep it as it is: it is the reference, not code to improve.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

from mathable.games.summy.equation import text_of
from mathable.games.summy.moves import PlayEquation
from mathable.games.summy.state import ACROSS, DOWN, Square
from mathable.games.summy.tiles import DIVIDE, EQUALS, MINUS, NAMES, PLUS, TIMES

_EMPTY = -1


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


def _move(
    placed: list[tuple[int, int]],
    line: list[int],
    start: int,
    end: int,
    offset: int,
    fixed: int,
    direction: str,
    points: int,
) -> Move:
    """A Move from positions in a line (``offset`` maps line index to coordinate)."""
    if direction == ACROSS:
        placements = tuple((p + offset, fixed, t) for p, t in placed)
        first = (start + offset, fixed)
    else:
        placements = tuple((fixed, p + offset, t) for p, t in placed)
        first = (fixed, start + offset)
    return Move(placements, direction, text_of(line[start:end]), points, first)


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


def legal_moves(
    table: Mapping[Square, int], hand: Sequence[int], closed: Collection[Square] = ()
) -> Iterator[Move]:
    """Every legal equation ``hand`` can form on ``table`` (lazily, line by line), with
    no tile on a ``closed`` square (the ends of the equations on the table)."""
    counts = [0] * len(NAMES)
    for tile in hand:
        counts[tile] += 1
    size = len(hand)
    if size == 0:
        return
    for direction, fixed, offset, cells in _lines(table, size):
        shut = _shut(closed, direction, fixed, offset, len(cells))
        yield from _line_moves(cells, shut, counts, size, direction, fixed, offset, None)


def _line_moves(
    cells: list[int],
    shut: list[bool],
    counts: list[int],
    size: int,
    direction: str,
    fixed: int,
    offset: int,
    floor: list[int] | None,
) -> Iterator[Move]:
    """The moves in one line; with ``floor`` ([points]), only those scoring at least as
    much as the best found so far (which it keeps up to date)."""
    n = len(cells)
    # next_table[i]: index of the first table tile at i or after (n if none); likewise '='.
    next_table = [n] * (n + 1)
    next_equals = [n] * (n + 1)
    next_sign = [n] * (n + 1)  # the first table operator at i or after
    empties = [0] * (n + 1)  # empties[i]: empty cells before index i
    for i in range(n - 1, -1, -1):
        next_table[i] = i if cells[i] != _EMPTY else next_table[i + 1]
        next_equals[i] = i if cells[i] == EQUALS else next_equals[i + 1]
        next_sign[i] = i if PLUS <= cells[i] <= DIVIDE else next_sign[i + 1]
    minus = [0] * (n + 1)  # table minus signs before index i
    muldiv = [0] * (n + 1)  # table x and : before index i
    table_digits = [0] * (n + 1)  # table digits before index i
    digit_values = [0] * (n + 1)  # the sum of the table digits before index i
    empty_at: list[int] = []  # the indexes of the empty cells, in order
    for i in range(n):
        cell = cells[i]
        empties[i + 1] = empties[i] + (cell == _EMPTY)
        minus[i + 1] = minus[i] + (cell == MINUS)
        muldiv[i + 1] = muldiv[i] + (cell == TIMES or cell == DIVIDE)
        table_digits[i + 1] = table_digits[i] + (0 <= cell <= 9)
        digit_values[i + 1] = digit_values[i] + (cell if 0 <= cell <= 9 else 0)
        if cell == _EMPTY:
            empty_at.append(i)
    found: list[Move] = []
    distinct = tuple(t for t in range(len(NAMES)) if counts[t])
    hand_sum = [sum(t * counts[t] for t in range(10))]  # the digits left in the hand
    placed: list[tuple[int, int]] = []
    line = list(cells)

    def right_side(p: int, value: int, start: int, have_table: bool, points: int) -> None:
        """The ``=`` is at p-1 and the left side made ``value``: finish if the line can."""
        digits = str(value)
        taken: list[int] = []
        ok = True
        for k, ch in enumerate(digits):
            q = p + k
            d = ord(ch) - 48
            if q >= n:  # more digits than the hand could lay
                ok = False
                break
            cell = cells[q]
            if cell == _EMPTY:
                if counts[d] == 0 or shut[q]:
                    ok = False
                    break
                counts[d] -= 1
                taken.append(q)
                placed.append((q, d))
                line[q] = d
            elif cell != d:
                ok = False
                break
            else:
                have_table = True
            points += d
        end = p + len(digits)
        if ok and have_table and placed and (end >= n or cells[end] == _EMPTY):
            if floor is None or points >= floor[0]:
                found.append(_move(placed, line, start, end, offset, fixed, direction, points))
                if floor is not None:
                    floor[0] = points
        for q in taken:
            counts[line[q]] += 1
            placed.pop()
            line[q] = cells[q]

    def step(
        p: int,
        left: int,
        start: int,
        have_table: bool,
        points: int,
        total: int,
        sign: int,
        term: int,
        pend: int,
        cur: int,
        curlen: int,
        ops: int,
    ) -> None:
        """Lay or take the tile at index p; ``left`` hand tiles remain."""
        if p >= n:
            return
        cell = cells[p]
        if cell == _EMPTY:
            if left == 0 or shut[p]:
                return
            if not have_table and empties[next_table[p]] - empties[p] > left:
                return  # cannot reach a table tile any more
            if counts[EQUALS] == 0:
                e = next_equals[p]
                if e >= n or empties[e] - empties[p] > left:
                    return  # no = within reach
            if ops == 0 and not (counts[PLUS] or counts[MINUS] or counts[TIMES] or counts[DIVIDE]):
                e = next_sign[p]
                if e >= n or empties[e] - empties[p] > left:
                    return  # no operator within reach before the =
            choices: tuple[int, ...] = distinct
        else:
            choices = (cell,)
        k = empties[p] + left
        end = empty_at[k] if k < len(empty_at) else n
        if floor is not None:
            if points + hand_sum[0] + digit_values[end] - digit_values[p] < floor[0]:
                return  # cannot beat the best move found so far
        # Too big a left side: with no minus to come, the value is at least what the
        # terms so far add up to, and its digits must fit before the line's end (a bound
        # only above zero: a running total below zero, 1-96+..., can still come back up).
        if sign > 0 and counts[MINUS] == 0 and (total or cur >= 10):
            if minus[end] == minus[p]:
                low = total
                no_times = counts[TIMES] == 0 and counts[DIVIDE] == 0
                if pend == 0 and no_times and muldiv[end] == muldiv[p]:
                    low += cur
                if low > 0:
                    room = min(end - p - 1, sum(counts[:10]) + table_digits[end] - table_digits[p])
                    if len(str(low)) > room:
                        return
        for tile in choices:
            if cell == _EMPTY:
                if counts[tile] == 0:
                    continue
            if tile <= 9:
                if curlen == 1 and cur == 0:
                    continue  # leading zero
                args = (total, sign, term, pend, cur * 10 + tile, curlen + 1, ops)
            else:
                if curlen == 0:
                    continue  # a sign first, or two in a row
                if pend == 0:
                    t = cur
                elif pend == TIMES:
                    t = term * cur
                else:
                    if cur == 0 or term % cur:
                        continue
                    t = term // cur
                if tile == EQUALS:
                    if ops == 0:
                        continue
                    value = total + sign * t
                    if value < 0:
                        continue
                    if cell == _EMPTY:
                        counts[tile] -= 1
                        placed.append((p, tile))
                        line[p] = tile
                        right_side(p + 1, value, start, have_table, points)
                        placed.pop()
                        line[p] = cell
                        counts[tile] += 1
                    else:
                        right_side(p + 1, value, start, True, points)
                    continue
                if tile == TIMES or tile == DIVIDE:
                    args = (total, sign, t, tile, 0, 0, ops + 1)
                else:
                    args = (total + sign * t, 1 if tile == PLUS else -1, 0, 0, 0, 0, ops + 1)
            gained = tile if tile <= 9 else 0
            if cell == _EMPTY:
                counts[tile] -= 1
                hand_sum[0] -= gained
                placed.append((p, tile))
                line[p] = tile
                step(p + 1, left - 1, start, have_table, points + gained, *args)
                placed.pop()
                line[p] = cell
                hand_sum[0] += gained
                counts[tile] += 1
            else:
                step(p + 1, left, start, True, points + gained, *args)

    for start in range(1, n):
        if cells[start - 1] != _EMPTY:
            continue  # an equation starts after an empty square
        if cells[start] == _EMPTY and empties[next_table[start]] - empties[start] > size:
            continue
        step(start, size, start, False, 0, 0, 1, 0, 0, 0, 0, 0)
        if found:
            yield from found
            found.clear()


def best_move(
    table: Mapping[Square, int], hand: Sequence[int], closed: Collection[Square] = ()
) -> Move | None:
    """The highest-scoring legal equation (ties: more tiles laid, then the first found)."""
    best: Move | None = None
    counts = [0] * len(NAMES)
    for tile in hand:
        counts[tile] += 1
    floor = [0]
    digits = sum(t for t in hand if t <= 9)
    # The lines that could score most first: a good move found early prunes the rest.
    bounded = [
        (digits + sum(c for c in line[3] if 0 <= c <= 9), line) for line in _lines(table, len(hand))
    ]
    lines = sorted(bounded, key=lambda item: -item[0])
    moves = (
        move
        for bound, (direction, fixed, offset, cells) in lines
        if bound >= floor[0]
        for move in _line_moves(
            cells,
            _shut(closed, direction, fixed, offset, len(cells)),
            counts,
            len(hand),
            direction,
            fixed,
            offset,
            floor,
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
    return next(legal_moves(table, hand, closed), None) is not None


__all__ = ["Move", "best_move", "has_move", "legal_moves"]
