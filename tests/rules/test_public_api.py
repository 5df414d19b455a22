"""The public API of ``mathable`` and ``mathable.games.summy``: their lazy exports
(PEP 562), name by name, and the old module paths of 0.1.0.

Each package loads a public name from its module the first time it is asked for and
keeps it. The tests forget the kept name first (``monkeypatch.delitem``), so that
every lookup goes through the package's ``__getattr__`` again."""

from __future__ import annotations

import importlib
import sys
import types

import pytest

import mathable
import mathable.games.summy

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_init.py ------------------
# The lazy exports of ``mathable`` and ``mathable.games.summy`` (PEP 562), name by name.
#
# Each package loads a public name from its module the first time it is asked for
# and keeps it. The tests forget the kept name first (``monkeypatch.delitem``), so
# that every lookup goes through the package's ``__getattr__`` again.


def _forget(monkeypatch: pytest.MonkeyPatch, package: types.ModuleType, name: str) -> None:
    monkeypatch.delitem(vars(package), name, raising=False)


@pytest.mark.parametrize("package", [mathable, mathable.games.summy], ids=["mathable", "summy"])
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
        ("apply", "mathable.games.mathable.events"),
        ("check", "mathable.games.mathable.commands"),
        ("view", "mathable.games.mathable.view"),
        ("ruleset_data", "mathable.games.mathable.ruleset_data"),
        ("RULESET", "mathable.games.mathable.state"),
        ("TILE_SET", "mathable.games.mathable.tiles"),
    ]:
        _forget(monkeypatch, mathable, name)
        assert getattr(mathable, name) is getattr(sys.modules[module], name)
    assert mathable.RULESET == "mathable"
    for name, module in [
        ("apply", "mathable.games.summy.events"),
        ("check", "mathable.games.summy.commands"),
        ("RULESET", "mathable.games.summy.state"),
        ("TILE_SET", "mathable.games.summy.tiles"),
    ]:
        _forget(monkeypatch, mathable.games.summy, name)
        assert getattr(mathable.games.summy, name) is getattr(sys.modules[module], name)
    assert mathable.games.summy.RULESET == "summy"


@pytest.mark.parametrize(
    ("package", "label"), [(mathable, "mathable"), (mathable.games.summy, "mathable.games.summy")]
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


def test_importing_a_submodule_named_like_a_function_keeps_the_function() -> None:
    # The games' modules live in their own packages: importing one sets an attribute of
    # its game's package, never the top package's function of the same name.
    module = importlib.import_module("mathable.games.mathable.view")
    assert mathable.view is module.view
    assert callable(mathable.view) and not isinstance(mathable.view, types.ModuleType)
    data = importlib.import_module("mathable.games.mathable.ruleset_data")
    assert mathable.ruleset_data is data.ruleset_data
    assert mathable.games.mathable.view is module


OLD_PATHS = (
    "mathable.engines",
    "mathable.summy",
    "mathable.summy.tiles",
    "mathable.rulesets",
    "mathable.state",
    "mathable.view",
)


def _forget_old_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each old path imported anew (and warned of) here, whatever imported it before."""
    for name in OLD_PATHS:
        monkeypatch.delitem(sys.modules, name, raising=False)


def test_the_old_module_paths_import_the_modules_they_became(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Bots and engine specs (``mathable.engines:greedy``) written before the games had
    # packages of their own keep working: the old path is the same module object.
    _forget_old_paths(monkeypatch)
    with pytest.warns(DeprecationWarning):
        old_engines = importlib.import_module("mathable.engines")
        assert old_engines is importlib.import_module("mathable.games.mathable.engines")
        old_tiles = importlib.import_module("mathable.summy.tiles")
        assert old_tiles is importlib.import_module("mathable.games.summy.tiles")
        assert importlib.import_module("mathable.rulesets").ruleset("summy").name == "summy"
        assert importlib.import_module("mathable.state").Options is mathable.Options
        # An old path named like a function the package exports leaves the function there.
        importlib.import_module("mathable.view")
        assert callable(mathable.view) and not isinstance(mathable.view, types.ModuleType)


def test_an_old_module_path_warns_with_its_new_path_and_when_it_goes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _forget_old_paths(monkeypatch)
    with pytest.warns(DeprecationWarning) as told:
        importlib.import_module("mathable.summy.tiles")
    words = [str(warning.message) for warning in told]
    assert words == [
        "mathable.summy is deprecated: import mathable.games.summy (the module paths of "
        "mathable 0.1.0 are removed in mathable 0.3.0, not before 2027-06-01)",
        "mathable.summy.tiles is deprecated: import mathable.games.summy.tiles (the module "
        "paths of mathable 0.1.0 are removed in mathable 0.3.0, not before 2027-06-01)",
    ]
    assert vars(mathable)["MOVED_UNTIL"] == ("0.3.0", "2027-06-01")
    assert "0.3.0" in (mathable.__doc__ or "") and "2027-06-01" in (mathable.__doc__ or "")
    # Once imported, an old path is the module it became: no warning again.
    importlib.import_module("mathable.summy.tiles")


def test_an_old_module_paths_warning_points_at_the_line_that_imports_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The warning names the importer's file and line, not the package's own: a bot's
    author sees which of their lines to change."""
    _forget_old_paths(monkeypatch)
    with pytest.warns(DeprecationWarning) as told:
        import mathable.summy.tiles  # noqa: F401
    assert {warning.filename for warning in told} == {__file__}
