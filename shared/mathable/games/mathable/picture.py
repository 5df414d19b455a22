"""The Mathable board as an SVG picture, drawn like the printed board, from one viewer's view.

The input is a view as ``mathable.view(state, seat)`` makes it (the API's game
body): it already holds only what that viewer may see, and the picture shows
nothing else: the board, the tiles of the last turn (and of the turn being
played) marked, and the rack only when the view carries the viewer's own.

The empty board (squares, signs, premiums, printed centre numbers, the
coordinates) never changes, so it is drawn once at import; a picture adds the
tiles on top.

>>> svg = mathable_svg({"ruleset": "mathable", "version": 5, "board": {"I8": 12}})
>>> svg.startswith("<svg") and 'data-square="I8"' in svg and ">12</text>" in svg
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final
from xml.sax.saxutils import escape, quoteattr

from mathable.core.words import N_, concat, says
from mathable.games.mathable.board import (
    CENTRE,
    COLUMNS,
    OPERATION,
    PREMIUM,
    SIZE,
    SQUARES,
    square_name,
)

#: Side of one square, in SVG user units.
CELL: Final = 40
#: Room for the coordinates (letters above, numbers to the left).
MARGIN: Final = 24
BOARD: Final = SIZE * CELL
WIDTH: Final = MARGIN + BOARD + 8
#: Height of the rack band below the board, drawn only for the viewer's own rack.
RACK_BAND: Final = 64

# The printed board's colours (current editions): operation squares blue, 2x purple,
# 3x orange, the rest a light stone; the four printed centre numbers on grey.
COLOUR_PLAIN: Final = "#ece6d6"
COLOUR_OPERATION: Final = "#1f5fae"
COLOUR_DOUBLE: Final = "#7b3fa6"
COLOUR_TRIPLE: Final = "#ee7d14"
COLOUR_CENTRE: Final = "#b9b4a6"
COLOUR_FRAME: Final = "#2b3a4a"
COLOUR_TILE: Final = "#fdf7e4"
COLOUR_TILE_EDGE: Final = "#9c8a5c"
COLOUR_LAST: Final = "#d62828"
COLOUR_INK: Final = "#1c1c1c"

FONT: Final = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

#: The signs as printed: a real minus, times and division sign.
SIGNS: Final = {"+": "+", "-": "\u2212", "x": "\u00d7", "/": "\u00f7"}
OPERATION_NAMES: Final = {"+": "add", "-": "subtract", "x": "multiply", "/": "divide"}


def _origin(square: int) -> tuple[int, int]:
    row, col = divmod(square, SIZE)
    return MARGIN + col * CELL, MARGIN + row * CELL


def _square_kind(square: int) -> tuple[str, str, str]:
    """(kind, fill, printed label) of an empty square."""
    op = OPERATION[square]
    if op is not None:
        return f"op-{OPERATION_NAMES[op]}", COLOUR_OPERATION, SIGNS[op]
    if square in CENTRE:
        return "centre", COLOUR_CENTRE, str(CENTRE[square])
    premium = PREMIUM[square]
    if premium == 3:
        return "triple", COLOUR_TRIPLE, "3x"
    if premium == 2:
        return "double", COLOUR_DOUBLE, "2x"
    return "plain", COLOUR_PLAIN, ""


def _text(x: float, y: float, label: str, size: int, fill: str, extra: str = "") -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{fill}" '
        f'text-anchor="middle" dominant-baseline="central"{extra}>{escape(label)}</text>'
    )


def _empty_board() -> str:
    """The board without tiles: frame, one rect per square with its sign, coordinates."""
    parts = [
        f'<rect class="frame" x="{MARGIN - 3}" y="{MARGIN - 3}" width="{BOARD + 6}" '
        f'height="{BOARD + 6}" rx="6" fill="{COLOUR_FRAME}"/>'
    ]
    for col, letter in enumerate(COLUMNS):
        parts.append(_text(MARGIN + col * CELL + CELL / 2, MARGIN / 2, letter, 13, "#555"))
    for row in range(SIZE):
        y = MARGIN + row * CELL + CELL / 2
        parts.append(_text(MARGIN / 2 - 1, y, str(row + 1), 13, "#555"))
    for square in SQUARES:
        x, y = _origin(square)
        kind, fill, label = _square_kind(square)
        parts.append(
            f'<rect class="square {kind}" data-square="{square_name(square)}" '
            f'x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" rx="3" '
            f'fill="{fill}"/>'
        )
        if kind == "centre":
            parts.append(
                _text(x + CELL / 2, y + CELL / 2, label, 18, COLOUR_INK, ' font-weight="bold"')
            )
        elif label:
            big = kind.startswith("op-")
            parts.append(
                _text(
                    x + CELL / 2,
                    y + CELL / 2,
                    label,
                    24 if big else 14,
                    "#ffffff",
                    ' font-weight="bold"',
                )
            )
    return "".join(parts)


EMPTY_BOARD: Final = _empty_board()


def _tile_parts(x: float, y: float, square: str | None, last: bool) -> tuple[str, str]:
    """A tile (a raised ivory piece, red-edged when just played) around its number."""
    where = f' data-square="{square}"' if square is not None else ""
    classes = "tile last" if last else "tile"
    edge, width = (COLOUR_LAST, 3) if last else (COLOUR_TILE_EDGE, 1)
    before = (
        f'<g class="{classes}"{where}>'
        f'<rect x="{x + 3:g}" y="{y + 4:g}" width="{CELL - 6}" height="{CELL - 6}" rx="5" '
        f'fill="#000" fill-opacity="0.25"/>'
        f'<rect x="{x + 2:g}" y="{y + 2:g}" width="{CELL - 6}" height="{CELL - 6}" rx="5" '
        f'fill="{COLOUR_TILE}" stroke="{edge}" stroke-width="{width}"/>'
        + _text(x + CELL / 2 - 1, y + CELL / 2 - 1, "@", 18, COLOUR_INK, ' font-weight="bold"')
        + "</g>"
    )
    head, _, tail = before.partition("@")
    return head, tail


def _tile(x: float, y: float, value: int, *, square: str | None, last: bool) -> str:
    head, tail = _tile_parts(x, y, square, last)
    return f"{head}{value}{tail}"


#: Every square's tile drawn around its number, (normal, last turn): a picture only
#: joins strings, which keeps a full board well under a millisecond.
_TILES: Final = {
    square_name(s): tuple(_tile_parts(*_origin(s), square_name(s), last) for last in (False, True))
    for s in SQUARES
}


#: The names of the printed centre squares: drawn as printed, never as tiles placed.
_CENTRE_NAMES: Final = frozenset(square_name(s) for s in CENTRE)


def placed_tiles(view: Mapping[str, Any]) -> dict[str, int]:
    """The tiles players placed: the view's ``board`` less the printed centre numbers.

    >>> placed_tiles({"board": {"G7": 1, "H7": 2, "G8": 3, "H8": 4, "I8": 12}})
    {'I8': 12}
    """
    board: Mapping[str, int] = view.get("board") or {}
    return {s: int(v) for s, v in board.items() if s not in _CENTRE_NAMES}


def marked_squares(view: Mapping[str, Any]) -> set[str]:
    """The squares of the last turn's tiles and of the turn being played."""
    marked: set[str] = set()
    for key in ("last_turn", "turn"):
        turn = view.get(key)
        if isinstance(turn, Mapping):
            marked.update(str(p["square"]) for p in turn.get("placements") or ())
    return marked & set(placed_tiles(view))


def board_text_alternative(view: Mapping[str, Any]) -> str:
    """The picture in words, for screen readers and mail clients that show no pictures.

    >>> board_text_alternative({"board": {"I8": 12}, "last_turn": {"placements": [
    ...     {"square": "I8", "tile": 12}]}, "you": None})
    'Mathable board. Printed centre: G7 1, H7 2, G8 3, H8 4. Tiles placed: I8 12. Last turn: I8 12.'
    """
    board = placed_tiles(view)
    centre = ", ".join(f"{square_name(s)} {v}" for s, v in CENTRE.items())
    words: list[str] = [says("Mathable board. Printed centre: {centre}.", centre=centre)]
    if board:
        placed = ", ".join(f"{s} {v}" for s, v in board.items())
        words.append(says("Tiles placed: {tiles}.", tiles=placed))
    else:
        words.append(says("No tile placed yet."))
    for key, title in (
        ("last_turn", N_("Last turn: {placements}.")),
        ("turn", N_("This turn so far: {placements}.")),
    ):
        turn = view.get(key)
        placements = turn.get("placements") if isinstance(turn, Mapping) else None
        if placements:
            listed = ", ".join(f"{p['square']} {p['tile']}" for p in placements)
            words.append(says(title, placements=listed))
    rack = _own_rack(view)
    if rack is not None:
        tiles = ", ".join(str(t) for t in rack) or says("empty")
        words.append(says("Your rack: {tiles}.", tiles=tiles))
    return concat(
        *(part for index, word in enumerate(words) for part in ((" ", word) if index else (word,)))
    )


def _own_rack(view: Mapping[str, Any]) -> Sequence[int] | None:
    """The viewer's rack: only a seated viewer's view carries one."""
    rack = view.get("rack")
    if view.get("you") is None or not isinstance(rack, Sequence):
        return None
    return sorted(int(t) for t in rack)


def mathable_svg(view: Mapping[str, Any]) -> str:
    """The 14x14 board of a Mathable view, with the viewer's own rack below if it has one."""
    board = placed_tiles(view)
    marked = marked_squares(view)
    rack = _own_rack(view)
    height = MARGIN + BOARD + 8 + (RACK_BAND if rack is not None else 0)
    version = view.get("version")
    title = "Mathable board" + (f", version {version}" if isinstance(version, int) else "")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-labelledby="board-title board-desc" '
        f"font-family={quoteattr(FONT)}>",
        f'<title id="board-title">{escape(title)}</title>',
        f'<desc id="board-desc">{escape(board_text_alternative(view))}</desc>',
        f'<rect class="background" width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        EMPTY_BOARD,
    ]
    for name, value in board.items():
        head, tail = _TILES[name][name in marked]
        parts.append(f"{head}{int(value)}{tail}")
    if rack is not None:
        top = MARGIN + BOARD + 12
        parts.append(_text(MARGIN + 40, top + CELL / 2, "Your rack", 13, "#555"))
        parts.append('<g class="rack">')
        for index, value in enumerate(rack):
            parts.append(
                _tile(MARGIN + 84 + index * (CELL + 2), top, value, square=None, last=False)
            )
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
