"""Summy's own events, and ``apply``: the state after an event (never validates).

A Summy game's log is made of Summy's events (``summy_started``,
``equation_played``, ``tiles_discarded``) and the events any game has
(``game_created`` with ``ruleset: "summy"``, ``player_joined``, ``passed``,
``resigned``, ``timed_out``, clock and vacation events, ``game_ended``,
``draws_revealed``...). Tiles are written as their strings in Summy's events.

>>> e = TilesDiscarded(seat=0, discarded=(12,), drawn=(3,))
>>> e.to_dict()
{'type': 'tiles_discarded', 'v': 1, 'seat': 0, 'discarded': ['x'], 'drawn': ['3']}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, ClassVar

from mathable.core import codec, lifecycle
from mathable.core.errors import RuleError, shown
from mathable.core.events import Event, Passed, Resigned, TimedOut
from mathable.core.state import Turn, remove_tiles
from mathable.core.words import says
from mathable.games.summy.state import ACROSS, V2, V3, Closed, Play, Square, SummyState
from mathable.games.summy.tiles import NAMES, parse_tile


def _tile(value: Any) -> int:
    try:
        return parse_tile(value)
    except RuleError:
        raise RuleError(
            "bad_event",
            says("expected a tile, got {got}", got=repr(str(value)[:20])),
            {"expected": "a tile", "got": shown(value, 20)},
        ) from None


TILE: codec.Codec[int] = codec.Codec(lambda t: NAMES[t], _tile)
TILES = codec.tuple_of(TILE)
HANDS = codec.tuple_of(TILES)


def _placement(value: Any) -> tuple[int, int, int]:
    if not isinstance(value, dict) or set(value) != {"x", "y", "tile"}:
        raise RuleError(
            "bad_event",
            says("a placement is {shape}", shape="{x, y, tile}"),
            {"expected": "{x, y, tile}", "got": shown(value, 60)},
        )
    return (codec.INT.decode(value["x"]), codec.INT.decode(value["y"]), _tile(value["tile"]))


PLACEMENTS: codec.Codec[tuple[tuple[int, int, int], ...]] = codec.tuple_of(
    codec.Codec(lambda p: {"x": p[0], "y": p[1], "tile": NAMES[p[2]]}, _placement)
)


@dataclass(frozen=True, slots=True)
class SummyStarted(Event):
    """The hands dealt (in seat order, from the front of the supply) and the first seat."""

    type: ClassVar[str] = "summy_started"
    game: ClassVar[str] = "summy"
    starts_clocks: ClassVar[bool] = True
    first_seat: int
    hands: tuple[tuple[int, ...], ...]
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"first_seat": codec.INT, "hands": HANDS}


@dataclass(frozen=True, slots=True)
class EquationPlayed(Event):
    """``seat`` laid ``placements`` forming ``equation`` (the whole line), scored, drew."""

    type: ClassVar[str] = "equation_played"
    game: ClassVar[str] = "summy"
    seat: int
    placements: tuple[tuple[int, int, int], ...]
    direction: str
    equation: str
    points: int
    drawn: tuple[int, ...]
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "seat": codec.INT,
        "placements": PLACEMENTS,
        "direction": codec.STR,
        "equation": codec.STR,
        "points": codec.INT,
        "drawn": TILES,
    }


@dataclass(frozen=True, slots=True)
class TilesDiscarded(Event):
    """``seat`` put ``discarded`` out of the game and drew ``drawn``."""

    type: ClassVar[str] = "tiles_discarded"
    game: ClassVar[str] = "summy"
    seat: int
    discarded: tuple[int, ...]
    drawn: tuple[int, ...]
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "seat": codec.INT,
        "discarded": TILES,
        "drawn": TILES,
    }


def _with_ends(state: SummyState, event: EquationPlayed) -> SummyState:
    """``state`` (its table holding the new equation) with the squares just before and
    just after the equation among its ends (a square already an end stays as it was)."""
    dx, dy = (1, 0) if event.direction == ACROSS else (0, 1)
    table = state.table
    x, y = min((p[0], p[1]) for p in event.placements)
    while (x - dx, y - dy) in table:
        x, y = x - dx, y - dy
    start: Square = (x, y)
    while (x + dx, y + dy) in table:
        x, y = x + dx, y + dy
    ends = dict(state.ends)
    for square, side in (((start[0] - dx, start[1] - dy), "before"), ((x + dx, y + dy), "after")):
        ends.setdefault(square, Closed(event.equation, event.direction, start, side))
    return replace(state, ends=MappingProxyType(ends))


def _next_turn(state: SummyState, seat: int) -> Turn:
    """The next seat's turn; from rules version 3 a seat whose hand is empty is skipped
    (unless every seat's is: then the game is over and the turn does not matter)."""
    turn = state.next_turn(seat)
    if state.rules_version < V3:
        return turn
    for _ in state.seats:
        if state.seats[turn.seat].rack:
            return turn
        turn = state.next_turn(turn.seat)
    return turn


def _ended_turn(
    state: SummyState, seat: int, how: str, *, dry: bool, discarded: int = 0
) -> SummyState:
    """Bookkeeping common to every way of ending a turn, then the next seat's turn.

    ``dry``: the turn, without an equation, counts toward the round that ends a game whose
    supply is empty (any other turn starts that round again). From rules version 3 a turn
    that leaves its player's hand empty starts the rounds again too: they are rounds of
    the players with tiles, and there is one fewer.
    """
    if state.rules_version >= V3 and not state.seats[seat].rack:
        dry = False
    before = state.turn if state.turn is not None else Turn(seat=seat, started_with=0)
    state = replace(
        state,
        last_turn=replace(before, ended_by=how, exchanged=discarded),
        idle_turns=0 if how == "played" else state.idle_turns + 1,
        dry_turns=state.dry_turns + 1 if dry else 0,
        turns_played=state.turns_played + 1,
    )
    return replace(state, turn=_next_turn(state, seat))


def apply(state: SummyState, event: Event) -> SummyState:
    """The state after ``event``. Trusts the event: it was checked when it was made.

    Summy's own events and passes are applied here, the lifecycle events every game
    shares by ``mathable.core.lifecycle.apply``.
    """
    state = replace(state, version=state.version + 1)
    match event:
        case SummyStarted():
            supply = state.supply
            seats = list(state.seats)
            for index, hand in enumerate(event.hands):
                supply = remove_tiles(supply, hand)
                seats[index] = replace(seats[index], rack=hand)
            first = event.first_seat
            return replace(
                state,
                status="playing",
                supply=supply,
                seats=tuple(seats),
                turn=Turn(seat=first, started_with=len(event.hands[first])),
            )
        case EquationPlayed():
            seat = state.seats[event.seat]
            table = dict(state.table)
            for x, y, tile in event.placements:
                table[(x, y)] = tile
            hand = remove_tiles(seat.rack, [p[2] for p in event.placements]) + event.drawn
            state = replace(
                state,
                table=MappingProxyType(table),
                supply=remove_tiles(state.supply, event.drawn),
                seats=state.with_seat(event.seat, rack=hand, score=seat.score + event.points),
                last_play=Play(
                    event.seat, event.placements, event.direction, event.equation, event.points
                ),
            )
            state = _with_ends(state, event)
            return _ended_turn(state, event.seat, "played", dry=False)
        case TilesDiscarded():
            seat = state.seats[event.seat]
            hand = remove_tiles(seat.rack, event.discarded) + event.drawn
            supply_was_empty = not state.supply
            state = replace(
                state,
                supply=remove_tiles(state.supply, event.drawn),
                seats=state.with_seat(event.seat, rack=hand),
            )
            # Rules version 1 counted a discard that took the last tiles of the supply
            # toward the round without equations; from version 2 the round counts only
            # turns that begin with the supply empty (RULES.md: "a full round of turns
            # without an equation with the supply empty").
            dry = not state.supply if state.rules_version < V2 else supply_was_empty
            return _ended_turn(
                state, event.seat, "discarded", dry=dry, discarded=len(event.discarded)
            )
        case Passed():
            return _ended_turn(state, event.seat, "passed", dry=not state.supply)
    shared = lifecycle.apply(state, event)
    if shared is None:
        raise RuleError(
            "bad_event",
            says("a Summy game cannot apply {type}", type=event.type),
            {"type": event.type},
        )
    if shared.rules_version < V3:
        return shared
    if isinstance(event, Resigned | TimedOut):
        # One player fewer: the rounds without an equation begin again.
        shared = replace(shared, dry_turns=0)
    turn = shared.turn
    if turn is not None and not shared.seats[turn.seat].rack:
        # A resignation or a timeout handed the turn to a seat with an empty hand.
        return replace(shared, turn=_next_turn(shared, turn.seat))
    return shared


def replay(events: Iterable[Event]) -> SummyState:
    """The state reached by folding ``events`` from an empty Summy game."""
    state = SummyState()
    for event in events:
        state = apply(state, event)
    return state


__all__ = ["SUMMY_EVENTS", "EquationPlayed", "SummyStarted", "TilesDiscarded", "apply", "replay"]

#: Summy's own kinds of event (the others are shared with every game).
SUMMY_EVENTS: frozenset[type[Event]] = frozenset((SummyStarted, EquationPlayed, TilesDiscarded))
