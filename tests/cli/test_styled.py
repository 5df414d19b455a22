"""Styled text: the escapes rich would write for the CLI's styles, colour decided as rich
decides it, control characters never printed; the config folder found without Click."""

from __future__ import annotations

import io
import os
import sys

import pytest
import typer
from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style
from rich.text import Text

from mathable_cli.config import user_config_dir
from mathable_cli.styled import COLORS, Styled, deep_colors, sgr, shows_color

STYLES = [
    "bold", "dim", "bold red", "yellow", "bold white on blue", "bold white on purple",
    "bold black on dark_orange", "bright_black", "bold black on wheat1", "black on grey70",
    "bold black on bright_yellow", "italic underline", "reverse",
]  # fmt: skip


def _rich(text: Text) -> str:
    buffer = io.StringIO()
    Console(file=buffer, force_terminal=True, color_system="standard", width=200,
            highlight=False, soft_wrap=True).print(text, end="")  # fmt: skip
    return buffer.getvalue()


@pytest.mark.parametrize("style", STYLES)
def test_each_style_is_written_as_rich_writes_it(style: str) -> None:
    ours = Styled("plain ").append("12", style=style).append(" after")
    theirs = Text("plain ").append("12", style=style).append(" after")
    assert ours.render(color=True) == _rich(theirs)


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(
    ("environ", "system"),
    [
        ({"TERM": "xterm"}, ColorSystem.STANDARD),
        ({"TERM": "xterm-256color"}, ColorSystem.EIGHT_BIT),
        ({"TERM": "xterm-kitty"}, ColorSystem.EIGHT_BIT),
        ({"TERM": "xterm", "COLORTERM": "truecolor"}, ColorSystem.TRUECOLOR),
    ],
)
def test_each_style_in_the_colours_the_terminal_shows(
    style: str, environ: dict[str, str], system: ColorSystem
) -> None:
    console = Console(file=io.StringIO(), force_terminal=True, _environ=environ)
    assert console._color_system == system  # rich's own reading of the terminal
    deep = deep_colors(environ)
    # rich's codes for that system, from a style parsed anew: rich keeps the first
    # system's codes on a parsed style, and caches the parse (a process has one terminal).
    fresh = Style.__dict__["parse"].__func__.__wrapped__(Style, style)
    codes = fresh._make_ansi_codes(system)
    assert Styled("12", style=style).render(color=True, deep=deep) == f"\x1b[{codes}m12\x1b[0m"
    if system is not ColorSystem.STANDARD and "on dark_orange" in style:
        assert "48;5;208" in Styled("12", style=style).render(color=True, deep=deep)


def test_a_style_under_the_whole_text_and_lines_end_their_escapes() -> None:
    ours = Styled("error: ", style="bold red").append("no game").append(" [x]", style="dim")
    theirs = Text("error: ", style="bold red").append("no game").append(" [x]", style="dim")
    assert ours.render(color=True) == _rich(theirs)
    two = Styled("a\nb", style="dim")
    assert two.render(color=True) == "\x1b[2ma\x1b[0m\n\x1b[2mb\x1b[0m"


def test_plain_rendering_and_rstrip() -> None:
    text = Styled("Your rack: ").append_text(Styled("3 12", style="bold")).append("  \n ")
    assert text.rstrip().plain == "Your rack: 3 12"
    assert text.render(color=False) == "Your rack: 3 12"


def test_control_characters_never_reach_the_terminal() -> None:
    evil = Styled("name\x1b]0;owned\x07\x1b[2J\r\x08 end")
    assert "\x1b" not in evil.render(color=False)
    assert evil.render(color=True).count("\x1b") == 0
    assert "\x1b[2J" not in Styled("x").append("\x1b[2J", style="bold").render(color=True)


def test_an_unknown_style_word_is_refused() -> None:
    with pytest.raises(ValueError, match="chartreuse"):
        sgr("bold chartreuse")
    assert set(COLORS) >= {"blue", "purple", "wheat1"}


class Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("tty", "environ", "expected"),
    [
        (True, {}, True),
        (False, {}, False),
        (True, {"NO_COLOR": "1"}, False),
        (True, {"NO_COLOR": ""}, True),
        (False, {"FORCE_COLOR": "1"}, True),
        (False, {"FORCE_COLOR": ""}, False),
        (False, {"TTY_COMPATIBLE": "1"}, True),
        (True, {"TTY_COMPATIBLE": "0", "FORCE_COLOR": "1"}, False),
        (True, {"TERM": "dumb"}, False),
        (True, {"TERM": "xterm-256color"}, True),
        (False, {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
    ],
)
def test_colour_is_decided_as_rich_decides_it(
    tty: bool, environ: dict[str, str], expected: bool
) -> None:
    stream = Stream(tty)
    assert shows_color(stream, environ) is expected
    console = Console(file=stream, _environ=environ)
    assert (console.is_terminal and not console.no_color
            and console.color_system is not None) is expected  # fmt: skip


@pytest.mark.parametrize("xdg", [None, "/tmp/xdg-config"])
def test_the_config_folder_is_where_click_puts_it(
    xdg: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if xdg is None:
        monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CONFIG_HOME", xdg)
    assert user_config_dir("mathable-cli") == typer.get_app_dir("mathable-cli")
    assert os.path.isabs(user_config_dir("mathable-cli")) or sys.platform.startswith("win")
