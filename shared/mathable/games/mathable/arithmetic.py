"""Which values a pair of adjacent tiles makes, and by which operations.

>>> sorted(makes(3, 9))
[3, 6, 12, 27]
>>> sorted(makes(2, 2)[4])
['+', 'x']
>>> sorted(makes(0, 5)[0]), sorted(makes(5, 0)[5])
(['/', 'x'], ['+', '-'])
"""

from __future__ import annotations

from functools import cache

from mathable.core.words import N_, Text, joined, says
from mathable.games.mathable.board import ADD, DIV, MUL, SUB
from mathable.games.mathable.tiles import TILE_VALUES


@cache
def makes(a: int, b: int) -> dict[int, frozenset[str]]:
    """Tile values the pair (a, b) makes, each with the operations that make it.

    Order does not matter; division must come out whole and never divides by zero.
    Only values that exist as tiles are listed.
    """
    found: dict[int, set[str]] = {}

    def add(value: int, op: str) -> None:
        if value in TILE_VALUES:
            found.setdefault(value, set()).add(op)

    add(a + b, ADD)
    add(abs(a - b), SUB)
    add(a * b, MUL)
    if b != 0 and a % b == 0:
        add(a // b, DIV)
    if a != 0 and b % a == 0:
        add(b // a, DIV)
    return {v: frozenset(ops) for v, ops in found.items()}


def is_equation(a: int, b: int, value: int, op: str | None = None) -> bool:
    """True when ``value`` follows from the pair (a, b), by ``op`` if given.

    >>> is_equation(9, 3, 6), is_equation(9, 3, 6, "+"), is_equation(0, 7, 0, "/")
    (True, False, True)
    """
    ops = makes(a, b).get(value)
    return bool(ops) and (op is None or op in ops)  # type: ignore[operator]


#: How the operations that make one value, and the values a pair makes, are listed.
_EITHER = N_("{first} or {second}")
_LIST = N_("{first}, {second}")


def describe(a: int, b: int) -> Text:
    """The values a pair makes, in words: ``3 and 4 make 7 by +, 1 by -, 12 by x``."""
    parts = [
        says(
            "{value} by {operations}",
            value=v,
            operations=joined(sorted(ops), _EITHER),
        )
        for v, ops in sorted(makes(a, b).items())
    ]
    if not parts:
        return says("{a} and {b} make no tile value", a=a, b=b)
    return says("{a} and {b} make {values}", a=a, b=b, values=joined(parts, _LIST))
