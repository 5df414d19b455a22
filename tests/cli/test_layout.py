"""The CLI's shape: command modules stand alone; what they share lives outside commands/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

COMMANDS_DIR = Path(__file__).resolve().parents[2] / "client" / "mathable_cli" / "commands"
PACKAGE = "mathable_cli.commands"


def imported_commands(path: Path) -> list[tuple[int, str]]:
    """Every command module ``path`` imports (at the top or inside a function), by line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from . import x, from .games import y
                base = PACKAGE if node.level == 1 else "mathable_cli"
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            names = [module] if module != PACKAGE else [f"{module}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            if name.startswith(f"{PACKAGE}.") and name != f"{PACKAGE}.{path.stem}":
                found.append((node.lineno, name))
    return found


def test_no_command_module_imports_another() -> None:
    modules = sorted(p for p in COMMANDS_DIR.glob("*.py") if p.name != "__init__.py")
    assert len(modules) >= 10  # the walk sees the real modules
    offenders = {p.name: hits for p in modules if (hits := imported_commands(p))}
    assert offenders == {}


def test_the_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    module = tmp_path / "bots.py"
    module.write_text(
        "import mathable_cli.commands.rules\n"
        "def f():\n"
        "    from mathable_cli.commands.games import show\n"
        "    from mathable_cli.commands import watch\n"
        "    from . import play\n"
        "    from .account import login\n"
        "    from mathable_cli import game\n"
        "    from mathable_cli.commands import bots\n",
        encoding="utf-8",
    )
    assert [name for _, name in imported_commands(module)] == [
        "mathable_cli.commands.rules",
        "mathable_cli.commands.games",
        "mathable_cli.commands.watch",
        "mathable_cli.commands.play",
        "mathable_cli.commands.account",
    ]


@pytest.mark.parametrize("package", ["mathable_cli", "mathable_client"])
def test_no_module_of_the_client_imports_itself_back(package: str) -> None:
    # Imports inside functions count: a cycle hidden in a function is a cycle all the same.
    from tests.rules.test_layout import find_cycle, graph

    root = Path(__file__).resolve().parents[2] / "client" / package
    edges = graph(root)
    assert len(edges) > 3
    assert find_cycle(edges) is None
