"""Summy's commands checked against a state: ``check(state, command)`` gives the events
it produces, or raises RuleError (a stable code and a reason a player understands).

A turn is one equation (``PlayEquation``), a discard (``Discard``) or a pass.
Joining, resigning, clocks and vacations use the same commands as Mathable.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Final

from mathable.core import lifecycle
from mathable.core.bag import BagPolicy, OrderedBag
from mathable.core.errors import RuleError, shown
from mathable.core.events import Event, Passed
from mathable.core.lifecycle import (
    LifecycleCommand,
    Pass,
    default_policy,
    end_if_over,
    is_int,
    turn_of,
)
from mathable.core.state import has_tiles
from mathable.core.words import N_, Text, says
from mathable.games.summy.equation import check_equation, text_of
from mathable.games.summy.events import EquationPlayed, SummyStarted, TilesDiscarded, apply
from mathable.games.summy.movegen import has_move
from mathable.games.summy.moves import Discard, PlayEquation
from mathable.games.summy.state import (
    ACROSS,
    DIRECTIONS,
    DOWN,
    MAX_COORDINATE,
    RULES_VERSION,
    RULESET,
    V2,
    V3,
    Closed,
    Square,
    SummyState,
)
from mathable.games.summy.tiles import HAND_SIZE, NAMES, SUPPLY_SET, digit_sum

SummyCommand = PlayEquation | Discard | Pass | LifecycleCommand


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
            "gap",
            says("the new tiles must lie in one unbroken line, no empty square between them"),
            {"direction": direction, "squares": _squares(new), "empty": _xy((x, y))},
        )
    return tuple(squares), tuple(tiles)


def _gap_to_table(
    table: Mapping[Square, int], squares: Sequence[Square], direction: str
) -> RuleError | None:
    """RuleError ``gap`` when the new tiles' line, which holds no table tile, stops short
    of one in the same line (within a hand's length); None when none is that near."""
    dx, dy = _step(direction)
    first, last = squares[0], squares[-1]
    for (x, y), (sx, sy) in ((first, (-dx, -dy)), (last, (dx, dy))):
        between: list[Square] = []
        for _ in range(HAND_SIZE):
            x, y = x + sx, y + sy
            if (x, y) in table:
                return RuleError(
                    "gap",
                    says(
                        "the new tiles stop short of the {tile} at ({x}, {y}): "
                        "no empty square may lie between them and the table's tiles",
                        tile=NAMES[table[(x, y)]],
                        x=x,
                        y=y,
                    ),
                    {
                        "direction": direction,
                        "squares": _squares(squares),
                        "empty": _xy(between[0]),
                        "table_tile": {"x": x, "y": y, "tile": NAMES[table[(x, y)]]},
                    },
                )
            between.append((x, y))
    return None


def _judge_line(table: Mapping[Square, int], new: Mapping[Square, int], direction: str) -> Judged:
    squares, tiles = line_through(table, new, direction)
    if len(squares) == len(new):
        gap = _gap_to_table(table, squares, direction)
        if gap is not None:
            raise gap
        raise RuleError(
            "no_table_tile",
            says(
                "{equation}: an equation uses a tile already on the table", equation=text_of(tiles)
            ),
            {"equation": text_of(tiles), "direction": direction, "squares": _squares(squares)},
        )
    return Judged(direction, squares, tiles, check_equation(tiles))


def _xy(square: Square) -> dict[str, int]:
    """A square of the table as data: ``{"x": .., "y": ..}``."""
    return {"x": square[0], "y": square[1]}


def _squares(squares: Iterable[Square]) -> list[dict[str, int]]:
    """Squares as data, in table order (row by row)."""
    return [_xy(s) for s in sorted(squares, key=lambda s: (s[1], s[0]))]


#: How many of a tile a hand holds, said with the tile (``only two 9``).
_COUNT_WORDS: Final = (
    N_("no {tile}"),
    N_("only one {tile}"),
    N_("only two {tile}"),
    N_("only three {tile}"),
    N_("only four {tile}"),
    N_("only five {tile}"),
)


def not_in_hand(hand: Sequence[int], tiles: Sequence[int]) -> RuleError:
    """RuleError ``tile_not_in_hand``: which of ``tiles`` the hand lacks, named.

    >>> err = not_in_hand((1, 2, 9), (9, 9, 12))
    >>> err.message
    'you have only one 9 and no x in your hand'
    >>> err.details
    {'tiles': ['9', 'x'], 'hand': ['1', '2', '9']}
    """
    lacking = list(tiles)
    for tile in hand:
        if tile in lacking:
            lacking.remove(tile)
    said: Text | None = None
    for tile in dict.fromkeys(lacking):
        have = list(hand).count(tile)
        one = (
            says(_COUNT_WORDS[have], tile=NAMES[tile])
            if have < len(_COUNT_WORDS)
            else says("only {count} {tile}", count=have, tile=NAMES[tile])
        )
        said = one if said is None else says("{first} and {second}", first=said, second=one)
    return RuleError(
        "tile_not_in_hand",
        says("you have {tiles} in your hand", tiles=said),
        {"tiles": [NAMES[t] for t in lacking], "hand": [NAMES[t] for t in hand]},
    )


def _spoils(square: Square, end: Closed) -> RuleError:
    """The refusal of a tile on ``square``, an end of the equation ``end`` tells."""
    x, y = square
    return RuleError(
        "equation_end",
        says(
            "({x}, {y}) is just before {equation}: the squares at the ends of an "
            "equation on the table stay empty",
            x=x,
            y=y,
            equation=end.equation,
        )
        if end.side == "before"
        else says(
            "({x}, {y}) is just after {equation}: the squares at the ends of an "
            "equation on the table stay empty",
            x=x,
            y=y,
            equation=end.equation,
        ),
        {
            "square": {"x": x, "y": y},
            "equation": end.equation,
            "start": {"x": end.start[0], "y": end.start[1]},
            "direction": end.direction,
            "side": end.side,
        },
    )


def judge(
    table: Mapping[Square, int],
    hand: Sequence[int],
    placements: Sequence[tuple[int, int, int]],
    direction: str | None = None,
    closed: Mapping[Square, Closed] | None = None,
) -> Judged:
    """The equation ``placements`` form on ``table`` from ``hand``; RuleError if none.

    ``closed`` are the squares no tile may take (the ends of the equations on the
    table, from rules version 3: ``SummyState.closed``).

    >>> from mathable.games.summy.tiles import parse_tiles
    >>> new = [(-3, 0, 1), (-2, 0, 10), (-1, 0, 2), (1, 0, 3)]
    >>> j = judge({(0, 0): 14}, parse_tiles("12+3"), new)
    >>> j.equation, j.points, j.direction
    ('1+2=3', 6, 'across')
    """
    if not placements:
        raise RuleError(
            "no_tiles",
            says("lay at least one tile from your hand"),
            {"field": "placements", "count": 0},
        )
    if len(placements) > HAND_SIZE:
        raise RuleError(
            "too_many_tiles",
            says("a hand holds {max} tiles at most", max=HAND_SIZE),
            {"field": "placements", "count": len(placements), "max": HAND_SIZE},
        )
    if direction is not None and direction not in DIRECTIONS:
        raise RuleError(
            "bad_direction",
            says("the direction is 'across' or 'down'"),
            {"field": "direction", "value": shown(direction), "accepted": list(DIRECTIONS)},
        )
    new: dict[Square, int] = {}
    for placement in placements:
        x, y, tile = placement
        if not (is_int(x) and is_int(y)) or max(abs(x), abs(y)) > MAX_COORDINATE:
            raise RuleError(
                "off_table",
                says("x and y are whole numbers from -{max} to {max}", max=MAX_COORDINATE),
                {
                    "square": {"x": shown(x), "y": shown(y)},
                    "min": -MAX_COORDINATE,
                    "max": MAX_COORDINATE,
                },
            )
        if not is_int(tile) or not 0 <= tile < len(NAMES):
            raise RuleError(
                "bad_tile",
                says("not a Summy tile (0-9, +, -, x, :, =)"),
                {"square": _xy((x, y)), "value": shown(tile), "accepted": list(NAMES)},
            )
        if (x, y) in new:
            raise RuleError(
                "square_reused",
                says("({x}, {y}) is used twice in this move", x=x, y=y),
                {"square": _xy((x, y))},
            )
        if (x, y) in table:
            raise RuleError(
                "square_taken",
                says("({x}, {y}) already holds {holds}", x=x, y=y, holds=NAMES[table[(x, y)]]),
                {"square": _xy((x, y)), "holds": NAMES[table[(x, y)]]},
            )
        new[(x, y)] = tile
    for square in new:
        if closed and square in closed:
            raise _spoils(square, closed[square])
    if not has_tiles(tuple(hand), [p[2] for p in placements]):
        raise not_in_hand(tuple(hand), [p[2] for p in placements])
    if len(new) > 1:
        xs = {s[0] for s in new}
        ys = {s[1] for s in new}
        if len(ys) == 1:
            along = ACROSS
        elif len(xs) == 1:
            along = DOWN
        else:
            raise RuleError(
                "not_in_line",
                says("the new tiles must lie in one row or one column"),
                {"squares": _squares(new)},
            )
        if direction is not None and direction != along:
            raise RuleError(
                "wrong_direction",
                says("these tiles lie across, not down")
                if along == ACROSS
                else says("these tiles lie down, not across"),
                {"direction": direction, "along": along, "squares": _squares(new)},
            )
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
            says("this tile makes an equation across and down: say which (direction)"),
            {
                "square": _xy(next(iter(new))),
                "equations": [{"direction": j.direction, "equation": j.equation} for j in found],
            },
        )
    # Neither line is an equation: the longer one's reason is the likelier mistake.
    longest = max(DIRECTIONS, key=lambda d: len(line_through(table, new, d)[0]))
    raise errors[DIRECTIONS.index(longest)]


# --- the bag --------------------------------------------------------------------


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


#: The fold of one Summy command (``mathable.core.lifecycle.Fold``).
_Fold = lifecycle.Fold[SummyState]


def check(state: SummyState, command: Any, bag: BagPolicy | None = None) -> list[Event]:
    """The events ``command`` produces in ``state``; RuleError if the rules refuse it."""
    fold = _Fold(state, bag if bag is not None else default_policy(state), SUMMY)
    match command:
        case PlayEquation():
            _play(fold, command)
        case Discard():
            _discard(fold, command)
        case Pass():
            _pass(fold, command)
        case _:
            if not lifecycle.check(fold, command):
                raise RuleError(
                    "bad_command",
                    says("Summy has no such move: {command}", command=type(command).__name__),
                    {"command": type(command).__name__},
                )
    return fold.events


# --- starting ---------------------------------------------------------------------------


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


def _play(fold: _Fold, command: PlayEquation) -> None:
    state = fold.state
    turn_of(state, command.seat)
    judged = judge(
        state.table,
        state.seats[command.seat].rack,
        command.placements,
        command.direction,
        state.closed,
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
    end_if_over(fold)


def _discard(fold: _Fold, command: Discard) -> None:
    state = fold.state
    turn_of(state, command.seat)
    tiles = tuple(command.tiles)
    if not tiles:
        raise RuleError(
            "no_tiles", says("discard at least one tile"), {"field": "tiles", "count": 0}
        )
    if not all(is_int(t) and 0 <= t < len(NAMES) for t in tiles):
        raise RuleError(
            "bad_tile",
            says("not a Summy tile (0-9, +, -, x, :, =)"),
            {
                "field": "tiles",
                "value": [shown(t) for t in tiles if not (is_int(t) and 0 <= t < len(NAMES))],
                "accepted": list(NAMES),
            },
        )
    if not has_tiles(state.seats[command.seat].rack, tiles):
        raise not_in_hand(state.seats[command.seat].rack, tiles)
    if not state.supply and state.rules_version < V3:
        # Rules version 3 allows it, as printed: the tiles leave the game, none is drawn.
        raise RuleError(
            "supply_empty", says("the supply is empty: form an equation or pass"), {"supply": 0}
        )
    drawn = fold.draw(len(tiles))
    fold.emit(TilesDiscarded(seat=command.seat, discarded=tiles, drawn=drawn))
    end_if_over(fold)


def _pass(fold: _Fold, command: Pass) -> None:
    """A pass: once the supply is empty (rules version 2; version 1 took one at any time)."""
    state = fold.state
    turn_of(state, command.seat)
    if state.supply and state.rules_version >= V2:
        raise RuleError(
            "supply_not_empty",
            says(
                "the supply still holds {count} tiles: form an equation or discard "
                "(passing comes once the supply is empty)",
                count=len(state.supply),
            ),
            {"supply": len(state.supply)},
        )
    fold.emit(Passed(command.seat))
    end_if_over(fold)


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
    if state.rules_version >= V3:
        return _printed_end(state, active)
    if not state.supply and any(not state.seats[s].rack for s in active):
        return "hand_emptied"
    if state.dry_turns >= len(active):
        return "no_equations"
    if state.idle_turns >= 2 * len(active):
        return "idle"
    return None


def _printed_end(state: SummyState, active: Sequence[int]) -> str | None:
    """The end of rules version 3: only with the supply empty, when no seat still in play
    can form an equation (``no_equations``), or after two full rounds of turns without
    one (``idle``: players who could play but will not)."""
    if state.supply:
        return None
    hands = [state.seats[s].rack for s in active if state.seats[s].rack]
    table = frozenset(state.table.items())
    closed = frozenset(state.closed)
    if not any(can_play(table, closed, tuple(sorted(hand))) for hand in hands):
        return "no_equations"
    if state.dry_turns >= 2 * len(hands):
        return "idle"
    return None


@lru_cache(maxsize=64)
def can_play(
    table: frozenset[tuple[Square, int]], closed: frozenset[Square], hand: tuple[int, ...]
) -> bool:
    """``has_move`` for a hand (its tiles sorted) on a table, remembered for the last few
    asked. With the supply empty every command asks it of every hand, and a pass changes
    neither the table nor any hand (a discard changes one hand): the answers are kept,
    not proved again."""
    return has_move(dict(table), hand, closed)


def _deductions(state: SummyState) -> tuple[int, ...]:
    """The digits left in each hand (rules versions 1 and 2); nothing from version 3,
    where the print scores equations only."""
    if state.rules_version >= V3:
        return tuple(0 for _ in state.seats)
    return tuple(digit_sum(seat.rack) for seat in state.seats)


def expected_draw(state: SummyState, event: Event) -> Event | None:
    """What a drawing event should hold had every tile come off the front of the supply
    (``mathable.core.audit`` checks a finished game's draws with it)."""
    match event:
        case SummyStarted():
            return deal(state, OrderedBag())
        case EquationPlayed() | TilesDiscarded():
            return replace(event, drawn=state.supply[: len(event.drawn)])
    return None


#: Summy's lifecycle (``mathable.core.lifecycle``): what it shares with every game.
SUMMY: lifecycle.GameRules[SummyState] = lifecycle.GameRules(
    ruleset=RULESET,
    rules_version=RULES_VERSION,
    tile_set=SUPPLY_SET,
    apply=apply,
    deal=deal,
    end_reason=end_reason,
    deductions=_deductions,
    referees=("server",),
    bad_referee=says("in Summy the server referees"),
    bad_tiles=says("tiles must list the 93 tiles of the supply, each once"),
    bad_order=says("a supply order lists all 93 tiles, and only without tiles"),
)


__all__ = [
    "Discard",
    "Judged",
    "PlayEquation",
    "SummyCommand",
    "can_play",
    "check",
    "deal",
    "default_policy",
    "end_reason",
    "expected_draw",
    "first_seat",
    "judge",
    "line_through",
]
