"""The state of a Fifteen game: the kernel's ``Lifecycle`` and the digits still free.

Who holds which digit is each seat's ``rack`` (the kernel's seat field for what a
seat holds): a claimed digit moves from ``free`` to the claimer's rack, in order.

>>> FifteenState().free, line_of((8, 5, 2, 7))
((1, 2, 3, 4, 5, 6, 7, 8, 9), (2, 5, 8))
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import ClassVar, Final

from mathable.core.state import Lifecycle

RULESET: Final = "fifteen"
RULES_VERSION: Final = 1
DIGITS: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9)
TARGET: Final = 15
#: The magic square the board shows: every row, column and diagonal sums to 15, and
#: these eight lines are the only triples of distinct digits that do.
SQUARE: Final = ((2, 7, 6), (9, 5, 1), (4, 3, 8))
COLUMNS: Final = "abc"


def square_of(digit: int) -> str:
    """The square a digit lies on, as the board names it: ``5`` -> ``b2``.

    >>> square_of(2), square_of(8)
    ('a1', 'c3')
    """
    for row, digits in enumerate(SQUARE):
        if digit in digits:
            return f"{COLUMNS[digits.index(digit)]}{row + 1}"
    raise ValueError(f"{digit} is not a digit of the square")


def digit_at(square: str) -> int | None:
    """The digit on a square (``b2`` -> 5), or None if there is no such square."""
    text = square.strip().lower()
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in "123":
        return None
    return SQUARE[int(text[1]) - 1][COLUMNS.index(text[0])]


def line_of(digits: tuple[int, ...]) -> tuple[int, ...] | None:
    """Three of ``digits`` that sum to 15 (sorted), or None."""
    for three in combinations(sorted(digits), 3):
        if sum(three) == TARGET:
            return three
    return None


@dataclass(frozen=True, slots=True)
class FifteenState(Lifecycle):
    """Everything about a Fifteen game at one version. Build it with ``events.replay``.

    ``last_turn.ended_by`` is "claimed" or "passed"; ``last_claim`` the digit of the last
    claim; ``idle_turns`` counts the passes in a row.
    """

    ruleset: str = RULESET
    rules_version: int = RULES_VERSION
    #: The digits nobody holds yet (the kernel's pool: ``POOL``).
    free: tuple[int, ...] = DIGITS
    last_claim: int | None = None
    POOL: ClassVar[str] = "free"


__all__ = [
    "COLUMNS",
    "DIGITS",
    "RULESET",
    "RULES_VERSION",
    "SQUARE",
    "TARGET",
    "FifteenState",
    "digit_at",
    "line_of",
    "square_of",
]
