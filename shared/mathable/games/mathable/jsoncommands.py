"""Mathable's own commands written as JSON (the HTTP API, mail, bots), read into commands.

The body has already been checked for form (types, sizes) by the server; what
is read here is what only the rules know: squares, tiles, and which commands a
game has (a Summy move sent to a Mathable game is refused, and the reverse). The
commands every game shares (pass, resign, give_time) are the kernel's to read
(``mathable.core.lifecycle.shared``): ``RULES.command`` asks it first.
"""

from __future__ import annotations

from typing import Any

from mathable.core.errors import RuleError
from mathable.core.words import says
from mathable.games.mathable.board import parse_square
from mathable.games.mathable.commands import (
    Command,
    Correct,
    DrawExtra,
    EndTurn,
    Exchange,
    Place,
    PlayTurn,
    TurnPlacement,
)
from mathable.games.mathable.state import Equation


def _square(value: Any, field: str) -> int:
    """The square ``value`` names; RuleError ``bad_square`` saying which ``field`` it was."""
    try:
        return parse_square(value)
    except RuleError as err:
        raise RuleError(err.code, err.message, {"field": field, **err.details}) from None


def _claims(equations: list[dict[str, Any]] | None, field: str) -> tuple[Equation, ...] | None:
    if equations is None:
        return None
    return tuple(
        Equation(
            _square(e["near"], f"{field}[{i}].near"),
            _square(e["far"], f"{field}[{i}].far"),
            e["op"],
        )
        for i, e in enumerate(equations)
    )


def _not_in(game: str, kind: str) -> RuleError:
    return RuleError(
        "wrong_game",
        says("{game} has no {type} move", game=game, type=repr(kind)),
        {"ruleset": game.lower(), "type": kind},
    )


def mathable_command(seat: int, body: dict[str, Any]) -> Command:
    """Mathable's own command ``body`` asks of ``seat``; a square off the board raises
    RuleError ``bad_square``, a type Mathable does not have ``wrong_game``."""
    match body["type"]:
        case "place":
            return Place(
                seat,
                _square(body["square"], "square"),
                body["tile"],
                _claims(body.get("equations"), "equations"),
            )
        case "turn":
            return PlayTurn(
                seat,
                tuple(
                    TurnPlacement(
                        _square(p["square"], f"placements[{i}].square"),
                        p["tile"],
                        p.get("draw_extra", False),
                        _claims(p.get("equations"), f"placements[{i}].equations"),
                    )
                    for i, p in enumerate(body["placements"])
                ),
            )
        case "exchange":
            return Exchange(seat, tuple(body["tiles"]))
        case "draw_extra":
            return DrawExtra(seat)
        case "end_turn":
            return EndTurn(seat)
        case "correct":
            return Correct(seat)
    raise _not_in("Mathable", str(body["type"]))


__all__ = ["mathable_command"]
