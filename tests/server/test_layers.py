"""The server's layers (docs/architecture.md): imports go down, never up, and never round.

Every module of ``mathable_server`` is parsed, imports inside functions and
under ``TYPE_CHECKING`` included. From the top: ``run`` (the composition root),
``http`` (the only Flask layer), ``mailin`` (replies in), ``notify`` (the
worker loop, mail and webhooks out), ``games`` (the service: no Flask, no
SQLAlchemy), ``store`` (the database). A layer imports only the layers below
it and itself. The package's ``__init__`` and ``__main__`` sit above them all.
"""

from __future__ import annotations

import ast
import pathlib
from collections.abc import Iterator

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "server" / "mathable_server"
#: From the top down.
LAYERS = ("run", "http", "tournaments", "mailin", "notify", "games", "store")
#: Above every layer: the package's lazy ``create_app``/``Settings`` and ``python -m``.
TOP = ("mathable_server", "mathable_server.__main__")


def module_name(path: pathlib.Path) -> str:
    parts = ("mathable_server", *path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, pathlib.Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: pathlib.Path, known: set[str]) -> Iterator[tuple[str, int]]:
    """Every name ``name`` imports (absolute, with its line), at any depth of the module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            # ``from pkg import module`` imports the module (as ``from pkg.module import x``
            # does: neither counts the package, whose ``__init__`` Python runs either way).
            modules_named = [f"{source}.{a.name}" for a in node.names]
            for target in modules_named:
                if target in known:
                    yield target, node.lineno
            if not all(target in known for target in modules_named):
                yield source, node.lineno


def graph() -> dict[str, dict[str, int]]:
    """Module -> the ``mathable_server`` modules it imports (with the first line)."""
    found = modules()
    known = set(found)
    edges: dict[str, dict[str, int]] = {}
    for name, path in found.items():
        out = edges.setdefault(name, {})
        for target, line in imported(name, path, known):
            if target in known and target != name:
                out.setdefault(target, line)
    return edges


def layer_of(module: str) -> int:
    """0 for the top, then 1 + the index in ``LAYERS``."""
    if module in TOP:
        return 0
    part = module.split(".")[1]
    assert part in LAYERS, f"{module} is in no layer: put it in one of {LAYERS}"
    return 1 + LAYERS.index(part)


def upward(edges: dict[str, dict[str, int]]) -> list[str]:
    return [
        f"{source}:{line} imports {target}"
        for source, targets in edges.items()
        for target, line in targets.items()
        if layer_of(target) < layer_of(source)
    ]


def cycle(edges: dict[str, dict[str, int]]) -> list[str] | None:
    """One import cycle (its modules, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, {})):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_every_module_is_in_a_layer() -> None:
    assert all(layer_of(name) >= 0 for name in modules())


def test_each_layer_imports_only_the_layers_below_it() -> None:
    assert upward(graph()) == []


def test_the_game_service_imports_neither_flask_nor_sqlalchemy() -> None:
    found = modules()
    known = set(found)
    bad = [
        f"{name}:{line} imports {target}"
        for name, path in found.items()
        if name.startswith("mathable_server.games")
        for target, line in imported(name, path, known)
        if target.split(".")[0] in {"flask", "werkzeug", "sqlalchemy", "alembic"}
    ]
    assert bad == []


def test_there_is_no_import_cycle_in_the_server() -> None:
    found = cycle(graph())
    assert found is None, "import cycle: " + " -> ".join(found or [])


def test_the_checks_catch_a_cycle_and_an_upward_import() -> None:
    edges = {"mathable_server.store.a": {"mathable_server.store.b": 1},
             "mathable_server.store.b": {"mathable_server.store.a": 2}}  # fmt: skip
    assert cycle(edges) == ["mathable_server.store.a", "mathable_server.store.b",
                            "mathable_server.store.a"]  # fmt: skip
    up = {"mathable_server.games.service": {"mathable_server.http.errors": 3}}
    assert upward(up) == ["mathable_server.games.service:3 imports mathable_server.http.errors"]
