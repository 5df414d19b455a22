"""The 94 tiles of Summy, as small integers inside the rules and as strings outside.

Inside the rules a tile is an ``int``: the digits are themselves (0-9) and the
signs follow them (``+`` 10, ``-`` 11, ``x`` 12, ``:`` 13, ``=`` 14), so that
hands, the supply and the bag order are tuples of ints like Mathable's. The
HTTP API and the CLI write tiles as the strings ``"0"``..``"9"``, ``"+"``,
``"-"``, ``"x"``, ``":"``, ``"="``.

>>> len(SUPPLY_SET), tile_name(EQUALS), parse_tile("x")
(93, '=', 12)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from mathable.core.errors import RuleError, shown
from mathable.core.words import says

#: Tile names by code.
NAMES: Final = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+", "-", "x", ":", "=")
PLUS: Final = 10
MINUS: Final = 11
TIMES: Final = 12
DIVIDE: Final = 13
EQUALS: Final = 14
OPERATORS: Final = frozenset((PLUS, MINUS, TIMES, DIVIDE))
#: Other ways people type the signs (the minus sign, the multiplication sign...).
_ALIASES: Final = {
    "*": TIMES, "×": TIMES, "X": TIMES, "/": DIVIDE, "÷": DIVIDE, "–": MINUS, "−": MINUS,
}  # fmt: skip
_CODES: Final = {name: code for code, name in enumerate(NAMES)}

HAND_SIZE: Final = 8
#: Every tile of the game: six of each digit, five of each operator, fourteen ``=``.
TILE_SET: Final[tuple[int, ...]] = tuple(
    sorted(
        [d for d in range(10) for _ in range(6)]
        + [op for op in OPERATORS for _ in range(5)]
        + [EQUALS] * 14
    )
)
#: The 93 tiles shuffled into the supply: all but the ``=`` that starts in the middle.
SUPPLY_SET: Final[tuple[int, ...]] = TILE_SET[:-1]


def is_digit(tile: int) -> bool:
    return 0 <= tile <= 9


def tile_name(tile: int) -> str:
    """The string of a tile code (``12`` -> ``"x"``)."""
    return NAMES[tile]


def tile_names(tiles: Iterable[int]) -> list[str]:
    return [NAMES[t] for t in tiles]


def parse_tile(text: object) -> int:
    """The code of a tile written as a string; RuleError ``bad_tile`` if it is none.

    >>> parse_tile("7"), parse_tile("*")
    (7, 12)
    >>> parse_tile("10")
    Traceback (most recent call last):
    ...
    mathable.core.errors.RuleError: bad_tile: '10' is not a Summy tile (0-9, +, -, x, :, =)
    """
    if isinstance(text, str):
        code = _CODES.get(text)
        if code is None:
            code = _ALIASES.get(text)
        if code is not None:
            return code
    raise RuleError(
        "bad_tile",
        says("{text} is not a Summy tile (0-9, +, -, x, :, =)", text=repr(str(text)[:20])),
        {"value": shown(text, 20), "accepted": list(NAMES)},
    )


def parse_tiles(text: str) -> list[int]:
    """Tiles written one character each, ``"8x15=120"`` -> their codes."""
    return [parse_tile(ch) for ch in text]


def digit_sum(tiles: Iterable[int]) -> int:
    """The points of some tiles: the sum of their digits (signs count 0)."""
    return sum(t for t in tiles if t <= 9)
