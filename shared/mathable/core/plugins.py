"""The games installed: the entry points of the group ``mathable.rulesets``.

Each game is a package that names its ``Ruleset`` object in its distribution's
metadata, the way pytest and Flask find their plugins; the two games of this
project register the same way (``pyproject.toml``). Standard library only.

The entry points are read from each distribution's ``entry_points.txt`` in the
folders of ``sys.path`` (``Listed``), as ``importlib.metadata`` finds them but
without importing it: its import (``email``, ``zipfile``, ``csv``...) is what a
command of the CLI spends most on before it does anything. Where ``sys.path``
holds something else than folders (a zip) or a finder of ``sys.meta_path`` finds
distributions of its own, ``importlib.metadata`` reads them.
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import sys
import warnings
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

#: The entry-point group a game registers its ruleset under.
GROUP = "mathable.rulesets"
#: The game a new game is when its creator names none (the one the service began with).
DEFAULT_RULESET = "mathable"

_loaded: dict[str, Any] | None = None
#: The games' ruleset objects imported so far, one by one (``load_one``), by name.
_imported: dict[str, Any] = {}
#: Every installed entry point (a ``Listed``, or ``importlib.metadata.entry_points()``),
#: read at the first ``in_group``.
_every: Any = None


class EntryPoint(Protocol):
    """What is used of an entry point (``importlib.metadata.EntryPoint`` has it too)."""

    @property
    def name(self) -> str: ...
    @property
    def value(self) -> str: ...
    @property
    def group(self) -> str: ...
    @property
    def module(self) -> str: ...
    def load(self) -> Any: ...


#: An entry point's value, as ``importlib.metadata.EntryPoint.pattern`` reads it.
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


class Point:
    """One entry point read from an ``entry_points.txt``."""

    __slots__ = ("group", "name", "value")

    def __init__(self, name: str, value: str, group: str) -> None:
        self.name, self.value, self.group = name, value, group

    @property
    def module(self) -> str:
        match = _VALUE.match(self.value)
        return match.group("module") if match else self.value

    def load(self) -> Any:
        """The object it names, as ``importlib.metadata.EntryPoint.load`` imports it."""
        match = _VALUE.match(self.value)
        if match is None:
            raise ValueError(f"not an entry point: {self.value!r}")
        module = importlib.import_module(match.group("module"))
        attrs = filter(None, (match.group("attr") or "").split("."))
        return functools.reduce(getattr, attrs, module)

    def __repr__(self) -> str:
        return f"Point(name={self.name!r}, value={self.value!r}, group={self.group!r})"


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


class Listed:
    """The entry points of the distributions in the folders of ``sys.path``, the first
    distribution of a name found winning, as ``importlib.metadata.entry_points()``."""

    def __init__(self, paths: Iterable[str]) -> None:
        self._points: list[Point] = []
        seen: set[str] = set()
        for path in paths:
            try:
                names = sorted(os.listdir(path or "."))
            except OSError:
                continue
            for folder in names:
                stem, ext = os.path.splitext(folder)
                if ext.lower() not in (".dist-info", ".egg-info"):
                    continue
                name = _normalized(stem.partition("-")[0])
                if name in seen:
                    continue
                seen.add(name)
                self._points.extend(_read(os.path.join(path or ".", folder, "entry_points.txt")))

    def select(self, group: str) -> tuple[Point, ...]:
        return tuple(p for p in self._points if p.group == group)


def _read(path: str) -> Iterator[Point]:
    """The entry points an ``entry_points.txt`` lists (none if there is no such file)."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError:
        return
    group = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line[1:-1].strip()
        elif group is not None and "=" in line:
            name, _, value = line.partition("=")
            yield Point(name.strip(), value.strip(), group)


def _plain_folders() -> bool:
    """Whether every distribution is in a folder of ``sys.path`` (no zip on it, and no
    finder but the standard ones that find distributions)."""
    for path in sys.path:
        if path and os.path.isfile(path):
            return False
    for finder in sys.meta_path:
        if hasattr(finder, "find_distributions") and not getattr(
            finder, "__module__", ""
        ).startswith(("importlib", "_frozen_importlib")):
            return False
    return True


def in_group(group: str) -> Iterable[EntryPoint]:
    """The installed entry points of ``group``: every distribution's metadata is read once a
    process, whatever groups are asked for (the games here, their screens in the CLI)."""
    global _every
    if _every is None:
        if _plain_folders():
            _every = Listed(sys.path)
        else:
            from importlib.metadata import entry_points

            _every = entry_points()
    found: Iterable[EntryPoint] = _every.select(group=group)
    return found


def installed() -> list[EntryPoint]:
    """The entry points of every installed game, one per name (a distribution found
    twice on the path is read once); ValueError if two name different objects."""
    found: dict[str, EntryPoint] = {}
    for point in in_group(GROUP):
        known = found.get(point.name)
        if known is not None and known.value != point.value:
            raise ValueError(
                f"two games are installed as {point.name!r}: {known.value} and {point.value}"
            )
        found[point.name] = point
    return [found[name] for name in sorted(found)]


def load_all() -> dict[str, Any]:
    """Every installed game's ruleset object by its entry point's name, imported once.

    A game that fails to import is left out with a warning that names it and why: the
    other games go on being served."""
    global _loaded
    if _loaded is None:
        loaded = {}
        for point in installed():
            try:
                loaded[point.name] = point.load()
            except Exception as err:  # any error of a plugin's import: it is not played
                warnings.warn(
                    f"the game {point.name!r} ({point.value}) cannot be loaded: {err!r}",
                    RuntimeWarning,
                    stacklevel=2,
                )
        _loaded = loaded
    return _loaded


def load_one(name: str) -> Any:
    """The ruleset object of the installed game ``name``, imported alone (a program that
    plays one game need not import the others); None if no game is installed by that
    name or it fails to import (``load_all`` then says why)."""
    if _loaded is not None:
        return _loaded.get(name)
    for point in installed():
        if point.name == name:
            try:
                rules = point.load()
            except Exception:  # said by load_all, which the caller turns to
                return None
            _imported[name] = rules
            return rules
    return None


def import_events(*, every: bool) -> None:
    """Import the module of events each game's ruleset names (``events_module``: a
    ruleset whose own module does not import its events): of the games imported so far,
    or (``every``) of every installed game, imported now (``load_all``)."""
    found = load_all() if every else (_loaded if _loaded is not None else _imported)
    for rules in list(found.values()):
        module = getattr(rules, "events_module", None)
        if isinstance(module, str):
            importlib.import_module(module)


def forget() -> None:
    """Read the entry points again at the next ``load_all`` (after an install, in tests)."""
    global _loaded, _every
    _loaded = None
    _every = None
    _imported.clear()
