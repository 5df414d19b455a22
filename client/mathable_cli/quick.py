"""The commands run most, started without the command-line framework.

``show``, ``games``, ``hint``, ``wait`` and a one-shot ``move`` are what a
correspondence player types most, often in a loop or a prompt; typer, Click and
rich cost more to import than the whole command does. ``parse`` reads a command
line of one of the commands of ``COMMANDS`` that uses only the options the table
lists for it and the app's global options (``GLOBALS``), and nothing else;
``run`` calls the command's own work (the same function the app's command
calls, ``Command.run``) and ends as the app ends a command (a ``CliError`` is
its message and its exit code). Any other command line (an option not listed,
``--help``, a value the app would refuse, a command that asks questions) is the
app's: ``parse`` says None and the app parses it, errors and all.

Each table is the app's parameters as the fast path reads them: the name of the
command function's parameter, its option names (none for an argument), whether it
is a flag, takes every word left, or a number with a minimum, and its default.
tests/cli/test_quick.py checks every entry against the Typer app (and that each
parameter the table leaves out is named in ``Command.app_only``), so the two
cannot drift apart.

    [GLOBAL OPTIONS] COMMAND [ARGUMENTS AND OPTIONS]

GLOBAL OPTIONS: ``--server/-s URL``, ``--token T``, ``--profile/-p NAME``,
``--config-dir DIR``, ``--lang CODE`` (each also as ``--name=value``) and
``--no-color``, as the app takes them.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Param:
    """One parameter of a command as the fast path reads it (and the app declares it)."""

    #: The command function's parameter (the Typer function's and the work's).
    name: str
    #: Its option names; none: an argument.
    opts: tuple[str, ...] = ()
    #: An option that takes no value (True when given).
    flag: bool = False
    #: An argument that takes every word left (``nargs=-1``).
    many: bool = False
    #: A number (``float``) at least this; None: text.
    minimum: float | None = None
    #: Its value when not given.
    default: Any = None

    def read(self, text: str) -> Any:
        """The value of ``text``; ValueError where the app would refuse it."""
        if self.minimum is None:
            return text
        number = float(text)
        if not number >= self.minimum:  # NaN too: the app's to say
            raise ValueError(text)
        return number


@dataclass(frozen=True)
class Command:
    """A command the fast path runs: its work (``module:function``, called with the
    ``AppContext`` and each parameter by name), its parameters, those it leaves to the
    app (a command line that gives one is the app's), and ``only_if`` (the values ->
    whether the fast path runs them: a ``move`` without placements asks for them)."""

    run: str
    params: tuple[Param, ...]
    app_only: tuple[str, ...] = ()
    only_if: Callable[[dict[str, Any]], bool] | None = None


def _one_shot(values: dict[str, Any]) -> bool:
    from mathable_cli.moving import one_shot

    return one_shot(values["game"], values["placements"])


JSON = Param("as_json", ("--json",), flag=True, default=False)
GAME = Param("game")

#: The app's global options (its callback's parameters) that the fast path reads.
GLOBALS: tuple[Param, ...] = (
    Param("server", ("--server", "-s")),
    Param("token", ("--token",)),
    Param("profile", ("--profile", "-p")),
    Param("config_dir", ("--config-dir",)),
    Param("no_color", ("--no-color",), flag=True, default=False),
    Param("lang", ("--lang",)),
)
#: The global options left to the app.
GLOBALS_APP_ONLY = ("version",)

#: The commands the fast path runs, by name.
COMMANDS: dict[str, Command] = {
    "show": Command("mathable_cli.showing:show", (GAME, JSON), app_only=("svg", "open_it")),
    "games": Command(
        "mathable_cli.gamelist:list_games",
        (
            Param("active", ("--active",), flag=True, default=False),
            Param("finished", ("--finished",), flag=True, default=False),
            JSON,
        ),
    ),
    "hint": Command(
        "mathable_cli.hinting:hint",
        (GAME, Param("show_all", ("--all",), flag=True, default=False), JSON),
    ),
    "wait": Command(
        "mathable_cli.turnwait:wait",
        (
            GAME,
            Param("any_game", ("--any",), flag=True, default=False),
            Param("timeout", ("--timeout",), minimum=0),
            Param("interval", ("--interval",), minimum=0.1, default=15.0),
            JSON,
        ),
    ),
    "move": Command(
        "mathable_cli.moving:move",
        (
            GAME,
            Param("placements", many=True),
            Param("draw_extra", ("--draw-extra",), flag=True, default=False),
            Param("anyway", ("--anyway",), flag=True, default=False),
            JSON,
        ),
        only_if=_one_shot,
    ),
}


@dataclass
class Call:
    """A command line ``parse`` understood: the global options, the command and its values."""

    command: str
    values: dict[str, Any] = field(default_factory=dict)
    server: str | None = None
    token: str | None = None
    profile: str | None = None
    config_dir: str | None = None
    lang: str | None = None
    no_color: bool = False


def _read(
    params: tuple[Param, ...], argv: list[str], at: int, *, words: bool
) -> tuple[dict[str, Any], int] | None:
    """The values of ``params`` read from ``argv[at:]``, as Click reads them, and where the
    reading stopped: at the first word if not ``words`` (the global options stop at the
    command), else at the end. None for anything Click might read otherwise."""
    by_opt = {opt: p for p in params for opt in p.opts}
    arguments = [p for p in params if not p.opts]
    values = {p.name: ([] if p.many else p.default) for p in params}
    taken = 0  # the arguments filled
    while at < len(argv):
        word = argv[at]
        if word.startswith("-") and word != "-":
            # "--x=v" is option --x with its value; a short option's value is never joined
            # ("-sURL", "-s=URL": Click's reading, left to it).
            name, eq, value = word.partition("=") if word.startswith("--") else (word, "", "")
            param = by_opt.get(name)
            if param is None or (param.flag and eq):
                return None  # "--", an unknown option, --help, a flag given a value
            if param.flag:
                values[param.name] = True
            else:
                if not eq:
                    if at + 1 >= len(argv):
                        return None  # its value is missing: the app says so
                    at += 1
                    value = argv[at]
                try:
                    values[param.name] = param.read(value)
                except ValueError:
                    return None
        elif not words:
            return values, at
        elif taken < len(arguments):
            param = arguments[taken]
            if param.many:
                values[param.name].append(word)
            else:
                values[param.name] = word
                taken += 1
        else:
            return None  # an extra argument
        at += 1
    return values, at


def parse(argv: list[str]) -> Call | None:
    """The ``Call`` of a command line the fast path runs exactly as the app; None for
    anything else."""
    found = _read(GLOBALS, argv, 0, words=False)
    if found is None:
        return None
    options, at = found
    command = COMMANDS.get(argv[at]) if at < len(argv) else None
    if command is None:
        return None
    read = _read(command.params, argv, at + 1, words=True)
    if read is None:
        return None
    values = read[0]
    if command.only_if is not None and not command.only_if(values):
        return None
    if options["lang"] is not None:
        from mathable_i18n import language_of

        if language_of(options["lang"]) is None:
            return None  # the app says which languages there are
    return Call(argv[at], values, **options)


def run(call: Call) -> int:
    """Run ``call`` as the app would; its exit code."""
    from mathable_cli import language
    from mathable_cli.context import RUN_WITHOUT_PROFILE, AppContext
    from mathable_cli.exits import CliError
    from mathable_cli.output import Output

    language.start(call.lang, profile=call.profile, config_dir_flag=call.config_dir)
    actx = AppContext(
        server=call.server,
        token=call.token,
        profile=call.profile,
        config_dir=call.config_dir,
        output=Output(no_color=call.no_color),
        needs_profile=call.command not in RUN_WITHOUT_PROFILE,
    )
    module, _, name = COMMANDS[call.command].run.partition(":")
    work = getattr(importlib.import_module(module), name)
    try:
        work(actx, **call.values)
    except CliError as err:
        actx.output.error(err)
        return int(err.code)
    except KeyboardInterrupt:
        return 130  # as Typer ends then: the shell's code for Ctrl-C, nothing said
    except BrokenPipeError:
        # The reader went away (``| head``): nothing more to say, as Click ends then.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - flushed at exit, never read
        return 1
    return 0
