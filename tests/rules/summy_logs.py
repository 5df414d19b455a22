"""Recorded Summy logs: commands as JSON, and a summary of everything a rules version
decides about a state (``tests.rules.recorded_logs`` does the same for Mathable)."""

from __future__ import annotations

from typing import Any

from mathable import Create, Join, Pass, Resign
from mathable.games.summy import SummyState
from mathable.games.summy.commands import Discard, PlayEquation


def summy_command_to_json(command: Any) -> dict[str, Any]:
    """A Summy command as a small JSON object (tiles as their codes)."""
    match command:
        case Create():
            return {
                "type": "create",
                "player": command.player,
                "players": command.players,
                "tiles": list(command.tiles) if command.tiles is not None else None,
            }
        case Join():
            return {"type": "join", "player": command.player}
        case PlayEquation():
            return {
                "type": "equation",
                "seat": command.seat,
                "placements": [list(p) for p in command.placements],
                "direction": command.direction,
            }
        case Discard():
            return {"type": "discard", "seat": command.seat, "tiles": list(command.tiles)}
        case Pass():
            return {"type": "pass", "seat": command.seat}
        case Resign():
            return {"type": "resign", "seat": command.seat}
    raise ValueError(f"cannot record {command!r}")


def summy_command_from_json(data: dict[str, Any]) -> Any:
    """The command ``summy_command_to_json`` wrote."""
    kind = data["type"]
    if kind == "create":
        tiles = tuple(data["tiles"]) if data["tiles"] is not None else None
        return Create(data["player"], players=data["players"], tiles=tiles, ruleset="summy")
    if kind == "join":
        return Join(data["player"])
    if kind == "equation":
        placements = tuple((x, y, t) for x, y, t in data["placements"])
        return PlayEquation(data["seat"], placements, data["direction"])
    if kind == "discard":
        return Discard(data["seat"], tuple(data["tiles"]))
    if kind == "pass":
        return Pass(data["seat"])
    if kind == "resign":
        return Resign(data["seat"])
    raise ValueError(f"no such recorded command: {kind}")


def summy_summary(state: SummyState) -> dict[str, Any]:
    """Everything a rules version decides about a Summy state, as plain JSON values."""
    result = state.result
    last = state.last_turn
    return {
        "version": state.version,
        "status": state.status,
        "rules_version": state.rules_version,
        "seats": [[s.player, list(s.rack), s.score, s.resigned] for s in state.seats],
        "table": sorted([x, y, t] for (x, y), t in state.table.items()),
        "supply": list(state.supply),
        "turn": None if state.turn is None else state.turn.seat,
        "last_turn": None if last is None else [last.seat, last.ended_by, last.exchanged],
        "idle_turns": state.idle_turns,
        "dry_turns": state.dry_turns,
        "turns_played": state.turns_played,
        "result": None
        if result is None
        else [result.reason, list(result.deductions), list(result.scores), list(result.winners)],
    }
