"""``verify``: check every draw of a finished game against the bag order it committed to."""

from __future__ import annotations

import typer

from mathable.core.audit import audit, events_from_feed
from mathable.core.errors import RuleError
from mathable_cli.cmdutil import GameIdArg, JsonFlag
from mathable_cli.context import app_context
from mathable_cli.exits import CliError, ExitCode


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
            f"{game} has not ended: its bag order is revealed at the end",
            ExitCode.ERROR,
            hint="verify it once it has ended (mathable-cli wait GAME waits for that)",
        )
    try:
        result = audit(events_from_feed(feed))
    except RuleError as err:
        raise CliError(
            f"the events of {game} cannot be checked: {err.message}",
            ExitCode.ERROR,
            hint="only a game that has ended shows every draw",
        ) from None
    if as_json:
        actx.output.json(
            {"game": game, "ok": result.ok, "draws": result.draws, "problems": result.problems}
        )
    if result.ok:
        if not as_json:
            actx.output.data(f"{game}: all {result.draws} draws check out")
        return
    if not as_json:
        for problem in result.problems:
            actx.output.data(f"{game}: {problem}")
    raise CliError(
        f"{game}: the draws do not check out"
        if result.draws
        else f"{game}: {result.problems[0] if result.problems else 'nothing to check'}",
        ExitCode.ERROR,
    )


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)
