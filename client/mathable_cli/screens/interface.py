"""What every game's screen offers the CLI (``GameScreen``) and what it is handed: the
game's view and where to send and speak (``Turn``), the options of ``move``
(``MoveFlags``) and of ``bot`` (``BotOptions``). The screens import this module, never
the registry in ``mathable_cli.screens``, which imports the generic screen; nor does it
import the bot (``mathable_cli.bot``), which finds each game's screen in that registry."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from mathable_cli.api import ApiClient
    from mathable_cli.game import TurnRecord
    from mathable_cli.output import Output

Json = dict[str, Any]


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


@dataclass(frozen=True)
class BotOptions:
    """What ``bot`` was told, for a screen's ``bot_turn``: the engine it was given (the runner
    of a game whose screen has engines: Mathable's ``EngineRunner``; the other screens leave
    it alone) and whether to draw the extra tile after an operation square."""

    engine: object = None
    draw_extra: bool = False


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

    def exchange_command(self, turn: Turn, words: list[str]) -> Json:
        """``exchange GAME TILES``: the tiles to give back read from the words and checked
        against what the viewer holds (and the game's other rules the screen knows), it being
        the viewer's turn; the command to send."""

    def take_turn(self, turn: Turn) -> None:
        """``move GAME``: the viewer's turn, typed at the keyboard until it is sent or left."""

    def hint(self, turn: Turn, *, show_all: bool, as_json: bool) -> None:
        """``hint``: the best move for the viewer's tiles (and, with ``show_all``, more)."""

    def bot_turn(self, bot: BotOptions, turn: Turn) -> Json | None:
        """The bot's move in ``turn``; the view after it, or None when the game moved on
        before it (the bot looks again)."""

    def turns(self, events: Iterable[Mapping[str, Any]]) -> tuple[list[TurnRecord], Json | None]:
        """``history``: the game's events (JSON) grouped into turns, each telling itself
        (``TurnRecord.words``) and what it scored; also the ``game_ended`` event, if any."""


__all__ = ["BotOptions", "GameScreen", "Json", "MoveFlags", "Turn"]
