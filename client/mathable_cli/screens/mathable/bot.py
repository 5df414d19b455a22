"""Mathable's bot turn: correct the opponent's mistake, else an engine's turn, else exchange
or pass; a refused or stale turn is recovered from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import mathable
from mathable.games.mathable.commands import find_mistake
from mathable.games.mathable.engine import ExchangeTiles, Play, PlayerView
from mathable.games.mathable.state import Equation, PlacedTile
from mathable_cli.exits import CliError, ExitCode
from mathable_cli.game import my_seat, placed_this_turn
from mathable_cli.screens.mathable.engines import EngineRunner
from mathable_cli.screens.mathable.moves import Planned, plan_turn, play_turn
from mathable_cli.sending import score_of, send
from mathable_i18n import _, say

if TYPE_CHECKING:
    from mathable_cli.screens.interface import BotOptions, Turn


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
        raise CliError(_("cannot give the engine this game: {error}", error=str(err))) from None
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


def bot_turn(bot: BotOptions, turn: Turn) -> dict[str, Any] | None:
    """The bot's decision in ``turn``'s game, carried out; None when the game moved on first."""
    game, view, out = turn.game, turn.view, turn.out
    engine = bot.engine if isinstance(bot.engine, EngineRunner) else None
    decision = decide(view, engine=engine, draw_extra=bot.draw_extra)
    if decision.problem is not None:
        out.warn(
            _(
                "{game}: engine {engine}: {problem}; the best-turn search plays this turn",
                game=game,
                engine=engine.spec if engine is not None else "best",
                problem=decision.problem,
            )
        )
    try:
        new = carry_out(turn, decision)
    except CliError as err:
        if err.code == ExitCode.CONFLICT:
            out.info(
                _(
                    "{game}: the game moved on ({message}); looking again",
                    game=game,
                    message=say(err.message),
                )
            )
            return None
        if err.code not in (ExitCode.ILLEGAL_MOVE, ExitCode.REFUSED):
            raise
        now = turn.api.game(game)
        # With tiles down the turn can only end (a pass is refused then).
        end = "end_turn" if placed_this_turn(now) else "pass"
        values = {"game": game, "kind": decision.kind, "message": say(err.message)}
        if end == "end_turn":
            out.warn(_("{game}: the server refused {kind}: {message}; ending the turn", **values))
        else:
            out.warn(_("{game}: the server refused {kind}: {message}; passing", **values))
        new = send(turn.api, out, game, now, {"type": end})
    return new


def carry_out(turn: Turn, decision: Decision) -> dict[str, Any]:
    """Send what ``decision`` decided in ``turn``'s game, and say it on stderr."""
    api, out, game, view = turn.api, turn.out, turn.game, turn.view
    seat = my_seat(view)
    if decision.kind == "correct":
        new = send(api, out, game, view, {"type": "correct"})
        out.info(
            _("{game}: corrected the last turn: {reason}", game=game, reason=say(decision.reason))
        )
        return new
    if decision.kind == "turn":
        if decision.planned:
            new = play_turn(api, out, game, view, decision.planned, end=decision.end_turn)
        else:
            new = send(api, out, game, view, {"type": "end_turn"})
        played = " ".join(f"{p.square}={p.tile}" for p in decision.planned) or _("nothing more")
        if not decision.end_turn:
            out.info(_("{game}: placed {move}; the turn goes on", game=game, move=played))
            return new
        outcome = turn_outcome(view, new, seat)
        out.info(_("{game}: played {move} {outcome}", game=game, move=played, outcome=outcome))
        return new
    if decision.kind == "exchange":
        new = send(api, out, game, view, {"type": "exchange", "tiles": decision.tiles})
        tiles = " ".join(map(str, decision.tiles))
        out.info(_("{game}: nothing fits; exchanged {tiles}", game=game, tiles=tiles))
        return new
    new = send(api, out, game, view, {"type": "pass"})
    out.info(_("{game}: nothing fits and the bag is empty; passed", game=game))
    return new


def turn_outcome(before: dict[str, Any], after: dict[str, Any], seat: int | None) -> str:
    """``(+23, score 1195)``; when the turn ended the game, the rack deduction comes apart:
    ``(+23, score 1195; game over: -14 for the tiles left, final 1181)``."""
    result = after.get("result")
    if after.get("status") != "ended" or not isinstance(result, dict) or seat is None:
        gained = score_of(after, seat) - score_of(before, seat)
        return _(
            "({gained}, score {score})", gained=format(gained, "+d"), score=score_of(after, seat)
        )
    deductions = result.get("deductions") or []
    deducted = int(deductions[seat]) if seat < len(deductions) else 0
    final = score_of(after, seat)
    before_end = final + deducted
    gained = before_end - score_of(before, seat)
    return _(
        "({gained}, score {score}; game over: -{deducted} for the tiles left, final {final})",
        gained=format(gained, "+d"),
        score=before_end,
        deducted=deducted,
        final=final,
    )
