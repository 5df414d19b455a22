"""Mathable's state: an immutable value built by folding events (see ``events.replay``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mathable.core.state import (  # noqa: F401 - also read as the old mathable.state
    ClockSpec,
    Lifecycle,
    OnTimeout,
    Options,
    Referee,
    Result,
    Seat,
    Status,
    Turn,
    has_tiles,
    remove_tiles,
)
from mathable.games.mathable.board import square_name
from mathable.games.mathable.position import Position
from mathable.games.mathable.tiles import TILE_SET

RULESET: Final = "mathable"
#: The rules a new game is played by; a game keeps the version it was created with.
#: 1: the first rules. 2 (issue 11): the game ends when no tile on a rack or in the
#: bag fits anywhere, even with tiles in the bag; a correction puts the extra tile
#: drawn right after an illegal placement back into the bag, and a legal tile with a
#: wrong claim stays on the board, scoring only its claimed equations that are real.
#: 3 (issue 26): a correction puts back into the bag every extra tile drawn after a
#: placement it takes back (in version 2, only the illegal placement's own).
RULES_VERSION: Final = 3
#: The first rules version in which a game with tiles left in the bag can end blocked,
#: and in which a correction returns an unearned extra tile and only rescores a legal tile.
V2: Final = 2
#: The first rules version in which a correction returns the extra tile of every
#: placement it takes back, not only the illegal one's.
V3: Final = 3
BONUS: Final = 50


@dataclass(frozen=True, slots=True)
class Equation:
    """One completed (or claimed) equation: the pair of squares and the operation."""

    near: int
    far: int
    op: str

    def __str__(self) -> str:
        return f"{square_name(self.near)}{self.op}{square_name(self.far)}"


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile placed during a turn, with the equations it completed and its points."""

    square: int
    tile: int
    equations: tuple[Equation, ...]
    points: int
    #: The extra tile drawn right after this placement, if any (its owner's secret).
    extra: int | None = None


@dataclass(frozen=True, slots=True)
class MathableTurn(Turn):
    """A Mathable turn: the kernel's, with its placements so far (each with its points),
    whether an extra tile may be drawn now, and the bonus it earned."""

    placements: tuple[PlacedTile, ...] = ()
    extra_available: bool = False
    bonus: int = 0

    @property
    def points(self) -> int:
        return sum(p.points for p in self.placements)


@dataclass(frozen=True, slots=True)
class GameState(Lifecycle):
    """Everything about a game at one version. Build it with ``replay``; never mutate it."""

    ruleset: str = RULESET
    rules_version: int = RULES_VERSION
    #: The turn being played, and the one before (no placements after a pass or an exchange).
    turn: MathableTurn | None = None
    last_turn: MathableTurn | None = None
    position: Position = Position.initial()
    bag: tuple[int, ...] = TILE_SET
    #: In players mode: the last ended turn, while an opponent may still correct it.
    correctable: MathableTurn | None = None

    def next_turn(self, after: int) -> MathableTurn:
        """The turn of the next seat after ``after`` still playing, as it begins."""
        seat = self.next_seat(after)
        return MathableTurn(seat=seat, started_with=len(self.seats[seat].rack))
