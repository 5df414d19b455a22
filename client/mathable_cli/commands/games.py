"""Games: ``new``, ``join``, ``games``, ``show``, ``history`` and ``export``."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from mathable_cli import gamelist, pictures, showing
from mathable_cli.cmdutil import GameArg, GameIdArg, JsonFlag
from mathable_cli.context import app_context
from mathable_cli.durations import parse_clock
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import (
    game_id,
    local_time,
    my_seat,
    rules_of,
    running_scores,
    seat_name,
    status_line,
    turns_from_events,
    winners_words,
)
from mathable_cli.screens import DEFAULT_RULESET, screen_for
from mathable_i18n import _, say


class Referee(enum.StrEnum):
    server = "server"
    players = "players"


def parse_tiles(text: str) -> list[int]:
    """A bag order from ``1,2,3 ...`` or ``@file`` holding such a list."""
    if text.startswith("@"):
        try:
            text = Path(text[1:]).expanduser().read_text(encoding="utf-8")
        except OSError as err:
            raise CliError(
                _("cannot read {file}: {problem}", file=text[1:], problem=err.strerror),
                ExitCode.USAGE,
            ) from None
    items = text.replace(",", " ").replace("[", " ").replace("]", " ").split()
    try:
        return [int(item) for item in items]
    except ValueError:
        raise CliError(
            _("--tiles wants whole numbers separated by commas or spaces (or @FILE)"),
            ExitCode.USAGE,
        ) from None


def new(
    ctx: typer.Context,
    players: Annotated[
        int, typer.Option("--players", "-n", min=2, max=4, help="Number of seats (2-4).")
    ] = 2,
    referee: Annotated[
        Referee,
        typer.Option(help="Who checks placements: the server, or the players (corrections)."),
    ] = Referee.server,
    seed: Annotated[
        int | None, typer.Option(help="Shuffle the bag reproducibly from this seed.")
    ] = None,
    tiles: Annotated[
        str | None,
        typer.Option(help="The whole bag order: 106 numbers (commas or spaces), or @FILE."),
    ] = None,
    invite: Annotated[
        list[str] | None,
        typer.Option(
            "--invite",
            "-i",
            help="Reserve a seat for this player, or mail this address a link to play in "
            "the browser (repeatable).",
        ),
    ] = None,
    clock: Annotated[
        str | None,
        typer.Option(help="A clock: 3d per move, or BANK+INCREMENT/MAX such as 10d+36h/10d."),
    ] = None,
    game_rules: Annotated[
        str,
        typer.Option("--ruleset", "-r", help="The game: mathable, or summy (equations)."),
    ] = DEFAULT_RULESET,
    rated: Annotated[
        bool | None,
        typer.Option(
            "--rated/--unrated",
            help="Rated: ratings move, no hints (the default when the server deals the tiles).",
            show_default=False,
        ),
    ] = None,
    computer: Annotated[
        str | None,
        typer.Option(
            "--computer",
            "-c",
            help="Seat the server's computer at this level (easy, medium, hard, expert: "
            "GET /v1/computers lists them) in the next free seat.",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Create a game; you take seat 0. It starts when every seat is filled."""
    actx = app_context(ctx)
    body: dict[str, Any] = {"players": players, "referee": referee.value}
    if computer is not None:
        body["computer"] = computer
    if rated is not None:
        body["rated"] = rated
    if game_rules != DEFAULT_RULESET:
        body["ruleset"] = game_rules
    if seed is not None:
        body["seed"] = seed
    if tiles is not None:
        body["tiles"] = parse_tiles(tiles)
    if clock is not None:
        try:
            body["clock"] = parse_clock(clock)
        except ValueError as err:
            raise CliError(f"--clock: {err}", ExitCode.USAGE) from None  # err: said already
    given = [n.strip() for item in invite or [] for n in item.split(",") if n.strip()]
    # An address is invited by mail (a one-time link to play in the browser), a name at once.
    addresses = [n for n in given if "@" in n]
    names = [n for n in given if "@" not in n]
    if names:
        body["invite"] = names
    api = actx.api()
    view = api.create_game(body)
    gid = game_id(view)
    for address in addresses:
        api.request("POST", f"/v1/games/{gid}/invitations", body={"email": address})
    if as_json:
        actx.output.json(view)
    else:
        actx.output.data(gid)
    free = players - 1 - len(names) - (computer is not None)
    msg = _(
        "Created game {game} for {n} players ({status}).",
        game=gid,
        n=players,
        status=status_line(view),
    )
    if computer is not None:
        msg += " " + _("The computer ({level}) plays too.", level=computer)
    if names:
        msg += " " + _("Invited: {names}.", names=", ".join(names))
    if addresses:
        msg += " " + _("Invitations mailed to: {addresses}.", addresses=", ".join(addresses))
    if free > 0 or names:
        msg += " " + _("Others join with: mathable-cli join {game}", game=gid)
    actx.output.info(msg)


def join(
    ctx: typer.Context,
    game: GameIdArg,
    as_json: JsonFlag = False,
) -> None:
    """Take a free seat in a game."""
    actx = app_context(ctx)
    game = actx.game_id(game, "join")
    view = actx.api().join(game)
    if as_json:
        actx.output.json(view)
    actx.output.info(
        _(
            "You sit in seat {seat} of game {game}: {status}.",
            seat=my_seat(view),
            game=game,
            status=status_line(view),
        )
    )


# --- listing ------------------------------------------------------------------------


def list_games(
    ctx: typer.Context,
    active: Annotated[
        bool, typer.Option("--active", help="Only games waiting for players or in play.")
    ] = False,
    finished: Annotated[bool, typer.Option("--finished", help="Only finished games.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Your games, the ones waiting on you first: which game, scores, who won, the last turn.

    --json prints the first page of GET /v1/me (filtered as asked).
    """
    gamelist.list_games(app_context(ctx), active=active, finished=finished, as_json=as_json)


# --- one game -------------------------------------------------------------------------


def show(
    ctx: typer.Context,
    game: GameArg = None,
    as_json: JsonFlag = False,
    svg: pictures.SvgOption = None,
    open_it: pictures.OpenOption = False,
) -> None:
    """The board, scores, your rack, rack sizes, bag, whose turn and the last turn's moves.

    Anyone may look at a game: without an account you see it as a spectator.
    """
    actx = app_context(ctx)
    api = actx.api(auth=False)
    if svg is not None or open_it:
        # A whole id is asked for as it is (no look-up of the game's view first); a start
        # of one is resolved as for every command.
        game = actx.game_id(game, "show", auth=False)
        pictures.pictures(actx.output, api, game, svg, open_it)
        return
    showing.show(actx, game, as_json=as_json)


def history(ctx: typer.Context, game: GameArg = None, as_json: JsonFlag = False) -> None:
    """Every turn with when it was played, its placements and points (no account needed)."""
    actx = app_context(ctx)
    api = actx.api(auth=False)
    game = actx.game_id(game, "history", auth=False)
    events = api.events(game, 0)
    if as_json:
        actx.output.json(events)
        return
    view = api.game(game)
    for line in history_lines(view, events):
        actx.output.data(line)


def history_lines(view: Mapping[str, Any], events: list[dict[str, Any]]) -> list[str]:
    """The turns in words, each with the running scores; then the end of the game."""
    rules = rules_of(view)
    # The game's screen groups its events into turns; for a game this client does not
    # know, the kernel's turns alone.
    turns, ended = (
        screen_for(view).turns(events) if rules is not None else turns_from_events(events)
    )
    seats = len(view.get("seats") or [])
    totals = running_scores(turns, seats)
    lines = []
    for record, scores in zip(turns, totals, strict=True):
        standing = ", ".join(f"{seat_name(view, s)} {scores[s]}" for s in range(seats))
        when = local_time(record.at)
        when = f"{when}  " if when else ""
        lines.append(f"{record.number:>3}. {when}{record.words(view)}   [{standing}]")
    if ended is not None:
        deductions = ended.get("deductions") or []
        final = ended.get("scores") or []
        reason = str(ended.get("reason"))
        said = say(rules.end_words(reason)) if rules is not None else reason
        lines.append(_("End: {reason}", reason=said))
        if any(deductions):  # a game whose rules deduct nothing (Summy 3) says nothing of it
            # TRANSLATORS: a player whose tiles left deduct nothing, in the rack deductions
            none = _("none")
            each = ", ".join(
                f"{seat_name(view, s)} {-d if d else none}" for s, d in enumerate(deductions)
            )
            if screen_for(view).holder == "rack":
                lines.append(_("Rack deductions: {deductions}", deductions=each))
            else:
                lines.append(_("Hand deductions: {deductions}", deductions=each))
        finals = ", ".join(f"{seat_name(view, s)} {v}" for s, v in enumerate(final))
        lines.append(_("Final scores: {scores}", scores=finals))
        if ended.get("winners"):
            lines.append(winners_words({**view, "result": ended}))
    elif not turns:
        lines.append(_("No turns played yet."))
    return lines


def export_text(view: Mapping[str, Any], events: list[dict[str, Any]], game: str) -> str:
    """A plain-text record of the game that a person can read (and print)."""
    gid = game_id(view, game)
    seats = view.get("seats") or []
    title = _(
        "{game} game {id}",
        game=str(view.get("ruleset", DEFAULT_RULESET)).capitalize(),
        id=gid,
    )
    lines = [title, "=" * len(title), ""]
    players = ", ".join(
        _("{player} (seat {seat})", player=seat_name(view, i), seat=i) for i in range(len(seats))
    )
    lines.append(_("Players: {players}", players=players))
    lines.append(_("Referee: {referee}", referee=view.get("referee", "server")))
    # The same record whoever exports it: no "your turn".
    lines.append(_("Status: {status}", status=status_line({**view, "you": None})))
    lines.append("")
    turns_heading = _("Turns")
    lines.append(turns_heading)
    lines.append("-" * len(turns_heading))
    lines.extend(history_lines(view, events))
    lines.append("")
    scores = ", ".join(f"{seat_name(view, i)} {s.get('score', 0)}" for i, s in enumerate(seats))
    lines.append(_("Scores now: {scores}", scores=scores))
    rules = rules_of(view)
    if rules is not None:
        heading = _("Board") if screen_for(view).drawing == "Board" else _("Table")
        lines += ["", heading, "-" * len(heading), rules.draw(dict(view))]
    return "\n".join(lines) + "\n"


def export(
    ctx: typer.Context,
    game: GameArg = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file, not stdout.")
    ] = None,
    table: Annotated[
        bool,
        typer.Option(
            "--table", help="The old table for people (players, turns, result, board) instead."
        ),
    ] = False,
) -> None:
    """The game's record (docs/records.md): headers, then one turn a line in the game's
    notation; mathable-cli import reads it back. With --table: a table to read and print."""
    actx = app_context(ctx)
    api = actx.api(auth=False)
    game = actx.game_id(game, "export", auth=False)
    if table:
        view = api.game(game)
        events = api.events(game, 0)
        text = export_text(view, events, game)
    else:
        text = api.record(game)
    if output is None:
        typer.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as err:
        raise CliError(
            _("cannot write {file}: {problem}", file=str(output), problem=err.strerror)
        ) from None
    actx.output.info(_("Wrote the record of game {game} to {file}.", game=game, file=str(output)))


def register(app: typer.Typer) -> None:
    app.command("new")(new)
    app.command("join")(join)
    app.command("games")(list_games)
    app.command("show")(show)
    app.command("history")(history)
    app.command("export")(export)
