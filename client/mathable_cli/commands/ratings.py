"""``record``: your ratings, or your record against a player; ``leaderboard``: the best
rated players of a game."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

import typer

from mathable_cli.cmdutil import JsonFlag
from mathable_cli.context import app_context
from mathable_i18n import _, current, ngettext, number


def record(
    ctx: typer.Context,
    name: Annotated[
        str | None,
        typer.Argument(
            help="A player: your wins, losses and draws against them.", show_default=False
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Your rating in each game; with NAME, your record against that player."""
    actx = app_context(ctx)
    api = actx.api()
    me = api.request("GET", "/v1/me", params={"limit": 1}).data["name"]
    if name is None:
        reply = api.request("GET", f"/v1/players/{quote(me, safe='')}").data
        if as_json:
            actx.output.json(reply)
            return
        if not reply["ratings"]:
            actx.output.info(_("{player} has no rated games yet.", player=me))
        for ruleset, rating in sorted(reply["ratings"].items()):
            actx.output.data(
                ngettext(
                    "{game}: {rating} after {n} rated game",
                    "{game}: {rating} after {n} rated games",
                    rating["games"],
                    game=ruleset,
                    rating=_rating(float(rating["rating"])),
                )
            )
        return
    reply = api.request(
        "GET", f"/v1/players/{quote(me, safe='')}/record", params={"against": name}
    ).data
    if as_json:
        actx.output.json(reply)
        return
    actx.output.data(
        _(
            "{player} against {other}: {wins} won, {losses} lost, {draws} drawn",
            player=reply["player"],
            other=reply["against"],
            wins=reply["wins"],
            losses=reply["losses"],
            draws=reply["draws"],
        )
    )


def leaderboard(
    ctx: typer.Context,
    ruleset: Annotated[str, typer.Option(help="The game.")] = "mathable",
    limit: Annotated[int, typer.Option(help="How many players.", min=1, max=100)] = 20,
    as_json: JsonFlag = False,
) -> None:
    """The best rated players of a game (no account needed)."""
    actx = app_context(ctx)
    reply = (
        actx.api(auth=False)
        .request("GET", "/v1/leaderboard", params={"ruleset": ruleset, "limit": limit})
        .data
    )
    if as_json:
        actx.output.json(reply)
        return
    if not reply["players"]:
        actx.output.info(_("Nobody is rated in {game} yet.", game=ruleset))
    for place, entry in enumerate(reply["players"], 1):
        actx.output.data(
            f"{place:>3}. {entry['name']:<32} {entry['rating']:>7.1f}  ("
            + ngettext("{n} game", "{n} games", entry["games"])
            + ")"
        )


def _rating(value: float) -> str:
    """``1512.3``; as the language writes numbers in another (``1 512,3``)."""
    return f"{value:.1f}" if current() == "en" else number(round(value, 1))


def register(app: typer.Typer) -> None:
    app.command("record")(record)
    app.command("leaderboard")(leaderboard)
