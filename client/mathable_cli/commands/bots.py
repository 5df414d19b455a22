"""``hint`` (what fits, the best turn) and ``bot`` (play my seats with an engine)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

import typer

import mathable
from mathable.commands import find_mistake
from mathable.engine import ExchangeTiles, Play, PlayerView
from mathable.state import Equation, PlacedTile
from mathable_cli import anygame
from mathable_cli import api as api_module
from mathable_cli.api import ApiClient
from mathable_cli.cmdutil import GameIdArg, JsonFlag
from mathable_cli.context import app_context
from mathable_cli.engines import THINK_TIME, EngineRunner
from mathable_cli.events import EventStream, StreamUnsupported
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import game_id, is_my_turn, my_seat, placed_this_turn, seat_name
from mathable_cli.hints import NODE_LIMIT, advice_json, advice_lines, advise
from mathable_cli.listing import game_entries, waits_on_me
from mathable_cli.moves import Planned, plan_turn, play_turn, score_of, send
from mathable_cli.output import Output
from mathable_cli.waiting import wait_for_game


def hint(
    ctx: typer.Context,
    game: GameIdArg,
    show_all: Annotated[bool, typer.Option("--all", help="List every legal placement.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Your legal placements and the best turn, worked out locally from your view."""
    actx = app_context(ctx)
    game = actx.game_id(game, "hint")
    view = actx.api().game(game)
    if (rules := anygame.rules_for(view)) is not None:
        anygame.hint(actx.output, rules, view, as_json)
        return
    if view.get("rack") is None:
        raise CliError(f"you have no seat in game {game}, so no rack to advise on")
    advice = advise(view)
    if as_json:
        actx.output.json(advice_json(advice))
        return
    if not is_my_turn(view):
        actx.output.info("Not your turn yet; this is for your rack as it is now.")
    for line in advice_lines(advice, limit=len(advice.legal) if show_all else 10):
        actx.output.data(line)


# --- the bot ---------------------------------------------------------------------------


@dataclass
class Decision:
    """What the bot does with its turn."""

    kind: str  # turn, exchange, pass, correct
    planned: list[Planned] = field(default_factory=list)
    tiles: list[int] = field(default_factory=list)
    reason: str = ""
    #: What went wrong with the engine's own turn (the fallback's is played instead).
    problem: str | None = None
    #: Whether the turn ends after ``planned`` (else the engine is asked again).
    end_turn: bool = True


def mistake_in_last_turn(view: dict[str, Any]) -> str | None:
    """Players referee: what is wrong with the opponent's last turn, or None."""
    last = view.get("last_turn")
    if not view.get("correctable") or not isinstance(last, dict):
        return None
    if last.get("seat") == my_seat(view) or not last.get("placements"):
        return None
    placed = tuple(
        PlacedTile(
            mathable.parse_square(p["square"]),
            int(p["tile"]),
            tuple(
                Equation(mathable.parse_square(e["near"]), mathable.parse_square(e["far"]), e["op"])
                for e in p.get("equations") or []
            ),
            int(p.get("points") or 0),
        )
        for p in last["placements"]
    )
    found = find_mistake(mathable.position_from(view.get("board") or {}), placed)
    return None if found is None else found[1]


def decide(
    view: dict[str, Any], *, engine: EngineRunner | None = None, draw_extra: bool = True
) -> Decision:
    """The bot's move: correct a mistake, else the engine's turn (``best`` by default)."""
    mistake = mistake_in_last_turn(view)
    if mistake is not None:
        return Decision("correct", reason=mistake)
    if view.get("pending_end"):
        # The opponent's last turn ended the game and holds no mistake: pass to end it.
        return Decision("pass")
    runner = engine or EngineRunner("best")
    try:
        player = PlayerView.from_json(view)
    except ValueError as err:
        raise CliError(f"cannot give the engine this game: {err}") from None
    choice = runner.choose(player)
    problem = choice.problem
    turn = choice.turn
    if isinstance(turn, Play):
        planned = plan_turn(view, turn.placements, draw_extra=draw_extra and turn.draw_extra)
        return Decision("turn", planned=planned, problem=problem, end_turn=turn.end_turn)
    if isinstance(turn, ExchangeTiles):
        return Decision("exchange", tiles=list(turn.tiles), problem=problem)
    if placed_this_turn(view):
        return Decision("turn", problem=problem)
    return Decision("pass", problem=problem)


class Bot:
    """Plays one identity's seats, one decision at a time, reporting on stderr."""

    def __init__(
        self, api: ApiClient, output: Output, engine: EngineRunner, *, draw_extra: bool
    ) -> None:
        self.api = api
        self.out = output
        self.engine = engine
        self.draw_extra = draw_extra
        self.turns = 0

    def act(self, game: str, view: dict[str, Any]) -> dict[str, Any]:
        """Play one decision in ``game`` if it is my turn; the view afterwards."""
        if not is_my_turn(view):
            return view
        if (rules := anygame.rules_for(view)) is not None:
            self.turns += 1
            return anygame.bot_turn(self.api, self.out, rules, game, view)
        decision = decide(view, engine=self.engine, draw_extra=self.draw_extra)
        if decision.problem is not None:
            self.out.warn(
                f"{game}: engine {self.engine.spec}: {decision.problem}; "
                "the best-turn search plays this turn"
            )
        try:
            new = self.carry_out(game, view, decision)
        except CliError as err:
            if err.code == ExitCode.CONFLICT:
                self.out.info(f"{game}: the game moved on ({err.message}); looking again")
                return self.api.game(game)
            if err.code not in (ExitCode.ILLEGAL_MOVE, ExitCode.REFUSED):
                raise
            now = self.api.game(game)
            # With tiles down the turn can only end (a pass is refused then).
            end = "end_turn" if placed_this_turn(now) else "pass"
            self.out.warn(
                f"{game}: the server refused {decision.kind}: {err.message}; "
                + ("ending the turn" if end == "end_turn" else "passing")
            )
            new = send(self.api, self.out, game, now, {"type": end})
        self.turns += 1
        return new

    def carry_out(self, game: str, view: dict[str, Any], decision: Decision) -> dict[str, Any]:
        seat = my_seat(view)
        if decision.kind == "correct":
            new = send(self.api, self.out, game, view, {"type": "correct"})
            self.out.info(f"{game}: corrected the last turn: {decision.reason}")
            return new
        if decision.kind == "turn":
            if decision.planned:
                new = play_turn(
                    self.api, self.out, game, view, decision.planned, end=decision.end_turn
                )
            else:
                new = send(self.api, self.out, game, view, {"type": "end_turn"})
            played = " ".join(f"{p.square}={p.tile}" for p in decision.planned) or "nothing more"
            if not decision.end_turn:
                self.out.info(f"{game}: placed {played}; the turn goes on")
                return new
            self.out.info(f"{game}: played {played} {turn_outcome(view, new, seat)}")
            return new
        if decision.kind == "exchange":
            new = send(
                self.api, self.out, game, view, {"type": "exchange", "tiles": decision.tiles}
            )
            self.out.info(f"{game}: nothing fits; exchanged {' '.join(map(str, decision.tiles))}")
            return new
        new = send(self.api, self.out, game, view, {"type": "pass"})
        self.out.info(f"{game}: nothing fits and the bag is empty; passed")
        return new

    def finished(self, game: str, view: dict[str, Any]) -> None:
        result = view.get("result") or {}
        scores = result.get("scores") or [s.get("score", 0) for s in view.get("seats") or []]
        winners = [seat_name(view, s) for s in result.get("winners") or []]
        standing = ", ".join(f"{seat_name(view, i)} {s}" for i, s in enumerate(scores))
        self.out.data(f"{game_id(view, game)}: {standing}; won by {' and '.join(winners) or '-'}")


def turn_outcome(before: dict[str, Any], after: dict[str, Any], seat: int | None) -> str:
    """``(+23, score 1195)``; when the turn ended the game, the rack deduction comes apart:
    ``(+23, score 1195; game over: -14 for the tiles left, final 1181)``."""
    result = after.get("result")
    if after.get("status") != "ended" or not isinstance(result, dict) or seat is None:
        gained = score_of(after, seat) - score_of(before, seat)
        return f"({gained:+d}, score {score_of(after, seat)})"
    deductions = result.get("deductions") or []
    deducted = int(deductions[seat]) if seat < len(deductions) else 0
    final = score_of(after, seat)
    before_end = final + deducted
    gained = before_end - score_of(before, seat)
    return (
        f"({gained:+d}, score {before_end}; game over: -{deducted} for the tiles left, "
        f"final {final})"
    )


def _play_one_game(bot: Bot, api: ApiClient, game: str, interval: float) -> None:
    view = api.game(game)
    if my_seat(view) is None:
        raise CliError(f"you have no seat in game {game}", ExitCode.CONFLICT)
    while view.get("status") != "ended":
        if is_my_turn(view):
            view = bot.act(game, view)
        else:
            view = wait_for_game(api, game, view, deadline=None, interval=interval)
    bot.finished(game, view)


def _serve(
    bot: Bot,
    api: ApiClient,
    games: list[str] | None,
    *,
    interval: float,
    max_interval: float,
    until_idle: bool,
) -> None:
    """List my games (one request for all) and play wherever it is my turn; between two
    looks, wait on the server's event stream (or, on an older server, sleep and poll)."""
    delay = interval
    active: set[str] = set()
    stream: EventStream | None = EventStream(api)
    while True:
        try:
            entries = game_entries({"games": api.my_games()})
        except CliError as err:
            if err.code != ExitCode.NETWORK:
                raise
            bot.out.warn(f"{err.message}; trying again in {max_interval:g} s")
            api_module._sleep(max_interval)
            continue
        if games is not None:
            entries = [e for e in entries if game_id(e) in games]
        played = False
        for entry in entries:
            gid = game_id(entry)
            if entry.get("status") in ("playing", "waiting"):
                active.add(gid)
            if waits_on_me(entry):
                view = api.game(gid)
                while is_my_turn(view):
                    view = bot.act(gid, view)
                    played = True
                if view.get("status") == "ended":
                    active.discard(gid)
                    bot.finished(gid, view)
            elif entry.get("status") == "ended" and gid in active:
                active.discard(gid)
                bot.finished(gid, api.game(gid))
        in_play = [e for e in entries if e.get("status") in ("playing", "waiting")]
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
) -> None:
    """Play your seats with an engine (`best` by default) until the games end.

    One game: waits with long-polls. Several games or --all: follows your
    event stream and lists your games (one request for all) when something
    happened, so one process serves hundreds of games; against an older server
    it polls the list politely (slower when idle). An engine that raises, returns
    something that is not a legal turn or thinks past --think-time is
    reported on stderr and `best` plays that turn.
    """
    actx = app_context(ctx)
    if all_games == bool(games):
        raise CliError("give game ids or --all (not both)", ExitCode.USAGE)
    engines = EngineRunner(engine, think_time=think_time, node_limit=node_limit)
    api = actx.api()
    games = [actx.game_id(g, "bot") for g in games or []]
    runner = Bot(api, actx.output, engines, draw_extra=draw_extra)
    try:
        if games and len(games) == 1:
            _play_one_game(runner, api, games[0], interval)
        else:
            _serve(
                runner,
                api,
                games or None,
                interval=interval,
                max_interval=max(interval, max_interval),
                until_idle=until_idle,
            )
    finally:
        engines.close()
    actx.output.info(f"Bot done after {runner.turns} turns.")


def register(app: typer.Typer) -> None:
    app.command("hint")(hint)
    app.command("bot")(bot)
