"""Summy moves as people type them, and the table drawn as text with its coordinates.

A play is written as the first square of the whole equation, its direction and
the whole equation, table tiles included: ``-3,0 across 1+2=3`` (``a``/``>`` for
across, ``d``/``v`` for down). The client works out which tiles are new: the
letters that fall on empty squares.

>>> table = {(0, 0): 14}
>>> read_play("-3,0 across 1+2=3", table)
(((-3, 0, 1), (-2, 0, 10), (-1, 0, 2), (1, 0, 3)), 'across')
>>> print(draw_table({(0, 0): 14, (1, 0): 3}, marked={(1, 0)}))
     -1  0  1  2
 -1   .  .  .  .
  0   .  = *3  .
  1   .  .  .  .
>>> print(draw_table({(0, 0): 14, (-10, 0): 1}).splitlines()[0])
     -11 -10  -9  -8  -7  -6  -5  -4  -3  -2  -1   0   1
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Final

from mathable.core.errors import RuleError
from mathable.core.words import says
from mathable.games.summy.state import ACROSS, DOWN, MAX_COORDINATE, Square
from mathable.games.summy.tiles import NAMES, parse_tile

_DIRECTIONS = {"across": ACROSS, "a": ACROSS, ">": ACROSS, "down": DOWN, "d": DOWN, "v": DOWN}
#: Every way to write a play's direction (case aside).
DIRECTION_WORDS: Final = frozenset(_DIRECTIONS)


def _coordinate(text: str, axis: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise RuleError(
            "bad_notation",
            says("{text} is not a whole number", text=repr(text[:12])),
            {"field": axis, "text": text[:12], "accepted": "a whole number"},
        ) from None
    if abs(value) > MAX_COORDINATE:
        raise RuleError(
            "off_table",
            says("x and y lie between -{max} and {max}", max=MAX_COORDINATE),
            {"field": axis, "value": value, "min": -MAX_COORDINATE, "max": MAX_COORDINATE},
        )
    return value


def read_play(
    text: str, table: Mapping[Square, int]
) -> tuple[tuple[tuple[int, int, int], ...], str]:
    """The new tiles ((x, y, tile) each) and direction of a play written ``X,Y DIR EQUATION``.

    >>> read_play("0,0 down 4=4", {(0, 0): 14})[0]
    Traceback (most recent call last):
    ...
    mathable.core.errors.RuleError: table_mismatch: (0, 0) holds =, not 4 as written
    """
    words = text.split()
    if len(words) != 3:
        raise RuleError(
            "bad_notation",
            says("write a play as X,Y DIRECTION EQUATION, e.g. -3,0 across 1+2=3"),
            {"text": text[:80], "accepted": "X,Y DIRECTION EQUATION"},
        )
    where, way, equation = words
    x_text, comma, y_text = where.partition(",")
    if not comma:
        raise RuleError(
            "bad_notation",
            says("{text}: the first square is X,Y (e.g. -3,0)", text=repr(where[:20])),
            {"field": "square", "text": where[:20], "accepted": "X,Y"},
        )
    x, y = _coordinate(x_text, "x"), _coordinate(y_text, "y")
    direction = _DIRECTIONS.get(way.lower())
    if direction is None:
        raise RuleError(
            "bad_notation",
            says("{text}: the direction is across (a) or down (d)", text=repr(way[:12])),
            {"field": "direction", "text": way[:12], "accepted": list(_DIRECTIONS)},
        )
    if len(equation) > 2 * MAX_COORDINATE:
        raise RuleError(
            "bad_notation",
            says("that equation is longer than any table"),
            {"field": "equation", "length": len(equation), "max": 2 * MAX_COORDINATE},
        )
    dx, dy = (1, 0) if direction == ACROSS else (0, 1)
    placements = []
    for index, char in enumerate(equation):
        tile = parse_tile(char)
        square = (x + index * dx, y + index * dy)
        there = table.get(square)
        if there is None:
            placements.append((square[0], square[1], tile))
        elif there != tile:
            raise RuleError(
                "table_mismatch",
                says(
                    "({x}, {y}) holds {holds}, not {written} as written",
                    x=square[0],
                    y=square[1],
                    holds=NAMES[there],
                    written=char,
                ),
                {
                    "square": {"x": square[0], "y": square[1]},
                    "holds": NAMES[there],
                    "written": char,
                },
            )
    if not placements:
        raise RuleError(
            "no_tiles",
            says("every tile written is on the table: lay one of yours"),
            {"field": "placements", "count": 0, "equation": equation},
        )
    return tuple(placements), direction


def play_words(start: tuple[int, int], direction: str, equation: str) -> str:
    """A play in the notation ``read_play`` reads."""
    return f"{start[0]},{start[1]} {direction} {equation}"


def draw_table(table: Mapping[Square, int], marked: Collection[Square] = ()) -> str:
    """The table as text: a grid with x along the top and y down the side, one empty
    square of margin all round; ``marked`` squares (the last play) have a star."""
    xs = [x for x, _ in table] or [0]
    ys = [y for _, y in table] or [0]
    columns = range(min(xs) - 1, max(xs) + 2)
    rows = range(min(ys) - 1, max(ys) + 2)
    # A column is as wide as its widest number and a space (-10 needs four), at least 3.
    width = max(3, 1 + max(len(str(x)) for x in (columns[0], columns[-1])))
    side = max(3, max(len(str(y)) for y in (rows[0], rows[-1])))
    lines = [" " * (side + 1) + "".join(f"{x:>{width}}" for x in columns)]
    for y in rows:
        cells = []
        for x in columns:
            tile = table.get((x, y))
            text = "." if tile is None else NAMES[tile]
            cells.append(f"*{text}".rjust(width) if (x, y) in marked else text.rjust(width))
        row = "".join(cells)
        lines.append(f"{y:>{side}} " + row.rstrip())
    return "\n".join(line.rstrip() for line in lines)


__all__ = ["DIRECTION_WORDS", "draw_table", "play_words", "read_play"]
