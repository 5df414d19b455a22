"""The state every game has: lifecycle, seats, turns, options, clock spec and result.

Each game's state subclasses ``Lifecycle`` (Mathable's ``GameState``, Summy's
``SummyState``) and is an immutable value built by folding events.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Literal

Referee = Literal["server", "players"]
OnTimeout = Literal["lose", "claim"]
Status = Literal["new", "waiting", "playing", "ended", "cancelled"]


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat at the table: who sits there, their rack and score."""

    player: str | None = None
    rack: tuple[int, ...] = ()
    score: int = 0
    resigned: bool = False
    #: Out of time (a timed-out seat is also ``resigned``: it can neither move nor win).
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class Turn:
    """A turn: whose it is, the rack size it began with, and how it ended. A game whose
    turns hold more (Mathable's placements so far) subclasses it (``Lifecycle.TURN``)."""

    seat: int
    started_with: int
    #: How the turn ended: "" while it is played, then the game's word for it ("played",
    #: "passed", "exchanged", "discarded"...).
    ended_by: str = ""
    #: How many tiles an exchange (or a discard) gave up.
    exchanged: int = 0


@dataclass(frozen=True, slots=True)
class ClockSpec:
    """A game's clock, in seconds: ``per_move``, or a bank (``initial``, ``increment``, ``max``).

    Exactly one kind is set. ``weekends_off`` stops the clock on Saturdays and
    Sundays (UTC); ``on_timeout`` is "lose" (the server ends it) or "claim" (an
    opponent must claim it); ``auto_vacation`` spends a vacation day before a
    timeout. The clock itself is derived from event times: see ``mathable.core.clock``.

    >>> ClockSpec(per_move=259200).kind
    'per_move'
    """

    per_move: int | None = None
    initial: int | None = None
    increment: int = 0
    max: int | None = None
    weekends_off: bool = False
    on_timeout: OnTimeout = "lose"
    auto_vacation: bool = True

    @property
    def kind(self) -> str:
        return "per_move" if self.per_move is not None else "bank"

    def to_dict(self) -> dict[str, object]:
        """The spec as JSON: only the fields of its kind."""
        out: dict[str, object] = (
            {"per_move": self.per_move}
            if self.per_move is not None
            else {"initial": self.initial, "increment": self.increment, "max": self.max}
        )
        out.update(
            weekends_off=self.weekends_off,
            on_timeout=self.on_timeout,
            auto_vacation=self.auto_vacation,
        )
        return out


@dataclass(frozen=True, slots=True)
class Options:
    """What a game was created with. ``seed`` and ``tiles`` are never shown to players."""

    players: int = 2
    referee: Referee = "server"
    seed: int | None = None
    tiles: tuple[int, ...] | None = None
    invited: tuple[str, ...] = ()
    clock: ClockSpec | None = None
    #: The bag order the server chose at creation (hidden until the end), its salt and the
    #: commitment to both (public): see ``mathable.core.audit``. None in games made before.
    order: tuple[int, ...] | None = None
    salt: str | None = None
    commitment: str | None = None
    #: Invitees who refused their seat: the game is closed to others until ``opened``.
    declined: tuple[str, ...] = ()
    #: The creator opened the free seats of a game an invitee declined to anyone.
    opened: bool = False
    #: Made from a record (``POST /v1/games/import``), not played here: unrated.
    imported: bool = False
    #: Each seat's player, if the seats were given at creation (a rematch's, rotated):
    #: an invitee takes their own seat. None: seats in the order players join.
    seating: tuple[str, ...] | None = None
    #: Who created a game whose seats were given (else the player in seat 0).
    creator: str | None = None
    #: Who imported it: the only player it is listed for (``POST /v1/games/import``).
    importer: str | None = None


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended."""

    reason: str
    deductions: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Offer:
    """An offer a seat made that waits for the others' answer (a draw offered:
    ``mathable.core.lifecycle.offers``): its kind (the ``type`` of the command that made
    it), the seat, and the game's version when it was made."""

    kind: str
    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class Lifecycle:
    """What every game's state has (Mathable's ``GameState``, Summy's ``SummyState``):
    its version, status, options, seats and turns, read and changed the same way for
    any game by ``mathable.core.lifecycle``. A game adds its own fields by subclassing."""

    version: int = 0
    status: Status = "new"
    #: The game's name and rules version: each game's state sets its own defaults.
    ruleset: str = ""
    rules_version: int = 0
    options: Options = Options()
    seats: tuple[Seat, ...] = ()
    turn: Turn | None = None
    #: The turn played before this one.
    last_turn: Turn | None = None
    #: Turns in a row without a tile played.
    idle_turns: int = 0
    turns_played: int = 0
    result: Result | None = None
    #: The bag order was revealed at the end: nothing of the game is hidden any more.
    draws_revealed: bool = False
    #: Offers made and not yet answered, oldest first (none unless an offer is played).
    offers: tuple[Offer, ...] = ()
    #: The name of the field that holds the tiles still to draw, in order.
    POOL: ClassVar[str] = "bag"

    @property
    def pool(self) -> tuple[int, ...]:
        """The tiles still to draw (Mathable's bag, Summy's supply)."""
        tiles: tuple[int, ...] = getattr(self, self.POOL)
        return tiles

    def seat_of(self, player: str) -> int | None:
        """The seat ``player`` sits in, or None."""
        for index, seat in enumerate(self.seats):
            if seat.player == player:
                return index
        return None

    def active_seats(self) -> list[int]:
        """Seats still playing (not resigned)."""
        return [i for i, s in enumerate(self.seats) if not s.resigned]

    def next_seat(self, after: int) -> int:
        """The next seat clockwise after ``after`` that has not resigned."""
        n = len(self.seats)
        for step in range(1, n + 1):
            candidate = (after + step) % n
            if not self.seats[candidate].resigned:
                return candidate
        return after

    def with_seat(self, index: int, **changes: object) -> tuple[Seat, ...]:
        seats = list(self.seats)
        seats[index] = replace(seats[index], **changes)  # type: ignore[arg-type]
        return tuple(seats)

    def next_turn(self, after: int) -> Turn:
        """The turn of the next seat after ``after`` still playing, as it begins (a game
        whose turns hold more overrides it: Mathable's ``GameState``)."""
        seat = self.next_seat(after)
        return Turn(seat=seat, started_with=len(self.seats[seat].rack))


def remove_tiles(pool: tuple[int, ...], tiles: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """``pool`` less one occurrence of each of ``tiles``, earliest first; ValueError if absent."""
    rest = list(pool)
    for tile in tiles:
        rest.remove(tile)
    return tuple(rest)


def has_tiles(pool: tuple[int, ...], tiles: tuple[int, ...] | list[int]) -> bool:
    """True when ``pool`` holds every one of ``tiles`` (as a multiset)."""
    try:
        remove_tiles(pool, tiles)
    except ValueError:
        return False
    return True
