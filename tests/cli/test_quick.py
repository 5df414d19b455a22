"""The commands run most, without the command-line framework (``mathable_cli.quick``).

What it reads of a command line and what it leaves to the app, and that its tables are
the Typer app's parameters. (That every command line it runs prints, says and exits
exactly as the app does, and imports neither typer nor rich nor requests nor ssl, as real
processes against a real server: tests/cli/e2e/test_quick_show.py and
tests/cli/e2e/test_quick_commands.py.)
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest
import typer
import typer.main

from mathable_cli import quick
from mathable_cli.app import app
from mathable_cli.quick import COMMANDS, GLOBALS, GLOBALS_APP_ONLY, Call, Param, parse


def show(**values: Any) -> dict[str, Any]:
    return {"game": None, "as_json": False} | values


@pytest.mark.parametrize(
    ("argv", "call"),
    [
        (["show", "g1"], Call("show", show(game="g1"))),
        (["show"], Call("show", show())),
        (["show", "g1", "--json"], Call("show", show(game="g1", as_json=True))),
        (["show", "--json", "g1"], Call("show", show(game="g1", as_json=True))),
        (
            ["-s", "http://127.0.0.1:1", "--token", "t", "--no-color", "show", "g1"],
            Call("show", show(game="g1"), server="http://127.0.0.1:1", token="t", no_color=True),
        ),
        (
            ["--server=http://h", "-p", "work", "--config-dir", "/c", "--lang=fr", "show"],
            Call("show", show(), server="http://h", profile="work", config_dir="/c", lang="fr"),
        ),
        (["--profile", "a", "--profile", "b", "show"], Call("show", show(), profile="b")),
        (["show", "-"], Call("show", show(game="-"))),  # a word, as Click reads it
        (
            ["games", "--active", "--json"],
            Call("games", {"active": True, "finished": False, "as_json": True}),
        ),
        (["hint", "g1", "--all"], Call("hint", {"game": "g1", "show_all": True, "as_json": False})),
        (
            ["wait", "g1", "--timeout", "2.5", "--interval=1"],
            Call(
                "wait",
                {
                    "game": "g1",
                    "any_game": False,
                    "timeout": 2.5,
                    "interval": 1.0,
                    "as_json": False,
                },
            ),
        ),
        (
            ["wait"],
            Call(
                "wait",
                {
                    "game": None,
                    "any_game": False,
                    "timeout": None,
                    "interval": 15.0,
                    "as_json": False,
                },
            ),
        ),
        (
            ["move", "g1", "I8=12", "--draw-extra", "J8=16"],
            Call(
                "move",
                {
                    "game": "g1",
                    "placements": ["I8=12", "J8=16"],
                    "draw_extra": True,
                    "anyway": False,
                    "as_json": False,
                },
            ),
        ),
        (
            ["move", "I8=12"],  # no game: the only one waiting on you
            Call(
                "move",
                {
                    "game": "I8=12",
                    "placements": [],
                    "draw_extra": False,
                    "anyway": False,
                    "as_json": False,
                },
            ),  # fmt: skip
        ),
    ],
)
def test_a_plain_command_line_is_read(argv: list[str], call: Call) -> None:
    assert parse(argv) == call


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--version"],
        ["--help"],
        ["-h"],
        ["new"],
        ["show", "--help"],
        ["show", "-h"],
        ["games", "--help"],
        ["show", "g1", "--svg", "x.svg"],
        ["show", "g1", "--open"],
        ["show", "g1", "g2"],
        ["show", "--", "g1"],
        ["show", "g1", "--jsonx"],
        ["show", "g1", "--json=1"],
        ["--server"],  # a value missing
        ["--server", "show"],  # "show" is the server: no command follows
        ["-shttp://h", "show"],  # a short option joined to its value: the app reads it
        ["-s=http://h", "show"],  # Click reads the value "=http://h"
        ["--lang", "xx", "show"],  # the app says which languages there are
        ["--no-color=1", "show"],
        ["--unknown", "show"],
        ["show-game"],
        ["sho"],
        ["games", "g1"],  # games takes no argument
        ["wait", "g1", "--timeout", "-1"],  # below its minimum
        ["wait", "g1", "--timeout", "soon"],  # not a number
        ["wait", "g1", "--interval", "0.05"],
        ["wait", "g1", "--timeout"],
        ["move", "g1"],  # interactive
        ["move"],
        ["move", "g1", "--json"],  # the app says --json needs placements
        ["move", "g1", "-3,0", "across", "1+2=3"],  # a word like an option: Click's to read
    ],
)
def test_anything_else_is_the_apps(argv: list[str]) -> None:
    assert parse(argv) is None


# --- the tables are the app's parameters ----------------------------------------------


def _group() -> Any:
    return typer.main.get_group(app)


def _click_command(name: str) -> Any:
    group = _group()
    with typer.Context(group) as ctx:
        found = group.get_command(ctx, name)
    assert found is not None, name
    return found


def _as_read(param: Any) -> dict[str, Any]:
    """A Click parameter (of the Click Typer brings), described as a ``quick.Param``
    describes it."""
    option = param.param_type_name == "option"
    kind = param.type
    if kind.name == "float range":
        assert kind.max is None and not kind.min_open
        minimum = kind.min
    else:
        assert kind.name in ("str", "text", "boolean"), (param.name, kind)  # text, or a flag
        minimum = None
    return {
        "name": param.name,
        "opts": tuple(param.opts) + tuple(param.secondary_opts) if option else (),
        "flag": option and param.is_flag,
        "many": param.nargs == -1,
        "minimum": minimum,
        "default": param.default,
        "checked": param.callback is not None,
    }


def _as_listed(param: Param) -> dict[str, Any]:
    return {
        "name": param.name,
        "opts": param.opts,
        "flag": param.flag,
        "many": param.many,
        "minimum": param.minimum,
        "default": param.default,
        "checked": param.name == "lang",  # the one checked: parse asks language_of too
    }


def _compare(params: tuple[Param, ...], app_only: tuple[str, ...], command: Any) -> None:
    real = [p for p in command.params if p.name not in app_only]
    assert sorted(p.name or "" for p in command.params) == sorted(
        [p.name for p in params] + list(app_only)
    )
    # The arguments in the app's order: they are filled in it.
    arguments = [p.name for p in command.params if p.param_type_name == "argument"]
    assert [p.name for p in params if not p.opts] == [a for a in arguments if a not in app_only]
    by_name = {p.name: p for p in params}
    assert [_as_listed(by_name[p.name or ""]) for p in real] == [_as_read(p) for p in real]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_reads_its_parameters_as_the_app_declares_them(name: str) -> None:
    command = COMMANDS[name]
    _compare(command.params, command.app_only, _click_command(name))
    # Options of the command's own that the app reads another way (an unknown option kept
    # as a word, say) would make the two differ: only ``move``'s, which the fast path
    # leaves to the app.
    settings = _click_command(name).context_settings
    assert not settings.get("ignore_unknown_options") or name == "move"


def test_the_global_options_are_the_apps() -> None:
    _compare(GLOBALS, GLOBALS_APP_ONLY, _group())


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_commands_work_takes_its_parameters(name: str) -> None:
    module, _, function = COMMANDS[name].run.partition(":")
    work = getattr(__import__(module, fromlist=[function]), function)
    values = {p.name: ([] if p.many else p.default) for p in COMMANDS[name].params}
    inspect.signature(work).bind(object(), **values)


def test_a_command_that_the_app_does_not_have_is_not_run_quick() -> None:
    from mathable_cli.app import COMMANDS as APP_COMMANDS

    assert set(quick.COMMANDS) <= set(APP_COMMANDS)
