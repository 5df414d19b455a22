"""What one viewer of a Fifteen game may see: everything. Fifteen hides nothing (no bag,
no hand), so every seat and every spectator gets the same view and the same events; the
kernel's ``redact_shared`` still takes the server's seed and order out of ``game_created``.
"""

from __future__ import annotations

from typing import Any

from mathable.core.events import Event
from mathable.core.state import Turn
from mathable.core.view import lifecycle_view, redact_shared, seat_views

from fifteen.state import SQUARE, FifteenState, line_of, square_of


def _turn(turn: Turn | None, digit: int | None = None) -> dict[str, Any] | None:
    if turn is None:
        return None
    out: dict[str, Any] = {"seat": turn.seat, "ended_by": turn.ended_by or None}
    if turn.ended_by == "claimed" and digit is not None:
        out.update(digit=digit, square=square_of(digit))
    return out


def view(state: FifteenState, viewer: int | None) -> dict[str, Any]:
    """The game for ``viewer`` (a seat, or None for a spectator), JSON-ready.

    ``square`` is the magic square, row by row; ``owners`` maps each digit (as a string,
    JSON keys being strings) to the seat holding it, or None.
    """
    owners: dict[str, int | None] = {str(d): None for row in SQUARE for d in sorted(row)}
    for index, seat in enumerate(state.seats):
        for digit in seat.rack:
            owners[str(digit)] = index
    seats = seat_views(
        state, lambda seat: {"digits": sorted(seat.rack), "line": list(line_of(seat.rack) or ())}
    )
    return {
        **lifecycle_view(state, viewer),
        "seats": seats,
        "square": [list(row) for row in SQUARE],
        "owners": owners,
        "free": sorted(state.free),
        "turn": _turn(state.turn),
        "last_turn": _turn(state.last_turn, state.last_claim),
    }


def redact(event: Event, viewer: int | None, *, revealed: bool = False) -> dict[str, Any]:
    """``event.to_dict()``: Fifteen's own events hide nothing; the shared ones are the
    kernel's to redact."""
    if event.game == "fifteen":
        return event.to_dict()
    return redact_shared(event, viewer, revealed=revealed)


__all__ = ["redact", "view"]
