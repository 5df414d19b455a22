"""Sending a command safely, for any game: whose turn it must be, the command sent on the
version it was decided on, what changed when the game moved on, what a turn did.

A command carries the version it was decided on; if the game moved on (409)
the view is fetched again and the user is told what changed. Each command has
one Idempotency-Key for all its retries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mathable_cli.api import ApiClient, ApiError, new_idempotency_key
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import (
    describe_event,
    is_my_turn,
    my_seat,
    result_line,
    seat_name,
    status_line,
    turn_seat,
)
from mathable_cli.output import Output
from mathable_i18n import _

Json = dict[str, Any]


def require_turn(view: Mapping[str, Any], game: str) -> None:
    """A conflict error unless it is the viewer's turn in a game in play."""
    if is_my_turn(view):
        return
    status = view.get("status")
    if status == "ended":
        raise CliError(
            _("game {game} is over: {status}", game=game, status=status_line(view)),
            ExitCode.CONFLICT,
        )
    if status != "playing":
        raise CliError(
            _("game {game} has not started: {status}", game=game, status=status_line(view)),
            ExitCode.CONFLICT,
        )
    if my_seat(view) is None:
        raise CliError(_("you have no seat in game {game}", game=game), ExitCode.CONFLICT)
    raise CliError(
        _(
            "it is not your turn in game {game}: it is {player}'s",
            game=game,
            player=seat_name(view, turn_seat(view)),
        ),
        ExitCode.CONFLICT,
        api_code="not_your_turn",
        hint=_("`mathable-cli wait {game}` waits until it is", game=game),
    )


def explain_conflict(api: ApiClient, output: Output, game: str, before: Mapping[str, Any]) -> Json:
    """After a 409: fetch the game again and tell what happened since ``before``; the new view."""
    after = api.game(game)
    old = int(before.get("version") or 0)
    output.info(
        _(
            "Game {game} changed while you were deciding (version {old} -> {new}):",
            game=game,
            old=old,
            new=after.get("version"),
        )
    )
    try:
        events = api.events(game, old)
    except ApiError:
        events = []
    told = 0
    for event in events:
        words = describe_event(event, after)
        if words:
            output.info(f"  {words}")
            told += 1
    if not told:
        output.info("  " + _("now: {status}", status=status_line(after)))
    return after


def send(
    api: ApiClient,
    output: Output,
    game: str,
    view: Mapping[str, Any],
    command: Json,
    *,
    key: str | None = None,
) -> Json:
    """Send one command decided on ``view``; on 409 say what changed and exit 4."""
    body = {**command, "expected_version": view.get("version")}
    try:
        return api.command(game, body, idempotency_key=key or new_idempotency_key())
    except ApiError as err:
        if err.status != 409:
            raise
        new_view = explain_conflict(api, output, game, view)
        hint = (
            _("it is still your turn: look again (`mathable-cli show {game}`) and retry", game=game)
            if is_my_turn(new_view)
            else _("it is {status} now", status=status_line(new_view))
        )
        raise CliError(
            _("nothing was played: {message}", message=err.message),
            ExitCode.CONFLICT,
            api_code=err.api_code,
            hint=hint,
        ) from None


def score_of(view: Mapping[str, Any], seat: int | None) -> int:
    seats = view.get("seats") or []
    if seat is None or not 0 <= seat < len(seats):
        return 0
    return int(seats[seat].get("score") or 0)


def report_end(
    output: Output, before: Mapping[str, Any], after: Mapping[str, Any], holder: str
) -> None:
    """After a turn: the result if it ended the game, else the score, the tiles (the view's
    ``holder``: the word the game's screen names them by, "rack" or "hand"), whose turn."""
    seat = my_seat(before)
    gained = score_of(after, seat) - score_of(before, seat)
    if after.get("status") == "ended":
        output.info(result_line(after))
        return
    tiles = after.get(holder)
    values = {
        "score": score_of(after, seat),
        "gained": f"{gained:+d}",
        "status": status_line(after),
    }
    if tiles is None:
        output.info(_("Your score: {score} ({gained}). Now {status}.", **values))
        return
    values["tiles"] = " ".join(str(t) for t in sorted(tiles, key=_tile_order))
    if holder == "rack":
        output.info(
            _("Your score: {score} ({gained}). Your rack: {tiles}. Now {status}.", **values)
        )
    else:
        output.info(
            _("Your score: {score} ({gained}). Your hand: {tiles}. Now {status}.", **values)
        )


def _tile_order(tile: object) -> tuple[int, int, str]:
    """Numbers by their value, then names (Summy's signs) as written."""
    return (0, tile, "") if isinstance(tile, int) else (1, 0, str(tile))
