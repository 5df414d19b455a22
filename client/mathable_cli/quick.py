"""The commands run most, started without the command-line framework.

``mathable-cli show GAME`` is what a correspondence player types most, often
in a loop or a prompt; typer, Click and rich cost more to import than the
whole command does. ``parse`` reads a command line that is one of the plain
spellings below and nothing else; ``run`` runs it through the same code the
app calls (``mathable_cli.showing``) and ends as the app ends a command (a
``CliError`` is its message and its exit code). Any other command line (a
flag not listed, ``--help``, a value that needs checking) is the app's:
``parse`` says None and the app parses it, errors and all.

    [GLOBAL OPTIONS] show [GAME] [--json]

GLOBAL OPTIONS: ``--server/-s URL``, ``--token T``, ``--profile/-p NAME``,
``--config-dir DIR``, ``--lang CODE`` (each also as ``--name=value``) and
``--no-color``, as the app takes them.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

#: The app's global options that take a value, and the setting each fills.
VALUED = {
    "--server": "server",
    "-s": "server",
    "--token": "token",
    "--profile": "profile",
    "-p": "profile",
    "--config-dir": "config_dir",
    "--lang": "lang",
}


@dataclass
class Call:
    """A command line ``parse`` understood: the global options and ``show``'s own."""

    server: str | None = None
    token: str | None = None
    profile: str | None = None
    config_dir: str | None = None
    lang: str | None = None
    no_color: bool = False
    game: str | None = None
    as_json: bool = False


def parse(argv: list[str]) -> Call | None:
    """The ``Call`` of a plain ``show`` command line; None for anything else."""
    call = Call()
    at = 0
    while at < len(argv) and argv[at].startswith("-"):
        name, eq, value = argv[at].partition("=")
        if name == "--no-color" and not eq:
            call.no_color = True
        elif name in VALUED and (eq or at + 1 < len(argv)):
            if not eq:
                at += 1
                value = argv[at]
            setattr(call, VALUED[name], value)
        else:
            return None
        at += 1
    if argv[at : at + 1] != ["show"]:
        return None
    for arg in argv[at + 1 :]:
        if arg == "--json":
            call.as_json = True
        elif arg.startswith("-") or call.game is not None:
            return None  # --svg, --open, --help, "--", a second game: the app's to say
        else:
            call.game = arg
    if call.lang is not None:
        from mathable_i18n import language_of

        if language_of(call.lang) is None:
            return None  # the app says which languages there are
    return call


def run(call: Call) -> int:
    """Run ``call`` as the app would; its exit code."""
    from mathable_cli import language, showing
    from mathable_cli.context import AppContext
    from mathable_cli.exits import CliError
    from mathable_cli.output import Output

    language.start(call.lang, profile=call.profile, config_dir_flag=call.config_dir)
    actx = AppContext(
        server=call.server,
        token=call.token,
        profile=call.profile,
        config_dir=call.config_dir,
        output=Output(no_color=call.no_color),
    )
    try:
        showing.show(actx, call.game, as_json=call.as_json)
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
