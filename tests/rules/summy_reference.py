"""An independent reading of RULES.md's Summy, written for the tests from the text alone.

It shares nothing with ``mathable.games.summy`` but the tile codes (0-9 are digits,
10-13 ``+ - x :``, 14 ``=``): a play is judged by reading the table as RULES.md
says, slowly and plainly, and the differential test compares its verdicts with the
engine's. It keeps its own list of the equations on the table, to know their ends.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

PLUS, MINUS, TIMES, DIVIDE, EQUALS = 10, 11, 12, 13, 14
SIGNS = {PLUS: "+", MINUS: "-", TIMES: "x", DIVIDE: ":"}


def _number(digits: list[int]) -> int | None:
    """The number written by ``digits``, None if it has a leading zero (a lone 0 is fine)."""
    if len(digits) > 1 and digits[0] == 0:
        return None
    return int("".join(map(str, digits)))


def equation_value(tiles: list[int]) -> int | None:
    """The points of ``tiles`` read as an equation (RULES.md, Summy), or None if they are
    none: one ``=``; before it numbers joined by operators (two numbers or more), after
    it one number; no leading zero; no leading operator; x and : before + and -, left to
    right; every division whole; the two sides equal."""
    if tiles.count(EQUALS) != 1:
        return None
    at = tiles.index(EQUALS)
    left, right = tiles[:at], tiles[at + 1 :]
    if not right or any(t > 9 for t in right):
        return None
    result = _number(right)
    # Split the left side into numbers and operators, strictly alternating.
    numbers: list[int] = []
    operators: list[int] = []
    digits: list[int] = []
    for tile in left:
        if tile <= 9:
            digits.append(tile)
            continue
        if not digits:
            return None  # an operator first, or two in a row
        value = _number(digits)
        if value is None:
            return None
        numbers.append(value)
        operators.append(tile)
        digits = []
    if not digits or not operators:
        return None
    last = _number(digits)
    if last is None or result is None:
        return None
    numbers.append(last)
    # x and : first, left to right, each division whole.
    terms: list[int] = [numbers[0]]
    signs: list[int] = []
    for op, value in zip(operators, numbers[1:], strict=True):
        if op == TIMES:
            terms[-1] *= value
        elif op == DIVIDE:
            if value == 0 or terms[-1] % value:
                return None
            terms[-1] //= value
        else:
            signs.append(op)
            terms.append(value)
    total = terms[0]
    for op, value in zip(signs, terms[1:], strict=True):
        total = total + value if op == PLUS else total - value
    if total != result:
        return None
    return sum(t for t in tiles if t <= 9)


@dataclass
class Table:
    """The table as the reference sees it: tiles, and the ends of each equation on it."""

    tiles: dict[tuple[int, int], int] = field(default_factory=lambda: {(0, 0): EQUALS})
    ends: set[tuple[int, int]] = field(default_factory=set)

    def judge(
        self, hand: list[int], placements: list[tuple[int, int, int]], direction: str | None
    ) -> tuple[int, str, list[tuple[int, int]]] | None:
        """(points, direction, the equation's squares) of a legal play, None if illegal."""
        if not placements or Counter(t for _, _, t in placements) - Counter(hand):
            return None
        squares = [(x, y) for x, y, _ in placements]
        if len(set(squares)) != len(squares) or any(s in self.tiles for s in squares):
            return None
        if any(s in self.ends for s in squares):
            return None  # the ends of an equation on the table stay empty
        new = {(x, y): t for x, y, t in placements}
        options = ["across", "down"] if direction is None else [direction]
        found = [r for d in options if (r := self._line(new, d)) is not None]
        if len(found) != 1:
            return None
        return found[0]

    def _line(
        self, new: dict[tuple[int, int], int], direction: str
    ) -> tuple[int, str, list[tuple[int, int]]] | None:
        dx, dy = (1, 0) if direction == "across" else (0, 1)
        if len(new) > 1:
            if direction == "across" and len({y for _, y in new}) != 1:
                return None
            if direction == "down" and len({x for x, _ in new}) != 1:
                return None
        both = {**self.tiles, **new}
        x, y = next(iter(new))
        while (x - dx, y - dy) in both:
            x, y = x - dx, y - dy
        line: list[tuple[int, int]] = []
        while (x, y) in both:
            line.append((x, y))
            x, y = x + dx, y + dy
        if not set(new) <= set(line) or all(s in new for s in line):
            return None  # new tiles outside the one unbroken line, or no table tile
        points = equation_value([both[s] for s in line])
        if points is None:
            return None
        return points, direction, line

    def play(self, placements: list[tuple[int, int, int]], direction: str, line: list) -> None:
        """Lay a judged play: its tiles, and the ends of its equation, stay empty for good."""
        for x, y, tile in placements:
            self.tiles[(x, y)] = tile
        dx, dy = (1, 0) if direction == "across" else (0, 1)
        (fx, fy), (lx, ly) = line[0], line[-1]
        self.ends |= {(fx - dx, fy - dy), (lx + dx, ly + dy)}


__all__ = ["Table", "equation_value"]
