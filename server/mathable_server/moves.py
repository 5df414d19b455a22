"""From a validated command body to the rules package's command for the caller's seat."""

from __future__ import annotations

from typing import Any

from mathable import (
    Command,
    Correct,
    DrawExtra,
    EndTurn,
    Equation,
    Exchange,
    GiveTime,
    Pass,
    Place,
    PlayTurn,
    Resign,
    TurnPlacement,
    parse_square,
)


def _claims(equations: list[dict[str, Any]] | None) -> tuple[Equation, ...] | None:
    if equations is None:
        return None
    return tuple(
        Equation(parse_square(e["near"]), parse_square(e["far"]), e["op"]) for e in equations
    )


def command_for(seat: int, body: dict[str, Any]) -> Command:
    """The command ``body`` (already checked by ``schemas.load_command``) asks of ``seat``.

    Squares are read here: one off the board raises RuleError ``bad_square``.
    """
    match body["type"]:
        case "place":
            return Place(
                seat, parse_square(body["square"]), body["tile"], _claims(body.get("equations"))
            )
        case "turn":
            return PlayTurn(
                seat,
                tuple(
                    TurnPlacement(
                        parse_square(p["square"]),
                        p["tile"],
                        p.get("draw_extra", False),
                        _claims(p.get("equations")),
                    )
                    for p in body["placements"]
                ),
            )
        case "exchange":
            return Exchange(seat, tuple(body["tiles"]))
        case "draw_extra":
            return DrawExtra(seat)
        case "end_turn":
            return EndTurn(seat)
        case "pass":
            return Pass(seat)
        case "correct":
            return Correct(seat)
        case "resign":
            return Resign(seat)
        case "give_time":
            return GiveTime(seat, body["seat"], body["seconds"])
    raise ValueError(f"unknown command type {body['type']!r}")  # pragma: no cover
