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

from mathable.core.words import N_, joined, says, says_n
from mathable.games.mathable.board import square_name


def seat_words(names: Sequence[str], seat: Any) -> str:
    """A seat by its name (``seat N`` for one without, ``nobody`` for none)."""
    if seat is None:
        return says("nobody")
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return says("seat {seat}", seat=seat)


def event_words(event: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """One of Mathable's own events as a sentence; None for any other event."""
    who = seat_words(names, event.get("seat"))
    match event.get("type"):
        case "game_started":
            first = seat_words(names, event.get("first_seat"))
            return says("the game started; {player} begins", player=first)
        case "tile_placed":
            square, points = event.get("square"), int(event.get("points") or 0)
            return says(
                "{player} placed {square}={tile} ({points})",
                player=who,
                square=square,
                tile=int(event.get("tile") or 0),
                points=points,
            )
        case "extra_tile_drawn":
            tile = event.get("tile")
            if tile is None:
                return says("{player} drew an extra tile", player=who)
            return says("{player} drew an extra tile ({tile})", player=who, tile=tile)
        case "turn_ended":
            bonus = int(event.get("bonus") or 0)
            if bonus:
                return says(
                    "{player} ended the turn: {points} points + {bonus} Mathable bonus",
                    player=who,
                    points=event.get("points"),
                    bonus=bonus,
                )
            return says(
                "{player} ended the turn: {points} points", player=who, points=event.get("points")
            )
        case "tiles_exchanged":
            count = event.get("count")
            if count is None:
                count = len(event.get("returned") or [])
            return says_n(
                "{player} exchanged {n} tile", "{player} exchanged {n} tiles", count, player=who
            )
        case "corrected":
            return says(
                "{player} corrected {target}: {reason}; {outcome}, {points} points lost",
                player=who,
                target=seat_words(names, event.get("target")),
                reason=event.get("reason"),
                outcome=correction_outcome(event),
                points=event.get("points_lost"),
            )
    return None


def correction_outcome(event: Mapping[str, Any]) -> str:
    """What a correction did, in words: tiles taken back, points fixed, extra tile returned.

    >>> correction_outcome({"removed": [["H6", 8]], "to_bag_count": 1})
    'H6=8 taken back; the extra tile went back into the bag'
    """
    taken = removed_tiles(event)
    rescored = [p for p in event.get("rescored") or [] if isinstance(p, Mapping)]
    parts: list[str] = []
    if taken:
        tiles = ", ".join(f"{sq}={tile}" for sq, tile in taken)
        parts.append(says("{tiles} taken back", tiles=tiles))
    if rescored:
        fixed = joined(
            (
                says(
                    "{square}={tile} now scores {points}",
                    square=p.get("square"),
                    tile=p.get("tile"),
                    points=p.get("points"),
                )
                for p in rescored
            ),
            N_("{first}, {second}"),
        )
        if taken:
            parts.append(fixed)
        else:
            parts.append(says("the tiles stay, only the points were fixed ({fixed})", fixed=fixed))
    returned = event.get("to_bag")
    count = len(returned) if isinstance(returned, list) else int(event.get("to_bag_count") or 0)
    if count:
        if isinstance(returned, list):
            parts.append(
                says_n(
                    "the extra tile ({tiles}) went back into the bag",
                    "{n} extra tiles ({tiles}) went back into the bag",
                    count,
                    tiles=", ".join(map(str, returned)),
                )
            )
        else:
            parts.append(
                says_n(
                    "the extra tile went back into the bag",
                    "{n} extra tiles went back into the bag",
                    count,
                )
            )
    if not parts:
        return says("nothing taken back")
    return joined(parts, N_("{first}; {second}"))


def removed_tiles(event: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The tiles a correction took back, as (square name, tile): by name or plain index."""
    out = []
    for item in event.get("removed") or []:
        square, tile = item[0], item[1]
        out.append((square_name(square) if isinstance(square, int) else str(square), int(tile)))
    return out


__all__ = ["correction_outcome", "event_words", "removed_tiles", "seat_words"]
