"""A game's move list in words, for people following it: who did what, for how many points.

Built from the event log, using only what every spectator may know. The kernel
folds the events every game shares (a pass, a resignation, the end) and a turn a
game writes in one event of its own, told by its ruleset from the event as a
spectator sees it (``Ruleset.turn_told``); a game whose turn spans several events
(Mathable's placements, then the end of the turn) folds its own events into the
same list (``MoveList.fold_own``, from ``Ruleset.move_lines``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from mathable.core.events import Event, GameEnded, Passed, Resigned
from mathable.core.words import says


class _Teller(Protocol):
    """What the move list asks of a ruleset (``mathable.core.ruleset.Ruleset`` has it)."""

    def redact(
        self, event: Event, viewer: int | None, *, revealed: bool = False
    ) -> dict[str, Any]: ...

    def turn_told(self, event: Mapping[str, Any]) -> Any: ...

    def end_words(self, reason: str) -> str: ...


#: The kind of a move-list line for each kind of turn a ruleset tells.
KINDS = {"play": "played", "discard": "discarded", "exchange": "exchanged", "pass": "passed"}


@dataclass
class MoveLine:
    """One line of the move list: a turn (or a correction, resignation, the end)."""

    number: int | None
    seat: int | None
    placements: list[tuple[str, int, int]] = field(default_factory=list)
    #: "played", "passed", "exchanged", "corrected", "resigned", "ended" or "playing".
    kind: str = "playing"
    points: int = 0
    bonus: int = 0
    words: str = ""


class MoveList:
    """The lines so far, the turn being put together, and the turns' numbers."""

    def __init__(self, names: Sequence[str] = ()) -> None:
        self.names = names
        self.lines: list[MoveLine] = []
        self.current: MoveLine | None = None
        self.number = 0

    def name(self, seat: int) -> str:
        """A seat in words (``seat 1``, ``seat 2``... without names)."""
        return (
            self.names[seat] if 0 <= seat < len(self.names) else says("seat {seat}", seat=seat + 1)
        )

    def open_turn(self, seat: int) -> MoveLine:
        """The turn being played (a new one for ``seat`` if none is)."""
        if self.current is None:
            self.current = MoveLine(None, seat)
        return self.current

    def close(self, kind: str, words: str) -> None:
        """Finish the turn being played as a numbered line."""
        line = self.current if self.current is not None else MoveLine(None, None)
        self.number += 1
        line.number, line.kind, line.words = self.number, kind, words
        self.lines.append(line)
        self.current = None

    def add(self, line: MoveLine) -> None:
        """A line that is no turn (a correction, a resignation, the end)."""
        self.lines.append(line)


#: Folds one of a game's own events into the list; False for an event it leaves to the kernel.
OwnFold = Callable[[MoveList, Event], bool]


def move_lines(
    rules: _Teller,
    events: Iterable[Event],
    names: Sequence[str] = (),
    own: OwnFold | None = None,
) -> list[MoveLine]:
    """The turns of a game of ``rules`` in order; an unfinished turn last, as ``playing``."""
    moves = MoveList(names)
    for event in events:
        if own is not None and own(moves, event):
            continue
        match event:
            case Passed():
                moves.open_turn(event.seat)
                moves.close("passed", says("passed"))
            case Resigned():
                moves.add(MoveLine(None, event.seat, kind="resigned", words=says("resigned")))
            case GameEnded():
                reason = rules.end_words(event.reason)
                words = says("game over: {reason}", reason=reason)
                moves.add(MoveLine(None, None, kind="ended", words=words))
            case _ if event.game:
                told = rules.turn_told(rules.redact(event, None))
                if told is not None and told.seat is not None:
                    turn = moves.open_turn(told.seat)
                    turn.points = told.points
                    moves.close(KINDS.get(told.kind, told.kind), told.words)
    current = moves.current
    if current is not None and current.placements:
        current.words = ", ".join(f"{s}={t} ({p})" for s, t, p in current.placements)
        current.points = sum(p for _, _, p in current.placements)
        moves.lines.append(current)
    return moves.lines


__all__ = ["KINDS", "MoveLine", "MoveList", "OwnFold", "move_lines"]
