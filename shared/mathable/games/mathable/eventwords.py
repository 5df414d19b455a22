"""Mathable's own events in words, for someone following a game (``Ruleset.event_words``):
read from an event as ``redact`` writes it (JSON), each seat by the name it is given.

>>> names = ["ada", "bob"]
>>> event_words({"type": "tile_placed", "seat": 0, "square": "H6", "tile": 8, "points": 8}, names)
'ada placed H6=8 (8)'
>>> event_words({"type": "turn_ended", "seat": 1, "points": 12, "bonus": 10}, names)
'bob ended the turn: 12 points + 10 Mathable bonus'
>>> print(event_words({"type": "summy_started"}, names))
None
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mathable.games.mathable.board import square_name


def seat_words(names: Sequence[str], seat: Any) -> str:
    """A seat by its name (``seat N`` for one without, ``nobody`` for none)."""
    if seat is None:
        return "nobody"
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def event_words(event: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """One of Mathable's own events as a sentence; None for any other event."""
    who = seat_words(names, event.get("seat"))
    match event.get("type"):
        case "game_started":
            return f"the game started; {seat_words(names, event.get('first_seat'))} begins"
        case "tile_placed":
            square, points = event.get("square"), int(event.get("points") or 0)
            return f"{who} placed {square}={int(event.get('tile') or 0)} ({points})"
        case "extra_tile_drawn":
            tile = event.get("tile")
            return f"{who} drew an extra tile" + (f" ({tile})" if tile is not None else "")
        case "turn_ended":
            bonus = int(event.get("bonus") or 0)
            text = f"{who} ended the turn: {event.get('points')} points"
            return text + (f" + {bonus} Mathable bonus" if bonus else "")
        case "tiles_exchanged":
            count = event.get("count")
            if count is None:
                count = len(event.get("returned") or [])
            return f"{who} exchanged {count} tile{'s' if count != 1 else ''}"
        case "corrected":
            return (
                f"{who} corrected {seat_words(names, event.get('target'))}: "
                f"{event.get('reason')}; {correction_outcome(event)}, "
                f"{event.get('points_lost')} points lost"
            )
    return None


def correction_outcome(event: Mapping[str, Any]) -> str:
    """What a correction did, in words: tiles taken back, points fixed, extra tile returned.

    >>> correction_outcome({"removed": [["H6", 8]], "to_bag_count": 1})
    'H6=8 taken back; the extra tile went back into the bag'
    """
    taken = removed_tiles(event)
    rescored = [p for p in event.get("rescored") or [] if isinstance(p, Mapping)]
    parts = []
    if taken:
        parts.append(", ".join(f"{sq}={tile}" for sq, tile in taken) + " taken back")
    if rescored:
        fixed = ", ".join(
            f"{p.get('square')}={p.get('tile')} now scores {p.get('points')}" for p in rescored
        )
        if taken:
            parts.append(fixed)
        else:
            parts.append(f"the tiles stay, only the points were fixed ({fixed})")
    returned = event.get("to_bag")
    count = len(returned) if isinstance(returned, list) else int(event.get("to_bag_count") or 0)
    if count:
        tiles = f" ({', '.join(map(str, returned))})" if isinstance(returned, list) else ""
        extra = "the extra tile" if count == 1 else f"{count} extra tiles"
        parts.append(f"{extra}{tiles} went back into the bag")
    return "; ".join(parts) or "nothing taken back"


def removed_tiles(event: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The tiles a correction took back, as (square name, tile): by name or plain index."""
    out = []
    for item in event.get("removed") or []:
        square, tile = item[0], item[1]
        out.append((square_name(square) if isinstance(square, int) else str(square), int(tile)))
    return out


__all__ = ["correction_outcome", "event_words", "removed_tiles", "seat_words"]
