"""``say``: write to the other players of a game; ``messages``: read what they wrote;
``mute``, ``unmute``: stop (or start again) hearing a game's messages or a player's."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

import typer

from mathable_cli.chat import SeenMessages, message_line, seat_names
from mathable_cli.cmdutil import GameIdArg, JsonFlag
from mathable_cli.context import app_context
from mathable_cli.durations import local_deadline
from mathable_i18n import _

TextArg = Annotated[
    list[str], typer.Argument(help="What to say (1 to 500 characters).", show_default=False)
]


def say(ctx: typer.Context, game: GameIdArg, text: TextArg, as_json: JsonFlag = False) -> None:
    """Write to the other players of a game (they see it in their stream, their next mail
    and `mathable-cli show`)."""
    actx = app_context(ctx)
    game = actx.game_id(game, "say")
    reply = (
        actx.api().request("POST", f"/v1/games/{game}/messages", body={"text": " ".join(text)}).data
    )
    if as_json:
        actx.output.json(reply)
        return
    actx.output.info(_("Said in {game}: {message}", game=game, message=reply["text"]))


def messages(ctx: typer.Context, game: GameIdArg, as_json: JsonFlag = False) -> None:
    """Every message of a game you sit in, oldest first."""
    actx = app_context(ctx)
    game = actx.game_id(game, "messages")
    api = actx.api()
    reply = api.request("GET", f"/v1/games/{game}/messages").data
    if as_json:
        actx.output.json(reply)
        return
    found = reply["messages"]
    if not found:
        actx.output.info(_("No messages in {game}.", game=game))
        return
    names = seat_names(api.game(game))
    for entry in found:
        actx.output.data(f"{local_deadline(entry['at'])}  {message_line(entry, names)}")
    settings = actx.settings
    SeenMessages(settings.config.path.parent, settings.server, settings.profile).remember(
        game, max(int(m["id"]) for m in found)
    )


Target = Annotated[
    str, typer.Argument(help="A game id, or a player's name with --player.", show_default=False)
]
PlayerFlag = Annotated[bool, typer.Option("--player", help="Mute a player in every game.")]


def _mute_path(target: str, player: bool) -> str:
    if player:
        return f"/v1/me/mutes/{quote(target, safe='')}"
    return f"/v1/games/{quote(target, safe='')}/messages/mute"


def mute(ctx: typer.Context, target: Target, player: PlayerFlag = False) -> None:
    """Hear no more of a game's messages (or, with --player, of a player's)."""
    actx = app_context(ctx)
    actx.api().request("PUT", _mute_path(target, player))
    actx.output.info(_("Muted {target}.", target=target))


def unmute(ctx: typer.Context, target: Target, player: PlayerFlag = False) -> None:
    """Hear a muted game's (or player's) messages again."""
    actx = app_context(ctx)
    actx.api().request("DELETE", _mute_path(target, player))
    actx.output.info(_("Unmuted {target}.", target=target))


def register(app: typer.Typer) -> None:
    app.command("say")(say)
    app.command("messages")(messages)
    app.command("mute")(mute)
    app.command("unmute")(unmute)
