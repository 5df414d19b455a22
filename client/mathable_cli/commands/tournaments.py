"""Tournaments on the server (``mathable-cli tournament`` plays engines locally: another
command): ``tournaments`` (the list), ``tournament-show`` (standings and games),
``tournament-new``, ``tournament-join``, ``tournament-leave``, ``tournament-start``."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

import typer

from mathable_cli.cmdutil import JsonFlag
from mathable_cli.context import app_context
from mathable_i18n import N_, _, say

IdArg = Annotated[str, typer.Argument(help="The tournament's id (see `tournaments`).")]

_FORMATS = {
    "round_robin": N_("Round robin"),
    "swiss": N_("Swiss"),
    "duplicate": N_("Duplicate"),
    "league": N_("League"),
}


def tournaments(
    ctx: typer.Context,
    status: Annotated[
        str | None, typer.Option(help="open, running or finished.", show_default=False)
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """The server's tournaments, newest first (no account needed)."""
    actx = app_context(ctx)
    params = {} if status is None else {"status": status}
    reply = actx.api(auth=False).request("GET", "/v1/tournaments", params=params).data
    if as_json:
        actx.output.json(reply)
        return
    if not reply["tournaments"]:
        actx.output.info(_("No tournaments."))
    for t in reply["tournaments"]:
        actx.output.data(
            f"{t['id']}  {t['name']}  ({_fmt(t['format'])}, {t['ruleset']}, "
            + _("{status}, {players}/{max} players",
                status=_status(t["status"]), players=t["players"], max=t["max_players"])
            + ")"
        )  # fmt: skip


def show(ctx: typer.Context, tournament_id: IdArg, as_json: JsonFlag = False) -> None:
    """A tournament's standings and games."""
    actx = app_context(ctx)
    reply = actx.api(auth=False).request("GET", _path(tournament_id)).data
    if as_json:
        actx.output.json(reply)
        return
    _print(actx, reply)


def new(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The tournament's name.")],
    format: Annotated[  # noqa: A002 - the API's word
        str, typer.Option("--format", help="round_robin or swiss (leagues and duplicate "
                          "events are the operator's).")
    ] = "round_robin",  # fmt: skip
    ruleset: Annotated[str, typer.Option(help="The game.")] = "mathable",
    seats: Annotated[int, typer.Option(help="Seats a game (2-4).", min=2, max=4)] = 2,
    clock: Annotated[str, typer.Option(help="1d, 3d, 7d or little_golem.")] = "3d",
    rounds: Annotated[
        int | None, typer.Option(help="Rounds (Swiss).", show_default=False)
    ] = None,
    max_players: Annotated[int, typer.Option(help="At most this many players.")] = 16,
    as_json: JsonFlag = False,
) -> None:
    """Organise a tournament; players join it with `tournament-join`."""
    actx = app_context(ctx)
    body: dict[str, Any] = {"name": name, "format": format, "ruleset": ruleset,
                            "seats": seats, "clock": clock, "max_players": max_players}  # fmt: skip
    if rounds is not None:
        body["rounds"] = rounds
    reply = actx.api().request("POST", "/v1/tournaments", body=body).data
    if as_json:
        actx.output.json(reply)
        return
    actx.output.info(_("Tournament {id} made: players join it with `mathable-cli "
                       "tournament-join {id}`.", id=reply["id"]))  # fmt: skip


def _act(ctx: typer.Context, tournament_id: str, action: str, as_json: bool) -> dict[str, Any]:
    actx = app_context(ctx)
    reply: dict[str, Any] = actx.api().request("POST", f"{_path(tournament_id)}/{action}",
                                               body={}).data  # fmt: skip
    if as_json:
        actx.output.json(reply)
    return reply


def join(ctx: typer.Context, tournament_id: IdArg, as_json: JsonFlag = False) -> None:
    """Take part in a tournament."""
    reply = _act(ctx, tournament_id, "join", as_json)
    if not as_json:
        app_context(ctx).output.info(_("You are in {name}.", name=reply["name"]))


def leave(ctx: typer.Context, tournament_id: IdArg, as_json: JsonFlag = False) -> None:
    """Leave a tournament: your unfinished games there are resigned."""
    reply = _act(ctx, tournament_id, "leave", as_json)
    if not as_json:
        app_context(ctx).output.info(_("You left {name}.", name=reply["name"]))


def start(ctx: typer.Context, tournament_id: IdArg, as_json: JsonFlag = False) -> None:
    """Start a tournament you organise: its first round's games begin."""
    reply = _act(ctx, tournament_id, "start", as_json)
    if not as_json:
        _print(app_context(ctx), reply)


def _print(actx: Any, reply: dict[str, Any]) -> None:
    out = actx.output
    out.data(f"{reply['name']} ({_fmt(reply['format'])}, {_status(reply['status'])})")
    for place, line in enumerate(reply["standings"], 1):
        out.data(f"{place:>3}. {line['name']:<24} {line['points']:>7}  {line['tiebreak']:>7}  "
                 + _("{n} played", n=line["played"]))  # fmt: skip
    for number, games in enumerate(reply["rounds"], 1):
        out.data(_("Round {n}", n=number))
        for game in games:
            seats = " - ".join(game["seats"])
            if game["game_id"] is None:
                out.data("    " + _("{player}: bye", player=seats))
                continue
            result = game["result"]
            said = _("playing") if result is None else " - ".join(map(str, result["scores"]))
            out.data(f"    {game['game_id']}  {seats}  {said}")


def _fmt(name: str) -> str:
    found = _FORMATS.get(name)
    return say(found) if found is not None else name


def _status(name: str) -> str:
    return {"open": _("open"), "running": _("running"), "finished": _("finished")}.get(name, name)


def _path(tournament_id: str) -> str:
    return f"/v1/tournaments/{quote(tournament_id, safe='')}"


def register(app: typer.Typer) -> None:
    app.command("tournaments")(tournaments)
    app.command("tournament-show")(show)
    app.command("tournament-new")(new)
    app.command("tournament-join")(join)
    app.command("tournament-leave")(leave)
    app.command("tournament-start")(start)
