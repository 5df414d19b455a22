"""Each game's face in the terminal: a ``GameScreen``, found by the game's ruleset name.

A game view carries the name of its ruleset (``ruleset``); ``screen_for(view)``
finds that ruleset (``mathable.ruleset(name)``) and the screen registered for it
in the entry-point group ``mathable_cli.screens`` (name: the ruleset's name;
value: ``module:attr``, a callable that takes the ``Ruleset`` and returns the
screen). A ruleset without an entry gets ``GenericScreen``, which knows the game
only through its ruleset (``draw``, ``read_move``, ``suggest``) and the keys
every game's view has (status, seats, turn, you, result). So a game installed
as a package of its own is shown, played, hinted and botted with no change here.

>>> GROUP
'mathable_cli.screens'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from mathable.core import plugins
from mathable.core.errors import RuleError
from mathable.core.ruleset import ruleset
from mathable_cli.exits import CliError
from mathable_cli.screens.generic import GenericScreen
from mathable_cli.screens.interface import BotOptions, GameScreen, Json, MoveFlags, Turn

if TYPE_CHECKING:
    from mathable.core.ruleset import Ruleset


#: The entry-point group that names each game's screen.
GROUP = "mathable_cli.screens"

#: The ruleset of a view that names none (games made before there were others): the kernel's.
DEFAULT_RULESET = plugins.DEFAULT_RULESET


ScreenFactory = Callable[["Ruleset"], GameScreen]

_registry: dict[str, ScreenFactory] | None = None


def registered() -> dict[str, ScreenFactory]:
    """The screens the installed packages register, by ruleset name (read once a run)."""
    global _registry
    if _registry is None:
        found: dict[str, Any] = {}
        for entry in plugins.in_group(GROUP):
            if entry.name in found and found[entry.name].value != entry.value:
                raise CliError(
                    f"two screens are installed for the game {entry.name!r}: "
                    f"{found[entry.name].value} and {entry.value}"
                )
            found[entry.name] = entry
        _registry = {name: _loader(entry) for name, entry in found.items()}
    return _registry


def _loader(entry: Any) -> ScreenFactory:
    """A factory that imports the entry point's module only when its game is met."""

    def load(rules: Ruleset) -> GameScreen:
        factory: ScreenFactory = entry.load()
        return factory(rules)

    return load


def rules_of(view: Mapping[str, Any]) -> Ruleset:
    """The ruleset of the game ``view`` shows, by the name the game recorded."""
    name = view.get("ruleset", DEFAULT_RULESET)
    try:
        return ruleset(name)
    except RuleError as err:
        raise CliError(f"this client cannot play {name!r}: {err.message}") from None


def screen_for(view: Mapping[str, Any]) -> GameScreen:
    """The screen of the game ``view`` shows: its registered one, else the generic one."""
    rules = rules_of(view)
    factory = registered().get(rules.name)
    if factory is not None:
        return factory(rules)

    return GenericScreen(rules)


__all__ = [
    "BotOptions",
    "DEFAULT_RULESET",
    "GROUP",
    "GameScreen",
    "Json",
    "MoveFlags",
    "Turn",
    "registered",
    "rules_of",
    "screen_for",
]
