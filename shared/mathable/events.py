"""Events: what happened in a game, as frozen dataclasses with a JSON round trip.

``apply(state, event)`` folds one event into the state and never validates or
draws; ``replay(events)`` folds a whole log. Every event is written with the
schema version ``v`` so that old logs still load.

>>> e = Passed(seat=1)
>>> Event.from_dict(e.to_dict()) == e, e.to_dict()
(True, {'type': 'passed', 'v': 1, 'seat': 1})
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from mathable import codec
from mathable.board import EMPTY, OPERATION
from mathable.errors import RuleError
from mathable.state import (
    BONUS,
    ClockSpec,
    Equation,
    GameState,
    PlacedTile,
    Turn,
    remove_tiles,
)
from mathable.tiles import RACK_SIZE

SCHEMA_VERSION = 1

EQUATION = codec.record(Equation, {"near": codec.SQUARE, "far": codec.SQUARE, "op": codec.OP})
EQUATIONS = codec.tuple_of(EQUATION)
PLACED_TILE = codec.record(
    PlacedTile,
    {"square": codec.SQUARE, "tile": codec.INT, "equations": EQUATIONS, "points": codec.INT},
)


_CLOCK_FIELDS: dict[str, codec.Codec[Any]] = {
    "per_move": codec.OPT_INT,
    "initial": codec.OPT_INT,
    "increment": codec.INT,
    "max": codec.OPT_INT,
    "weekends_off": codec.BOOL,
    "on_timeout": codec.STR,
    "auto_vacation": codec.BOOL,
}


def _decode_clock(value: Any) -> ClockSpec:
    if not isinstance(value, dict):
        raise RuleError("bad_event", "a clock is an object")
    known = {name: c.decode(value[name]) for name, c in _CLOCK_FIELDS.items() if name in value}
    return ClockSpec(**known)


CLOCK: codec.Codec[ClockSpec | None] = codec.Codec(
    lambda spec: None if spec is None else spec.to_dict(),
    lambda value: None if value is None else _decode_clock(value),
)


#: Every kind of event by its ``type``: the explicit registry the decoder reads. Mathable's
#: events and those every game shares (created, joined, resigned, clocks...).
EVENT_TYPES: dict[str, type[Event]] = {}
#: The events of each other game (``Event.game``), by ``type``: read after ``EVENT_TYPES``.
GAME_EVENT_TYPES: dict[str, dict[str, type[Event]]] = {}
#: The modules that define the other games' events. The decoder imports them the first time
#: it meets a type it does not know: a log (after a restart, in a new process) must read
#: whether or not anything else has loaded its game yet.
GAME_EVENT_MODULES = ("mathable.summy.events",)


class Event:
    """Base of all events. Subclasses register themselves under ``type``."""

    type: ClassVar[str]
    fields: ClassVar[dict[str, codec.Codec[Any]]]
    #: Fields added after the first events of this type were written: an event that
    #: lacks one reads as its default, and one holding the default is written without it,
    #: so the events of games played under older rules read and write as they were.
    optional: ClassVar[dict[str, Any]] = {}
    #: The game starts with this event: clocks start running (``mathable.clock``).
    starts_clocks: ClassVar[bool] = False
    #: The game whose own event this is: "mathable" for Mathable's and the shared ones.
    game: ClassVar[str] = "mathable"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        known = _registered_type(cls.type)
        if known is not None and known.__qualname__ != cls.__qualname__:
            # Two games' events under one name would decode as whichever came last.
            raise TypeError(f"event type {cls.type!r} is taken by {known.__qualname__}")
        if cls.game == "mathable":
            EVENT_TYPES[cls.type] = cls
        else:
            GAME_EVENT_TYPES.setdefault(cls.game, {})[cls.type] = cls

    def to_dict(self) -> dict[str, Any]:
        """The event as a JSON-ready dict, with its type and schema version."""
        out: dict[str, Any] = {"type": self.type, "v": SCHEMA_VERSION}
        for name, field_codec in self.fields.items():
            value = getattr(self, name)
            if name in self.optional and value == self.optional[name]:
                continue
            out[name] = field_codec.encode(value)
        return out

    @staticmethod
    def from_dict(data: Any) -> Event:
        """Read an event written by ``to_dict``; RuleError ``bad_event`` if it is not one.

        >>> Event.from_dict({"type": "passed", "v": 1})
        Traceback (most recent call last):
        ...
        mathable.errors.RuleError: bad_event: passed: missing field 'seat'
        """
        if not isinstance(data, dict):
            raise RuleError("bad_event", "an event must be a JSON object")
        kind = data.get("type")
        cls = _event_type(kind) if isinstance(kind, str) else None
        if cls is None:
            raise RuleError("bad_event", f"unknown event type {str(kind)[:40]!r}")
        version = data.get("v", 1)
        if (
            isinstance(version, bool)
            or not isinstance(version, int)
            or not (1 <= version <= SCHEMA_VERSION)
        ):
            raise RuleError("bad_event", f"{kind}: unsupported schema version {version!r}")
        values = {}
        for name, field_codec in cls.fields.items():
            if name not in data and name in cls.optional:
                continue
            if name not in data:
                raise RuleError("bad_event", f"{kind}: missing field {name!r}")
            try:
                values[name] = field_codec.decode(data[name])
            except RuleError as err:
                raise RuleError("bad_event", f"{kind}.{name}: {err.message}") from None
        return cls(**values)


def _event_type(kind: str) -> type[Event] | None:
    """The class of the events of type ``kind``, whichever game's they are."""
    found = _registered_type(kind)
    if found is None:
        for module in GAME_EVENT_MODULES:
            importlib.import_module(module)  # registers its events (once: imports are cached)
        found = _registered_type(kind)
    return found


def _registered_type(kind: str) -> type[Event] | None:
    """The class registered for ``kind`` so far, whichever game's it is."""
    found = EVENT_TYPES.get(kind)
    if found is None:
        for types in GAME_EVENT_TYPES.values():
            found = types.get(kind)
            if found is not None:
                break
    return found


@dataclass(frozen=True, slots=True)
class GameCreated(Event):
    type: ClassVar[str] = "game_created"
    ruleset: str
    rules_version: int
    players: int
    referee: str
    seed: int | None
    tiles: tuple[int, ...] | None
    invited: tuple[str, ...]
    creator: str
    #: None: no clock (every game before clocks existed).
    clock: ClockSpec | None = None
    #: The hidden bag order, its salt and the public commitment to them (``mathable.audit``).
    order: tuple[int, ...] | None = None
    salt: str | None = None
    commitment: str | None = None
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "ruleset": codec.STR,
        "rules_version": codec.INT,
        "players": codec.INT,
        "referee": codec.STR,
        "seed": codec.OPT_INT,
        "tiles": codec.OPT_INTS,
        "invited": codec.STRS,
        "creator": codec.STR,
        "clock": CLOCK,
        "order": codec.OPT_INTS,
        "salt": codec.OPT_STR,
        "commitment": codec.OPT_STR,
    }
    optional: ClassVar[dict[str, Any]] = {
        "clock": None,
        "order": None,
        "salt": None,
        "commitment": None,
    }


@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    type: ClassVar[str] = "player_joined"
    seat: int
    player: str
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT, "player": codec.STR}


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """The start draw (each seat's draws, the first kept, later ones tie-breaks), first seat
    and the racks dealt."""

    type: ClassVar[str] = "game_started"
    starts_clocks: ClassVar[bool] = True
    start_draws: tuple[tuple[int, ...], ...]
    first_seat: int
    racks: tuple[tuple[int, ...], ...]
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "start_draws": codec.INTS_LIST,
        "first_seat": codec.INT,
        "racks": codec.INTS_LIST,
    }


@dataclass(frozen=True, slots=True)
class TilePlaced(Event):
    type: ClassVar[str] = "tile_placed"
    seat: int
    square: int
    tile: int
    equations: tuple[Equation, ...]
    points: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "seat": codec.INT,
        "square": codec.SQUARE,
        "tile": codec.INT,
        "equations": EQUATIONS,
        "points": codec.INT,
    }


@dataclass(frozen=True, slots=True)
class ExtraTileDrawn(Event):
    type: ClassVar[str] = "extra_tile_drawn"
    seat: int
    tile: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT, "tile": codec.INT}


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    type: ClassVar[str] = "turn_ended"
    seat: int
    points: int
    bonus: int
    drawn: tuple[int, ...]
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "seat": codec.INT,
        "points": codec.INT,
        "bonus": codec.INT,
        "drawn": codec.INTS,
    }


@dataclass(frozen=True, slots=True)
class TilesExchanged(Event):
    type: ClassVar[str] = "tiles_exchanged"
    seat: int
    returned: tuple[int, ...]
    drawn: tuple[int, ...]
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "seat": codec.INT,
        "returned": codec.INTS,
        "drawn": codec.INTS,
    }


@dataclass(frozen=True, slots=True)
class Passed(Event):
    type: ClassVar[str] = "passed"
    seat: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT}


@dataclass(frozen=True, slots=True)
class Corrected(Event):
    """An opponent's correction of ``target``'s turn.

    ``removed`` (square, tile) go back to the rack; ``to_bag`` are extra tiles drawn
    right after an illegal placement, put back at the end of the bag; ``rescored``
    are placements that stay, with only their real claimed equations and the points
    those give. ``points_lost`` is what the turn loses in all (its bonus included).
    Rules version 1 never puts tiles back into the bag nor rescores.
    """

    type: ClassVar[str] = "corrected"
    seat: int
    target: int
    removed: tuple[tuple[int, int], ...]
    points_lost: int
    reason: str
    to_bag: tuple[int, ...] = ()
    rescored: tuple[PlacedTile, ...] = ()
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "seat": codec.INT,
        "target": codec.INT,
        "removed": codec.SQUARE_TILES,
        "points_lost": codec.INT,
        "reason": codec.STR,
        "to_bag": codec.INTS,
        "rescored": codec.tuple_of(PLACED_TILE),
    }
    optional: ClassVar[dict[str, Any]] = {"to_bag": (), "rescored": ()}


@dataclass(frozen=True, slots=True)
class Resigned(Event):
    type: ClassVar[str] = "resigned"
    seat: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT}


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """``seat`` ran out of time: it can no longer move or win. ``claimed_by`` the opponent
    who claimed it (clocks with ``on_timeout: claim``), else None (the server found it)."""

    type: ClassVar[str] = "timed_out"
    seat: int
    claimed_by: int | None = None
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "seat": codec.INT,
        "claimed_by": codec.OPT_INT,
    }
    optional: ClassVar[dict[str, Any]] = {"claimed_by": None}


@dataclass(frozen=True, slots=True)
class TimeGiven(Event):
    """``seat`` gave ``seconds`` to seat ``to``'s clock."""

    type: ClassVar[str] = "time_given"
    seat: int
    to: int
    seconds: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "seat": codec.INT,
        "to": codec.INT,
        "seconds": codec.INT,
    }


@dataclass(frozen=True, slots=True)
class VacationStarted(Event):
    """The player of ``seat`` went on vacation for ``days`` days from the event's time."""

    type: ClassVar[str] = "vacation_started"
    seat: int
    days: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT, "days": codec.INT}


@dataclass(frozen=True, slots=True)
class VacationEnded(Event):
    """The player of ``seat`` came back from vacation early."""

    type: ClassVar[str] = "vacation_ended"
    seat: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT}


@dataclass(frozen=True, slots=True)
class VacationDayUsed(Event):
    """``seat``'s clock reached zero and spent a vacation day instead: 24 hours more."""

    type: ClassVar[str] = "auto_vacation"
    seat: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT}


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    reason: str
    deductions: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "reason": codec.STR,
        "deductions": codec.INTS,
        "scores": codec.INTS,
        "winners": codec.INTS,
    }


@dataclass(frozen=True, slots=True)
class DrawsRevealed(Event):
    """At the end: the bag order committed to at creation and its salt, for anyone to check."""

    type: ClassVar[str] = "draws_revealed"
    order: tuple[int, ...]
    salt: str
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"order": codec.INTS, "salt": codec.STR}


@dataclass(frozen=True, slots=True)
class InvitationDeclined(Event):
    """An invitee refused their seat: it is free for anyone again."""

    type: ClassVar[str] = "invitation_declined"
    player: str
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"player": codec.STR}


@dataclass(frozen=True, slots=True)
class GameCancelled(Event):
    """The creator called off a game that had not started."""

    type: ClassVar[str] = "game_cancelled"
    player: str
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"player": codec.STR}


def _close_window(state: GameState, seat: int) -> GameState:
    """The next player acting closes the correction window of the turn before."""
    if state.correctable is not None and state.turn is not None and state.turn.seat == seat:
        return replace(state, correctable=None)
    return state


def apply(state: GameState, event: Event) -> GameState:
    """The state after ``event``. Trusts the event: it was checked when it was made.

    Mathable's own events are applied here, the lifecycle events every game shares by
    ``mathable.lifecycle.apply``.
    """
    state = replace(state, version=state.version + 1)
    match event:
        case GameStarted():
            bag = state.bag
            seats = list(state.seats)
            for index, rack in enumerate(event.racks):
                bag = remove_tiles(bag, rack)
                seats[index] = replace(seats[index], rack=rack)
            return replace(
                state,
                status="playing",
                bag=bag,
                seats=tuple(seats),
                turn=Turn(seat=event.first_seat, started_with=len(event.racks[event.first_seat])),
            )
        case TilePlaced():
            state = _close_window(state, event.seat)
            assert state.turn is not None
            seat = state.seats[event.seat]
            placed = PlacedTile(event.square, event.tile, event.equations, event.points)
            turn = replace(
                state.turn,
                placements=state.turn.placements + (placed,),
                extra_available=OPERATION[event.square] is not None,
            )
            return replace(
                state,
                position=state.position.place(event.square, event.tile),
                seats=state.with_seat(event.seat, rack=remove_tiles(seat.rack, (event.tile,))),
                turn=turn,
            )
        case ExtraTileDrawn():
            assert state.turn is not None
            seat = state.seats[event.seat]
            placements = state.turn.placements
            if placements:  # remember which placement earned it, for a correction
                placements = placements[:-1] + (replace(placements[-1], extra=event.tile),)
            return replace(
                state,
                bag=remove_tiles(state.bag, (event.tile,)),
                seats=state.with_seat(event.seat, rack=seat.rack + (event.tile,)),
                turn=replace(state.turn, placements=placements, extra_available=False),
            )
        case TurnEnded():
            assert state.turn is not None
            seat = state.seats[event.seat]
            ended = replace(state.turn, extra_available=False, bonus=event.bonus, ended_by="played")
            placed_any = bool(ended.placements)
            state = replace(
                state,
                bag=remove_tiles(state.bag, event.drawn),
                seats=state.with_seat(
                    event.seat,
                    rack=seat.rack + event.drawn,
                    score=seat.score + event.points + event.bonus,
                ),
                correctable=ended if state.options.referee == "players" and placed_any else None,
                last_turn=ended,
                idle_turns=0 if placed_any else state.idle_turns + 1,
                turns_played=state.turns_played + 1,
            )
            return replace(state, turn=state.next_turn(event.seat))
        case TilesExchanged():
            state = _close_window(state, event.seat)
            seat = state.seats[event.seat]
            rack = remove_tiles(seat.rack, event.returned) + event.drawn
            state = replace(
                state,
                bag=remove_tiles(state.bag, event.drawn) + event.returned,
                seats=state.with_seat(event.seat, rack=rack),
                last_turn=Turn(
                    seat=event.seat,
                    started_with=len(seat.rack),
                    ended_by="exchanged",
                    exchanged=len(event.returned),
                ),
                idle_turns=state.idle_turns + 1,
                turns_played=state.turns_played + 1,
            )
            return replace(state, turn=state.next_turn(event.seat))
        case Passed():
            state = _close_window(state, event.seat)
            state = replace(
                state,
                idle_turns=state.idle_turns + 1,
                turns_played=state.turns_played + 1,
                last_turn=replace(state.turn, ended_by="passed") if state.turn else None,
            )
            return replace(state, turn=state.next_turn(event.seat))
        case Corrected():
            return _apply_correction(state, event)
        case Resigned() | TimedOut():
            state = _close_window(state, event.seat)
        case GameEnded():
            state = replace(state, correctable=None)
    # The events every game has: ``mathable.lifecycle`` (imported here, not above: it
    # builds on the events of this module).
    from mathable import lifecycle

    shared = lifecycle.apply(state, event)
    if shared is not None:
        return shared
    raise RuleError("bad_event", f"cannot apply {event!r}")


def _apply_correction(state: GameState, event: Corrected) -> GameState:
    removed_squares = {square for square, _ in event.removed}
    position = state.position.with_changes((square, EMPTY) for square in removed_squares)
    target = state.seats[event.target]
    rack = remove_tiles(target.rack + tuple(tile for _, tile in event.removed), event.to_bag)
    rescored = {p.square: p for p in event.rescored}

    def cut(turn: Turn) -> Turn:
        kept = tuple(
            replace(p, equations=rescored[p.square].equations, points=rescored[p.square].points)
            if p.square in rescored
            else p
            for p in turn.placements
            if p.square not in removed_squares
        )
        if not removed_squares:  # only points fixed: the rest of the turn stands
            return replace(turn, placements=kept)
        return replace(turn, placements=kept, extra_available=False, bonus=0)

    turn, last_turn = state.turn, state.last_turn
    if turn is not None and turn.seat == event.target and turn.placements:
        # The turn is still being played: cut it back; its points are not scored yet.
        turn = cut(turn)
        seats = state.with_seat(event.target, rack=rack)
    else:
        seats = state.with_seat(event.target, rack=rack, score=target.score - event.points_lost)
        last_turn = cut(last_turn) if last_turn is not None else None
    return replace(
        state,
        position=position,
        bag=state.bag + event.to_bag,
        seats=seats,
        turn=turn,
        correctable=None,
        last_turn=last_turn,
    )


def replay(events: Iterable[Event]) -> GameState:
    """The state reached by folding ``events`` from an empty game."""
    state = GameState()
    for event in events:
        state = apply(state, event)
    return state


__all__ = [
    "BONUS",
    "RACK_SIZE",
    "SCHEMA_VERSION",
    "Corrected",
    "DrawsRevealed",
    "Event",
    "ExtraTileDrawn",
    "GameCancelled",
    "GameCreated",
    "GameEnded",
    "GameStarted",
    "InvitationDeclined",
    "Passed",
    "PlayerJoined",
    "Resigned",
    "TilePlaced",
    "TilesExchanged",
    "TimeGiven",
    "TimedOut",
    "TurnEnded",
    "VacationDayUsed",
    "VacationEnded",
    "VacationStarted",
    "apply",
    "replay",
]
