"""Mathable's own events, and ``apply``: one event folded into a Mathable game.

``apply(state, event)`` folds one event into the state and never validates or
draws; ``replay(events)`` folds a whole log.

>>> e = TilesExchanged(seat=0, returned=(1, 2), drawn=(3, 4))
>>> Event.from_dict(e.to_dict()) == e, e.to_dict()["type"]
(True, 'tiles_exchanged')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from mathable.core import codec, lifecycle
from mathable.core.errors import RuleError
from mathable.core.events import (
    SCHEMA_VERSION,
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
from mathable.core.state import remove_tiles
from mathable.core.words import says
from mathable.games.mathable.board import EMPTY, OPERATION, OPERATIONS, parse_square, square_name
from mathable.games.mathable.state import (
    BONUS,
    RULESET,
    Equation,
    GameState,
    MathableTurn,
    PlacedTile,
)
from mathable.games.mathable.tiles import RACK_SIZE


def _square(value: Any) -> int:
    return parse_square(codec.STR.decode(value))


def _square_or_index(value: Any) -> int:
    """A square by name; schema-1 logs written before names also hold plain indexes."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 196:
        return value
    return _square(value)


def _square_tile(value: Any) -> tuple[int, int]:
    items = codec.LIST.decode(value)
    if len(items) != 2:
        raise codec.bad(says("a [square, tile] pair"), value)
    return (_square_or_index(items[0]), codec.INT.decode(items[1]))


def _op(value: Any) -> str:
    if value not in OPERATIONS:
        raise codec.bad(says("one of + - x /"), value)
    return str(value)


SQUARE: codec.Codec[int] = codec.Codec(square_name, _square)
OP: codec.Codec[str] = codec.Codec(lambda v: v, _op)
SQUARE_TILES: codec.Codec[tuple[tuple[int, int], ...]] = codec.tuple_of(
    codec.Codec(lambda v: [square_name(v[0]), v[1]], _square_tile)
)
EQUATION = codec.record(Equation, {"near": SQUARE, "far": SQUARE, "op": OP})
EQUATIONS = codec.tuple_of(EQUATION)
PLACED_TILE = codec.record(
    PlacedTile,
    {"square": SQUARE, "tile": codec.INT, "equations": EQUATIONS, "points": codec.INT},
)


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """The start draw (each seat's draws, the first kept, later ones tie-breaks), first seat
    and the racks dealt."""

    type: ClassVar[str] = "game_started"
    game: ClassVar[str] = RULESET
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
    game: ClassVar[str] = RULESET
    seat: int
    square: int
    tile: int
    equations: tuple[Equation, ...]
    points: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "seat": codec.INT,
        "square": SQUARE,
        "tile": codec.INT,
        "equations": EQUATIONS,
        "points": codec.INT,
    }


@dataclass(frozen=True, slots=True)
class ExtraTileDrawn(Event):
    type: ClassVar[str] = "extra_tile_drawn"
    game: ClassVar[str] = RULESET
    seat: int
    tile: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT, "tile": codec.INT}


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    type: ClassVar[str] = "turn_ended"
    game: ClassVar[str] = RULESET
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
    game: ClassVar[str] = RULESET
    seat: int
    returned: tuple[int, ...]
    drawn: tuple[int, ...]
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "seat": codec.INT,
        "returned": codec.INTS,
        "drawn": codec.INTS,
    }


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
    game: ClassVar[str] = RULESET
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
        "removed": SQUARE_TILES,
        "points_lost": codec.INT,
        "reason": codec.STR,
        "to_bag": codec.INTS,
        "rescored": codec.tuple_of(PLACED_TILE),
    }
    optional: ClassVar[dict[str, Any]] = {"to_bag": (), "rescored": ()}


def _close_window(state: GameState, seat: int) -> GameState:
    """The next player acting closes the correction window of the turn before."""
    if state.correctable is not None and state.turn is not None and state.turn.seat == seat:
        return replace(state, correctable=None)
    return state


def apply(state: GameState, event: Event) -> GameState:
    """The state after ``event``. Trusts the event: it was checked when it was made.

    Mathable's own events are applied here, the lifecycle events every game shares by
    ``mathable.core.lifecycle.apply``. The new version is set with each event's own
    changes (one copy of the state, not two: a move applies its events twice, once
    when checked and once when written).
    """
    version = state.version + 1
    match event:
        case GameStarted():
            bag = state.bag
            seats = list(state.seats)
            for index, rack in enumerate(event.racks):
                bag = remove_tiles(bag, rack)
                seats[index] = replace(seats[index], rack=rack)
            return replace(
                state,
                version=version,
                status="playing",
                bag=bag,
                seats=tuple(seats),
                turn=MathableTurn(
                    seat=event.first_seat, started_with=len(event.racks[event.first_seat])
                ),
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
                version=version,
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
                version=version,
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
                version=version,
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
                version=version,
                bag=remove_tiles(state.bag, event.drawn) + event.returned,
                seats=state.with_seat(event.seat, rack=rack),
                last_turn=MathableTurn(
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
                version=version,
                idle_turns=state.idle_turns + 1,
                turns_played=state.turns_played + 1,
                last_turn=replace(state.turn, ended_by="passed") if state.turn else None,
            )
            return replace(state, turn=state.next_turn(event.seat))
        case Corrected():
            return _apply_correction(replace(state, version=version), event)
        case Resigned() | TimedOut():
            state = _close_window(state, event.seat)
        case GameEnded():
            state = replace(state, correctable=None)
    shared = lifecycle.apply(replace(state, version=version), event)
    if shared is not None:
        return shared
    raise RuleError(
        "bad_event",
        says("cannot apply {event}", event=repr(event)),
        {"type": getattr(event, "type", None)},
    )


def _apply_correction(state: GameState, event: Corrected) -> GameState:
    removed_squares = {square for square, _ in event.removed}
    position = state.position.with_changes((square, EMPTY) for square in removed_squares)
    target = state.seats[event.target]
    rack = remove_tiles(target.rack + tuple(tile for _, tile in event.removed), event.to_bag)
    rescored = {p.square: p for p in event.rescored}

    def cut(turn: MathableTurn) -> MathableTurn:
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
