"""Clocks: ``vacation``, ``claim`` (a timeout) and ``give-time``."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from mathable_cli.cmdutil import GameIdArg, JsonFlag
from mathable_cli.context import app_context
from mathable_cli.durations import clock_line, parse_duration, time_left
from mathable_cli.exits import CliError, ExitCode
from mathable_i18n import _


def vacation(
    ctx: typer.Context,
    days: Annotated[
        int | None, typer.Argument(help="Days of vacation from now.", show_default=False)
    ] = None,
    end: Annotated[bool, typer.Option("--end", help="Come back now.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Stop your clocks for some days (`vacation 7`), or come back early (`vacation --end`)."""
    actx = app_context(ctx)
    if (days is None) == (not end):
        raise CliError(_("give a number of days or --end"), ExitCode.USAGE)
    api = actx.api()
    if end:
        reply = api.request("DELETE", "/v1/me/vacation").data
    else:
        reply = api.request("POST", "/v1/me/vacation", body={"days": days}).data
    if as_json:
        actx.output.json(reply)
        return
    values = {"games": len(reply["games"]), "days": reply["days_left"]}
    if end:
        said = _(
            "Back from vacation: {games} games; {days} vacation days left this year.", **values
        )
    else:
        said = _(
            "On vacation until {until}: {games} games; {days} vacation days left this year.",
            until=reply["ends_at"],
            **values,
        )
    actx.output.info(said)


def _command(
    ctx: typer.Context, command: str, game: str, body: dict[str, Any], as_json: bool
) -> None:
    actx = app_context(ctx)
    api = actx.api()
    game = actx.game_id(game, command)
    view = api.game(game)
    view = api.command(game, {**body, "expected_version": view["version"]})
    if as_json:
        actx.output.json(view)
        return
    line = clock_line(view)
    if view.get("status") == "ended":
        actx.output.info(
            _("Game {game} is over: {reason}", game=game, reason=view["result"]["reason"])
        )
    elif line:
        actx.output.info(line)


def claim(ctx: typer.Context, game: GameIdArg, as_json: JsonFlag = False) -> None:
    """Claim the timeout of the player to move (clocks with on_timeout: claim)."""
    _command(ctx, "claim", game, {"type": "claim_timeout"}, as_json)


def give_time(
    ctx: typer.Context,
    game: GameIdArg,
    seat: Annotated[int, typer.Argument(help="The opponent's seat.", min=0, max=3)],
    duration: Annotated[str, typer.Argument(help="How much: 1d, 12h, 30m.")],
    as_json: JsonFlag = False,
) -> None:
    """Give an opponent more time."""
    try:
        seconds = parse_duration(duration)
    except ValueError as err:
        raise CliError(str(err), ExitCode.USAGE) from None
    body = {"type": "give_time", "seat": seat, "seconds": seconds}
    _command(ctx, "give-time", game, body, as_json)
    if not as_json:
        app_context(ctx).output.info(
            _("Gave seat {seat} {time}.", seat=seat, time=time_left(seconds))
        )


def register(app: typer.Typer) -> None:
    app.command()(vacation)
    app.command()(claim)
    app.command("give-time")(give_time)
