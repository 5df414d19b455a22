"""Fifteen written down: the board as text and as SVG, a move as typed (``5``, ``b2``,
``claim 5``) and as written in a mail reply, and what a seat holds, in one line.

Everything here reads the game's JSON view only, as the CLI and the mail do.

>>> read_move("b2", {})
{'type': 'claim', 'digit': 5}
>>> read_move("claim 7", {})
{'type': 'claim', 'digit': 7}
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from mathable.core.errors import RuleError
from mathable.core.words import says

from fifteen.state import COLUMNS, DIGITS, SQUARE, digit_at

#: The mark of each seat on the board.
MARKS = ("X", "O")


def _owner(view: Mapping[str, Any], digit: int) -> int | None:
    owners = view.get("owners") or {}
    seat = owners.get(str(digit))
    return seat if isinstance(seat, int) else None


def _name(view: Mapping[str, Any], seat: int) -> str:
    seats = view.get("seats") or []
    entry = seats[seat] if seat < len(seats) else {}
    # A view the server sends carries names; the rules' own view (the mail's) only ids.
    return str(entry.get("name") or ("first player", "second player")[seat])


def draw(view: Mapping[str, Any]) -> str:
    """The magic square with its coordinates; a claimed digit carries its seat's mark.

    >>> print(draw({"owners": {"5": 0, "8": 1}, "seats": [{"name": "ann"}, {"name": "ben"}]}))
          a    b    c
     1    2    7    6
     2    9   X5    1
     3    4    3   O8
    X: ann   O: ben
    """
    lines = ["      " + "    ".join(COLUMNS)]
    for row, digits in enumerate(SQUARE):
        cells = []
        for digit in digits:
            seat = _owner(view, digit)
            mark = MARKS[seat] if seat is not None and seat < len(MARKS) else " "
            cells.append(f"{mark}{digit}")
        lines.append(f" {row + 1}   " + "   ".join(cells))
    seats = view.get("seats") or []
    lines.append("   ".join(f"{MARKS[i]}: {_name(view, i)}" for i in range(min(len(seats), 2))))
    return "\n".join(line.rstrip() for line in lines)


def read_move(text: str, view: Mapping[str, Any]) -> dict[str, Any]:
    """A claim typed as a digit (``5``), a square (``b2``) or ``claim 5``, as the JSON
    command to send; RuleError ``bad_notation`` if the text is no claim."""
    words = text.strip().lower().split()
    if len(words) == 2 and words[0] in ("claim", "take"):
        words = words[1:]
    if len(words) == 1:
        word = words[0]
        if word.isdigit() and len(word) == 1 and int(word) in DIGITS:
            return {"type": "claim", "digit": int(word)}
        digit = digit_at(word)
        if digit is not None:
            return {"type": "claim", "digit": digit}
    raise RuleError(
        "bad_notation",
        says(
            "write a digit from 1 to 9 (5) or its square (b2), not {text}",
            text=repr(text.strip()[:20]),
        ),
        {"text": text.strip()[:20]},
    )


REPLY_HELP = """Write your move on the first line of your reply:
  5          claim the digit 5 (any digit from 1 to 9 nobody holds)
  b2         claim the digit on square b2 (columns a-c, rows 1-3)
  pass       pass your turn
  resign     leave the game"""


def read_own_reply(line: str, view: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON command a mail reply's move line asks for, a claim (``pass`` and ``resign``,
    in every language, are read by the kernel before: ``mathable.core.replies``).

    >>> read_own_reply("B2.", {})
    {'type': 'claim', 'digit': 5}
    """
    return read_move(line.strip().lower().rstrip(".!"), view)


def tiles_line(view: Mapping[str, Any]) -> str:
    """What the viewer holds and what is left, in one line (the mail's rack line)."""
    seat = view.get("you")
    seats = view.get("seats") or []
    held = seats[seat].get("digits", []) if isinstance(seat, int) and seat < len(seats) else []
    mine = " ".join(map(str, held)) or "none yet"
    free = " ".join(map(str, view.get("free") or [])) or "none"
    return f"Your digits: {mine}; free: {free}"


def svg(view: Mapping[str, Any]) -> str:
    """The board as SVG, built from numbers and marks only (no text from players)."""
    size, cell, pad = 3 * 60 + 40, 60, 30
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}" role="img" aria-label="Fifteen board">',
        f'<rect width="{size}" height="{size}" fill="#fdf6e3"/>',
    ]
    colours = ("#2a6fdb", "#d9480f")
    for index, letter in enumerate(COLUMNS):
        x = pad + index * cell + cell // 2
        parts.append(f'<text x="{x}" y="20" text-anchor="middle" font-size="14">{letter}</text>')
    for row, digits in enumerate(SQUARE):
        y = pad + row * cell
        parts.append(f'<text x="12" y="{y + cell // 2 + 5}" font-size="14">{row + 1}</text>')
        for col, digit in enumerate(digits):
            x = pad + col * cell
            seat = _owner(view, digit)
            fill = colours[seat] if seat is not None and seat < len(colours) else "#ffffff"
            ink = "#ffffff" if seat is not None else "#222222"
            square = f"{COLUMNS[col]}{row + 1}"
            parts.append(
                f'<g><title>{escape(square)}</title><rect x="{x}" y="{y}" width="{cell}" '
                f'height="{cell}" fill="{fill}" stroke="#555"/>'
                f'<text x="{x + cell // 2}" y="{y + cell // 2 + 9}" text-anchor="middle" '
                f'font-size="26" fill="{ink}">{digit}</text></g>'
            )
    parts.append("</svg>")
    return "".join(parts)


__all__ = ["MARKS", "REPLY_HELP", "draw", "read_move", "read_own_reply", "svg", "tiles_line"]
