"""Playing a turn of Mathable: placing tiles one by one (``Place``, ``DrawExtra``,
``EndTurn``) or a whole turn at once (``PlayTurn``), exchanging tiles (``Exchange``), and
what a pass or a seat leaving does to a turn already begun.

Each check emits its events into the command's ``Fold`` or raises RuleError (a refused
placement explained by ``refusals``); ``commands.check`` calls them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mathable.core import lifecycle
from mathable.core.errors import RuleError, shown
from mathable.core.events import Passed
from mathable.core.lifecycle import Pass, end_if_over, is_int, turn_of
from mathable.core.state import has_tiles
from mathable.core.words import N_, says
from mathable.games.mathable.board import OPERATION, OPERATIONS, PAIRS, PREMIUM, SIZE, square_name
from mathable.games.mathable.ending import refuse_if_ending
from mathable.games.mathable.events import ExtraTileDrawn, TilePlaced, TilesExchanged, TurnEnded
from mathable.games.mathable.position import Position
from mathable.games.mathable.refusals import explain_refusal, real_equations
from mathable.games.mathable.state import BONUS, Equation, GameState, MathableTurn
from mathable.games.mathable.tiles import RACK_SIZE

#: The fold of one Mathable command (``mathable.core.lifecycle.Fold``).
_Fold = lifecycle.Fold[GameState]

MAX_TURN_PLACEMENTS = 16


@dataclass(frozen=True, slots=True)
class Place:
    """Place one tile. In players mode ``claims`` states the equations it completes."""

    seat: int
    square: int
    tile: int
    claims: tuple[Equation, ...] | None = None


@dataclass(frozen=True, slots=True)
class DrawExtra:
    """Draw the extra tile allowed right after a placement on an operation square."""

    seat: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn: score it, add the bonus, refill the rack."""

    seat: int


@dataclass(frozen=True, slots=True)
class TurnPlacement:
    """One placement of a whole turn sent at once."""

    square: int
    tile: int
    draw_extra: bool = False
    claims: tuple[Equation, ...] | None = None


@dataclass(frozen=True, slots=True)
class PlayTurn:
    """A whole turn at once, all or nothing: placements (with extra draws), then the end.

    Every tile placed must be on the rack the turn starts with: a tile drawn as an
    extra during it can only be placed in a turn played placement by placement.
    ``draw_extra`` on a placement that is not on an operation square is refused;
    with the bag empty it is skipped.
    """

    seat: int
    placements: tuple[TurnPlacement, ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class Exchange:
    """Give 1 to 7 tiles back and draw as many; ends the turn."""

    seat: int
    tiles: tuple[int, ...]


def _own_turn(state: GameState, seat: int) -> MathableTurn:
    """``seat``'s turn (RuleError unless it is theirs), as Mathable holds it."""
    turn_of(state, seat)
    assert state.turn is not None  # turn_of refuses a game with no turn
    return state.turn


#: What a turn already begun refuses, said whole (``_turn_start``'s ``what``).
_INSTEAD_OF = {
    "pass": N_("you have placed tiles this turn; end the turn instead of pass"),
    "sending a whole turn": N_(
        "you have placed tiles this turn; end the turn instead of sending a whole turn"
    ),
    "exchanging": N_("you have placed tiles this turn; end the turn instead of exchanging"),
}


def _turn_start(state: GameState, seat: int, what: str) -> MathableTurn:
    turn = _own_turn(state, seat)
    if turn.placements:
        raise RuleError(
            "turn_in_progress",
            says(_INSTEAD_OF[what]),
            {"squares": [square_name(p.square) for p in turn.placements]},
        )
    return turn


def _check_square(square: Any, field: str = "square") -> int:
    """``square`` as a board index; RuleError ``bad_square`` when it is none (bots call us)."""
    if not is_int(square) or not 0 <= square < SIZE * SIZE:
        written = repr(square)[:20]
        raise RuleError(
            "bad_square",
            says("{value} is not a square: squares are 0 to 195 (A1 to N14)", value=written),
            {"field": field, "value": shown(square), "accepted": "0 to 195 (A1 to N14)"},
        )
    return int(square)


def place(
    fold: _Fold, seat: int, square: int, tile: int, claims: tuple[Equation, ...] | None
) -> None:
    state = fold.state
    turn_of(state, seat)
    refuse_if_ending(state)
    _check_square(square)
    if not is_int(tile):
        raise RuleError(
            "bad_tile",
            says("{value} is not a tile: tiles are whole numbers", value=repr(tile)[:20]),
            {"field": "tile", "value": shown(tile), "accepted": "a whole number"},
        )
    rack = state.seats[seat].rack
    if tile not in rack:
        raise RuleError(
            "tile_not_in_rack",
            says(
                "there is no {tile} on your rack ({rack})",
                tile=tile,
                rack=", ".join(map(str, sorted(rack))),
            ),
            {"tile": tile, "tiles": [tile], "rack": list(rack)},
        )
    if state.position.cells[square] >= 0:
        raise explain_refusal(state.position, square, tile)
    premium = PREMIUM[square]
    if state.options.referee == "players":
        equations = _check_claims(state.position, square, claims)
        points = tile * len(equations) * premium
    else:
        equations = real_equations(state.position, square, tile)
        if not equations:
            raise explain_refusal(state.position, square, tile)
        points = tile * len(equations) * premium
    fold.emit(TilePlaced(seat=seat, square=square, tile=tile, equations=equations, points=points))


def _check_claims(
    position: Position, square: int, claims: tuple[Equation, ...] | None
) -> tuple[Equation, ...]:
    """In players mode a placement states its equations; only their form is checked here."""
    if not claims:
        raise RuleError(
            "claims_required",
            says("with players as referee, state the equations the tile completes"),
            {"square": square_name(square), "referee": "players"},
        )
    pairs = {frozenset(p): p for p in PAIRS[square]}
    at = square_name(square)
    seen: set[frozenset[int]] = set()
    out = []
    for claim in claims:
        if not isinstance(claim, Equation):
            raise RuleError(
                "bad_claim",
                says("a claim is an Equation(near, far, op)"),
                {"reason": "not_an_equation", "square": at, "claim": shown(claim)},
            )
        _check_square(claim.near, "near")
        _check_square(claim.far, "far")
        named = [square_name(claim.near), square_name(claim.far)]
        if claim.op not in OPERATIONS:
            raise RuleError(
                "bad_claim",
                says("{value} is not one of + - x /", value=repr(str(claim.op)[:10])),
                {
                    "reason": "bad_operation",
                    "square": at,
                    "pair": named,
                    "value": shown(claim.op, 10),
                    "accepted": list(OPERATIONS),
                },
            )
        key = frozenset((claim.near, claim.far))
        pair = pairs.get(key)
        if pair is None:
            raise RuleError(
                "bad_claim",
                says(
                    "{near} and {far} are not a pair next to {square}",
                    near=square_name(claim.near),
                    far=square_name(claim.far),
                    square=square_name(square),
                ),
                {
                    "reason": "not_a_pair",
                    "square": at,
                    "pair": named,
                    "accepted": [[square_name(n), square_name(f)] for n, f in PAIRS[square]],
                },
            )
        if key in seen:
            raise RuleError(
                "bad_claim",
                says("the pair {pair} is claimed twice", pair=str(claim)),
                {"reason": "claimed_twice", "square": at, "pair": named},
            )
        if any(position.cells[s] < 0 for s in pair):
            raise RuleError(
                "bad_claim",
                says("the pair {pair} is not two tiles", pair=str(claim)),
                {
                    "reason": "empty_square",
                    "square": at,
                    "pair": named,
                    "empty": [square_name(s) for s in pair if position.cells[s] < 0],
                },
            )
        seen.add(key)
        out.append(Equation(pair[0], pair[1], claim.op))
    return tuple(out)


def draw_extra(fold: _Fold, seat: int) -> None:
    turn = _own_turn(fold.state, seat)
    if not turn.extra_available:
        # What was placed last (nothing yet: no square, no tile) and whether it earned a draw.
        details: dict[str, Any] = {"placed": len(turn.placements)}
        if turn.placements:
            last = turn.placements[-1]
            details.update(
                square=square_name(last.square),
                tile=last.tile,
                operation=OPERATION[last.square],
                extra_drawn=last.extra is not None,
            )
        raise RuleError(
            "no_extra_tile",
            says("an extra tile may be drawn only right after placing on an operation square"),
            details,
        )
    drawn = fold.draw(1)
    if not drawn:
        raise RuleError("bag_empty", says("the bag is empty"), {"bag_size": 0})
    fold.emit(ExtraTileDrawn(seat=seat, tile=drawn[0]))


def end_turn(fold: _Fold, seat: int) -> None:
    turn = _own_turn(fold.state, seat)
    if not turn.placements:
        fold.emit(Passed(seat))
    else:
        rack = fold.state.seats[seat].rack
        bonus = BONUS if turn.started_with >= RACK_SIZE and not rack else 0
        drawn = fold.draw(RACK_SIZE - len(rack))
        fold.emit(TurnEnded(seat=seat, points=turn.points, bonus=bonus, drawn=drawn))
    end_if_over(fold)


def _lacking(rack: tuple[int, ...], tiles: tuple[int, ...]) -> list[int]:
    """The ``tiles`` (in their order) that ``rack`` cannot supply.

    >>> _lacking((7, 7, 12), (7, 12, 7, 7, 90))
    [7, 90]
    """
    missing = list(tiles)
    for tile in rack:
        if tile in missing:
            missing.remove(tile)
    return missing


def play_turn(fold: _Fold, command: PlayTurn) -> None:
    _turn_start(fold.state, command.seat, "sending a whole turn")
    if not command.placements:
        raise RuleError(
            "empty_turn",
            says("a turn needs at least one placement (or pass)"),
            {"placements": 0, "min": 1, "max": MAX_TURN_PLACEMENTS},
        )
    if len(command.placements) > MAX_TURN_PLACEMENTS:
        raise RuleError(
            "too_many_placements",
            says("at most {max} placements", max=MAX_TURN_PLACEMENTS),
            {"placements": len(command.placements), "max": MAX_TURN_PLACEMENTS},
        )
    # Every tile must be on the rack the turn starts with. A refusal after an extra
    # draw would otherwise tell (by its message, or by failing at all) which tile the
    # draw took from the bag, though the command is undone: retried, it would show
    # the bag tile by tile.
    rack = fold.state.seats[command.seat].rack
    wanted = tuple(p.tile for p in command.placements)
    if not has_tiles(rack, wanted):
        raise RuleError(
            "tile_not_in_rack",
            says(
                "the turn places {tiles} but your rack holds {rack}",
                tiles=", ".join(map(str, wanted)),
                rack=", ".join(map(str, sorted(rack))),
            ),
            {"tiles": _lacking(rack, wanted), "rack": list(rack)},
        )
    for number, p in enumerate(command.placements, 1):
        try:
            place(fold, command.seat, p.square, p.tile, p.claims)
            # An extra tile is asked for "if the bag is not empty": a whole turn sent at
            # once cannot know what earlier draws left, so an empty bag skips the draw.
            if p.draw_extra and fold.state.bag:
                draw_extra(fold, command.seat)
        except RuleError as err:
            details = {**err.details, "placement": number}
            if err.code == "no_extra_tile":  # the placement itself was legal: say which it was
                details.update(square=square_name(p.square), tile=p.tile)
            raise RuleError(
                err.code,
                says("placement {number}: {message}", number=number, message=err.message),
                details,
            ) from None
    end_turn(fold, command.seat)


def exchange(fold: _Fold, command: Exchange) -> None:
    _turn_start(fold.state, command.seat, "exchanging")
    refuse_if_ending(fold.state)
    tiles = tuple(command.tiles)
    if not all(is_int(tile) for tile in tiles):
        raise RuleError(
            "bad_tile",
            says("tiles are whole numbers"),
            {
                "field": "tiles",
                "value": [shown(t) for t in tiles if not is_int(t)],
                "accepted": "whole numbers",
            },
        )
    if not 1 <= len(tiles) <= RACK_SIZE:
        raise RuleError(
            "bad_exchange",
            says("exchange 1 to 7 tiles"),
            {"field": "tiles", "count": len(tiles), "min": 1, "max": RACK_SIZE},
        )
    rack = fold.state.seats[command.seat].rack
    if not has_tiles(rack, tiles):
        raise RuleError(
            "tile_not_in_rack",
            says("you can only give back tiles from your rack"),
            {"tiles": _lacking(rack, tiles), "rack": list(rack)},
        )
    if len(fold.state.bag) < len(tiles):
        raise RuleError(
            "bag_too_small",
            says(
                "the bag holds {bag} tiles, fewer than the {count} to exchange",
                bag=len(fold.state.bag),
                count=len(tiles),
            ),
            {"bag_size": len(fold.state.bag)},
        )
    drawn = fold.draw(len(tiles))
    fold.emit(TilesExchanged(seat=command.seat, returned=tiles, drawn=drawn))
    end_if_over(fold)


def leave(fold: _Fold, seat: int) -> None:
    """A seat resigning or out of time in the middle of its turn: the tiles placed so far
    stand and score; no refill, the seat is leaving."""
    turn = fold.state.turn
    if turn is not None and turn.seat == seat and turn.placements:
        fold.emit(TurnEnded(seat=seat, points=turn.points, bonus=0, drawn=()))


def pass_turn(fold: _Fold, command: Pass) -> None:
    """A pass: only before any tile is placed this turn (else the turn is ended)."""
    _turn_start(fold.state, command.seat, "pass")
    fold.emit(Passed(command.seat))
    end_if_over(fold)


__all__ = [
    "MAX_TURN_PLACEMENTS",
    "DrawExtra",
    "EndTurn",
    "Exchange",
    "Place",
    "PlayTurn",
    "TurnPlacement",
    "draw_extra",
    "end_turn",
    "exchange",
    "leave",
    "pass_turn",
    "place",
    "play_turn",
]
