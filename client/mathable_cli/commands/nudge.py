"""``nudge``: tell the player to move that they are waited for (once a day, after a day)."""

from __future__ import annotations

import typer

from mathable_cli.cmdutil import GameIdArg, JsonFlag
from mathable_cli.context import app_context
from mathable_i18n import _


def nudge(ctx: typer.Context, game: GameIdArg, as_json: JsonFlag = False) -> None:
    """Nudge the player to move in GAME: by push, else by mail. Once a day a game, and only
    after their turn has lasted a day."""
    actx = app_context(ctx)
    game = actx.game_id(game, "nudge")
    reply = actx.api().request("POST", f"/v1/games/{game}/nudge", body={}).data
    if as_json:
        actx.output.json(reply)
        return
    if reply["by"] == "push":
        actx.output.info(_("Nudged {name} in {game} (a push).", name=reply["to"], game=game))
    elif reply["by"] == "mail":
        actx.output.info(_("Nudged {name} in {game} (a mail).", name=reply["to"], game=game))
    else:
        actx.output.info(_("Nudged {name} in {game}, who is told neither by push nor by mail.",
                           name=reply["to"], game=game))  # fmt: skip


def register(app: typer.Typer) -> None:
    app.command("nudge")(nudge)
