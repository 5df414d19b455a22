"""The lazy exports of ``mathable`` and ``mathable.summy`` (PEP 562), name by name.

Each package loads a public name from its module the first time it is asked for
and keeps it. The tests forget the kept name first (``monkeypatch.delitem``), so
that every lookup goes through the package's ``__getattr__`` again.
"""

from __future__ import annotations

import importlib
import sys
import types

import pytest

import mathable
import mathable.summy


def _forget(monkeypatch: pytest.MonkeyPatch, package: types.ModuleType, name: str) -> None:
    monkeypatch.delitem(vars(package), name, raising=False)


@pytest.mark.parametrize("package", [mathable, mathable.summy], ids=["mathable", "summy"])
def test_every_public_name_loads_from_its_module_and_is_kept(
    package: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    exports: dict[str, str] = vars(package)["_EXPORTS"]
    assert sorted(package.__all__) == sorted(exports)
    for name in package.__all__:
        _forget(monkeypatch, package, name)
        expected = getattr(importlib.import_module(exports[name]), name)
        assert getattr(package, name) is expected, name
        # Kept in the package: the next lookup does not go through __getattr__.
        assert vars(package)[name] is expected, name


def test_public_names_come_from_the_modules_that_define_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, module in [
        ("apply", "mathable.events"),
        ("check", "mathable.commands"),
        ("view", "mathable.view"),
        ("ruleset_data", "mathable.ruleset_data"),
        ("RULESET", "mathable.state"),
        ("TILE_SET", "mathable.tiles"),
    ]:
        _forget(monkeypatch, mathable, name)
        assert getattr(mathable, name) is getattr(sys.modules[module], name)
    assert mathable.RULESET == "mathable"
    for name, module in [
        ("apply", "mathable.summy.events"),
        ("check", "mathable.summy.commands"),
        ("RULESET", "mathable.summy.state"),
        ("TILE_SET", "mathable.summy.tiles"),
    ]:
        _forget(monkeypatch, mathable.summy, name)
        assert getattr(mathable.summy, name) is getattr(sys.modules[module], name)
    assert mathable.summy.RULESET == "summy"


@pytest.mark.parametrize(
    ("package", "label"), [(mathable, "mathable"), (mathable.summy, "mathable.summy")]
)
def test_an_unknown_name_raises_attribute_error_in_the_standard_words(
    package: types.ModuleType, label: str
) -> None:
    with pytest.raises(AttributeError) as raised:
        package.no_such_name  # noqa: B018
    assert str(raised.value) == f"module '{label}' has no attribute 'no_such_name'"
    with pytest.raises(AttributeError) as raised:
        vars(package)["__getattr__"]("Apply")
    assert str(raised.value) == f"module '{label}' has no attribute 'Apply'"
    assert not hasattr(package, "apply_")
    assert "no_such_name" not in vars(package)


def test_dir_lists_the_loaded_names_and_every_export_sorted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _forget(monkeypatch, mathable, "best_turn")
    listed = dir(mathable)
    assert listed == sorted(listed)
    assert len(listed) == len(set(listed))
    assert set(mathable.__all__) <= set(listed)
    assert "best_turn" in listed and "best_turn" not in vars(mathable)
    # And the module's own globals, loaded or not exported.
    assert {"__getattr__", "__dir__", "_EXPORTS", "importlib", "__all__"} <= set(listed)
    assert set(listed) == set(vars(mathable)) | set(mathable.__all__)


def test_importing_a_submodule_named_like_a_function_keeps_the_function(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = importlib.import_module("mathable.view")
    # What `import mathable.view` does to the package once the submodule is loaded.
    monkeypatch.setattr(mathable, "view", module)
    assert mathable.view is module.view
    assert callable(mathable.view) and not isinstance(mathable.view, types.ModuleType)
    monkeypatch.setattr(mathable, "ruleset_data", sys.modules["mathable.ruleset_data"])
    assert mathable.ruleset_data is sys.modules["mathable.ruleset_data"].ruleset_data


def test_other_attributes_are_set_as_given(monkeypatch: pytest.MonkeyPatch) -> None:
    board = importlib.import_module("mathable.board")
    # A module under a name it does not export stays the module.
    monkeypatch.setattr(mathable, "view", board, raising=False)
    assert mathable.view is board
    monkeypatch.setattr(mathable, "board", board)
    assert mathable.board is board
    # A value that is not a module stays the value.
    monkeypatch.setattr(mathable, "view", "a string")
    assert mathable.view == "a string"
