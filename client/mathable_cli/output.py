"""Where output goes: data on stdout, messages on stderr; JSON for scripts.

Text (``str`` or ``Styled``) is written to whatever ``sys.stdout`` and
``sys.stderr`` are at the time (a test runner swaps them), in colour where
``styled.shows_color`` says the stream shows it and ``--no-color`` is not given.
rich's consoles (``out``, ``err``) are made only for what needs them: tables,
progress bars, a prompt.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from mathable_cli.exits import CliError
from mathable_cli.styled import Styled, deep_colors, shows_color
from mathable_i18n import _, say

if TYPE_CHECKING:
    from rich.console import Console, RenderableType


class Output:
    """The two streams of one command run."""

    def __init__(self, *, no_color: bool = False) -> None:
        self.no_color = no_color
        self._out: Console | None = None
        self._err: Console | None = None

    @property
    def out(self) -> Console:
        if self._out is None:
            # deferred: start-up time of mathable-cli (rich)
            from rich.console import Console

            self._out = Console(
                file=sys.stdout, highlight=False, no_color=self.no_color or None, soft_wrap=True
            )
        return self._out

    @property
    def err(self) -> Console:
        if self._err is None:
            # deferred: start-up time of mathable-cli (rich)
            from rich.console import Console

            self._err = Console(
                file=sys.stderr, highlight=False, no_color=self.no_color or None, soft_wrap=True
            )
        return self._err

    @property
    def color(self) -> bool:
        """Whether what goes to stdout is in colour."""
        return self._colors(sys.stdout)

    def _colors(self, stream: Any) -> bool:
        return not self.no_color and shows_color(stream)

    def _write(self, stream: Any, text: str | Styled) -> None:
        styled = Styled(text) if isinstance(text, str) else text
        color = self._colors(stream)
        stream.write(styled.render(color=color, deep=color and deep_colors()) + "\n")
        stream.flush()

    def data(self, renderable: RenderableType | Styled | str = "") -> None:
        """Something the user asked for, on stdout (plain strings are never read as markup)."""
        if isinstance(renderable, str | Styled):
            self._write(sys.stdout, renderable)
        else:
            self.out.print(renderable)  # a rich table

    def json(self, data: Any) -> None:
        """``data`` as stable JSON on stdout, for scripts."""
        sys.stdout.write(json.dumps(data, indent=2, sort_keys=True) + "\n")
        sys.stdout.flush()

    def info(self, message: str | Styled, style: str | None = None) -> None:
        """A message for the person at the terminal, on stderr."""
        text = Styled(message) if isinstance(message, str) else message
        if style:
            text.stylize(style)
        self._write(sys.stderr, text)

    def warn(self, message: str) -> None:
        self.info(_("warning: {message}", message=message), style="yellow")

    def retrying(self, message: str) -> None:
        """The API client tells what it retries (the server down, or busy)."""
        self.info(message, style="dim")

    def error(self, error: CliError) -> None:
        """An error in words: the message, the server's code, and what to do next."""
        # TRANSLATORS: before the text of an error, as in "error: no such game"
        text = Styled(_("error: "), style="bold red")
        text.append(say(error.message))
        if error.api_code:
            text.append(f" [{error.api_code}]", style="dim")
        self._write(sys.stderr, text)
        if error.hint:
            self._write(sys.stderr, Styled(say(error.hint), style="yellow"))
