"""Turns: ``move`` (one-shot or interactive), ``exchange``, ``pass``, ``correct``, ``resign``."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from mathable_cli import moving, ruleset_turns
from mathable_cli.api import ApiClient
from mathable_cli.cmdutil import GameArg, GameIdArg, JsonFlag
from mathable_cli.context import AppContext, app_context
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import (
    describe_event,
    my_seat,
    seat_name,
    status_line,
)
from mathable_cli.resolve import choose_game
from mathable_cli.screens import Turn, screen_for
from mathable_cli.sending import report_end, require_turn, send
from mathable_i18n import _, ngettext


def _game(actx: AppContext, api: ApiClient, given: str | None, command: str) -> str:
    return choose_game(api, given, command, actx.output.info)


def move(
    ctx: typer.Context,
    game: GameArg = None,
    placements: Annotated[
        list[str] | None,
        typer.Argument(
            help="Placements like I8=12 or 12@I8, played in order as one turn. "
            "None: play interactively. Summy: X,Y DIRECTION EQUATION (-3,0 across 1+2=3).",
            show_default=False,
        ),
    ] = None,
    draw_extra: Annotated[
        bool,
        typer.Option(
            "--draw-extra", help="Draw the extra tile after each placement on an operation square."
        ),
    ] = False,
    anyway: Annotated[
        bool,
        typer.Option(
            "--anyway",
            help="Players referee: send placements that complete no equation all the same "
            "(an opponent may correct them).",
        ),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Play a turn: placements on the command line, or interactively without them.

    Interactively, placements are staged and sent only with `done`; `undo` takes
    the last one back.
    """
    moving.move(
        app_context(ctx),
        game,
        placements,
        draw_extra=draw_extra,
        anyway=anyway,
        as_json=as_json,
    )


def exchange(
    ctx: typer.Context,
    game: GameIdArg,
    words: Annotated[list[str], typer.Argument(help="The tiles to give back.", show_default=False)],
    as_json: JsonFlag = False,
) -> None:
    """Give 1 to 7 tiles back to the bag and draw as many; ends your turn."""
    actx = app_context(ctx)
    api = actx.api()
    game = actx.game_id(game, "exchange")
    view = api.game(game)
    ruleset_turns.require_command(view, "exchange")
    screen = screen_for(view)
    command = screen.exchange_command(Turn(api, actx.output, game, view), words)
    new = send(api, actx.output, game, view, command)
    if as_json:
        actx.output.json(new)
    given = len(command["tiles"])
    actx.output.info(ngettext("Exchanged {n} tile.", "Exchanged {n} tiles.", given))
    report_end(actx.output, view, new, screen_for(new).holder)


def pass_turn(ctx: typer.Context, game: GameArg = None, as_json: JsonFlag = False) -> None:
    """Pass your turn without playing."""
    actx = app_context(ctx)
    api = actx.api()
    game = actx.game_id(game, "pass")
    view = api.game(game)
    require_turn(view, game)
    new = send(api, actx.output, game, view, {"type": "pass"})
    if as_json:
        actx.output.json(new)
    actx.output.info(_("You passed."))
    report_end(actx.output, view, new, screen_for(new).holder)


def correct(ctx: typer.Context, game: GameArg = None, as_json: JsonFlag = False) -> None:
    """Players referee: challenge the opponent's turn; a real mistake is taken back."""
    actx = app_context(ctx)
    api = actx.api()
    game = actx.game_id(game, "correct")
    view = api.game(game)
    new = send(api, actx.output, game, view, {"type": "correct"})
    if as_json:
        actx.output.json(new)
    # The correction's own event is the first after the view it was sent on (those after
    # it are what it led to: the end of the corrected turn, the end of the game).
    events = api.events(game, int(view.get("version") or 0))
    told = describe_event(events[0], new) if events else None
    actx.output.info(told or _("Correction accepted."))
    actx.output.info(_("Now {status}.", status=status_line(new)))


def resign(
    ctx: typer.Context,
    game: GameArg = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Leave the game for good; it goes on without you."""
    actx = app_context(ctx)
    api = actx.api()
    game = actx.game_id(game, "resign")
    view = api.game(game)
    if not yes:
        if not sys.stdin.isatty():
            raise CliError(
                _("resigning cannot be undone"), ExitCode.USAGE, hint=_("confirm with --yes")
            )
        if not typer.confirm(_("Resign game {game} for good?", game=game), err=True):
            raise CliError(_("not resigned"), ExitCode.ERROR)
    new = send(api, actx.output, game, view, {"type": "resign"})
    if as_json:
        actx.output.json(new)
    actx.output.info(
        _(
            "{player} resigned game {game}. Now {status}.",
            player=seat_name(new, my_seat(view)),
            game=game,
            status=status_line(new),
        )
    )


def discard(
    ctx: typer.Context,
    game: GameIdArg,
    tiles: Annotated[
        list[str], typer.Argument(help="The tiles to throw out, e.g. x = 9.", show_default=False)
    ],
    as_json: JsonFlag = False,
) -> None:
    """Summy: put tiles from your hand out of the game and draw as many; ends your turn."""
    actx = app_context(ctx)
    api = actx.api()
    game = actx.game_id(game, "discard")
    view = api.game(game)
    ruleset_turns.require_command(view, "discard")
    new = ruleset_turns.discard(api, actx.output, game, view, tiles)
    if as_json:
        actx.output.json(new)


def register(app: typer.Typer) -> None:
    app.command(
        "move",
        # A Summy play starts with its first square, often negative: ``-3,0 across 1+2=3``.
        context_settings={"ignore_unknown_options": True},
    )(move)
    app.command("discard")(discard)
    app.command("exchange")(exchange)
    app.command("pass")(pass_turn)
    app.command("correct")(correct)
    app.command("resign")(resign)
