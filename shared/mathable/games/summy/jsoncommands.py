"""Summy's own commands as a JSON body asks them (``POST /v1/games/{id}/commands``); the
commands every game shares (pass, resign, give_time) are the kernel's to read
(``mathable.core.lifecycle.shared``): ``RULES.command`` asks it first."""

from __future__ import annotations

from typing import Any

from mathable.core.errors import RuleError
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
    """Summy's own command ``body`` asks of ``seat``; tiles are strings (``"7"``, ``"x"``)."""
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
    raise RuleError(
        "wrong_game",
        says("{game} has no {type} move", game="Summy", type=repr(str(body["type"]))),
        {"ruleset": "summy", "type": str(body["type"])},
    )


__all__ = ["summy_command"]
