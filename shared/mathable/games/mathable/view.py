"""What one viewer may see: a seat sees its own rack, nobody sees other racks or the bag.

``view(state, seat)`` is the game as that seat (or a spectator, ``None``) may
see it; ``redact(event, seat)`` is one event as that viewer may see it.
"""

from __future__ import annotations

from typing import Any

from mathable.core.events import Event
from mathable.core.view import lifecycle_view, redact_shared, seat_views
from mathable.games.mathable.board import square_name
from mathable.games.mathable.commands import pending_end
from mathable.games.mathable.events import (
    Corrected,
    ExtraTileDrawn,
    GameStarted,
    TilesExchanged,
    TurnEnded,
)
from mathable.games.mathable.state import RULESET, Equation, GameState, MathableTurn, PlacedTile


def _equation(e: Equation) -> dict[str, Any]:
    return {"near": square_name(e.near), "far": square_name(e.far), "op": e.op}


def _placement(p: PlacedTile) -> dict[str, Any]:
    return {
        "square": square_name(p.square),
        "tile": p.tile,
        "points": p.points,
        "equations": [_equation(e) for e in p.equations],
    }


def _turn(turn: MathableTurn | None, bag_size: int = 0) -> dict[str, Any] | None:
    if turn is None:
        return None
    return {
        "seat": turn.seat,
        "started_with": turn.started_with,
        "placements": [_placement(p) for p in turn.placements],
        "points": turn.points,
        # A draw is possible only with a tile in the bag (``draw_extra`` would be refused).
        "extra_available": turn.extra_available and bag_size > 0 and not turn.ended_by,
        "bonus": turn.bonus,
        "ended_by": turn.ended_by or None,
        "exchanged": turn.exchanged,
    }


def view(state: GameState, viewer: int | None) -> dict[str, Any]:
    """The game for ``viewer`` (a seat index, or None for a spectator), JSON-ready.

    ``board`` holds every tile on the board, the four printed centre numbers
    included; ``your_turn`` is true when the game is in play and waits on ``viewer``.
    """
    return {
        **lifecycle_view(state, viewer),
        "seats": seat_views(state, lambda seat: {"rack_size": len(seat.rack)}),
        "rack": list(state.seats[viewer].rack) if viewer is not None else None,
        "board": {square_name(s): v for s, v in sorted(state.position.tiles().items())},
        "bag_size": len(state.bag),
        "turn": _turn(state.turn, len(state.bag)),
        "last_turn": _turn(state.last_turn),
        "correctable": state.correctable is not None,
        "pending_end": pending_end(state),
    }


def redact(event: Event, viewer: int | None, *, revealed: bool = False) -> dict[str, Any]:
    """``event.to_dict()`` with everything ``viewer`` may not see taken out.

    Tiles drawn are shown to their owner only (others see how many), and so are
    extra tiles a correction puts back into the bag; the seed and the bag order of
    a game are never shown in ``game_created``. Once the game has ``revealed`` its
    bag order (``draws_revealed``, at the end) every draw is shown to everyone: the
    order tells them anyway, and ``mathable.core.audit`` needs them.
    """
    if revealed or event.game != RULESET:
        return redact_shared(event, viewer, revealed=revealed)
    data = event.to_dict()
    match event:
        case GameStarted():
            data["racks"] = [list(r) if i == viewer else None for i, r in enumerate(event.racks)]
            data["start_draws"] = [
                list(d) if i == viewer else None for i, d in enumerate(event.start_draws)
            ]
            data["rack_sizes"] = [len(r) for r in event.racks]
        case ExtraTileDrawn() if event.seat != viewer:
            data["tile"] = None
        case TurnEnded() if event.seat != viewer:
            data["drawn"] = None
            data["drawn_count"] = len(event.drawn)
        case TilesExchanged() if event.seat != viewer:
            data["returned"] = None
            data["drawn"] = None
            data["count"] = len(event.returned)
        case Corrected() if event.to_bag and event.target != viewer:
            # An extra tile going back into the bag was only ever seen by its drawer.
            data["to_bag"] = None
            data["to_bag_count"] = len(event.to_bag)
    return data
