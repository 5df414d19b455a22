"""``decline``: refuse an invitation, or call off a game you made that has not started;
``open``: a game's page in the browser, signed in (``--to-anyone``: let anyone join a
game of yours an invitee declined); ``block``, ``unblock``,
``blocks``: the players whose invitations you refuse."""

from __future__ import annotations

import webbrowser
from typing import Annotated
from urllib.parse import quote

import typer

from mathable_cli.cmdutil import GameIdArg, JsonFlag
from mathable_cli.context import app_context
from mathable_i18n import _


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
        actx.output.info(_("Cancelled {game}.", game=game))
    else:
        actx.output.info(_("Declined the invitation to {game}.", game=game))


def open_game(
    ctx: typer.Context,
    game: GameIdArg,
    to_anyone: Annotated[
        bool,
        typer.Option(
            "--to-anyone",
            help="Instead: open a game of yours that an invitee declined to anyone.",
        ),
    ] = False,
    show_only: Annotated[
        bool, typer.Option("--print", help="Print the one-time link instead of opening it.")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Open the game's page in your browser, signed in (a one-time link made with your token).

    With --to-anyone: open a game of yours that an invitee declined, so that anyone may
    take its free seats (until then only the invitees left may join it)."""
    actx = app_context(ctx)
    game = actx.game_id(game, "open")
    api = actx.api()
    if to_anyone:
        reply = api.request("POST", f"/v1/games/{game}/open", body={}).data
        if as_json:
            actx.output.json(reply)
            return
        actx.output.info(_("Opened {game} to anyone.", game=game))
        return
    link = api.request("POST", "/v1/me/signin-link", body={"game": game}).data
    url = link["url"] if link["url"].startswith("http") else api.base_url + link["path"]
    if as_json:
        actx.output.json({**link, "url": url})
        return
    if show_only or not webbrowser.open(url):
        actx.output.data(url)
        actx.output.info(_("Open this link in your browser (it works once, for a short while)."))
        return
    actx.output.info(_("Opened game {game} in your browser.", game=game))


NameArg = Annotated[str, typer.Argument(help="The player's name.", show_default=False)]


def block(ctx: typer.Context, name: NameArg) -> None:
    """Block a player: their invitations to you are refused, and they cannot join a game
    you sit in."""
    actx = app_context(ctx)
    actx.api().request("PUT", f"/v1/me/blocks/{quote(name, safe='')}")
    actx.output.info(_("Blocked {name}.", name=name))


def unblock(ctx: typer.Context, name: NameArg) -> None:
    """Lift a block."""
    actx = app_context(ctx)
    actx.api().request("DELETE", f"/v1/me/blocks/{quote(name, safe='')}")
    actx.output.info(_("Unblocked {name}.", name=name))


def blocks(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """The players you blocked, the latest first."""
    actx = app_context(ctx)
    reply = actx.api().request("GET", "/v1/me/blocks").data
    if as_json:
        actx.output.json(reply)
        return
    if not reply["blocks"]:
        actx.output.info(_("You block nobody."))
    for entry in reply["blocks"]:
        actx.output.data(_("{name}  blocked {at}", name=entry["name"], at=entry["at"]))


def register(app: typer.Typer) -> None:
    app.command("decline")(decline)
    app.command("open")(open_game)
    app.command("block")(block)
    app.command("unblock")(unblock)
    app.command("blocks")(blocks)
