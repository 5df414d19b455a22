"""Summy's commands checked against a state: ``check(state, command)`` gives the events
it produces, or raises RuleError (a stable code and a reason a player understands).

A turn is one equation (``PlayEquation``), a discard (``Discard``) or a pass.
Joining, resigning, clocks and vacations use the same commands as Mathable.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from mathable.bag import BagPolicy, OrderedBag, RandomBag, SeededBag
from mathable.clock import MAX_SECONDS, check_spec
from mathable.commands import (
    Create,
    Decline,
    EndVacation,
    GiveTime,
    Join,
    Pass,
    Resign,
    StartVacation,
    TimeOut,
    UseVacationDay,
)
from mathable.commitment import commit
from mathable.errors import RuleError
from mathable.events import (
    DrawsRevealed,
    Event,
    GameCancelled,
    GameCreated,
    GameEnded,
    InvitationDeclined,
    Passed,
    PlayerJoined,
    Resigned,
    TimedOut,
    TimeGiven,
    VacationDayUsed,
    VacationEnded,
    VacationStarted,
)
from mathable.state import Turn, has_tiles
from mathable.summy.equation import check_equation, text_of
from mathable.summy.events import EquationPlayed, SummyStarted, TilesDiscarded, apply
from mathable.summy.state import (
    ACROSS,
    DIRECTIONS,
    DOWN,
    MAX_COORDINATE,
    RULES_VERSION,
    RULESET,
    Square,
    SummyState,
)
from mathable.summy.tiles import HAND_SIZE, NAMES, SUPPLY_SET, digit_sum


@dataclass(frozen=True, slots=True)
class PlayEquation:
    """Lay ``placements`` ((x, y, tile) each) from the hand to form one equation.

    ``direction`` ("across" or "down") matters only for a single tile, which lies in
    both lines; without it the one line that is an equation counts.
    """

    seat: int
    placements: tuple[tuple[int, int, int], ...]
    direction: str | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    """Put ``tiles`` out of the game and draw as many (what is left, if fewer)."""

    seat: int
    tiles: tuple[int, ...]


SummyCommand = (
    Create
    | Join
    | Decline
    | PlayEquation
    | Discard
    | Pass
    | Resign
    | TimeOut
    | GiveTime
    | StartVacation
    | EndVacation
    | UseVacationDay
)


@dataclass(frozen=True, slots=True)
class Judged:
    """A legal equation play: its direction, the whole line (squares and tiles), its points."""

    direction: str
    squares: tuple[Square, ...]
    tiles: tuple[int, ...]
    points: int

    @property
    def equation(self) -> str:
        return text_of(self.tiles)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _step(direction: str) -> tuple[int, int]:
    return (1, 0) if direction == ACROSS else (0, 1)


def line_through(
    table: Mapping[Square, int], new: Mapping[Square, int], direction: str
) -> tuple[tuple[Square, ...], tuple[int, ...]]:
    """The whole unbroken line of tiles (table and ``new``) through the new tiles, or
    RuleError ``gap`` when the new tiles do not lie in one unbroken line."""
    dx, dy = _step(direction)
    first = min(new, key=lambda s: (s[0], s[1]))
    x, y = first
    while (x - dx, y - dy) in table:
        x, y = x - dx, y - dy
    squares: list[Square] = []
    tiles: list[int] = []
    while True:
        square = (x, y)
        tile = new.get(square)
        if tile is None:
            tile = table.get(square)
        if tile is None:
            break
        squares.append(square)
        tiles.append(tile)
        x, y = x + dx, y + dy
    covered = set(squares)
    if any(s not in covered for s in new):
        raise RuleError(
            "gap", "the new tiles must lie in one unbroken line, no empty square between them"
        )
    return tuple(squares), tuple(tiles)


def _judge_line(table: Mapping[Square, int], new: Mapping[Square, int], direction: str) -> Judged:
    squares, tiles = line_through(table, new, direction)
    if len(squares) == len(new):
        raise RuleError(
            "no_table_tile", f"{text_of(tiles)}: an equation uses a tile already on the table"
        )
    return Judged(direction, squares, tiles, check_equation(tiles))


def judge(
    table: Mapping[Square, int],
    hand: Sequence[int],
    placements: Sequence[tuple[int, int, int]],
    direction: str | None = None,
) -> Judged:
    """The equation ``placements`` form on ``table`` from ``hand``; RuleError if none.

    >>> from mathable.summy.tiles import parse_tiles
    >>> new = [(-3, 0, 1), (-2, 0, 10), (-1, 0, 2), (1, 0, 3)]
    >>> j = judge({(0, 0): 14}, parse_tiles("12+3"), new)
    >>> j.equation, j.points, j.direction
    ('1+2=3', 6, 'across')
    """
    if not placements:
        raise RuleError("no_tiles", "lay at least one tile from your hand")
    if len(placements) > HAND_SIZE:
        raise RuleError("too_many_tiles", f"a hand holds {HAND_SIZE} tiles at most")
    if direction is not None and direction not in DIRECTIONS:
        raise RuleError("bad_direction", "the direction is 'across' or 'down'")
    new: dict[Square, int] = {}
    for placement in placements:
        x, y, tile = placement
        if not (_is_int(x) and _is_int(y)) or max(abs(x), abs(y)) > MAX_COORDINATE:
            raise RuleError(
                "off_table",
                f"x and y are whole numbers from -{MAX_COORDINATE} to {MAX_COORDINATE}",
            )
        if not _is_int(tile) or not 0 <= tile < len(NAMES):
            raise RuleError("bad_tile", "not a Summy tile (0-9, +, -, x, :, =)")
        if (x, y) in new:
            raise RuleError("square_reused", f"({x}, {y}) is used twice in this move")
        if (x, y) in table:
            raise RuleError("square_taken", f"({x}, {y}) already holds {NAMES[table[(x, y)]]}")
        new[(x, y)] = tile
    if not has_tiles(tuple(hand), [p[2] for p in placements]):
        raise RuleError("tile_not_in_hand", "you can only lay tiles from your hand")
    if len(new) > 1:
        xs = {s[0] for s in new}
        ys = {s[1] for s in new}
        if len(ys) == 1:
            along = ACROSS
        elif len(xs) == 1:
            along = DOWN
        else:
            raise RuleError("not_in_line", "the new tiles must lie in one row or one column")
        if direction is not None and direction != along:
            raise RuleError("wrong_direction", f"these tiles lie {along}, not {direction}")
        return _judge_line(table, new, along)
    if direction is not None:
        return _judge_line(table, new, direction)
    found: list[Judged] = []
    errors: list[RuleError] = []
    for along in DIRECTIONS:
        try:
            found.append(_judge_line(table, new, along))
        except RuleError as err:
            errors.append(err)
    if len(found) == 1:
        return found[0]
    if found:
        raise RuleError(
            "ambiguous_direction",
            "this tile makes an equation across and down: say which (direction)",
        )
    # Neither line is an equation: the longer one's reason is the likelier mistake.
    longest = max(DIRECTIONS, key=lambda d: len(line_through(table, new, d)[0]))
    raise errors[DIRECTIONS.index(longest)]


# --- the bag --------------------------------------------------------------------


def default_policy(state: SummyState) -> BagPolicy:
    """The draw policy a game's options call for: its given order, its seed, or chance."""
    if state.options.tiles is not None or state.options.order is not None:
        return OrderedBag()
    if state.options.seed is not None:
        return SeededBag(state.options.seed, salt=state.version)
    return RandomBag()


def first_seat(state: SummyState, policy: BagPolicy) -> int:
    """Who begins: seat 0 with a given tile order; else drawn at random.

    A game whose server committed to a hidden order draws it from that order's salt
    (revealed at the end, so anyone can check it); otherwise the bag policy draws it.
    """
    seats = len(state.seats)
    options = state.options
    if options.tiles is not None:
        return 0
    if options.order is not None and options.salt is not None:
        digest = hashlib.sha256(f"{options.salt}:first-seat".encode()).digest()
        return int.from_bytes(digest[:8], "big") % seats
    return policy.draw(tuple(range(seats)), 1)[0]


class _Fold:
    def __init__(self, state: SummyState, bag: BagPolicy) -> None:
        self.state = state
        self.bag = bag
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = apply(self.state, event)

    def draw(self, n: int) -> tuple[int, ...]:
        n = min(n, len(self.state.supply))
        return tuple(self.bag.draw(self.state.supply, n)) if n > 0 else ()


def check(state: SummyState, command: Any, bag: BagPolicy | None = None) -> list[Event]:
    """The events ``command`` produces in ``state``; RuleError if the rules refuse it."""
    fold = _Fold(state, bag if bag is not None else default_policy(state))
    match command:
        case Create():
            _create(fold, command)
        case Join():
            _join(fold, command)
        case Decline():
            _decline(fold, command)
        case PlayEquation():
            _play(fold, command)
        case Discard():
            _discard(fold, command)
        case Pass():
            _turn_of(fold.state, command.seat)
            fold.emit(Passed(command.seat))
            _end_if_over(fold)
        case Resign():
            _resign(fold, command.seat)
        case TimeOut():
            _clocked_seat(fold.state, command.seat)
            fold.emit(TimedOut(command.seat, command.claimed_by))
            _end_if_over(fold, "timeout")
        case GiveTime():
            _give_time(fold, command)
        case StartVacation():
            _clocked_seat(fold.state, command.seat)
            if not _is_int(command.days) or not 1 <= command.days <= 366:
                raise RuleError("bad_days", "a vacation lasts 1 to 366 days")
            fold.emit(VacationStarted(command.seat, command.days))
        case EndVacation():
            _clocked_seat(fold.state, command.seat)
            fold.emit(VacationEnded(command.seat))
        case UseVacationDay():
            _clocked_seat(fold.state, command.seat)
            fold.emit(VacationDayUsed(command.seat))
        case _:
            raise RuleError("bad_command", f"Summy has no such move: {type(command).__name__}")
    return fold.events


# --- creating and joining --------------------------------------------------------


def _create(fold: _Fold, command: Create) -> None:
    if fold.state.status != "new":
        raise RuleError("game_exists", "this game has already been created")
    if not _is_int(command.players) or not 2 <= command.players <= 4:
        raise RuleError("bad_players", f"a game has 2 to 4 players, not {command.players}")
    if command.referee != "server":
        raise RuleError("bad_referee", "in Summy the server referees")
    if command.tiles is not None and sorted(command.tiles) != list(SUPPLY_SET):
        raise RuleError("bad_tiles", "tiles must list the 93 tiles of the supply, each once")
    if command.seed is not None and command.tiles is not None:
        raise RuleError("bad_options", "give a seed or a tile order, not both")
    if command.order is not None and (
        command.tiles is not None or sorted(command.order) != list(SUPPLY_SET)
    ):
        raise RuleError("bad_tiles", "a supply order lists all 93 tiles, and only without tiles")
    if command.salt is not None and not (
        isinstance(command.salt, str)
        and 32 <= len(command.salt) <= 64
        and all(c in "0123456789abcdef" for c in command.salt)
    ):
        raise RuleError("bad_salt", "a salt is 32 to 64 lower-case hex digits")
    committed = command.tiles if command.tiles is not None else command.order
    commitment = None
    if command.salt is not None and committed is not None:
        commitment = commit(committed, command.salt)
    invited = tuple(command.invited)
    if len(invited) > command.players - 1 or len(set(invited)) != len(invited):
        raise RuleError("bad_invite", "invite at most one player per free seat, each once")
    if command.player in invited:
        raise RuleError("bad_invite", "the creator already has seat 0")
    if command.clock is not None:
        check_spec(command.clock)
    fold.emit(
        GameCreated(
            ruleset=RULESET,
            rules_version=RULES_VERSION,
            players=command.players,
            referee="server",
            seed=command.seed,
            tiles=command.tiles,
            invited=invited,
            creator=command.player,
            clock=command.clock,
            order=command.order,
            salt=command.salt if commitment is not None else None,
            commitment=commitment,
        )
    )


def _decline(fold: _Fold, command: Decline) -> None:
    state = fold.state
    if state.status != "waiting":
        raise RuleError("game_started", "only a game still waiting for players can be declined")
    if command.player in state.options.invited and state.seat_of(command.player) is None:
        fold.emit(InvitationDeclined(player=command.player))
    elif state.seats and state.seats[0].player == command.player:
        fold.emit(GameCancelled(player=command.player))
    else:
        raise RuleError("not_invited", "you have no invitation to this game")


def _join(fold: _Fold, command: Join) -> None:
    state = fold.state
    if state.status != "waiting":
        raise RuleError("game_full", "this game is not waiting for players")
    if state.seat_of(command.player) is not None:
        raise RuleError("already_seated", "you already have a seat in this game")
    free = [i for i, seat in enumerate(state.seats) if seat.player is None]
    seated = {seat.player for seat in state.seats}
    reserved = [name for name in state.options.invited if name not in seated]
    if command.player not in state.options.invited and len(free) <= len(reserved):
        raise RuleError("seat_reserved", "the free seats of this game are reserved for invitees")
    fold.emit(PlayerJoined(seat=free[0], player=command.player))
    if len(free) == 1:
        fold.emit(deal(fold.state, fold.bag))


def deal(state: SummyState, policy: BagPolicy) -> SummyStarted:
    """The start of a full game: hands of 8 dealt in seat order, and the first seat."""
    supply = list(state.supply)
    hands = []
    for _ in state.seats:
        drawn = policy.draw(supply, min(HAND_SIZE, len(supply)))
        for tile in drawn:
            supply.remove(tile)
        hands.append(tuple(drawn))
    return SummyStarted(first_seat=first_seat(state, policy), hands=tuple(hands))


# --- turns ------------------------------------------------------------------------


def _turn_of(state: SummyState, seat: Any) -> Turn:
    if state.status in ("new", "waiting"):
        raise RuleError("game_not_started", "the game has not started yet")
    if state.status != "playing" or state.turn is None:
        raise RuleError("game_over", "the game is over")
    if not _is_int(seat) or not 0 <= seat < len(state.seats):
        raise RuleError("not_seated", "you have no seat in this game")
    if state.turn.seat != seat:
        raise RuleError("not_your_turn", f"it is seat {state.turn.seat}'s turn, not yours")
    return state.turn


def _play(fold: _Fold, command: PlayEquation) -> None:
    state = fold.state
    _turn_of(state, command.seat)
    judged = judge(
        state.table, state.seats[command.seat].rack, command.placements, command.direction
    )
    drawn = fold.draw(len(command.placements))
    fold.emit(
        EquationPlayed(
            seat=command.seat,
            placements=tuple(command.placements),
            direction=judged.direction,
            equation=judged.equation,
            points=judged.points,
            drawn=drawn,
        )
    )
    _end_if_over(fold)


def _discard(fold: _Fold, command: Discard) -> None:
    state = fold.state
    _turn_of(state, command.seat)
    tiles = tuple(command.tiles)
    if not tiles:
        raise RuleError("no_tiles", "discard at least one tile")
    if not all(_is_int(t) and 0 <= t < len(NAMES) for t in tiles):
        raise RuleError("bad_tile", "not a Summy tile (0-9, +, -, x, :, =)")
    if not has_tiles(state.seats[command.seat].rack, tiles):
        raise RuleError("tile_not_in_hand", "you can only discard tiles from your hand")
    if not state.supply:
        raise RuleError("supply_empty", "the supply is empty: form an equation or pass")
    drawn = fold.draw(len(tiles))
    fold.emit(TilesDiscarded(seat=command.seat, discarded=tiles, drawn=drawn))
    _end_if_over(fold)


def _resign(fold: _Fold, seat: Any) -> None:
    state = fold.state
    if state.status != "playing":
        raise RuleError(
            "game_over" if state.status == "ended" else "game_not_started",
            "only a game in play can be resigned",
        )
    if not _is_int(seat) or not 0 <= seat < len(state.seats) or state.seats[seat].resigned:
        raise RuleError("not_seated", "you have no seat left in this game")
    fold.emit(Resigned(seat))
    _end_if_over(fold)


def _clocked_seat(state: SummyState, seat: Any) -> None:
    if state.options.clock is None:
        raise RuleError("no_clock", "this game has no clock")
    if state.status != "playing":
        raise RuleError(
            "game_over" if state.status == "ended" else "game_not_started",
            "the clock runs only while the game is played",
        )
    if not _is_int(seat) or not 0 <= seat < len(state.seats) or state.seats[seat].resigned:
        raise RuleError("not_seated", "that seat no longer plays in this game")


def _give_time(fold: _Fold, command: GiveTime) -> None:
    state = fold.state
    _clocked_seat(state, command.seat)
    to = command.to
    if not _is_int(to) or not 0 <= to < len(state.seats) or state.seats[to].resigned:
        raise RuleError("bad_seat", f"seat {to} does not play in this game")
    if to == command.seat:
        raise RuleError("own_seat", "time can only be given to an opponent")
    if not _is_int(command.seconds) or not 1 <= command.seconds <= MAX_SECONDS:
        raise RuleError("bad_seconds", f"give 1 to {MAX_SECONDS} seconds")
    fold.emit(TimeGiven(command.seat, to, command.seconds))


# --- the end ------------------------------------------------------------------------


def end_reason(state: SummyState) -> str | None:
    """Why the game is over now, or None while it goes on.

    >>> end_reason(SummyState()) is None
    True
    """
    if state.status != "playing":
        return None
    active = state.active_seats()
    if len(active) <= 1:
        return "resigned"
    if not state.supply and any(not state.seats[s].rack for s in active):
        return "hand_emptied"
    if state.dry_turns >= len(active):
        return "no_equations"
    if state.idle_turns >= 2 * len(active):
        return "idle"
    return None


def _end_if_over(fold: _Fold, last_one_reason: str | None = None) -> None:
    reason = end_reason(fold.state)
    if reason == "resigned" and last_one_reason is not None:
        reason = last_one_reason
    if reason is not None:
        finish(fold, reason)


def finish(fold: _Fold, reason: str) -> None:
    """End the game: each hand's digits are taken off its seat's score."""
    state = fold.state
    deductions = tuple(digit_sum(seat.rack) for seat in state.seats)
    scores = tuple(seat.score - d for seat, d in zip(state.seats, deductions, strict=True))
    active = state.active_seats()
    best = max(scores[s] for s in active)
    winners = tuple(s for s in active if scores[s] == best)
    fold.emit(GameEnded(reason=reason, deductions=deductions, scores=scores, winners=winners))
    options = fold.state.options
    order = options.tiles if options.tiles is not None else options.order
    if options.commitment is not None and options.salt is not None and order is not None:
        fold.emit(DrawsRevealed(order=order, salt=options.salt))


def expected_draw(state: SummyState, event: Event) -> Event | None:
    """What a drawing event should hold had every tile come off the front of the supply
    (``mathable.audit`` checks a finished game's draws with it)."""
    match event:
        case SummyStarted():
            return deal(state, OrderedBag())
        case EquationPlayed() | TilesDiscarded():
            return replace(event, drawn=state.supply[: len(event.drawn)])
    return None


__all__ = [
    "Discard",
    "Judged",
    "PlayEquation",
    "SummyCommand",
    "check",
    "deal",
    "default_policy",
    "end_reason",
    "expected_draw",
    "first_seat",
    "judge",
    "line_through",
]
