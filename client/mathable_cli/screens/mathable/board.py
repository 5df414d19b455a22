"""The board drawn as on the real one: operation squares blue, 2x purple, 3x orange.

In colour the tiles just played are highlighted; without colour (``NO_COLOR``,
pipes) they carry a ``*`` and everything else reads as in the rule book.
Fourteen columns of four characters and a row label fit 80 columns.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from mathable import CENTRE, COLUMNS, OPERATION, PREMIUM, SIZE, parse_square
from mathable_cli.styled import Styled
from mathable_i18n import _

CELL = 4

STYLE_OPERATION = "bold white on blue"
STYLE_DOUBLE = "bold white on purple"
STYLE_TRIPLE = "bold black on dark_orange"
STYLE_PLAIN = "bright_black"
STYLE_TILE = "bold black on wheat1"
STYLE_CENTRE = "black on grey70"
STYLE_NEW = "bold black on bright_yellow"


def _square_style(square: int) -> tuple[str, str]:
    op = OPERATION[square]
    if op is not None:
        return op, STYLE_OPERATION
    premium = PREMIUM[square]
    if premium == 3:
        return "3x", STYLE_TRIPLE
    if premium == 2:
        return "2x", STYLE_DOUBLE
    return ".", STYLE_PLAIN


def board_text(
    board: Mapping[str, int],
    highlight: Collection[str] = (),
    *,
    color: bool,
) -> Styled:
    """The board (``{"I8": 12}``, centre numbers implied) as styled text.

    ``highlight`` names the squares whose tiles were just played: highlighted
    in colour, marked ``*`` without.
    """
    cells = {parse_square(name): value for name, value in board.items()}
    marked = {parse_square(name) for name in highlight} & cells.keys()
    text = Styled("   " + "".join(f"{c:>3} " for c in COLUMNS).rstrip() + "\n")
    for row in range(SIZE):
        text.append(f"{row + 1:>2} ")
        for col in range(SIZE):
            square = row * SIZE + col
            if square in CENTRE:
                label, style = str(CENTRE[square]), STYLE_CENTRE
            elif square in cells:
                label = str(cells[square])
                style = STYLE_NEW if square in marked else STYLE_TILE
            else:
                label, style = _square_style(square)
            text.append(f"{label:>3}", style=style if color else None)
            if col < SIZE - 1 or (square in marked and not color):
                text.append("*" if square in marked and not color else " ")
        text.append("\n")
    text.rstrip()
    return text


def rack_text(rack: Iterable[int], *, color: bool) -> Styled:
    """A rack of tiles: ``[ 3] [12] [45]`` in colour, ``3 12 45`` without."""
    tiles = sorted(rack)
    if not tiles:
        return Styled(_("(empty)"))
    if not color:
        return Styled(" ".join(str(t) for t in tiles))
    text = Styled()
    for index, tile in enumerate(tiles):
        if index:
            text.append(" ")
        text.append(f"{tile:>3}", style=STYLE_TILE)
    return text


def legend(*, color: bool) -> Styled:
    """What the colours and marks mean, in one line."""
    text = Styled()
    parts = [
        # TRANSLATORS: the board's legend: what the blue squares are
        ("+ - x /", STYLE_OPERATION, _("operation (extra tile)")),
        # TRANSLATORS: the board's legend: a square that doubles a tile's points
        ("2x", STYLE_DOUBLE, _("double")),
        # TRANSLATORS: the board's legend: a square that triples a tile's points
        ("3x", STYLE_TRIPLE, _("triple")),
    ]
    for label, style, words in parts:
        text.append(label, style=style if color else None)
        text.append(f" {words}  ")
    # TRANSLATORS: the board's legend: the tiles of the last turn
    played = _("just played")
    if color:
        text.append(" 12", style=STYLE_NEW)
        text.append(f" {played}")
    else:
        text.append(f"12* {played}")
    return text
