"""``hint``: your legal placements and the best turn, worked out locally from your view.

The command's whole work, without the command-line framework (``mathable_cli.quick``
runs it, and so does the app's ``hint``): no engine process, no event stream.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mathable_cli.exits import CliError, ExitCode
from mathable_i18n import _

if TYPE_CHECKING:
    from mathable_cli.context import AppContext


def hint(
    actx: AppContext, game: str | None = None, *, show_all: bool = False, as_json: bool = False
) -> None:
    """Your legal placements and the best turn, worked out locally from your view."""
    from mathable_cli.screens import Turn, screen_for

    game = actx.game_id(game, "hint")
    view = actx.api().game(game)
    if view.get("rated"):
        raise CliError(
            _("game {game} is rated: no hints (its players' ratings move)", game=game),
            ExitCode.REFUSED,
        )
    turn = Turn(actx.api(), actx.output, game, view)
    screen_for(view).hint(turn, show_all=show_all, as_json=as_json)
