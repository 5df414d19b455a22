"""``decline``: refuse an invitation, or call off a game you made that has not started."""

from __future__ import annotations

import typer

from mathable_cli.cmdutil import GameIdArg, JsonFlag
from mathable_cli.context import app_context


def decline(ctx: typer.Context, game: GameIdArg, as_json: JsonFlag = False) -> None:
    """Refuse your invitation to a game (its seat is free again), or cancel a game you
    created while it still waits for players."""
    actx = app_context(ctx)
    game = actx.game_id(game, "decline")
    reply = actx.api().request("POST", f"/v1/games/{game}/decline", body={}).data
    if as_json:
        actx.output.json(reply)
        return
    if reply.get("status") == "cancelled":
        actx.output.info(f"Cancelled {game}.")
    else:
        actx.output.info(f"Declined the invitation to {game}.")


def register(app: typer.Typer) -> None:
    app.command("decline")(decline)
