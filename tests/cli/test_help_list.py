"""``mathable-cli --help`` lists the commands without importing them: each one's first
paragraph comes from ``LISTED``, which must say what the commands say, and the help is
the same whether their modules are loaded or not; a real process imports none of them
(nor ``requests``) to print it."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import subprocess
import sys

import typer
from typer.testing import CliRunner

from mathable_cli.app import COMMANDS, LISTED, CliGroup, app


def test_listed_is_each_commands_first_paragraph() -> None:
    assert list(LISTED) == list(COMMANDS)
    for name, module in COMMANDS.items():
        commands = typer.Typer()
        importlib.import_module(f"mathable_cli.commands.{module}").register(commands)
        group = typer.main.get_group(commands)
        command = group.get_command(typer.Context(group), name)
        assert command is not None, name
        first = inspect.cleandoc(command.short_help or command.help or "").split("\n\n")[0]
        assert LISTED[name] == first, name


def test_the_help_is_the_same_with_the_commands_loaded_or_not() -> None:
    env = {"COLUMNS": "100", "NO_COLOR": "1"}
    CliGroup._loaded.clear()
    unloaded = CliRunner().invoke(app, ["--help"], env=env)
    group = typer.main.get_command(app)
    for name in COMMANDS:  # every module loaded, as a command run first would load its own
        group.get_command(typer.Context(group), name)
    assert CliGroup._loaded
    loaded = CliRunner().invoke(app, ["--help"], env=env)
    assert unloaded.exit_code == loaded.exit_code == 0
    assert unloaded.stdout == loaded.stdout
    assert all(name in loaded.stdout for name in COMMANDS)


def test_printing_the_help_imports_no_command() -> None:
    code = (
        "import sys, json\n"
        "from mathable_cli.main import main\n"
        "sys.argv = ['mathable-cli', '--help']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "names = [m for m in sys.modules if m.startswith('mathable_cli.commands.')]\n"
        "print(json.dumps({'commands': names, 'requests': 'requests' in sys.modules}))\n"
    )
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found == {"commands": [], "requests": False}
