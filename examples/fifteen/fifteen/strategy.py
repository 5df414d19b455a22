"""The best claim for a view (the CLI's ``hint``, a bot's move): win now, else stop the
opponent winning, else the middle (5), else a corner (an even digit), else any.

>>> best({"free": [1, 3, 4, 6, 7], "you": 0,
...       "seats": [{"digits": [2, 9]}, {"digits": [5, 8]}]})
4
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fifteen.state import TARGET


def _completes(held: list[int], free: list[int]) -> list[int]:
    """The free digits that give ``held`` three summing to 15."""
    found = []
    for digit in free:
        for i, a in enumerate(held):
            if any(a + b + digit == TARGET for b in held[i + 1 :]):
                found.append(digit)
                break
    return found


def best(view: Mapping[str, Any]) -> int | None:
    """The digit the viewer should claim, or None when no digit is free."""
    free = sorted(int(d) for d in view.get("free") or [])
    if not free:
        return None
    seats = view.get("seats") or []
    you = view.get("you")
    mine = list(seats[you].get("digits") or []) if isinstance(you, int) else []
    theirs = [
        int(d)
        for index, seat in enumerate(seats)
        if index != you
        for d in seat.get("digits") or []
    ]
    for wanted in (_completes(mine, free), _completes(theirs, free)):
        if wanted:
            return wanted[0]
    if 5 in free:
        return 5
    corners = [d for d in free if d % 2 == 0]
    return (corners or free)[0]


__all__ = ["best"]
