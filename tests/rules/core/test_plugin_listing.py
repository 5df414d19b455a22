"""The entry points ``mathable.core.plugins`` reads itself (``Listed``, without importing
``importlib.metadata``) are the ones ``importlib.metadata`` finds: in this environment, in
a folder put first on the path (its distribution hiding a later one of the same name), and
it leaves a path with a zip on it to ``importlib.metadata``."""

from __future__ import annotations

import sys
import zipfile
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

from mathable.core import plugins


def every(points: object, groups: set[str]) -> dict[str, list[tuple[str, str]]]:
    select = points.select  # type: ignore[attr-defined]
    return {g: sorted((p.name, p.value) for p in select(group=g)) for g in sorted(groups)}


def test_the_entry_points_are_those_importlib_metadata_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, later = tmp_path / "first", tmp_path / "later"
    for folder, value in ((first, "fifteen_a:RULES"), (later, "fifteen_b:RULES")):
        info = folder / "Fifteen_Game-1.0.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: Fifteen-Game\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(
            f"# a comment\n[mathable.rulesets]\nfifteen = {value}\n\n[console_scripts]\n"
            "fifteen-cli = fifteen_a.cli:main [extra]\n"
        )
    monkeypatch.syspath_prepend(str(later))
    monkeypatch.syspath_prepend(str(first))
    assert plugins._plain_folders()
    real, mine = entry_points(), plugins.Listed(sys.path)
    groups = set(real.groups)
    assert every(mine, groups) == every(real, groups)
    found = {p.name: p for p in mine.select(group=plugins.GROUP)}
    assert found["fifteen"].value == "fifteen_a:RULES" and found["fifteen"].module == "fifteen_a"
    assert {"mathable", "summy"} <= set(found)
    assert found["mathable"].load().name == "mathable"


def test_a_zip_on_the_path_is_left_to_importlib_metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = tmp_path / "plugins.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped-1.0.dist-info/METADATA", "Name: zipped\nVersion: 1.0\n")
        zipped.writestr(
            "zipped-1.0.dist-info/entry_points.txt", "[mathable.rulesets]\nzipped = zipped:RULES\n"
        )
    monkeypatch.syspath_prepend(str(archive))
    monkeypatch.setattr(plugins, "_every", None)
    assert not plugins._plain_folders()
    assert "zipped" in {p.name for p in plugins.in_group(plugins.GROUP)}
    monkeypatch.setattr(plugins, "_every", None)


def test_forgetting_the_games_reads_their_entry_points_again() -> None:
    """After an install (or in a test), ``forget`` makes the next ``load_all`` read the
    entry points again: the same games come back, not nothing."""
    before = plugins.load_all()
    plugins.forget()
    try:
        again = plugins.load_all()
        assert plugins.load_one("mathable") is again["mathable"]
        assert plugins.load_one("no-such-game") is None
        assert {"mathable", "summy"} <= set(again)
        assert {name: type(rules) for name, rules in again.items()} == {
            name: type(rules) for name, rules in before.items()
        }
        assert plugins.installed() and all(p.group == plugins.GROUP for p in plugins.installed())
    finally:
        plugins.forget()
        plugins.load_all()


def _dist(root: Path, folder: str, text: str) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "entry_points.txt").write_text(text, encoding="utf-8")


def test_the_listing_reads_entry_points_as_importlib_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every folder of the path, in order; the first distribution of a (normalised) name
    wins; ``.dist-info`` and ``.egg-info`` alike; comments, blank lines, lines outside a
    group and lines without ``=`` skipped; a value may hold ``=``; ``""`` is the current
    folder; a folder that cannot be listed is passed over."""
    first, second, here = tmp_path / "first", tmp_path / "second", tmp_path / "here"
    _dist(
        first,
        "My.Game-1.0.dist-info",
        "# a comment\n; another\nstray = before.any:group\n\n[ mathable.rulesets ]\n"
        "one = pkg.one:RULES\n#hidden = pkg.hidden\n;also = pkg.also\nno equals sign here\n"
        "two=pkg.two:Rules.X [extra]\nX = pkg.x\n"
        "[other.group]\nthree = pkg.three\n",
    )
    _dist(second, "my_game-2.0.dist-info", "[mathable.rulesets]\nshadowed = pkg.old:RULES\n")
    _dist(second, "Older_Thing-0.1.egg-info", "[mathable.rulesets]\nfour = a=b:c\n")
    _dist(second, "not-a-dist-1.0.txt-info", "[mathable.rulesets]\nfive = pkg.five\n")
    # An egg's folder names its Python too: the name is what comes before the first "-".
    _dist(second, "my_game-2.0-py3.11.egg-info", "[mathable.rulesets]\nalso = pkg.egg\n")
    # A name shadowed passes over that folder alone: the next in the same folder is read.
    _dist(second, "zz_last-1.0.dist-info", "[mathable.rulesets]\nseven = pkg.seven\n")
    _dist(here, "Here-3.dist-info", "[mathable.rulesets]\nsix = pkg.six\n")
    monkeypatch.chdir(here)
    listed = plugins.Listed([str(first), str(tmp_path / "missing"), str(second), ""])
    found = [(p.name, p.value, p.group) for p in listed.select("mathable.rulesets")]
    assert found == [
        ("one", "pkg.one:RULES", "mathable.rulesets"),
        ("two", "pkg.two:Rules.X [extra]", "mathable.rulesets"),
        ("X", "pkg.x", "mathable.rulesets"),
        ("four", "a=b:c", "mathable.rulesets"),
        ("seven", "pkg.seven", "mathable.rulesets"),
        ("six", "pkg.six", "mathable.rulesets"),
    ]
    assert [p.name for p in listed.select("other.group")] == ["three"]
    assert listed.select("nothing") == ()
    assert listed.select("") == ()  # a line before any group belongs to none


def test_entry_points_are_read_from_the_folders_only_when_nothing_else_finds_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert plugins._plain_folders()
    archive = tmp_path / "games.zip"
    archive.write_bytes(b"")
    monkeypatch.setattr(sys, "path", [*sys.path, str(archive)])
    assert not plugins._plain_folders()  # a zip on the path: importlib's own reading
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p != str(archive)])

    class Finder:
        @staticmethod
        def find_distributions(*args: object) -> list[object]:
            return []

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder()])
    assert not plugins._plain_folders()  # a finder of distributions not the standard one
    Finder.__module__ = "importlib_helpers"
    assert plugins._plain_folders()


@pytest.fixture
def games_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Installs the entry points given (``plugins.in_group`` answering them) with modules
    written to a folder on the path; the real games come back after the test."""
    monkeypatch.syspath_prepend(str(tmp_path))
    written: list[str] = []

    def install(points: list[tuple[str, str]], modules: dict[str, str]) -> None:
        for name, text in modules.items():
            (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
            written.append(name)
        found = [plugins.Point(name, value, plugins.GROUP) for name, value in points]
        monkeypatch.setattr(plugins, "in_group", lambda group: found)
        plugins.forget()

    yield install
    for name in written:
        sys.modules.pop(name, None)
    monkeypatch.undo()
    plugins.forget()
    plugins.load_all()


def test_a_game_listed_twice_is_one_game_and_two_objects_of_one_name_are_refused(
    games_of: Any,
) -> None:
    """A distribution found twice on the path names the same object: one game. Two that
    name different objects under one name are an install to fix, said as such."""
    games_of([("beads", "beads_game:RULES"), ("beads", "beads_game:RULES")], {})
    assert [(p.name, p.value) for p in plugins.installed()] == [("beads", "beads_game:RULES")]
    games_of([("beads", "beads_game:RULES"), ("beads", "other_beads:RULES")], {})
    with pytest.raises(ValueError) as clash:
        plugins.installed()
    assert str(clash.value) == (
        "two games are installed as 'beads': beads_game:RULES and other_beads:RULES"
    )


def test_a_game_that_fails_to_import_is_left_out_with_a_warning_naming_it(
    games_of: Any,
) -> None:
    games_of(
        [("beads", "beads_game:RULES"), ("broken", "no_such_module_here:RULES")],
        {"beads_game": "RULES = 'the beads ruleset'\n"},
    )
    with pytest.warns(RuntimeWarning) as caught:
        loaded = plugins.load_all()
    assert loaded == {"beads": "the beads ruleset"}
    assert [str(w.message) for w in caught] == [
        "the game 'broken' (no_such_module_here:RULES) cannot be loaded: "
        "ModuleNotFoundError(\"No module named 'no_such_module_here'\")"
    ]


def test_a_broken_game_s_warning_points_at_the_line_that_asked_for_the_games(
    games_of: Any,
) -> None:
    """``stacklevel``: the warning names the caller's line, not the plugins module (deselected
    under mutmut, whose trampoline is one frame more: see bench/mutation.py)."""
    games_of([("broken", "no_such_module_here:RULES")], {})
    with pytest.warns(RuntimeWarning) as caught:
        plugins.load_all()
    assert caught[0].filename == __file__


def test_the_events_of_the_games_loaded_are_imported_and_a_game_may_name_none(
    games_of: Any,
) -> None:
    """``import_events(every=False)``: the events modules that the games imported so far
    name (all of them once ``load_all`` ran); a ruleset without ``events_module`` has its
    events in its own module."""
    games_of(
        [("beads", "beads_game:RULES"), ("plain", "plain_game:RULES")],
        {
            "beads_game": "class R:\n    events_module = 'beads_events'\nRULES = R()\n",
            "beads_events": "",
            "plain_game": "RULES = object()\n",
        },
    )
    plugins.import_events(every=False)  # nothing imported yet: nothing to do
    assert "beads_events" not in sys.modules
    plugins.load_all()
    plugins.import_events(every=False)
    assert "beads_events" in sys.modules


def test_a_point_loads_its_module_or_a_dotted_attribute_and_refuses_a_bad_value() -> None:
    """``Point.load`` imports as ``importlib.metadata.EntryPoint.load``: a value without
    ``:attr`` is the module itself, ``:A.b`` is an attribute of an attribute; a value that
    is no entry point is refused naming it."""
    module = plugins.Point("plugins", "mathable.core.plugins", plugins.GROUP)
    assert module.load() is plugins
    dotted = plugins.Point("load", "mathable.core.plugins : Point.load", plugins.GROUP)
    assert dotted.load() is plugins.Point.load
    with pytest.raises(ValueError) as refused:
        plugins.Point("bad", "not an entry point", plugins.GROUP).load()
    assert str(refused.value) == "not an entry point: 'not an entry point'"


# --- the registry of ``mathable.core.ruleset`` over the games installed -------------------
# A game looked up by name is imported alone (``plugins.load_one``); every game is imported
# when the registry is listed (``plugins.load_all``).

BEADS = "class R:\n    name = 'beads'\nRULES = R()\n"


def test_a_game_looked_up_alone_under_another_game_s_name_is_not_found(games_of: Any) -> None:
    """An entry point naming a ruleset of another name, or an object that is no ruleset,
    is not played: looked up alone as when the games are listed, with the warning."""
    from mathable.core import ruleset

    points = [("beads", "beads_game:RULES"), ("other", "beads_game:RULES")]
    plain = "RULES = object()\n"  # no ruleset: it has no name
    games_of(
        [*points, ("plain", "plain_game:RULES")],
        {"beads_game": BEADS, "plain_game": plain},
    )
    assert ruleset._Registry()["beads"].name == "beads"
    for name in ("other", "plain"):
        games_of(points + [("plain", "plain_game:RULES")], {})
        with pytest.warns(RuntimeWarning) as told, pytest.raises(KeyError):
            ruleset._Registry()[name]
        assert any(f"{name!r}" in str(w.message) for w in told), name


def test_a_game_found_is_not_looked_up_among_the_entry_points_again(
    games_of: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mathable.core import ruleset

    games_of([("beads", "beads_game:RULES")], {"beads_game": BEADS})
    listed = plugins.in_group
    reads: list[str] = []

    def counted(group: str) -> Any:
        reads.append(group)
        return listed(group)

    monkeypatch.setattr(plugins, "in_group", counted)
    registry = ruleset._Registry()
    first = registry["beads"]
    assert first.name == "beads" and len(reads) == 1
    assert registry["beads"] is first and registry.get("beads") is first
    assert len(reads) == 1


def test_a_game_deleted_from_the_registry_is_found_no_more(games_of: Any) -> None:
    from mathable.core import ruleset

    games_of([("beads", "beads_game:RULES")], {"beads_game": BEADS})
    registry = ruleset._Registry()
    assert list(registry) == ["beads"]
    del registry["beads"]
    assert "beads" not in registry and len(registry) == 0
    with pytest.raises(KeyError):
        registry["beads"]


def test_what_a_game_imported_alone_looks_up_is_only_what_is_found_so_far(
    games_of: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's import may look the registry up (its events do): while it is imported
    alone, that finds no other game, and imports none."""
    from mathable.core import ruleset

    looking = (
        "from mathable.core.ruleset import rulesets\n"
        "class R:\n    name = 'beads'\n    saw_pips = 'pips' in rulesets()\nRULES = R()\n"
    )
    pips = "class R:\n    name = 'pips'\nRULES = R()\n"
    games_of(
        [("beads", "beads_game:RULES"), ("pips", "pips_game:RULES")],
        {"beads_game": looking, "pips_game": pips},
    )
    registry = ruleset._Registry()
    monkeypatch.setattr(ruleset, "RULESETS", registry)
    beads = registry["beads"]
    assert beads.saw_pips is False and "pips_game" not in sys.modules
    assert registry["pips"].name == "pips"
    assert sorted(registry) == ["beads", "pips"]
