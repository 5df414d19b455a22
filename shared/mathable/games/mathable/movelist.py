"""Mathable's turns in the move list: placements, then the end of the turn, exchanges and
corrections, from what every spectator may know (the drawn tiles never enter it)."""

from __future__ import annotations

from mathable.core.events import Event
from mathable.core.movelist import MoveLine, MoveList
from mathable.core.words import says, says_n
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
            placed = ", ".join(f"{s}={t} ({p})" for s, t, p in turn.placements)
            if not placed:
                words: str = says("no tile placed")
            elif event.bonus:
                words = says(
                    "{placements}, Mathable bonus {bonus}", placements=placed, bonus=event.bonus
                )
            else:
                words = placed
            moves.close("played", words)
        case TilesExchanged():
            moves.open_turn(event.seat)
            count = len(event.returned)
            moves.close("exchanged", says_n("exchanged {n} tile", "exchanged {n} tiles", count))
        case Corrected():
            current = moves.current
            if current is not None:  # a turn corrected while it is played
                gone = {(square_name(s), t) for s, t in event.removed}
                current.placements = [p for p in current.placements if (p[0], p[1]) not in gone]
            taken = ", ".join(f"{square_name(s)}={t}" for s, t in event.removed)
            said = says(
                "corrected {player}'s turn ({reason})",
                player=moves.name(event.target),
                reason=event.reason,
            )
            if taken:
                said = says("{correction}: took back {tiles}", correction=said, tiles=taken)
            if event.rescored:
                kept = ", ".join(f"{square_name(p.square)}={p.tile}" for p in event.rescored)
                said = says(
                    "{correction}; {tiles} stay, scored for their real equations",
                    correction=said,
                    tiles=kept,
                )
            if event.to_bag:  # which tile is the drawer's secret: only how many
                said = says_n(
                    "{correction}; {n} extra tile back to the bag",
                    "{correction}; {n} extra tiles back to the bag",
                    len(event.to_bag),
                    correction=said,
                )
            if event.points_lost:
                said = says(
                    "{correction}, {points} points lost", correction=said, points=event.points_lost
                )
            moves.add(MoveLine(None, event.seat, kind="corrected", words=said))
        case _:
            return False
    return True
