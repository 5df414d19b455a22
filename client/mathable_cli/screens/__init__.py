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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from mathable.core import plugins
from mathable_cli.exits import CliError

if TYPE_CHECKING:
    from mathable.core.ruleset import Ruleset
    from mathable_cli.api import ApiClient
    from mathable_cli.bot import Bot
    from mathable_cli.output import Output

Json = dict[str, Any]

#: The entry-point group that names each game's screen.
GROUP = "mathable_cli.screens"

#: The ruleset of a view that names none (games made before there were others): the kernel's.
DEFAULT_RULESET = plugins.DEFAULT_RULESET


@dataclass
class Turn:
    """One command's hold on one game: where to send, where to speak, the game and its view."""

    api: ApiClient
    out: Output
    game: str
    view: Json


@dataclass(frozen=True)
class MoveFlags:
    """The options of ``move`` beyond the words of the move; a screen may ignore them."""

    draw_extra: bool = False
    anyway: bool = False


class GameScreen(Protocol):
    """How the CLI shows one game and plays its turns."""

    #: What the view calls the viewer's own tiles, in words ("rack", "hand").
    holder: str
    #: The heading of the drawing in an exported record ("Board", "Table").
    drawing: str

    def show(self, turn: Turn) -> None:
        """``show``: the game as the viewer may see it, on stdout."""

    def play(self, turn: Turn, words: list[str], flags: MoveFlags) -> Json:
        """``move GAME WORDS``: read the move in the game's notation, send it; the new view."""

    def take_turn(self, turn: Turn) -> None:
        """``move GAME``: the viewer's turn, typed at the keyboard until it is sent or left."""

    def hint(self, turn: Turn, *, show_all: bool, as_json: bool) -> None:
        """``hint``: the best move for the viewer's tiles (and, with ``show_all``, more)."""

    def bot_turn(self, bot: Bot, turn: Turn) -> Json | None:
        """The bot's move in ``turn``; the view after it, or None when the game moved on
        before it (the bot looks again)."""


ScreenFactory = Callable[["Ruleset"], GameScreen]

_registry: dict[str, ScreenFactory] | None = None


def registered() -> dict[str, ScreenFactory]:
    """The screens the installed packages register, by ruleset name (read once a run)."""
    global _registry
    if _registry is None:
        from importlib.metadata import entry_points

        found: dict[str, Any] = {}
        for entry in entry_points(group=GROUP):
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
    from mathable.core.errors import RuleError
    from mathable.core.ruleset import ruleset

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
    from mathable_cli.screens.generic import GenericScreen

    return GenericScreen(rules)
