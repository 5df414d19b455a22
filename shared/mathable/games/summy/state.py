"""The state of a Summy game: an immutable value built by folding events.

Its lifecycle fields (``version``, ``status``, ``options``, ``seats``, ``turn``,
``turns_played``, ``result``...) are those of ``mathable.core.state.Lifecycle``, as in
Mathable's ``GameState``, so that what serves any game (the store's listings, clocks)
reads either; ``table`` and ``supply`` are Summy's own. A seat's ``rack`` is its hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import ClassVar, Final

from mathable.core.state import Lifecycle
from mathable.games.summy.tiles import EQUALS, SUPPLY_SET

RULESET: Final = "summy"
#: The rules a new Summy game is played by (a game keeps the version it was made with).
#: 1: the first rules. 2: the round without equations that ends a game with the supply
#: empty counts only turns that begin with the supply empty (in version 1 a discard that
#: took the last tiles counted, so its player never got to use them). 3 (as printed): the
#: squares just before and after an equation on the table stay empty; a discard is allowed
#: with the supply empty; the game ends when no seat can form an equation with the supply
#: empty (checked after every turn), a seat with an empty hand is skipped, the round of
#: turns without an equation that ends it counts only with the supply empty, and no hand
#: is deducted at the end.
RULES_VERSION: Final = 3
#: The first rules version in which the turn that empties the supply starts no round.
V2: Final = 2
#: The first rules version of the printed ends (of an equation, and of the game).
V3: Final = 3

#: A square of the open table: (x, y), x growing to the right and y down; the first ``=``
#: lies at (0, 0).
Square = tuple[int, int]
#: No square of a table lies further than this from the middle (94 tiles reach 93 at most).
MAX_COORDINATE: Final = 1000

ACROSS: Final = "across"
DOWN: Final = "down"
DIRECTIONS: Final = (ACROSS, DOWN)


def _first_table() -> Mapping[Square, int]:
    return MappingProxyType({(0, 0): EQUALS})


@dataclass(frozen=True, slots=True)
class Play:
    """An equation played: the new tiles (x, y, tile), its direction, the line and points."""

    seat: int
    placements: tuple[tuple[int, int, int], ...]
    direction: str
    equation: str
    points: int


@dataclass(frozen=True, slots=True)
class Closed:
    """A square that stays empty: just ``side`` ("before" or "after") ``equation``,
    which begins at ``start`` and runs ``direction``."""

    equation: str
    direction: str
    start: Square
    side: str


def _no_ends() -> Mapping[Square, Closed]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class SummyState(Lifecycle):
    """Everything about a Summy game at one version. Build it with ``replay``.

    ``last_turn.ended_by`` is "played", "discarded" or "passed"; ``idle_turns`` counts
    the turns in a row without an equation (discards and passes).
    """

    ruleset: str = RULESET
    rules_version: int = RULES_VERSION
    table: Mapping[Square, int] = field(default_factory=_first_table)
    supply: tuple[int, ...] = SUPPLY_SET
    #: The last equation played, if any.
    last_play: Play | None = None
    #: Turns in a row without an equation while the supply was empty.
    dry_turns: int = 0
    #: The squares just before and just after each equation on the table (kept in every
    #: game; only rules version 3 keeps them empty: ``closed``).
    ends: Mapping[Square, Closed] = field(default_factory=_no_ends)
    POOL: ClassVar[str] = "supply"

    @property
    def closed(self) -> Mapping[Square, Closed]:
        """The squares no tile may take: the ends of the equations on the table
        (rules version 3; none before, where a play could lengthen an equation)."""
        return self.ends if self.rules_version >= V3 else _NO_ENDS

    @property
    def bag(self) -> tuple[int, ...]:
        """The supply, by Mathable's name for it (the draw order of a game made with one)."""
        return self.supply

    def hand(self, seat: int) -> tuple[int, ...]:
        return self.seats[seat].rack


_NO_ENDS: Mapping[Square, Closed] = _no_ends()

__all__ = [
    "V2",
    "V3",
    "Closed",
    "ACROSS",
    "DIRECTIONS",
    "DOWN",
    "MAX_COORDINATE",
    "RULESET",
    "RULES_VERSION",
    "Play",
    "Square",
    "SummyState",
]
