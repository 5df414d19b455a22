"""Text with styles (``"bold white on blue"``), written with ANSI escapes or as plain text.

What the CLI prints of a game (the board, the seats, a line of the games list)
and its messages: a few named styles, decided at the terminal's side as rich
decides them (``FORCE_COLOR``, ``TTY_COMPATIBLE``, ``NO_COLOR``, ``TERM=dumb``),
without importing rich, whose start-up costs more than ``show`` itself.
Tables and progress bars (``tournament``) still use rich.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import IO

#: The attributes a style may name, and their SGR codes.
ATTRIBUTES = {"bold": 1, "dim": 2, "italic": 3, "underline": 4, "reverse": 7}
#: The colours a style may name, and their SGR foreground codes (the background is ten
#: more) on a terminal of 16 colours, as rich writes them: the eight colours, their bright
#: forms, and the few of the 256 that the board uses, as rich brings them down to 16.
COLORS = {
    "black": 30,
    "red": 31,
    "green": 32,
    "yellow": 33,
    "blue": 34,
    "magenta": 35,
    "purple": 35,
    "cyan": 36,
    "white": 37,
    "grey70": 37,
    "bright_black": 90,
    "bright_red": 91,
    "dark_orange": 91,
    "bright_green": 92,
    "bright_yellow": 93,
    "bright_blue": 94,
    "bright_magenta": 95,
    "bright_cyan": 96,
    "bright_white": 97,
    "wheat1": 97,
}
#: The colours of the 256 among them, and their numbers: a terminal of 256 colours (or
#: more) shows them as they are (``38;5;N``, ``48;5;N``).
EIGHT_BIT = {"purple": 129, "grey70": 249, "dark_orange": 208, "wheat1": 229}
#: Control characters a terminal would act on (ESC among them): never printed from data.
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def sgr(style: str, *, deep: bool = False) -> str:
    """The SGR parameters of a style (``"bold white on blue"`` is ``"1;37;44"``): with
    ``deep``, for a terminal of 256 colours; ValueError for a word it does not know."""
    attributes: list[int] = []
    foreground = background = None
    words = style.split()
    at = 0
    while at < len(words):
        word = words[at]
        if word == "on" and at + 1 < len(words) and words[at + 1] in COLORS:
            background = _color(words[at + 1], deep, background=True)
            at += 2
            continue
        if word in ATTRIBUTES:
            attributes.append(ATTRIBUTES[word])
        elif word in COLORS:
            foreground = _color(word, deep, background=False)
        else:
            raise ValueError(f"unknown style word {word!r} in {style!r}")
        at += 1
    codes = [str(c) for c in sorted(set(attributes))]
    codes += [c for c in (foreground, background) if c is not None]
    return ";".join(codes)


def _color(name: str, deep: bool, *, background: bool) -> str:
    if deep and name in EIGHT_BIT:
        return f"{48 if background else 38};5;{EIGHT_BIT[name]}"
    return str(COLORS[name] + (10 if background else 0))


def combined(under: str | None, over: str | None) -> str | None:
    """Two styles in one: ``over``'s colours win, the attributes of both stay."""
    if not under:
        return over or None
    if not over:
        return under
    return f"{under} {over}"


class Styled:
    """A line (or lines) of text in parts, each with a style or none.

    ``Styled("Game x", style="bold")``, ``.append(" 12", style="bold black on wheat1")``;
    ``.plain`` is the text, ``.render(color=True)`` the text with escapes.
    """

    __slots__ = ("parts", "style")

    def __init__(self, text: str = "", style: str | None = None) -> None:
        self.parts: list[tuple[str, str | None]] = [(text, None)] if text else []
        #: The style under every part (``stylize``).
        self.style = style or None

    def append(self, text: str, style: str | None = None) -> Styled:
        if text:
            self.parts.append((text, style or None))
        return self

    def append_text(self, other: Styled) -> Styled:
        for text, style in other.parts:
            self.parts.append((text, combined(other.style, style)))
        return self

    def stylize(self, style: str | None) -> Styled:
        """``style`` under the whole text (a part's own style wins where they differ)."""
        self.style = combined(self.style, style)
        return self

    def rstrip(self) -> Styled:
        """Without the whitespace at its end."""
        while self.parts:
            text, style = self.parts[-1]
            stripped = text.rstrip()
            if stripped:
                self.parts[-1] = (stripped, style)
                break
            self.parts.pop()
        return self

    @property
    def plain(self) -> str:
        return "".join(text for text, _ in self.parts)

    def __str__(self) -> str:
        return self.plain

    def __repr__(self) -> str:
        return f"Styled({self.plain!r})"

    def render(self, *, color: bool, deep: bool = False) -> str:
        """The text, control characters taken out; in colour, each styled part in its SGR
        (with ``deep``, for a terminal of 256 colours: ``deep_colors``)."""
        if not color:
            return CONTROL.sub("", self.plain)
        runs: list[tuple[str, str]] = []  # (codes, text): neighbours of one style joined
        for text, style in self.parts:
            codes = sgr(combined(self.style, style) or "", deep=deep)
            if runs and runs[-1][0] == codes:
                runs[-1] = (codes, runs[-1][1] + text)
            else:
                runs.append((codes, text))
        out = []
        for codes, text in runs:
            for at, line in enumerate(CONTROL.sub("", text).split("\n")):
                if at:
                    out.append("\n")  # each line's escapes end on it, as rich ends them
                out.append(f"\x1b[{codes}m{line}\x1b[0m" if codes and line else line)
        return "".join(out)


def shows_color(stream: IO[str], environ: Mapping[str, str] = os.environ) -> bool:
    """Whether escapes written to ``stream`` show as colours, as rich tells: ``NO_COLOR``
    (not empty) says no; ``TTY_COMPATIBLE`` 1 or 0, else ``FORCE_COLOR`` (not empty), else
    whether the stream is a terminal; a ``dumb`` or ``unknown`` ``TERM`` has none."""
    if environ.get("NO_COLOR", "") != "":
        return False
    compatible = environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        terminal = compatible == "1"
    elif environ.get("FORCE_COLOR") is not None:
        terminal = environ["FORCE_COLOR"] != ""
    else:
        try:
            terminal = bool(stream.isatty())
        except (AttributeError, ValueError):
            terminal = False
    return terminal and environ.get("TERM", "").lower() not in ("dumb", "unknown")


def deep_colors(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether the terminal shows 256 colours (or more), as rich tells: ``COLORTERM``
    truecolor or 24bit, or a ``TERM`` ending in ``-256color`` (or ``kitty``)."""
    if environ.get("COLORTERM", "").strip().lower() in ("truecolor", "24bit"):
        return True
    return environ.get("TERM", "").strip().lower().rpartition("-")[2] in ("256color", "kitty")


__all__ = ["COLORS", "EIGHT_BIT", "Styled", "combined", "deep_colors", "sgr", "shows_color"]
