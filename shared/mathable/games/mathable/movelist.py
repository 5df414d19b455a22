"""Mathable's turns in the move list: placements, then the end of the turn, exchanges and
corrections, from what every spectator may know (the drawn tiles never enter it)."""

from __future__ import annotations

from mathable.core.events import Event
from mathable.core.movelist import MoveLine, MoveList
from mathable.games.mathable.board import square_name
from mathable.games.mathable.events import Corrected, TilePlaced, TilesExchanged, TurnEnded


def fold_own(moves: MoveList, event: Event) -> bool:
    """Fold one of Mathable's own events into ``moves``; False for any other event."""
    match event:
        case TilePlaced():
            turn = moves.open_turn(event.seat)
            turn.placements.append((square_name(event.square), event.tile, event.points))
        case TurnEnded():
            turn = moves.open_turn(event.seat)
            turn.points, turn.bonus = event.points, event.bonus
            words = ", ".join(f"{s}={t} ({p})" for s, t, p in turn.placements)
            if event.bonus:
                words += f", Mathable bonus {event.bonus}"
            moves.close("played", words or "no tile placed")
        case TilesExchanged():
            moves.open_turn(event.seat)
            count = len(event.returned)
            moves.close("exchanged", f"exchanged {count} tile{'s' if count != 1 else ''}")
        case Corrected():
            current = moves.current
            if current is not None:  # a turn corrected while it is played
                gone = {(square_name(s), t) for s, t in event.removed}
                current.placements = [p for p in current.placements if (p[0], p[1]) not in gone]
            taken = ", ".join(f"{square_name(s)}={t}" for s, t in event.removed)
            words = f"corrected {moves.name(event.target)}'s turn ({event.reason})"
            if taken:
                words += f": took back {taken}"
            if event.rescored:
                kept = ", ".join(f"{square_name(p.square)}={p.tile}" for p in event.rescored)
                words += f"; {kept} stay, scored for their real equations"
            if event.to_bag:  # which tile is the drawer's secret: only how many
                count = len(event.to_bag)
                words += f"; {count} extra tile{'s' if count != 1 else ''} back to the bag"
            words += f", {event.points_lost} points lost" if event.points_lost else ""
            moves.add(MoveLine(None, event.seat, kind="corrected", words=words))
        case _:
            return False
    return True
