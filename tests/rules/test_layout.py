"""The rules package's layout: the kernel never imports a game, a game never imports
another, and no module imports itself back through others (imports inside functions
and under ``TYPE_CHECKING`` count as much as those at the top, as the server's layers
count them: a cycle of type names is a cycle all the same)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rules.layout_helpers import find_cycle, game_of, graph


def test_the_kernel_never_imports_a_game() -> None:
    offending = {
        (module, target)
        for module, targets in graph().items()
        if module.startswith("mathable.core")
        for target in targets
        if target.startswith("mathable.games") or target == "mathable"
    }
    assert offending == set()


def test_a_game_imports_the_kernel_and_itself_never_another_game() -> None:
    offending = {
        (module, target)
        for module, targets in graph().items()
        if game_of(module)
        for target in targets
        if game_of(target) not in (None, game_of(module))
    }
    assert offending == set()


def test_no_module_of_the_rules_package_imports_itself_back() -> None:
    edges = graph()
    # The top package and each game's package re-export names lazily (PEP 562): they
    # import nothing when imported, so they are no edge of a cycle.
    lazy = {"mathable", "mathable.games.summy"}
    assert find_cycle({m: t - lazy for m, t in edges.items() if m not in lazy}) is None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_graph_counts_type_checking_imports_those_in_functions_and_relative_ones(
    tmp_path: Path,
) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    sources = {
        "__init__.py": "",
        "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n",
        "b.py": "def f():\n    from . import c\n",
        "c.py": "from .sub import d\n",
        "sub/__init__.py": "",
        "sub/d.py": "from .. import a\n",
    }
    for where, text in sources.items():
        (package / where).write_text(text, encoding="utf-8")
    edges = graph(package)
    assert edges["pkg.a"] == {"pkg.b"}
    assert edges["pkg.b"] == {"pkg", "pkg.c"}
    assert edges["pkg.c"] == {"pkg.sub", "pkg.sub.d"}
    assert edges["pkg.sub.d"] == {"pkg", "pkg.a"}
    assert find_cycle(edges) == ["pkg.a", "pkg.b", "pkg.c", "pkg.sub.d", "pkg.a"]


@pytest.mark.parametrize("game", ["mathable", "summy"])
def test_each_game_is_registered_by_its_entry_point(game: str) -> None:
    from importlib.metadata import entry_points

    points = {p.name: p.value for p in entry_points(group="mathable.rulesets")}
    assert points[game] == f"mathable.games.{game}.ruleset:RULES"


def test_a_game_that_fails_to_load_is_left_out_and_the_others_are_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from importlib.metadata import EntryPoint

    from mathable.core import plugins, ruleset

    broken = EntryPoint("broken", "no_such_module_anywhere:RULES", plugins.GROUP)
    misnamed = EntryPoint("other", "mathable.games.summy.ruleset:RULES", plugins.GROUP)
    good = [p for p in plugins.installed() if p.name in ("mathable", "summy")]
    monkeypatch.setattr(plugins, "installed", lambda: [broken, misnamed, *good])
    monkeypatch.setattr(plugins, "_loaded", None)
    registry = ruleset._Registry()
    with pytest.warns(RuntimeWarning) as told:
        names = sorted(registry)
    assert names == ["mathable", "summy"]
    words = " ".join(str(w.message) for w in told)
    assert "'broken'" in words and "no_such_module_anywhere" in words
    assert "'other'" in words and "'summy'" in words
    assert registry["summy"].name == "summy"  # and it stays usable after the warning
    monkeypatch.undo()
    plugins.forget()


def test_two_games_cannot_register_one_event_type() -> None:
    from typing import Any, ClassVar

    from mathable.core import codec
    from mathable.core.events import Event

    with pytest.raises(TypeError, match="turn_ended"):

        class TurnEnded(Event):  # Mathable's name and type, another game's class
            type: ClassVar[str] = "turn_ended"
            game: ClassVar[str] = "another_game"
            fields: ClassVar[dict[str, codec.Codec[Any]]] = {}
