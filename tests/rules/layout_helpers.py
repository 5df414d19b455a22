"""The import graph of a package's modules, and its cycles (the rules package's
layout test, and the CLI's)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "shared" / "mathable"


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, known: set[str], name: str) -> set[str]:
    """The modules of this package ``path`` (the module ``name``) imports, anywhere in it:
    inside functions and under ``TYPE_CHECKING`` too; relative imports from ``name``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # from . import x, from ..core import y
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*parts, module] if module else parts)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return {module for module in found if module in known}


def graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module of ``package`` and the modules of the same package it imports."""
    paths = {module_name(p, package): p for p in package.rglob("*.py")}
    known = set(paths)
    return {name: imports_of(path, known, name) - {name} for name, path in paths.items()}


def game_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "games" else None


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle among ``edges`` (a list of modules, the first repeated last), or None.
    A package's ``__init__`` importing its own submodules lazily is not an edge here."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None
