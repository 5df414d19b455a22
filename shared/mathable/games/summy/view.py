"""What one viewer of a Summy game may see: their own hand; of the others, hand sizes.

Nobody sees the supply's order or another seat's hand, draws or discards, until
the game ends and reveals the order it committed to.
"""

from __future__ import annotations

from typing import Any

from mathable.core.events import Event
from mathable.core.state import Turn
from mathable.core.view import lifecycle_view, redact_shared, seat_views
from mathable.games.summy.events import EquationPlayed, SummyStarted, TilesDiscarded
from mathable.games.summy.state import Play, SummyState
from mathable.games.summy.tiles import NAMES, tile_names


def _turn(turn: Turn | None, play: Play | None = None) -> dict[str, Any] | None:
    """Whose turn and how it ended; a finished turn also says what it did: the equation
    and its points, or how many tiles it discarded (``play``: the last equation)."""
    if turn is None:
        return None
    out: dict[str, Any] = {"seat": turn.seat, "ended_by": turn.ended_by or None}
    if turn.ended_by == "played" and play is not None:
        out.update(equation=play.equation, points=play.points)
    elif turn.ended_by == "discarded":
        out["discarded"] = turn.exchanged
    return out


def _play(play: Play | None) -> dict[str, Any] | None:
    if play is None:
        return None
    return {
        "seat": play.seat,
        "placements": [{"x": x, "y": y, "tile": NAMES[t]} for x, y, t in play.placements],
        "direction": play.direction,
        "equation": play.equation,
        "points": play.points,
    }


def view(state: SummyState, viewer: int | None) -> dict[str, Any]:
    """The game for ``viewer`` (a seat index, or None for a spectator), JSON-ready."""
    return {
        **lifecycle_view(state, viewer),
        "seats": seat_views(state, lambda seat: {"hand_size": len(seat.rack)}),
        "hand": tile_names(state.seats[viewer].rack) if viewer is not None else None,
        "table": [
            {"x": x, "y": y, "tile": tile_names((t,))[0]}
            for (x, y), t in sorted(state.table.items(), key=lambda item: (item[0][1], item[0][0]))
        ],
        "closed": [
            {"x": x, "y": y, "equation": end.equation, "side": end.side}
            for (x, y), end in sorted(state.closed.items(), key=lambda item: item[0][::-1])
        ],
        "supply": len(state.supply),
        # Rules version 3 ends the game idle after two rounds of these (idle_turns counts
        # every turn without an equation, the supply full or not).
        "dry_turns": state.dry_turns,
        "turn": _turn(state.turn),
        "last_turn": _turn(state.last_turn, state.last_play),
        "last_play": _play(state.last_play),
    }


def redact(event: Event, viewer: int | None, *, revealed: bool = False) -> dict[str, Any]:
    """``event.to_dict()`` with what ``viewer`` may not see taken out (see the module)."""
    match event:
        case SummyStarted():
            data = event.to_dict()
            if not revealed:
                data["hands"] = [h if i == viewer else None for i, h in enumerate(data["hands"])]
            data["hand_sizes"] = [len(h) for h in event.hands]
            return data
        case EquationPlayed() if event.seat != viewer and not revealed:
            data = event.to_dict()
            data["drawn"] = None
            data["drawn_count"] = len(event.drawn)
            return data
        case TilesDiscarded() if event.seat != viewer and not revealed:
            data = event.to_dict()
            data["discarded"] = None
            data["drawn"] = None
            data["count"] = len(event.discarded)
            return data
    return redact_shared(event, viewer, revealed=revealed)


__all__ = ["redact", "view"]
