"""The board: colours like the real board, readable without colour, within 80 columns."""

from __future__ import annotations

from mathable_cli.screens.mathable.board import board_text, legend, rack_text
from mathable_cli.styled import Styled
from tests.cli.conftest import FakeServer, Invoke

BLUE_BG = "\x1b[1;37;44m"


def _ansi(text: Styled) -> str:
    return text.render(color=True)


def test_plain_board_reads_like_the_rule_book_and_marks_new_tiles() -> None:
    text = board_text({"I8": 12, "J8": 16}, {"J8"}, color=False).plain
    lines = text.splitlines()
    assert lines[0].split() == list("ABCDEFGHIJKLMN")
    assert lines[8] == " 8  3x   .   .   +   x   .   3   4  12  16*  x   .   .  3x"
    assert lines[1].split() == ["1", "3x", ".", ".", ".", ".", ".", "3x", "3x", ".", ".", ".",
                                ".", ".", "3x"]  # fmt: skip
    assert max(len(line) for line in lines) <= 80
    assert "\x1b" not in text


def test_coloured_board_paints_squares_like_the_real_board() -> None:
    out = _ansi(board_text({"I8": 12}, {"I8"}, color=True))
    assert BLUE_BG + "  +" in out  # operation squares on blue
    assert "\x1b[1;37;45m 2x" in out  # 2x purple
    assert "3x" in out and "\x1b[1;30;103m 12" in out  # the new tile highlighted
    assert "*" not in out


def test_legend_and_rack_without_colour() -> None:
    assert "12* just played" in legend(color=False).plain
    assert rack_text([40, 3, 12], color=False).plain == "3 12 40"
    assert rack_text([], color=False).plain == "(empty)"


def test_show_through_a_pipe_has_no_escape_codes(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    cli("move", gid, "I8=12", "J8=16")
    result = cli("show", gid, env={"TERM": "xterm-256color"})
    assert result.exit_code == 0
    assert "\x1b" not in result.stdout
    assert " 8  3x   .   .   +   x   .   3   4  12* 16*  x" in result.stdout
    assert all(len(line) <= 80 for line in result.stdout.splitlines())


def test_no_color_flag_and_env_keep_colour_off(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    forced = {"FORCE_COLOR": "1", "TTY_COMPATIBLE": "1"}
    coloured = cli("show", gid, env=forced)
    assert "44m" in coloured.stdout  # forced colour: blue operation squares
    for result in (
        cli("--no-color", "show", gid, env=forced),
        cli("show", gid, env={**forced, "NO_COLOR": "1"}),
    ):
        assert "44m" not in result.stdout and "45m" not in result.stdout  # bold may stay
        assert " 7  3x   .   .   x   +   .   1   2" in result.stdout
