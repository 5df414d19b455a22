"""The Summy table as an SVG picture, from one viewer's view: tiles drawn as tiles.

The input is a view as ``mathable.games.summy.view.view`` makes it (the API's
game body): it holds only what that viewer may see, and the picture shows
nothing else: the tiles on the table, those of the last play with a red edge,
the squares no tile may take (the ends of an equation) crossed out, the
coordinates along the top and the left, and the hand only when the view
carries the viewer's own.

The table is open: the picture is as big as the table's bounding box plus one
square of margin all round (so the squares beside its edge tiles show), and
never smaller than ``MIN_COLUMNS`` by ``MIN_ROWS`` squares, the table in the
middle. Its ``viewBox`` is its whole size: scaled to any width, every tile
stays in view.

>>> svg = summy_svg({"version": 3, "table": [{"x": 0, "y": 0, "tile": "="}]})
>>> svg.startswith("<svg") and 'data-x="0" data-y="0" data-tile="="' in svg
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final
from xml.sax.saxutils import escape, quoteattr

from mathable.core.words import N_, concat, joined, says, says_n

#: Side of one square, in SVG user units (as Mathable's board).
CELL: Final = 40
#: Room for the coordinates: numbers above (``TOP``) and to the left (``LEFT``, for -999).
TOP: Final = 24
LEFT: Final = 40
#: Empty squares drawn round the table's bounding box.
MARGIN_SQUARES: Final = 1
#: The smallest table drawn, in squares (a table of one tile is not a poster).
MIN_COLUMNS: Final = 9
MIN_ROWS: Final = 5
#: Height of the hand band below the table, drawn only for the viewer's own hand.
HAND_BAND: Final = 64

COLOUR_TABLE: Final = "#e9efe6"
COLOUR_GRID: Final = "#cfd8cc"
COLOUR_ORIGIN: Final = "#c9d6c3"
COLOUR_CLOSED: Final = "#8a8f88"
COLOUR_FRAME: Final = "#2b3a4a"
COLOUR_TILE: Final = "#fdf7e4"
COLOUR_TILE_EDGE: Final = "#9c8a5c"
COLOUR_LAST: Final = "#d62828"
COLOUR_INK: Final = "#1c1c1c"

FONT: Final = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

#: The signs as printed on the tiles: a real minus, times and division sign.
PRINTED: Final = {"-": "\u2212", "x": "\u00d7", ":": "\u00f7"}

Square = tuple[int, int]


def _text(x: float, y: float, label: str, size: int, fill: str, extra: str = "") -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{fill}" '
        f'text-anchor="middle" dominant-baseline="central"{extra}>{escape(label)}</text>'
    )


def _tile(px: float, py: float, name: str, *, where: str, last: bool) -> str:
    """A tile (a raised ivory piece, red-edged when just played) around its sign."""
    classes = "tile last" if last else "tile"
    edge, width = (COLOUR_LAST, 3) if last else (COLOUR_TILE_EDGE, 1)
    return (
        f'<g class="{classes}"{where} data-tile={quoteattr(name)}>'
        f'<rect x="{px + 3:g}" y="{py + 4:g}" width="{CELL - 6}" height="{CELL - 6}" rx="5" '
        f'fill="#000" fill-opacity="0.25"/>'
        f'<rect x="{px + 2:g}" y="{py + 2:g}" width="{CELL - 6}" height="{CELL - 6}" rx="5" '
        f'fill="{COLOUR_TILE}" stroke="{edge}" stroke-width="{width}"/>'
        + _text(
            px + CELL / 2 - 1,
            py + CELL / 2 - 1,
            PRINTED.get(name, name),
            20,
            COLOUR_INK,
            ' font-weight="bold"',
        )
        + "</g>"
    )


def table_of(view: Mapping[str, Any]) -> dict[Square, str]:
    """The tiles on the table of a view, by square (the tiles as the view writes them)."""
    return {(int(p["x"]), int(p["y"])): str(p["tile"]) for p in view.get("table") or ()}


def closed_of(view: Mapping[str, Any]) -> set[Square]:
    """The squares of a view that no tile may take (an equation's ends)."""
    return {(int(c["x"]), int(c["y"])) for c in view.get("closed") or ()}


def marked_of(view: Mapping[str, Any]) -> set[Square]:
    """The squares of the last play's new tiles."""
    last = view.get("last_play")
    if not isinstance(last, Mapping):
        return set()
    return {(int(p["x"]), int(p["y"])) for p in last.get("placements") or ()}


def extent(table: Mapping[Square, str]) -> tuple[range, range]:
    """The columns and rows drawn: the bounding box, a margin, at least the minimum size.

    >>> extent({(0, 0): "="})
    (range(-4, 5), range(-2, 3))
    >>> extent({(-12, 0): "1", (0, 0): "="})
    (range(-13, 2), range(-2, 3))
    """
    xs = [x for x, _ in table] or [0]
    ys = [y for _, y in table] or [0]

    def span(low: int, high: int, least: int) -> range:
        low, high = low - MARGIN_SQUARES, high + MARGIN_SQUARES
        short = least - (high - low + 1)
        if short > 0:
            low -= short // 2
            high += short - short // 2
        return range(low, high + 1)

    return span(min(xs), max(xs), MIN_COLUMNS), span(min(ys), max(ys), MIN_ROWS)


def _own_hand(view: Mapping[str, Any]) -> Sequence[str] | None:
    """The viewer's hand: only a seated viewer's view carries one."""
    hand = view.get("hand")
    if view.get("you") is None or not isinstance(hand, Sequence) or isinstance(hand, str):
        return None
    return sorted(str(t) for t in hand)


def _runs(table: Mapping[Square, str], along: int) -> list[tuple[Square, str]]:
    """The unbroken lines of two tiles or more (``along`` 0: rows, 1: columns), each as
    its first square and its tiles."""
    step = (1, 0) if along == 0 else (0, 1)
    found = []
    for square in sorted(table, key=lambda s: (s[1 - along], s[along])):
        before = (square[0] - step[0], square[1] - step[1])
        if before in table:
            continue
        tiles, at = [], square
        while at in table:
            tiles.append(table[at])
            at = (at[0] + step[0], at[1] + step[1])
        if len(tiles) > 1:
            found.append((square, "".join(tiles)))
    return found


def table_text_alternative(view: Mapping[str, Any]) -> str:
    """The picture in words, for screen readers and mail clients that show no pictures.

    >>> table_text_alternative({"table": [{"x": x, "y": 0, "tile": t} for x, t in
    ...     zip(range(-3, 2), "1+2=3")], "last_play": {"equation": "1+2=3", "direction":
    ...     "across", "placements": [{"x": -3, "y": 0, "tile": "1"}]}, "you": None})
    'Summy table, 5 tiles. Across: 1+2=3 from -3,0. Last play: 1+2=3, across.'
    """
    table = table_of(view)
    words: list[str] = [says_n("Summy table, {n} tile.", "Summy table, {n} tiles.", len(table))]
    for along, title in ((0, N_("Across: {equations}.")), (1, N_("Down: {equations}."))):
        runs = _runs(table, along)
        if runs:
            listed = joined(
                (says("{equation} from {x},{y}", equation=line, x=x, y=y) for (x, y), line in runs),
                N_("{first}; {second}"),
            )
            words.append(says(title, equations=listed))
    last = view.get("last_play")
    if isinstance(last, Mapping) and last.get("equation"):
        direction = last.get("direction")
        if direction == "across":
            words.append(says("Last play: {equation}, across.", equation=last["equation"]))
        elif direction == "down":
            words.append(says("Last play: {equation}, down.", equation=last["equation"]))
        else:
            words.append(
                says(
                    "Last play: {equation}, {direction}.",
                    equation=last["equation"],
                    direction=direction,
                )
            )
    hand = _own_hand(view)
    if hand is not None:
        words.append(says("Your hand: {tiles}.", tiles=" ".join(hand) or says("empty")))
    return concat(
        *(part for index, word in enumerate(words) for part in ((" ", word) if index else (word,)))
    )


def summy_svg(view: Mapping[str, Any]) -> str:
    """The table of a Summy view, as big as it is, with the viewer's own hand below."""
    table = table_of(view)
    closed = closed_of(view)
    marked = marked_of(view) & set(table)
    columns, rows = extent(table)
    hand = _own_hand(view)
    board_w, board_h = len(columns) * CELL, len(rows) * CELL
    hand_w = 84 + max(8, len(hand)) * (CELL + 2) if hand is not None else 0
    width = LEFT + max(board_w, hand_w) + 8
    height = TOP + board_h + 8 + (HAND_BAND if hand is not None else 0)
    version = view.get("version")
    title = "Summy table" + (f", version {version}" if isinstance(version, int) else "")

    def origin(square: Square) -> tuple[int, int]:
        return LEFT + (square[0] - columns[0]) * CELL, TOP + (square[1] - rows[0]) * CELL

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-labelledby="board-title board-desc" '
        f"font-family={quoteattr(FONT)}>",
        f'<title id="board-title">{escape(title)}</title>',
        f'<desc id="board-desc">{escape(table_text_alternative(view))}</desc>',
        f'<rect class="background" width="{width}" height="{height}" fill="#ffffff"/>',
        f'<rect class="frame" x="{LEFT - 3}" y="{TOP - 3}" width="{board_w + 6}" '
        f'height="{board_h + 6}" rx="6" fill="{COLOUR_FRAME}"/>',
        f'<rect class="table" x="{LEFT}" y="{TOP}" width="{board_w}" height="{board_h}" '
        f'fill="{COLOUR_TABLE}"/>',
    ]
    for index, x in enumerate(columns):
        parts.append(_text(LEFT + index * CELL + CELL / 2, TOP / 2, str(x), 12, "#555"))
    for index, y in enumerate(rows):
        parts.append(_text(LEFT / 2 - 1, TOP + index * CELL + CELL / 2, str(y), 12, "#555"))
    grid = [f'<g class="grid" stroke="{COLOUR_GRID}" stroke-width="1">']
    for index in range(1, len(columns)):
        grid.append(f'<line x1="{LEFT + index * CELL}" y1="{TOP}" x2="{LEFT + index * CELL}" '
                    f'y2="{TOP + board_h}"/>')  # fmt: skip
    for index in range(1, len(rows)):
        grid.append(f'<line x1="{LEFT}" y1="{TOP + index * CELL}" x2="{LEFT + board_w}" '
                    f'y2="{TOP + index * CELL}"/>')  # fmt: skip
    parts.append("".join(grid) + "</g>")
    if 0 in columns and 0 in rows and (0, 0) not in table:
        px, py = origin((0, 0))
        parts.append(
            f'<rect class="origin" x="{px + 1}" y="{py + 1}" width="{CELL - 2}" '
            f'height="{CELL - 2}" fill="{COLOUR_ORIGIN}"/>'
        )
    for square in sorted(closed - set(table)):
        if square[0] not in columns or square[1] not in rows:
            continue
        px, py = origin(square)
        a, b = 12, CELL - 12
        parts.append(
            f'<g class="closed" data-x="{square[0]}" data-y="{square[1]}" '
            f'stroke="{COLOUR_CLOSED}" stroke-width="2" stroke-linecap="round">'
            f'<line x1="{px + a}" y1="{py + a}" x2="{px + b}" y2="{py + b}"/>'
            f'<line x1="{px + b}" y1="{py + a}" x2="{px + a}" y2="{py + b}"/></g>'
        )
    for square, name in sorted(table.items(), key=lambda item: (item[0][1], item[0][0])):
        px, py = origin(square)
        where = f' data-x="{square[0]}" data-y="{square[1]}"'
        parts.append(_tile(px, py, name, where=where, last=square in marked))
    if hand is not None:
        top = TOP + board_h + 12
        parts.append(_text(LEFT + 36, top + CELL / 2, "Your hand", 13, "#555"))
        parts.append('<g class="hand">')
        for index, name in enumerate(hand):
            parts.append(_tile(LEFT + 80 + index * (CELL + 2), top, name, where="", last=False))
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


__all__ = ["extent", "summy_svg", "table_text_alternative"]
