"""``hint`` (what fits, the best turn) and ``bot`` (play my seats with an engine)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

import typer

from mathable_cli import api as api_module
from mathable_cli import hinting
from mathable_cli.api import ApiClient, ApiError
from mathable_cli.bot import Bot
from mathable_cli.cmdutil import GameArg, JsonFlag
from mathable_cli.context import app_context
from mathable_cli.events import EventStream, StreamUnsupported
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import game_id, is_my_turn, my_seat
from mathable_cli.listing import game_entries, waits_on_me
from mathable_cli.screens.mathable.bot import decide, turn_outcome
from mathable_cli.screens.mathable.engines import THINK_TIME, EngineRunner
from mathable_cli.screens.mathable.hints import NODE_LIMIT
from mathable_cli.waiting import wait_for_game
from mathable_i18n import N_, _, say


def hint(
    ctx: typer.Context,
    game: GameArg = None,
    show_all: Annotated[bool, typer.Option("--all", help="List every legal placement.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Your legal placements and the best turn, worked out locally from your view."""
    hinting.hint(app_context(ctx), game, show_all=show_all, as_json=as_json)


#: Why ``bot`` leaves a rated game alone without ``--rated``.
RATED_REFUSED = N_(
    "game {game} is rated: a bot playing it for you would be a hint (give --rated if this "
    "account is a bot's own)"
)


def _play_one_game(
    bot: Bot, api: ApiClient, game: str, interval: float, *, rated: bool = False
) -> None:
    view = api.game(game)
    if my_seat(view) is None:
        raise CliError(_("you have no seat in game {game}", game=game), ExitCode.CONFLICT)
    if view.get("rated") and not rated:
        raise CliError(_(RATED_REFUSED, game=game), ExitCode.REFUSED)
    while view.get("status") != "ended":
        if is_my_turn(view):
            view = bot.act(game, view)
        else:
            view = wait_for_game(api, game, view, deadline=None, interval=interval)
    bot.finished(game, view)


@dataclass
class Acceptance:
    """Which invitations ``bot --all --accept`` joins (as lichess-bot's challenge filters):
    from whom (names; empty: anyone), which rulesets (empty: any), and at most how many
    games in play or waiting at once (None: no limit)."""

    senders: frozenset[str] = frozenset()
    rulesets: frozenset[str] = frozenset()
    max_games: int | None = None
    #: Invitations the server refused to let this bot join (not asked again).
    refused: set[str] = field(default_factory=set)

    def takes(self, entry: Mapping[str, Any]) -> bool:
        """Whether the invitation ``entry`` (of ``GET /v1/me``) passes the filters."""
        if self.rulesets and entry.get("ruleset", "mathable") not in self.rulesets:
            return False
        creator = next((s.get("name") for s in entry.get("seats") or [] if s.get("seat") == 0),
                       None)  # fmt: skip
        senders = {s.casefold() for s in self.senders}  # names are the same in any case
        return not senders or (creator is not None and creator.casefold() in senders)


def _is_invitation(entry: Mapping[str, Any]) -> bool:
    return entry.get("status") == "waiting" and entry.get("your_seat") is None


def _accept(bot: Bot, api: ApiClient, entries: list[dict[str, Any]], accept: Acceptance) -> bool:
    """Join the invitations among ``entries`` that ``accept`` takes, within its limit;
    whether one was joined (the list is read again then)."""
    seated = sum(
        1
        for e in entries
        if e.get("status") in ("playing", "waiting") and e.get("your_seat") is not None
    )
    joined = False
    for entry in entries:
        gid = game_id(entry)
        if not _is_invitation(entry) or gid in accept.refused or not accept.takes(entry):
            continue
        if accept.max_games is not None and seated >= accept.max_games:
            return joined
        try:
            api.request("POST", f"/v1/games/{gid}/join", body={})
        except ApiError as err:
            if 400 <= err.status < 500 and err.status != 429:
                accept.refused.add(gid)  # refused for good: not tried again
                bot.out.warn(
                    _("{game}: could not join: {message}", game=gid, message=say(err.message))
                )
            else:  # the server is busy or failing: tried again on the next round
                bot.out.warn(
                    _(
                        "{game}: could not join now ({message}): will try again",
                        game=gid,
                        message=say(err.message),
                    )
                )
            continue
        seated += 1
        joined = True
        bot.out.info(_("{game}: accepted the invitation", game=gid))
    return joined


def _serve(
    bot: Bot,
    api: ApiClient,
    games: list[str] | None,
    *,
    interval: float,
    max_interval: float,
    until_idle: bool,
    accept: Acceptance | None = None,
    rated: bool = False,
) -> None:
    """List my games (one request for all) and play wherever it is my turn; between two
    looks, wait on the server's event stream (or, on an older server, sleep and poll).
    With ``accept``, join the invitations it takes first. Rated games are left alone
    (said once each) unless ``rated``."""
    delay = interval
    active: set[str] = set()
    skipped: set[str] = set()
    stream: EventStream | None = EventStream(api)
    while True:
        try:
            entries = game_entries({"games": api.my_games()})
        except CliError as err:
            if err.code != ExitCode.NETWORK:
                raise
            bot.out.warn(
                _(
                    "{message}; trying again in {seconds} s",
                    message=say(err.message),
                    seconds=format(max_interval, "g"),
                )
            )
            api_module._sleep(max_interval)
            continue
        if games is not None:
            entries = [e for e in entries if game_id(e) in games]
        if accept is not None and _accept(bot, api, entries, accept):
            continue  # read the list again: the games joined are in it now
        played = False
        for entry in entries:
            gid = game_id(entry)
            if entry.get("status") in ("playing", "waiting"):
                active.add(gid)
            if gid in skipped:
                continue
            if waits_on_me(entry):
                view = api.game(gid)
                if view.get("rated") and not rated:
                    skipped.add(gid)
                    bot.out.warn(_("{refusal}: left alone", refusal=_(RATED_REFUSED, game=gid)))
                    continue
                while is_my_turn(view):
                    view = bot.act(gid, view)
                    played = True
                if view.get("status") == "ended":
                    active.discard(gid)
                    bot.finished(gid, view)
            elif entry.get("status") == "ended" and gid in active:
                active.discard(gid)
                bot.finished(gid, api.game(gid))
        in_play = [
            e
            for e in entries
            if (
                e.get("status") == "playing"
                or (e.get("status") == "waiting" and e.get("your_seat") is not None)
            )
            and game_id(e) not in skipped
        ]
        if (until_idle or games is not None) and not in_play:
            return
        delay = interval if played else min(delay * 2, max_interval)
        if stream is not None:
            try:
                # Until something happens in one of my games (or a while passes): no polling.
                stream.next_event(max_interval if not played else 0.0)
                continue
            except StreamUnsupported:
                stream.close()
                stream = None
        api_module._sleep(delay)


def bot(
    ctx: typer.Context,
    games: Annotated[
        list[str] | None, typer.Argument(help="The games to play.", show_default=False)
    ] = None,
    all_games: Annotated[
        bool, typer.Option("--all", help="Serve every game of this identity.")
    ] = False,
    draw_extra: Annotated[
        bool,
        typer.Option(
            "--draw-extra/--no-draw-extra",
            help="Draw the extra tile after placing on an operation square.",
        ),
    ] = True,
    interval: Annotated[
        float, typer.Option(help="Seconds between polls when there is news.", min=0.01)
    ] = 5.0,
    max_interval: Annotated[
        float, typer.Option(help="Longest pause between polls when idle.", min=0.01)
    ] = 60.0,
    until_idle: Annotated[
        bool, typer.Option("--until-idle", help="With --all: stop when no game is in play.")
    ] = False,
    accept: Annotated[
        bool, typer.Option("--accept", help="With --all: join the invitations (see --from).")
    ] = False,
    senders: Annotated[
        list[str] | None,
        typer.Option(
            "--from",
            help="With --accept: only from this player (repeat for more).",
            show_default=False,
        ),
    ] = None,
    rulesets: Annotated[
        list[str] | None,
        typer.Option(
            "--ruleset",
            help="With --accept: only games of this ruleset (repeat for more).",
            show_default=False,
        ),
    ] = None,
    max_games: Annotated[
        int | None,
        typer.Option(
            "--max-games",
            help="With --accept: join only while fewer games than this are in play or waiting.",
            min=1,
            show_default=False,
        ),
    ] = None,
    engine: Annotated[
        str,
        typer.Option(
            help="The engine: a built-in (greedy, best, strong) or package.module:function.",
        ),
    ] = "best",
    think_time: Annotated[
        float,
        typer.Option(
            help=(
                "Seconds a plugged-in engine may think each time it is asked (a turn in "
                "parts asks once a part); then `best` plays."
            ),
            min=0.01,
        ),
    ] = THINK_TIME,
    node_limit: Annotated[
        int, typer.Option(help="Search budget of the `best` engine (and the fallback).", min=1)
    ] = NODE_LIMIT,
    rated: Annotated[
        bool,
        typer.Option(
            "--rated",
            help="Play rated games too: only for a bot's own account (on a person's "
            "account a bot is a hint; without it rated games are left alone).",
        ),
    ] = False,
) -> None:
    """Play your seats with an engine (`best` by default) until the games end.

    One game: waits with long-polls. Several games or --all: follows your
    event stream and lists your games (one request for all) when something
    happened, so one process serves hundreds of games; against an older server
    it polls the list politely (slower when idle). An engine that raises, returns
    something that is not a legal turn or thinks past --think-time is
    reported on stderr and `best` plays that turn. Rated games are left alone
    unless --rated is given (a bot's own account).

    With --all --accept it also joins the invitations it is sent: only those
    from the players named by --from and of the rulesets named by --ruleset
    (when given), and only while fewer than --max-games of its games are in
    play or waiting for players. Invitations it leaves stay open.
    """
    actx = app_context(ctx)
    if all_games == bool(games):
        raise CliError(_("give game ids or --all (not both)"), ExitCode.USAGE)
    filtered = bool(senders or rulesets or max_games is not None)
    if (accept and not all_games) or (filtered and not accept):
        raise CliError(
            _("--accept goes with --all; --from, --ruleset, --max-games with --accept"),
            ExitCode.USAGE,
        )
    acceptance = (
        Acceptance(frozenset(senders or ()), frozenset(rulesets or ()), max_games)
        if accept
        else None
    )
    engines = EngineRunner(engine, think_time=think_time, node_limit=node_limit)
    api = actx.api(endless=True)
    games = [actx.game_id(g, "bot") for g in games or []]
    runner = Bot(api, actx.output, engines, draw_extra=draw_extra)
    try:
        if games and len(games) == 1:
            _play_one_game(runner, api, games[0], interval, rated=rated)
        else:
            _serve(
                runner,
                api,
                games or None,
                interval=interval,
                max_interval=max(interval, max_interval),
                until_idle=until_idle,
                accept=acceptance,
                rated=rated,
            )
    finally:
        engines.close()
    actx.output.info(_("Bot done after {n} turns.", n=runner.turns))


#: ``decide`` and ``turn_outcome`` are Mathable's bot turn (``screens.mathable.bot``).
__all__ = ["decide", "register", "turn_outcome"]


def register(app: typer.Typer) -> None:
    app.command("hint")(hint)
    app.command("bot")(bot)
