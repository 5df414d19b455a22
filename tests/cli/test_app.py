"""The application (``mathable_cli.app``): every command module known to the lazy loader, and
help that shows no types.

From what a first-time user tripped over (the former test_newcomer.py).
"""

from __future__ import annotations

from tests.cli.conftest import Invoke


def test_flags_show_no_type_in_the_help(cli: Invoke) -> None:
    for command in (["wait"], ["move"], ["games"]):
        result = cli(*command, "--help")
        assert result.exit_code == 0
        assert "<bool>" not in result.stdout, command


def test_every_command_module_is_known_to_the_lazy_loader() -> None:
    """Commands are loaded when used: a command missing from COMMANDS would be unreachable."""
    import importlib
    import pkgutil

    import typer

    import mathable_cli.commands
    from mathable_cli.app import COMMANDS

    for info in pkgutil.iter_modules(mathable_cli.commands.__path__):
        module = importlib.import_module(f"mathable_cli.commands.{info.name}")
        commands = typer.Typer()
        module.register(commands)
        group = typer.main.get_group(commands)
        for name in group.list_commands(typer.Context(group)):
            assert COMMANDS.get(name) == info.name, name
