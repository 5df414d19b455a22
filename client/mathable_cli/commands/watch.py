"""``wait``: block until it is your turn (or the game ends), in one game or any of yours."""

from __future__ import annotations

from typing import Annotated

import typer

from mathable_cli import turnwait
from mathable_cli.cmdutil import JsonFlag
from mathable_cli.context import app_context


def wait(
    ctx: typer.Context,
    game: Annotated[
        str | None,
        typer.Argument(
            help="The game id (or a unique start of it). None: wait on all your games.",
            show_default=False,
        ),
    ] = None,
    any_game: Annotated[bool, typer.Option("--any", help="Wait on all your games.")] = False,
    timeout: Annotated[
        float | None,
        typer.Option(help="Give up after this many seconds (exit 1).", min=0),
    ] = None,
    interval: Annotated[
        float,
        typer.Option(help="Seconds between polls of your game list (older servers).", min=0.1),
    ] = 15.0,
    as_json: JsonFlag = False,
) -> None:
    """Block until it is your turn in a game; prints the game id and what was just played.

    Exits 0 when it is your turn and 7 when the game is over, so
    `while mathable-cli wait GAME; do ...; done` stops at the end. Without a
    game (or with --any), waits until any of your games waits on you, following
    the server's event stream (polling your game list every --interval against
    an older server), and prints the ids of the games that do.
    """
    turnwait.wait(
        app_context(ctx),
        game,
        any_game=any_game,
        timeout=timeout,
        interval=interval,
        as_json=as_json,
    )


def register(app: typer.Typer) -> None:
    app.command("wait")(wait)
