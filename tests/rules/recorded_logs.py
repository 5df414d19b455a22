"""Recorded game logs: commands, the events they made, and a digest of every state.

A log recorded under one rules version must replay to the same states, and its
commands must still make the same events, under every later version of the
code: a game started under old rules is played to its end under those rules.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from mathable import (
    Command,
    Correct,
    Create,
    DrawExtra,
    EndTurn,
    Equation,
    Exchange,
    GameState,
    Join,
    Pass,
    Place,
    PlayTurn,
    Resign,
    TurnPlacement,
    parse_square,
    square_name,
)
from mathable.games.mathable.state import MathableTurn

FIXTURES = Path(__file__).parent / "fixtures"


def _claims_out(claims: tuple[Equation, ...] | None) -> list[list[str]] | None:
    if claims is None:
        return None
    return [[square_name(e.near), square_name(e.far), e.op] for e in claims]


def _claims_in(data: Any) -> tuple[Equation, ...] | None:
    if data is None:
        return None
    return tuple(Equation(parse_square(n), parse_square(f), op) for n, f, op in data)


def command_to_json(command: Command) -> dict[str, Any]:
    """A command as a small JSON object (squares by name)."""
    match command:
        case Create():
            return {
                "type": "create",
                "player": command.player,
                "players": command.players,
                "referee": command.referee,
                "tiles": list(command.tiles) if command.tiles is not None else None,
            }
        case Join():
            return {"type": "join", "player": command.player}
        case Place():
            return {
                "type": "place",
                "seat": command.seat,
                "square": square_name(command.square),
                "tile": command.tile,
                "claims": _claims_out(command.claims),
            }
        case PlayTurn():
            return {
                "type": "turn",
                "seat": command.seat,
                "placements": [
                    {
                        "square": square_name(p.square),
                        "tile": p.tile,
                        "draw_extra": p.draw_extra,
                        "claims": _claims_out(p.claims),
                    }
                    for p in command.placements
                ],
            }
        case Exchange():
            return {"type": "exchange", "seat": command.seat, "tiles": list(command.tiles)}
        case DrawExtra() | EndTurn() | Pass() | Correct() | Resign():
            names = {
                DrawExtra: "draw_extra",
                EndTurn: "end_turn",
                Pass: "pass",
                Correct: "correct",
                Resign: "resign",
            }
            return {"type": names[type(command)], "seat": command.seat}
    raise ValueError(f"cannot record {command!r}")


def command_from_json(data: dict[str, Any]) -> Command:
    """The command ``command_to_json`` wrote."""
    kind = data["type"]
    if kind == "create":
        tiles = tuple(data["tiles"]) if data["tiles"] is not None else None
        return Create(data["player"], data["players"], data["referee"], tiles=tiles)
    if kind == "join":
        return Join(data["player"])
    seat = data["seat"]
    if kind == "place":
        return Place(seat, parse_square(data["square"]), data["tile"], _claims_in(data["claims"]))
    if kind == "turn":
        return PlayTurn(
            seat,
            tuple(
                TurnPlacement(
                    parse_square(p["square"]), p["tile"], p["draw_extra"], _claims_in(p["claims"])
                )
                for p in data["placements"]
            ),
        )
    if kind == "exchange":
        return Exchange(seat, tuple(data["tiles"]))
    simple = {
        "draw_extra": DrawExtra,
        "end_turn": EndTurn,
        "pass": Pass,
        "correct": Correct,
        "resign": Resign,
    }
    return simple[kind](seat)


def _turn(turn: MathableTurn | None) -> Any:
    if turn is None:
        return None
    return {
        "seat": turn.seat,
        "started_with": turn.started_with,
        "placements": [
            [square_name(p.square), p.tile, p.points, [str(e) for e in p.equations]]
            for p in turn.placements
        ],
        "extra_available": turn.extra_available,
        "bonus": turn.bonus,
        "ended_by": turn.ended_by,
        "exchanged": turn.exchanged,
    }


def state_summary(state: GameState) -> dict[str, Any]:
    """Everything a rules version decides about a state, as plain JSON values."""
    result = state.result
    return {
        "version": state.version,
        "status": state.status,
        "rules_version": state.rules_version,
        "seats": [[s.player, list(s.rack), s.score, s.resigned] for s in state.seats],
        "board": {square_name(s): v for s, v in sorted(state.position.placed().items())},
        "bag": list(state.bag),
        "turn": _turn(state.turn),
        "last_turn": _turn(state.last_turn),
        "correctable": _turn(state.correctable),
        "idle_turns": state.idle_turns,
        "turns_played": state.turns_played,
        "result": None
        if result is None
        else [result.reason, list(result.deductions), list(result.scores), list(result.winners)],
    }


def digest(summary: dict[str, Any]) -> str:
    """A short fingerprint of a state summary."""
    text = json.dumps(summary, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text())
    return data
