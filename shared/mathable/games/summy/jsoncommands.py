"""Summy's commands as a JSON body asks them (``POST /v1/games/{id}/commands``)."""

from __future__ import annotations

from typing import Any

from mathable.core.errors import RuleError
from mathable.core.lifecycle import GiveTime, Pass, Resign
from mathable.games.summy.commands import Discard, PlayEquation
from mathable.games.summy.tiles import parse_tile


def summy_command(seat: int, body: dict[str, Any]) -> Any:
    """The Summy command ``body`` asks of ``seat``; tiles are strings (``"7"``, ``"x"``)."""
    match body["type"]:
        case "equation":
            placements = tuple((p["x"], p["y"], parse_tile(p["tile"])) for p in body["placements"])
            return PlayEquation(seat, placements, body.get("direction"))
        case "discard":
            return Discard(seat, tuple(parse_tile(t) for t in body["tiles"]))
        case "pass":
            return Pass(seat)
        case "resign":
            return Resign(seat)
        case "give_time":
            return GiveTime(seat, body["seat"], body["seconds"])
    raise RuleError("wrong_game", f"Summy has no {str(body['type'])!r} move")


__all__ = ["summy_command"]
