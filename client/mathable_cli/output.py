"""Where output goes: data on stdout, messages on stderr; JSON for scripts.

Consoles are made when first used, so they write to whatever ``sys.stdout`` and
``sys.stderr`` are then (a test runner swaps them), and rich decides colour
from the terminal, ``NO_COLOR`` and the ``--no-color`` flag.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from mathable_cli.exits import CliError
from mathable_i18n import _, say

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.text import Text


def uses_color(console: Console) -> bool:
    """True when ``console`` will really show colours."""
    return console.is_terminal and not console.no_color and console.color_system is not None


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
        return uses_color(self.out)

    def data(self, renderable: RenderableType | str = "") -> None:
        """Something the user asked for, on stdout (plain strings are never read as markup)."""
        # deferred: start-up time of mathable-cli (rich)
        from rich.text import Text

        if isinstance(renderable, str):
            renderable = Text(renderable)
        self.out.print(renderable)

    def json(self, data: Any) -> None:
        """``data`` as stable JSON on stdout, for scripts."""
        sys.stdout.write(json.dumps(data, indent=2, sort_keys=True) + "\n")
        sys.stdout.flush()

    def info(self, message: str | Text, style: str | None = None) -> None:
        """A message for the person at the terminal, on stderr."""
        # deferred: start-up time of mathable-cli (rich)
        from rich.text import Text

        text = Text(message) if isinstance(message, str) else message
        if style:
            text.stylize(style)
        self.err.print(text)

    def warn(self, message: str) -> None:
        self.info(_("warning: {message}", message=message), style="yellow")

    def retrying(self, message: str) -> None:
        """The API client tells what it retries (the server down, or busy)."""
        self.info(message, style="dim")

    def error(self, error: CliError) -> None:
        """An error in words: the message, the server's code, and what to do next."""
        # deferred: start-up time of mathable-cli (rich)
        from rich.text import Text

        # TRANSLATORS: before the text of an error, as in "error: no such game"
        text = Text(_("error: "), style="bold red")
        text.append(say(error.message))
        if error.api_code:
            text.append(f" [{error.api_code}]", style="dim")
        self.err.print(text)
        if error.hint:
            self.err.print(Text(say(error.hint), style="yellow"))
