"""The lifecycle every game shares, as commands checked and as events applied.

Creating a game, joining, declining and cancelling, resigning, the clock commands
(timeouts, time given, vacations), the end and its deductions, and the events they
write (``game_created``, ``player_joined``, ``resigned``, ``timed_out``, ``game_ended``,
``draws_revealed``...) work the same in every game. Each ruleset checks and applies
its own turns (Mathable: ``mathable.games.mathable.commands`` and
``mathable.games.mathable.events``; Summy: ``mathable.games.summy``) and hands the
rest to ``check`` and ``apply`` here, with a
``GameRules`` that says what differs: its name and rules version, its tiles, which
referees it allows, how a game starts and ends, and what a hand is worth at the end.
The state fields they read and change are those of ``mathable.core.state.Lifecycle``.

>>> from mathable.games.mathable.events import replay
>>> turn_of(replay([]), 0)
Traceback (most recent call last):
...
mathable.core.errors.RuleError: game_not_started: the game has not started yet
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from mathable.core.bag import BagPolicy, OrderedBag, RandomBag, SeededBag
from mathable.core.clock import MAX_SECONDS, check_spec
from mathable.core.commitment import commit, revelation
from mathable.core.errors import RuleError, shown
from mathable.core.events import (
    DrawsRevealed,
    Event,
    GameCancelled,
    GameCreated,
    GameEnded,
    GameOpened,
    InvitationDeclined,
    PlayerJoined,
    Resigned,
    TimedOut,
    TimeGiven,
    VacationDayUsed,
    VacationEnded,
    VacationStarted,
)
from mathable.core.plugins import DEFAULT_RULESET
from mathable.core.state import ClockSpec, Lifecycle, Options, Result, Seat, Turn
from mathable.core.words import says

S = TypeVar("S", bound=Lifecycle)


# --- the commands every game has ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Create:
    """Create a game; ``player`` takes seat 0."""

    player: str
    players: int = 2
    referee: str = "server"
    seed: int | None = None
    tiles: tuple[int, ...] | None = None
    invited: tuple[str, ...] = ()
    clock: ClockSpec | None = None
    #: The bag order the server chose (hidden until the end) and the salt of its commitment.
    order: tuple[int, ...] | None = None
    salt: str | None = None
    #: The game to play (``mathable.core.ruleset``): the name of an installed game.
    ruleset: str = DEFAULT_RULESET
    #: Every player in seat order, the creator among them (a rematch's seats, rotated);
    #: None: the creator takes seat 0 and the invitees the others as they join.
    seating: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Decline:
    """An invitee refuses their seat; the creator of a game not yet started calls it off."""

    player: str


@dataclass(frozen=True, slots=True)
class Open:
    """The creator of a private game an invitee declined lets anyone take its free seats."""

    player: str


@dataclass(frozen=True, slots=True)
class Join:
    """Take the first free seat."""

    player: str


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing."""

    seat: int


@dataclass(frozen=True, slots=True)
class Resign:
    """Leave the game; it goes on without this seat."""

    seat: int


@dataclass(frozen=True, slots=True)
class TimeOut:
    """``seat`` is out of time. The caller (the server, by ``mathable.core.clock``) knows it is:
    the rules have no clock. ``claimed_by`` is the opponent claiming it, if any."""

    seat: int
    claimed_by: int | None = None


@dataclass(frozen=True, slots=True)
class GiveTime:
    """``seat`` gives ``seconds`` to the clock of seat ``to``."""

    seat: int
    to: int
    seconds: int


@dataclass(frozen=True, slots=True)
class StartVacation:
    """The player of ``seat`` goes on vacation for ``days`` days: their clock stands still."""

    seat: int
    days: int


@dataclass(frozen=True, slots=True)
class EndVacation:
    """The player of ``seat`` is back: their clock runs again."""

    seat: int


@dataclass(frozen=True, slots=True)
class UseVacationDay:
    """``seat``'s clock reached zero: a vacation day gives it 24 hours more."""

    seat: int


LifecycleCommand = (
    Create
    | Join
    | Decline
    | Open
    | Resign
    | TimeOut
    | GiveTime
    | StartVacation
    | EndVacation
    | UseVacationDay
)


# --- what the lifecycle needs to know of a game -----------------------------------------


@dataclass(frozen=True, slots=True)
class GameRules(Generic[S]):
    """What differs between games in their lifecycle.

    ``apply`` folds one event (the game's own and the shared ones); ``deal`` is the
    event that starts a full game; ``end_reason`` says why the game is over, or None;
    ``deductions`` what each seat loses at the end for its tiles; ``leave`` what is
    written before a seat that is in the middle of its turn resigns or times out
    (Mathable: the tiles placed so far score). The messages are the game's words for
    a refused referee, tile list and bag order.
    """

    ruleset: str
    rules_version: int
    tile_set: tuple[int, ...]
    apply: Callable[[S, Event], S]
    deal: Callable[[S, BagPolicy], Event]
    end_reason: Callable[[S], str | None]
    deductions: Callable[[S], tuple[int, ...]]
    referees: tuple[str, ...]
    bad_referee: str
    bad_tiles: str
    bad_order: str
    leave: Callable[[Fold[S], int], None] | None = None


class Fold(Generic[S]):
    """Events produced so far by one command, and the state they lead to."""

    def __init__(self, state: S, bag: BagPolicy, rules: GameRules[S]) -> None:
        self.state = state
        self.bag = bag
        self.rules = rules
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = self.rules.apply(self.state, event)

    def draw(self, n: int) -> tuple[int, ...]:
        pool = self.state.pool
        n = min(n, len(pool))
        return tuple(self.bag.draw(pool, n)) if n > 0 else ()


def default_policy(state: Lifecycle) -> BagPolicy:
    """The bag policy a game's options call for: its given order, its seed, or chance."""
    if state.options.tiles is not None or state.options.order is not None:
        return OrderedBag()
    if state.options.seed is not None:
        return SeededBag(state.options.seed, salt=state.version)
    return RandomBag()


def check(fold: Fold[S], command: object) -> bool:
    """Check a lifecycle command and emit its events into ``fold``; False if ``command``
    is none (it is the game's own, or unknown); RuleError if the rules refuse it."""
    match command:
        case Create():
            _create(fold, command)
        case Join():
            _join(fold, command)
        case Decline():
            _decline(fold, command)
        case Open():
            _open(fold, command)
        case Resign():
            _resign(fold, command.seat)
        case TimeOut():
            _time_out(fold, command)
        case GiveTime():
            _give_time(fold, command)
        case StartVacation():
            clocked_seat(fold.state, command.seat)
            if not is_int(command.days) or not 1 <= command.days <= 366:
                raise RuleError(
                    "bad_days",
                    says("a vacation lasts 1 to 366 days"),
                    {"field": "days", "value": shown(command.days), "min": 1, "max": 366},
                )
            fold.emit(VacationStarted(command.seat, command.days))
        case EndVacation():
            clocked_seat(fold.state, command.seat)
            fold.emit(VacationEnded(command.seat))
        case UseVacationDay():
            clocked_seat(fold.state, command.seat)
            fold.emit(VacationDayUsed(command.seat))
        case _:
            return False
    return True


# --- creating and joining ----------------------------------------------------------------


def _create(fold: Fold[S], command: Create) -> None:
    rules = fold.rules
    if fold.state.status != "new":
        raise RuleError(
            "game_exists", says("this game has already been created"), {"status": fold.state.status}
        )
    if not is_int(command.players) or not 2 <= command.players <= 4:
        raise RuleError(
            "bad_players",
            says("a game has 2 to 4 players, not {players}", players=command.players),
            {"field": "players", "value": shown(command.players), "min": 2, "max": 4},
        )
    if command.referee not in rules.referees:
        raise RuleError(
            "bad_referee",
            rules.bad_referee,
            {"field": "referee", "value": shown(command.referee), "accepted": list(rules.referees)},
        )
    if command.tiles is not None and sorted(command.tiles) != list(rules.tile_set):
        raise RuleError("bad_tiles", rules.bad_tiles, _tile_count("tiles", command.tiles, rules))
    if command.seed is not None and command.tiles is not None:
        raise RuleError(
            "bad_options",
            says("give a seed or a tile order, not both"),
            {"fields": ["seed", "tiles"]},
        )
    if command.order is not None and (
        command.tiles is not None or sorted(command.order) != list(rules.tile_set)
    ):
        raise RuleError(
            "bad_tiles",
            rules.bad_order,
            {**_tile_count("order", command.order, rules), "with_tiles": command.tiles is not None},
        )
    if command.salt is not None and not _is_salt(command.salt):
        # The salt stays secret until the end: the details say what a salt is, never it.
        raise RuleError(
            "bad_salt",
            says("a salt is 32 to 64 lower-case hex digits"),
            {"field": "salt", "accepted": "32 to 64 lower-case hex digits"},
        )
    committed = command.tiles if command.tiles is not None else command.order
    commitment = None
    if command.salt is not None and committed is not None:
        commitment = commit(committed, command.salt)
    invited = tuple(command.invited)
    if len(invited) > command.players - 1 or len(set(invited)) != len(invited):
        raise RuleError(
            "bad_invite",
            says("invite at most one player per free seat, each once"),
            {
                "field": "invite",
                "invited": [shown(name) for name in invited],
                "free_seats": shown(command.players)
                if not is_int(command.players)
                else command.players - 1,
            },
        )
    if command.player in invited:
        raise RuleError(
            "bad_invite",
            says("you cannot invite yourself: the creator has seat 0"),
            {"field": "invite", "player": command.player, "seat": 0},
        )
    seating = None if command.seating is None else tuple(command.seating)
    if seating is not None and (
        len(seating) != command.players
        or len(set(seating)) != len(seating)
        or set(seating) != {command.player, *invited}
    ):
        raise RuleError(
            "bad_seating",
            says("the seats given must name the creator and every invitee, once each"),
            {"field": "seating", "players": command.players},
        )
    if command.clock is not None:
        check_spec(command.clock)
    fold.emit(
        GameCreated(
            ruleset=rules.ruleset,
            rules_version=rules.rules_version,
            players=command.players,
            referee=command.referee,
            seed=command.seed,
            tiles=command.tiles,
            invited=invited,
            creator=command.player,
            clock=command.clock,
            order=command.order,
            salt=command.salt if commitment is not None else None,
            commitment=commitment,
            seating=seating,
        )
    )


def _first_seats(event: GameCreated) -> tuple[Seat, ...]:
    """The seats of a game just created: the creator's taken (seat 0, or their given one)."""
    at = 0 if event.seating is None else event.seating.index(event.creator)
    return tuple(
        Seat(player=event.creator) if seat == at else Seat() for seat in range(event.players)
    )


def _is_salt(salt: object) -> bool:
    return (
        isinstance(salt, str)
        and 32 <= len(salt) <= 64
        and all(c in "0123456789abcdef" for c in salt)
    )


def _tile_count(field: str, tiles: Any, rules: GameRules[Any]) -> dict[str, Any]:
    """A refused tile list as data: how many tiles it has and how many the game has (never
    the tiles: a bag order the server chose is hidden)."""
    count = len(tiles) if isinstance(tiles, list | tuple) else None
    return {"field": field, "count": count, "expected": len(rules.tile_set)}


def _seat_left(state: Lifecycle, seat: Any) -> dict[str, Any]:
    """A seat refused as no longer playing: the seat, and whether it resigned."""
    resigned = is_seat(state, seat) and state.seats[seat].resigned
    return {"seat": shown(seat), "seats": len(state.seats), "resigned": resigned}


def _not_cancelled(state: Lifecycle) -> None:
    """RuleError ``game_cancelled`` for a game its creator called off."""
    if state.status == "cancelled":
        raise RuleError(
            "game_cancelled",
            says("this game was called off by its creator"),
            {"status": state.status},
        )


def _decline(fold: Fold[S], command: Decline) -> None:
    state = fold.state
    _not_cancelled(state)
    if state.status != "waiting":
        raise RuleError(
            "game_started",
            says("only a game still waiting for players can be declined"),
            {"status": state.status},
        )
    if command.player in state.options.invited and state.seat_of(command.player) is None:
        fold.emit(InvitationDeclined(player=command.player))
    elif creator_of(state) == command.player:
        fold.emit(GameCancelled(player=command.player))
    else:
        raise RuleError(
            "not_invited", says("you have no invitation to this game"), {"player": command.player}
        )


def _open(fold: Fold[S], command: Open) -> None:
    state = fold.state
    _not_cancelled(state)
    if state.status != "waiting":
        raise RuleError(
            "game_started", says("only a game still waiting for players can be opened"),
            {"status": state.status},
        )  # fmt: skip
    if creator_of(state) != command.player:
        raise RuleError(
            "not_creator",
            says("only the creator of this game can open it"),
            {"player": command.player},
        )
    if not closed(state):
        raise RuleError("not_closed", says("this game is not closed: nothing to open"), {})
    fold.emit(GameOpened(player=command.player))


def creator_of(state: Lifecycle) -> str | None:
    """Who created the game: the player in seat 0, unless the seats were given."""
    if state.options.creator is not None:
        return state.options.creator
    return state.seats[0].player if state.seats else None


def closed(state: Lifecycle) -> bool:
    """An invitee declined this game and its creator has not opened it: its free seats
    are for the invitees left, nobody else."""
    return bool(state.options.declined) and not state.options.opened


def _join(fold: Fold[S], command: Join) -> None:
    state = fold.state
    _not_cancelled(state)
    if state.status != "waiting":
        raise RuleError(
            "game_full", says("this game is not waiting for players"), {"status": state.status}
        )
    if state.seat_of(command.player) is not None:
        raise RuleError(
            "already_seated",
            says("you already have a seat in this game"),
            {"seat": state.seat_of(command.player)},
        )
    free = [i for i, seat in enumerate(state.seats) if seat.player is None]
    seated = {seat.player for seat in state.seats}
    reserved = [name for name in state.options.invited if name not in seated]
    if command.player not in state.options.invited and closed(state):
        raise RuleError(
            "game_closed",
            says("an invitee declined this game: only its creator can open it to others"),
            {"declined": len(state.options.declined)},
        )
    if command.player not in state.options.invited and len(free) <= len(reserved):
        raise RuleError(
            "seat_reserved",
            says("the free seats of this game are reserved for invitees"),
            {"free_seats": len(free), "reserved_seats": len(reserved)},
        )
    seat = free[0]
    seating = state.options.seating
    if seating is not None and command.player in seating and seating.index(command.player) in free:
        seat = seating.index(command.player)  # a rematch: the seat kept for this invitee
    fold.emit(PlayerJoined(seat=seat, player=command.player))
    if len(free) == 1:
        fold.emit(fold.rules.deal(fold.state, fold.bag))


# --- seats and turns ---------------------------------------------------------------------


def is_int(value: Any) -> bool:
    """A whole number, not a bool (commands come from bots and JSON)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_seat(state: Lifecycle, seat: Any) -> bool:
    """``seat`` is the number of a seat of this game."""
    return is_int(seat) and 0 <= seat < len(state.seats)


def turn_of(state: Lifecycle, seat: Any) -> Turn:
    """The turn, if it is ``seat``'s; RuleError saying why not otherwise."""
    if state.status in ("new", "waiting"):
        raise RuleError(
            "game_not_started", says("the game has not started yet"), {"status": state.status}
        )
    if state.status == "ended" or state.turn is None:
        raise RuleError("game_over", says("the game is over"), {"status": state.status})
    if not is_seat(state, seat):
        raise RuleError(
            "not_seated",
            says("you have no seat in this game"),
            {"seat": shown(seat), "seats": len(state.seats)},
        )
    if state.turn.seat != seat:
        raise RuleError(
            "not_your_turn",
            says("it is seat {seat}'s turn, not yours", seat=state.turn.seat),
            {"seat": state.turn.seat},
        )
    return state.turn


def _resign(fold: Fold[S], seat: Any) -> None:
    state = fold.state
    if state.status != "playing":
        raise RuleError(
            "game_over" if state.status == "ended" else "game_not_started",
            says("only a game in play can be resigned"),
            {"status": state.status},
        )
    if not is_seat(state, seat) or state.seats[seat].resigned:
        raise RuleError(
            "not_seated", says("you have no seat left in this game"), _seat_left(state, seat)
        )
    if fold.rules.leave is not None:
        fold.rules.leave(fold, seat)
    fold.emit(Resigned(seat))
    end_if_over(fold)


# --- clocks --------------------------------------------------------------------------------


def clocked_seat(state: Lifecycle, seat: Any) -> None:
    """Refuses unless the game has a clock, is in play and ``seat`` still plays in it."""
    if state.options.clock is None:
        raise RuleError("no_clock", says("this game has no clock"), {"clock": None})
    if state.status != "playing":
        raise RuleError(
            "game_over" if state.status == "ended" else "game_not_started",
            says("the clock runs only while the game is played"),
            {"status": state.status},
        )
    if not is_seat(state, seat) or state.seats[seat].resigned:
        raise RuleError(
            "not_seated", says("that seat no longer plays in this game"), _seat_left(state, seat)
        )


def _time_out(fold: Fold[S], command: TimeOut) -> None:
    clocked_seat(fold.state, command.seat)
    if fold.rules.leave is not None:
        fold.rules.leave(fold, command.seat)
    fold.emit(TimedOut(command.seat, command.claimed_by))
    if len(fold.state.active_seats()) <= 1:
        finish(fold, "timeout")
    else:
        end_if_over(fold)


def _give_time(fold: Fold[S], command: GiveTime) -> None:
    state = fold.state
    clocked_seat(state, command.seat)
    if not is_seat(state, command.to) or state.seats[command.to].resigned:
        raise RuleError(
            "bad_seat",
            says("seat {seat} does not play in this game", seat=command.to),
            {"field": "seat", "value": shown(command.to), "active_seats": state.active_seats()},
        )
    if command.to == command.seat:
        raise RuleError(
            "own_seat", says("time can only be given to an opponent"), {"seat": command.seat}
        )
    if not is_int(command.seconds) or not 1 <= command.seconds <= MAX_SECONDS:
        raise RuleError(
            "bad_seconds",
            says("give 1 to {max} seconds", max=MAX_SECONDS),
            {"field": "seconds", "value": shown(command.seconds), "min": 1, "max": MAX_SECONDS},
        )
    fold.emit(TimeGiven(command.seat, command.to, command.seconds))


# --- the end ---------------------------------------------------------------------------------


def end_if_over(fold: Fold[S]) -> None:
    """End the game if its rules say it is over."""
    reason = fold.rules.end_reason(fold.state)
    if reason is not None:
        finish(fold, reason)


def finish(fold: Fold[S], reason: str) -> None:
    """End the game: each seat loses its deduction; the best of those still playing win;
    the order committed to at creation is revealed."""
    state = fold.state
    deductions = fold.rules.deductions(state)
    scores = tuple(seat.score - d for seat, d in zip(state.seats, deductions, strict=True))
    active = state.active_seats()
    best = max(scores[s] for s in active)
    winners = tuple(s for s in active if scores[s] == best)
    fold.emit(GameEnded(reason=reason, deductions=deductions, scores=scores, winners=winners))
    reveal = revelation(fold.state)
    if reveal is not None:
        fold.emit(reveal)


# --- the events every game has ------------------------------------------------------------


def apply(state: S, event: Event) -> S | None:
    """The state after a lifecycle event (``state.version`` already counts it); None for
    an event that is not one (the game's own, or one it cannot apply)."""
    match event:
        case GameCreated():
            # The tiles to draw, in the given or committed order (else the full set).
            pool: dict[str, Any] = {state.POOL: event.tiles or event.order or state.pool}
            return replace(
                state,
                status="waiting",
                ruleset=event.ruleset,
                rules_version=event.rules_version,
                options=Options(
                    players=event.players,
                    referee="players" if event.referee == "players" else "server",
                    seed=event.seed,
                    tiles=event.tiles,
                    invited=event.invited,
                    clock=event.clock,
                    order=event.order,
                    salt=event.salt,
                    commitment=event.commitment,
                    imported=event.imported,
                    seating=event.seating,
                    creator=None if event.seating is None else event.creator,
                    importer=event.importer,
                ),
                seats=_first_seats(event),
                **pool,
            )
        case PlayerJoined():
            return replace(state, seats=state.with_seat(event.seat, player=event.player))
        case Resigned() | TimedOut():
            out = {"timed_out": True} if isinstance(event, TimedOut) else {}
            state = replace(state, seats=state.with_seat(event.seat, resigned=True, **out))
            if state.turn is not None and state.turn.seat == event.seat:
                state = replace(state, turn=state.next_turn(event.seat))
            return state
        case TimeGiven() | VacationStarted() | VacationEnded() | VacationDayUsed():
            return state  # only the clock changes: see ``mathable.core.clock``
        case GameEnded():
            final_seats = tuple(
                replace(seat, score=score)
                for seat, score in zip(state.seats, event.scores, strict=True)
            )
            return replace(
                state,
                status="ended",
                seats=final_seats,
                turn=None,
                result=Result(event.reason, event.deductions, event.scores, event.winners),
            )
        case DrawsRevealed():
            return replace(state, draws_revealed=True)
        case InvitationDeclined():
            options = replace(
                state.options,
                invited=tuple(p for p in state.options.invited if p != event.player),
                declined=state.options.declined + (event.player,),
            )
            return replace(state, options=options)
        case GameOpened():
            return replace(state, options=replace(state.options, opened=True))
        case GameCancelled():
            return replace(state, status="cancelled", turn=None)
    return None


__all__ = [
    "Create",
    "Decline",
    "Open",
    "closed",
    "EndVacation",
    "Fold",
    "GameRules",
    "GiveTime",
    "Join",
    "LifecycleCommand",
    "Pass",
    "Resign",
    "StartVacation",
    "TimeOut",
    "UseVacationDay",
    "apply",
    "check",
    "clocked_seat",
    "default_policy",
    "end_if_over",
    "finish",
    "is_int",
    "is_seat",
    "turn_of",
]
