"""``verify``: check every draw of a finished game against the bag order it committed to."""

from __future__ import annotations

import typer

from mathable.core.audit import audit, events_from_feed
from mathable.core.errors import RuleError
from mathable_cli.cmdutil import GameIdArg, JsonFlag
from mathable_cli.context import app_context
from mathable_cli.exits import CliError, ExitCode
from mathable_i18n import _, say


def verify(ctx: typer.Context, game: GameIdArg, as_json: JsonFlag = False) -> None:
    """Replay every draw of a finished game from the bag order revealed at its end.

    At creation the server published a hash of the bag order and a secret salt;
    at the end it revealed both. This checks the hash, then that each draw took
    exactly the tiles the order says. Exit 0 when all draws check out, 1 if not.
    """
    actx = app_context(ctx)
    settings = actx.settings
    api = actx.api(auth=bool(settings.token))
    game = actx.game_id(game, "verify", auth=bool(settings.token))
    feed = api.events(game)
    if not any(entry.get("type") == "game_ended" for entry in feed):
        raise CliError(
            _("{game} has not ended: its bag order is revealed at the end", game=game),
            ExitCode.ERROR,
            hint=_("verify it once it has ended (mathable-cli wait GAME waits for that)"),
        )
    try:
        result = audit(events_from_feed(feed))
    except RuleError as err:
        raise CliError(
            _(
                "the events of {game} cannot be checked: {message}",
                game=game,
                message=say(err.message),
            ),
            ExitCode.ERROR,
            hint=_("only a game that has ended shows every draw"),
        ) from None
    if as_json:
        actx.output.json(
            {"game": game, "ok": result.ok, "draws": result.draws, "problems": result.problems}
        )
    if result.ok:
        if not as_json:
            actx.output.data(_("{game}: all {n} draws check out", game=game, n=result.draws))
        return
    if not as_json:
        for problem in result.problems:
            actx.output.data(f"{game}: {say(problem)}")
    if result.draws:
        message = _("{game}: the draws do not check out", game=game)
    elif result.problems:
        message = f"{game}: {say(result.problems[0])}"
    else:
        message = _("{game}: nothing to check", game=game)
    raise CliError(message, ExitCode.ERROR)


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)
