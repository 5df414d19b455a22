"""``mathable-cli show`` without the command-line framework (``mathable_cli.quick``).

What it reads of a command line and what it leaves to the app. (That every plain spelling
of ``show`` prints, says and exits exactly as the app does, and imports neither typer nor
rich nor requests, as real processes against a real server: tests/cli/e2e/test_quick_show.py.)
"""

from __future__ import annotations

import pytest

from mathable_cli.quick import Call, parse


@pytest.mark.parametrize(
    ("argv", "call"),
    [
        (["show", "g1"], Call(game="g1")),
        (["show"], Call()),
        (["show", "g1", "--json"], Call(game="g1", as_json=True)),
        (["show", "--json", "g1"], Call(game="g1", as_json=True)),
        (
            ["-s", "http://127.0.0.1:1", "--token", "t", "--no-color", "show", "g1"],
            Call(server="http://127.0.0.1:1", token="t", no_color=True, game="g1"),
        ),
        (
            ["--server=http://h", "-p", "work", "--config-dir", "/c", "--lang=fr", "show"],
            Call(server="http://h", profile="work", config_dir="/c", lang="fr"),
        ),
        (["--profile", "a", "--profile", "b", "show"], Call(profile="b")),
    ],
)
def test_a_plain_show_is_read(argv: list[str], call: Call) -> None:
    assert parse(argv) == call


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--version"],
        ["--help"],
        ["games"],
        ["show", "--help"],
        ["show", "-h"],
        ["show", "g1", "--svg", "x.svg"],
        ["show", "g1", "--open"],
        ["show", "g1", "g2"],
        ["show", "--", "g1"],
        ["show", "g1", "--jsonx"],
        ["--server"],  # a value missing
        ["--server", "show"],  # "show" is the server: no command follows
        ["-shttp://h", "show"],  # a short option joined to its value: the app reads it
        ["--lang", "xx", "show"],  # the app says which languages there are
        ["--no-color=1", "show"],
        ["--unknown", "show"],
        ["show-game"],
        ["sho"],
    ],
)
def test_anything_else_is_the_apps(argv: list[str]) -> None:
    assert parse(argv) is None
