"""Summy's commands as a JSON body asks them (``POST /v1/games/{id}/commands``)."""

from __future__ import annotations

from typing import Any

from mathable.core.errors import RuleError
from mathable.core.lifecycle import GiveTime, Pass, Resign
from mathable.core.words import says
from mathable.games.summy.commands import Discard, PlayEquation
from mathable.games.summy.tiles import parse_tile


def _tile(value: Any, field: str) -> int:
    """The tile ``value`` names; RuleError ``bad_tile`` saying which ``field`` it was."""
    try:
        return parse_tile(value)
    except RuleError as err:
        raise RuleError(err.code, err.message, {"field": field, **err.details}) from None


def summy_command(seat: int, body: dict[str, Any]) -> Any:
    """The Summy command ``body`` asks of ``seat``; tiles are strings (``"7"``, ``"x"``)."""
    match body["type"]:
        case "equation":
            placements = tuple(
                (p["x"], p["y"], _tile(p["tile"], f"placements[{i}].tile"))
                for i, p in enumerate(body["placements"])
            )
            return PlayEquation(seat, placements, body.get("direction"))
        case "discard":
            return Discard(
                seat, tuple(_tile(t, f"tiles[{i}]") for i, t in enumerate(body["tiles"]))
            )
        case "pass":
            return Pass(seat)
        case "resign":
            return Resign(seat)
        case "give_time":
            return GiveTime(seat, body["seat"], body["seconds"])
    raise RuleError(
        "wrong_game",
        says("{game} has no {type} move", game="Summy", type=repr(str(body["type"]))),
        {"ruleset": "summy", "type": str(body["type"])},
    )


__all__ = ["summy_command"]
