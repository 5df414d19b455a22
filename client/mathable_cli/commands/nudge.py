"""``nudge``: tell the player to move that they are waited for (once a day, after a day)."""

from __future__ import annotations

import typer

from mathable_cli.cmdutil import GameIdArg, JsonFlag
from mathable_cli.context import app_context
from mathable_i18n import _


def nudge(ctx: typer.Context, game: GameIdArg, as_json: JsonFlag = False) -> None:
    """Nudge the player to move in GAME (by push, else by mail, as they chose). Once a day
    a game, and only after their turn has lasted a day."""
    actx = app_context(ctx)
    game = actx.game_id(game, "nudge")
    reply = actx.api().request("POST", f"/v1/games/{game}/nudge", body={}).data
    if as_json:
        actx.output.json(reply)
        return
    actx.output.info(_("Nudged {name} in {game}.", name=reply["to"], game=game))


def register(app: typer.Typer) -> None:
    app.command("nudge")(nudge)
