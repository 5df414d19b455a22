"""Board geometry: squares, notation, operation and premium squares, pairs.

A square is an ``int`` from 0 to 195: ``row * 14 + column`` with row and
column counted from 0 at the top left. Its name is the column letter and the
row number, as printed on the board:

>>> parse_square("J8")
107
>>> square_name(107)
'J8'
>>> OPERATION[parse_square("J8")], PREMIUM[parse_square("A1")]
('+', 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from mathable.core.errors import RuleError, shown
from mathable.core.words import says

SIZE: Final = 14
SQUARES: Final = range(SIZE * SIZE)
COLUMNS: Final = "ABCDEFGHIJKLMN"
EMPTY: Final = -1

ADD: Final = "+"
SUB: Final = "-"
MUL: Final = "x"
DIV: Final = "/"
OPERATIONS: Final = (ADD, SUB, MUL, DIV)


def square_name(square: int) -> str:
    """The printed name of a square: column letter, then row number."""
    row, col = divmod(square, SIZE)
    return f"{COLUMNS[col]}{row + 1}"


def parse_square(name: str) -> int:
    """The square named ``name`` (``"J8"``, case-insensitive); RuleError if off the board.

    >>> parse_square("a1"), parse_square("N14")
    (0, 195)
    >>> parse_square("O3")
    Traceback (most recent call last):
    ...
    mathable.core.errors.RuleError: bad_square: 'O3' is not a square: columns are A-N, rows 1-14
    """
    text = name.strip().upper() if isinstance(name, str) else ""
    if 2 <= len(text) <= 3 and text[0] in COLUMNS and text[1:].isascii() and text[1:].isdigit():
        row = int(text[1:])
        if 1 <= row <= SIZE and text[1] != "0":
            return (row - 1) * SIZE + COLUMNS.index(text[0])
    raise RuleError(
        "bad_square",
        says("{name} is not a square: columns are A-N, rows 1-14", name=repr(name)),
        {"value": shown(name), "accepted": "A1 to N14: a column A-N, then a row 1-14"},
    )


def _squares(names: str) -> frozenset[int]:
    return frozenset(parse_square(n) for n in names.split())


_OPERATION_SQUARES: Final = {
    DIV: _squares("E2 J2 B5 M5 B10 M10 E13 J13"),
    SUB: _squares("F3 I3 C6 L6 C9 L9 F12 I12"),
    ADD: _squares("G4 H5 E7 K7 D8 J8 G10 H11"),
    MUL: _squares("H4 G5 D7 J7 E8 K8 H10 G11"),
}
_PREMIUM_SQUARES: Final = {
    2: _squares("B2 C3 D4 E5 M2 L3 K4 J5 E10 D11 C12 B13 J10 K11 L12 M13"),
    3: _squares("A1 G1 H1 N1 A7 A8 N7 N8 A14 G14 H14 N14"),
}

#: The operation a square demands (``"+"``, ``"-"``, ``"x"``, ``"/"``), or None.
OPERATION: Final[tuple[str | None, ...]] = tuple(
    next((op for op, squares in _OPERATION_SQUARES.items() if s in squares), None) for s in SQUARES
)
#: The premium multiplier of a square: 1, 2 or 3.
PREMIUM: Final[tuple[int, ...]] = tuple(
    next((m for m, squares in _PREMIUM_SQUARES.items() if s in squares), 1) for s in SQUARES
)

#: The printed centre numbers, which act as tiles already placed.
CENTRE: Final[dict[int, int]] = {
    parse_square("G7"): 1,
    parse_square("H7"): 2,
    parse_square("G8"): 3,
    parse_square("H8"): 4,
}


def _pairs(square: int) -> tuple[tuple[int, int], ...]:
    row, col = divmod(square, SIZE)
    pairs = []
    for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0)):
        r2, c2 = row + 2 * dr, col + 2 * dc
        if 0 <= r2 < SIZE and 0 <= c2 < SIZE:
            pairs.append(((row + dr) * SIZE + col + dc, r2 * SIZE + c2))
    return tuple(pairs)


#: For each square, its pairs: (nearer square, farther square) to the left,
#: right, above and below, where they fit on the board.
PAIRS: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(_pairs(s) for s in SQUARES)


def _affected() -> tuple[tuple[int, ...], ...]:
    found: list[set[int]] = [set() for _ in SQUARES]
    for t in SQUARES:
        for pair in PAIRS[t]:
            for s in pair:
                found[s].add(t)
    return tuple(tuple(sorted(squares)) for squares in found)


#: For each square, the empty-able squares whose pairs it belongs to: the
#: squares whose accepted values can change when a tile lands on it. (Built
#: from PAIRS in one pass: every program importing the rules pays for it.)
AFFECTED: Final[tuple[tuple[int, ...], ...]] = _affected()


def render(board: Mapping[int, int] | Mapping[str, int]) -> str:
    """The board as plain text, one row a line; empty squares show their kind.

    ``board`` maps squares (names like ``"I8"`` or indexes) to tiles; the
    centre numbers are always shown.

    >>> top, *rows = render({"I8": 12}).splitlines()
    >>> print(top); print(rows[7])
         A  B  C  D  E  F  G  H  I  J  K  L  M  N
     8  3x  .  .  +  x  .  3  4 12  +  x  .  . 3x
    """
    cells = dict(CENTRE)
    for square, value in board.items():
        cells[parse_square(square) if isinstance(square, str) else square] = value
    lines = ["   " + "".join(f"{c:>3}" for c in COLUMNS)]  # each letter over its column
    for row in range(SIZE):
        out = []
        for col in range(SIZE):
            s = row * SIZE + col
            if s in cells:
                out.append(f"{cells[s]:>3}")
            elif OPERATION[s]:
                out.append(f"{OPERATION[s]:>3}")
            elif PREMIUM[s] > 1:
                out.append(f"{PREMIUM[s]}x".rjust(3))
            else:
                out.append("  .")
        lines.append(f"{row + 1:>2} " + "".join(out))
    return "\n".join(lines)
