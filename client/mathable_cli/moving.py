"""``move`` with its placements on the command line: one turn played at once.

The command's whole work, without the command-line framework (``mathable_cli.quick``
runs it, and so does the app's ``move``); ``move`` without placements plays
interactively, through the app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mathable_cli.exits import CliError, ExitCode
from mathable_i18n import _

if TYPE_CHECKING:
    from mathable_cli.context import AppContext


def placements_of(game: str | None, placements: list[str] | None) -> tuple[str | None, list[str]]:
    """The game and the placements of ``move GAME PLACEMENTS...``: ``move I8=12`` names no
    game, its first word is a placement."""
    if game is not None and ("=" in game or "@" in game):
        return None, [game, *(placements or [])]
    return game, list(placements or [])


def one_shot(game: str | None, placements: list[str] | None) -> bool:
    """Whether ``move`` plays the placements given (else it asks for them, interactively)."""
    return bool(placements_of(game, placements)[1])


def move(
    actx: AppContext,
    game: str | None = None,
    placements: list[str] | None = None,
    *,
    draw_extra: bool = False,
    anyway: bool = False,
    as_json: bool = False,
) -> None:
    """Play a turn: placements on the command line, or interactively without them."""
    from mathable_cli.screens import MoveFlags, Turn, screen_for

    api = actx.api()
    out = actx.output
    game, placements = placements_of(game, placements)
    game = actx.game_id(game, "move")
    if not placements and as_json:
        raise CliError(_("--json needs placements on the command line"), ExitCode.USAGE)
    view = api.game(game)
    turn = Turn(api, out, game, view)
    if not placements:
        screen_for(view).take_turn(turn)
        return
    # Each game reads the words in its own notation, even when they look like another
    # game's (a Mathable placement ``I8=12`` in a Summy game).
    flags = MoveFlags(draw_extra=draw_extra, anyway=anyway)
    new = screen_for(view).play(turn, placements, flags)
    if as_json:
        out.json(new)
