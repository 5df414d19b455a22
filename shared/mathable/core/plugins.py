"""The games installed: the entry points of the group ``mathable.rulesets``.

Each game is a package that names its ``Ruleset`` object in its distribution's
metadata, the way pytest and Flask find their plugins; the two games of this
project register the same way (``pyproject.toml``). Standard library only.
"""

from __future__ import annotations

import warnings
from importlib.metadata import EntryPoint, EntryPoints, entry_points
from typing import Any

#: The entry-point group a game registers its ruleset under.
GROUP = "mathable.rulesets"
#: The game a new game is when its creator names none (the one the service began with).
DEFAULT_RULESET = "mathable"

_loaded: dict[str, Any] | None = None
#: Every installed entry point (``entry_points()``: Python 3.11's ``SelectableGroups``, an
#: ``EntryPoints`` since), read at the first ``in_group``.
_every: Any = None


def in_group(group: str) -> EntryPoints:
    """The installed entry points of ``group``: every distribution's metadata is read once a
    process, whatever groups are asked for (the games here, their screens in the CLI)."""
    global _every
    if _every is None:
        _every = entry_points()
    found: EntryPoints = _every.select(group=group)
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
                return point.load()
            except Exception:  # said by load_all, which the caller turns to
                return None
    return None


def forget() -> None:
    """Read the entry points again at the next ``load_all`` (after an install, in tests)."""
    global _loaded, _every
    _loaded = None
    _every = None
