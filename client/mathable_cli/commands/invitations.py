"""``decline``: refuse an invitation, or call off a game you made that has not started."""

from __future__ import annotations

from typing import Annotated

import typer

from mathable_cli.context import app_context

GameArg = Annotated[str, typer.Argument(help="The game id.", show_default=False)]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print the API's data as JSON.")]


def decline(ctx: typer.Context, game: GameArg, as_json: JsonFlag = False) -> None:
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
