"""``rematch``: a new game with the players of a finished one, the seats rotated."""

from __future__ import annotations

import typer

from mathable_cli.cmdutil import GameIdArg, JsonFlag
from mathable_cli.context import app_context
from mathable_i18n import _


def rematch(ctx: typer.Context, game: GameIdArg, as_json: JsonFlag = False) -> None:
    """Ask for a rematch of a finished game: the same game, options and clock, the same
    players invited, the seats rotated. Asking again gives the same new game."""
    actx = app_context(ctx)
    game = actx.game_id(game, "rematch")
    api = actx.api()
    reply = api.request("POST", f"/v1/games/{game}/rematch", body={}).data
    if as_json:
        actx.output.json(reply)
        return
    new = reply["id"]
    actx.output.data(new)
    view = api.game(new)
    if view.get("you") is None and view.get("status") == "waiting":
        # Another player asked first: the answer is their game, where you are invited.
        actx.output.info(
            _(
                "Rematch of {game}: another player asked first; you are invited to game "
                "{new}: `mathable-cli join {new}` takes your seat.",
                game=game,
                new=new,
            )
        )
        return
    actx.output.info(
        _(
            "Rematch of {game}: game {new}; the others are invited (`mathable-cli join {new}`).",
            game=game,
            new=new,
        )
    )


def register(app: typer.Typer) -> None:
    app.command("rematch")(rematch)
