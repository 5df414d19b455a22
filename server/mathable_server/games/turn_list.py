"""A game's turns in words, for people reading the web page: who did what, for how many points.

Built from the event log, using only what every spectator may know: the tiles
placed on the board, points, how many tiles an exchange gave back. Drawn tiles,
racks and the bag never enter it. Mathable's turns (placements, then the end of
the turn) are put together here; a turn another game writes in one event of its
own (Summy's equations and discards) is told by its ruleset, from the event as a
spectator sees it (``Ruleset.turn_told``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from mathable import Event, square_name
from mathable.core.errors import RuleError
from mathable.core.events import GameEnded, Passed, Resigned
from mathable.core.ruleset import Told, redact_any, ruleset
from mathable.games.mathable.events import Corrected, TilePlaced, TilesExchanged, TurnEnded

#: The kind of a move-list line for each kind of turn a ruleset tells.
_KINDS = {"play": "played", "discard": "discarded", "exchange": "exchanged", "pass": "passed"}


def end_words(reason: str, game: str = "mathable") -> str:
    """Why a game ended, in its ruleset's words."""
    try:
        return ruleset(game).end_words(reason)
    except RuleError:
        return reason


def _told(event: Event) -> Told | None:
    """The turn ``event`` finishes, as its game's ruleset tells it to a spectator."""
    return ruleset(event.game).turn_told(redact_any(event, None))


@dataclass
class TurnLine:
    """One line of the move list: a turn (or a correction, resignation, the end)."""

    number: int | None
    seat: int | None
    placements: list[tuple[str, int, int]] = field(default_factory=list)
    #: "played", "passed", "exchanged", "corrected", "resigned", "ended" or "playing".
    kind: str = "playing"
    points: int = 0
    bonus: int = 0
    words: str = ""


def turn_lines(
    events: Iterable[Event], names: Sequence[str] = (), game: str = "mathable"
) -> list[TurnLine]:
    """The turns of a game in order; an unfinished turn last, as ``playing``.

    ``names`` names the seats in words (``seat 1``, ``seat 2``... otherwise); ``game``
    is the game's ruleset (its end reasons).

    >>> from mathable.games.mathable.events import TilePlaced, TurnEnded
    >>> lines = turn_lines([TilePlaced(0, 107, 12, (), 12), TurnEnded(0, 12, 0, (5,))])
    >>> [(line.number, line.kind, line.words) for line in lines]
    [(1, 'played', 'J8=12 (12)')]
    """
    lines: list[TurnLine] = []
    current: TurnLine | None = None
    number = 0

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"

    def open_turn(seat: int) -> TurnLine:
        nonlocal current
        if current is None:
            current = TurnLine(None, seat)
        return current

    def close(kind: str, words: str) -> None:
        nonlocal current, number
        line = current if current is not None else TurnLine(None, None)
        number += 1
        line.number, line.kind, line.words = number, kind, words
        lines.append(line)
        current = None

    for event in events:
        match event:
            case TilePlaced():
                turn = open_turn(event.seat)
                turn.placements.append((square_name(event.square), event.tile, event.points))
            case TurnEnded():
                turn = open_turn(event.seat)
                turn.points, turn.bonus = event.points, event.bonus
                words = ", ".join(f"{s}={t} ({p})" for s, t, p in turn.placements)
                if event.bonus:
                    words += f", Mathable bonus {event.bonus}"
                close("played", words or "no tile placed")
            case TilesExchanged():
                open_turn(event.seat)
                count = len(event.returned)
                close("exchanged", f"exchanged {count} tile{'s' if count != 1 else ''}")
            case Passed():
                open_turn(event.seat)
                close("passed", "passed")
            case Corrected():
                if current is not None:  # a turn corrected while it is played
                    gone = {(square_name(s), t) for s, t in event.removed}
                    current.placements = [p for p in current.placements if (p[0], p[1]) not in gone]
                taken = ", ".join(f"{square_name(s)}={t}" for s, t in event.removed)
                words = f"corrected {name(event.target)}'s turn ({event.reason})"
                if taken:
                    words += f": took back {taken}"
                if event.rescored:
                    kept = ", ".join(f"{square_name(p.square)}={p.tile}" for p in event.rescored)
                    words += f"; {kept} stay, scored for their real equations"
                if event.to_bag:  # which tile is the drawer's secret: only how many
                    count = len(event.to_bag)
                    words += f"; {count} extra tile{'s' if count != 1 else ''} back to the bag"
                words += f", {event.points_lost} points lost" if event.points_lost else ""
                lines.append(TurnLine(None, event.seat, kind="corrected", words=words))
            case Resigned():
                lines.append(TurnLine(None, event.seat, kind="resigned", words="resigned"))
            case GameEnded():
                reason = end_words(event.reason, game)
                lines.append(TurnLine(None, None, kind="ended", words=f"game over: {reason}"))
            case _:
                told = _told(event)
                if told is not None and told.seat is not None:
                    turn = open_turn(told.seat)
                    turn.points = told.points
                    close(_KINDS.get(told.kind, told.kind), told.words)
    if current is not None and current.placements:
        current.words = ", ".join(f"{s}={t} ({p})" for s, t, p in current.placements)
        current.points = sum(p for _, _, p in current.placements)
        lines.append(current)
    return lines
