"""Commands and ``check``: is a command legal here, and which events does it produce?

``check(state, command, bag)`` never changes ``state``; it returns the events to
append (drawing any tiles with the bag policy) or raises ``RuleError`` with a
stable code and a message a player understands.

>>> from mathable.games.mathable.events import replay
>>> check(replay([]), Pass(seat=0))
Traceback (most recent call last):
...
mathable.core.errors.RuleError: game_not_started: the game has not started yet
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final

from mathable.core import lifecycle
from mathable.core.bag import BagPolicy
from mathable.core.errors import RuleError, shown
from mathable.core.events import Event, Passed
from mathable.core.lifecycle import (
    Create,
    Decline,
    EndVacation,
    GiveTime,
    Join,
    LifecycleCommand,
    Pass,
    Resign,
    StartVacation,
    TimeOut,
    UseVacationDay,
    default_policy,
    end_if_over,
    is_int,
    is_seat,
    turn_of,
)
from mathable.core.state import has_tiles
from mathable.core.words import N_, joined, says
from mathable.games.mathable.arithmetic import describe, makes
from mathable.games.mathable.board import OPERATION, OPERATIONS, PAIRS, PREMIUM, SIZE, square_name
from mathable.games.mathable.events import (
    Corrected,
    ExtraTileDrawn,
    GameStarted,
    TilePlaced,
    TilesExchanged,
    TurnEnded,
    apply,
)
from mathable.games.mathable.movegen import has_legal_move
from mathable.games.mathable.position import Position
from mathable.games.mathable.state import (
    BONUS,
    RULES_VERSION,
    RULESET,
    Equation,
    GameState,
    MathableTurn,
    PlacedTile,
)
from mathable.games.mathable.tiles import RACK_SIZE, TILE_SET

#: The fold of one Mathable command (``mathable.core.lifecycle.Fold``).
_Fold = lifecycle.Fold[GameState]

MAX_TURN_PLACEMENTS = 16
#: The first rules version in which a game with tiles left in the bag can end blocked,
#: and in which a correction returns an unearned extra tile and only rescores a legal tile.
V2: Final = 2
#: The first rules version in which a correction returns the extra tile of every
#: placement it takes back, not only the illegal one's.
V3: Final = 3


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


@dataclass(frozen=True, slots=True)
class Correct:
    """Players mode: challenge the turn an opponent is playing or has just played."""

    seat: int


Command = Place | DrawExtra | EndTurn | PlayTurn | Exchange | Pass | Correct | LifecycleCommand


def check(state: GameState, command: Command, bag: BagPolicy | None = None) -> list[Event]:
    """The events ``command`` produces in ``state``; RuleError if the rules refuse it."""
    fold = _Fold(state, bag if bag is not None else default_policy(state), MATHABLE)
    match command:
        case Place():
            _place(fold, command.seat, command.square, command.tile, command.claims)
        case DrawExtra():
            _draw_extra(fold, command.seat)
        case EndTurn():
            _end_turn(fold, command.seat)
        case PlayTurn():
            _play_turn(fold, command)
        case Exchange():
            _exchange(fold, command)
        case Pass():
            _turn_start(fold.state, command.seat, "pass")
            fold.emit(Passed(command.seat))
            end_if_over(fold)
        case Correct():
            _correct(fold, command.seat)
        case _:
            if not lifecycle.check(fold, command):
                raise RuleError(
                    "bad_command",
                    says("unknown command {command}", command=repr(command)),
                    {"command": type(command).__name__},
                )
    return fold.events


# --- starting ----------------------------------------------------------------


def deal_start(state: GameState, policy: BagPolicy) -> GameStarted:
    """The start of a full game: the start draw (unless tiles were given), the racks dealt.

    ``mathable.core.audit`` calls it again with the revealed order to check the start.
    """
    seats = len(state.seats)
    bag = list(state.bag)

    def take(n: int) -> list[int]:
        drawn = policy.draw(bag, n)
        for tile in drawn:
            bag.remove(tile)
        return drawn

    if state.options.tiles is not None:
        racks = [tuple(take(RACK_SIZE)) for _ in range(seats)]
        return GameStarted(start_draws=((),) * seats, first_seat=0, racks=tuple(racks))
    draws: list[list[int]] = [take(1) for _ in range(seats)]
    contenders = list(range(seats))
    tie_breaks: list[int] = []
    while True:
        best = max(draws[s][-1] for s in contenders)
        contenders = [s for s in contenders if draws[s][-1] == best]
        if len(contenders) == 1 or not bag:
            break
        for s in contenders:
            drawn = take(1)
            draws[s].extend(drawn)
            tie_breaks.extend(drawn)
    first = contenders[0]
    bag.extend(tie_breaks)  # tie-break tiles go back into the bag
    dealt = [[d[0]] for d in draws]
    for step in range(seats):
        seat = (first + step) % seats
        dealt[seat].extend(take(RACK_SIZE - 1))
    return GameStarted(
        start_draws=tuple(tuple(d) for d in draws),
        first_seat=first,
        racks=tuple(tuple(r) for r in dealt),
    )


# --- playing a turn ---------------------------------------------------------


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


def real_equations(position: Position, square: int, tile: int) -> tuple[Equation, ...]:
    """The equations ``tile`` completes on ``square`` now, by the square's operation if any."""
    demanded = OPERATION[square]
    cells = position.cells
    found = []
    for near, far in PAIRS[square]:
        a, b = cells[near], cells[far]
        if a < 0 or b < 0:
            continue
        ops = makes(a, b).get(tile)
        if not ops or (demanded is not None and demanded not in ops):
            continue
        op = demanded or next(o for o in OPERATIONS if o in ops)
        found.append(Equation(near, far, op))
    return tuple(found)


def pair_details(position: Position, near: int, far: int) -> dict[str, Any]:
    """A pair next to a square as data: its squares, their tiles and what they make.

    >>> pair = pair_details(Position.initial(), 105, 104)  # H8 and G8, left of I8
    >>> pair["squares"], pair["tiles"], pair["makes"][:2]
    (['H8', 'G8'], [4, 3], [{'value': 1, 'operations': ['-']}, {'value': 7, 'operations': ['+']}])
    """
    a, b = position.cells[near], position.cells[far]
    return {
        "squares": [square_name(near), square_name(far)],
        "tiles": [a, b],
        "makes": [
            {"value": value, "operations": [op for op in OPERATIONS if op in ops]}
            for value, ops in sorted(makes(a, b).items())
        ],
    }


def explain_refusal(position: Position, square: int, tile: int) -> RuleError:
    """Why ``tile`` may not go on ``square``, in words and as data, with the rules' code.

    ``details`` has the ``square``, the ``tile``, the ``operation`` the square
    demands (or None) and the ``pairs`` next to it, each with what it makes.

    >>> err = explain_refusal(Position.initial(), 106, 13)
    >>> print(err.message)
    13 at I8: 4 and 3 make 1 by -, 7 by +, 12 by x (H8, G8); none makes 13
    >>> err.details["square"], err.details["operation"], err.details["pairs"][0]["tiles"]
    ('I8', None, [4, 3])
    """
    name = square_name(square)
    demanded = OPERATION[square]
    details: dict[str, Any] = {"square": name, "tile": tile, "operation": demanded}
    if position.cells[square] >= 0:
        return RuleError(
            "square_taken",
            says("{square} already holds {holds}", square=name, holds=position.cells[square]),
            {**details, "holds": position.cells[square]},
        )
    cells = position.cells
    pairs = [(n, f) for n, f in PAIRS[square] if cells[n] >= 0 and cells[f] >= 0]
    details["pairs"] = [pair_details(position, n, f) for n, f in pairs]
    if not pairs:
        return RuleError(
            "no_pair",
            says(
                "{tile} at {square}: {square} is not next to two tiles in a row or column",
                tile=tile,
                square=name,
            ),
            details,
        )
    said = joined(
        (
            says(
                "{pair} ({near}, {far})",
                pair=describe(cells[n], cells[f]),
                near=square_name(n),
                far=square_name(f),
            )
            for n, f in pairs
        ),
        N_("{first}; {second}"),
    )
    if demanded is None:
        return RuleError(
            "no_equation",
            says(
                "{tile} at {square}: {pairs}; none makes {tile}", tile=tile, square=name, pairs=said
            ),
            details,
        )
    code = (
        "wrong_operation"
        if any(tile in makes(cells[n], cells[f]) for n, f in pairs)
        else "no_equation"
    )
    return RuleError(
        code,
        says(
            "{tile} at {square}: {square} demands {operation}; {pairs}; none makes {tile} by "
            "{operation}",
            tile=tile,
            square=name,
            operation=demanded,
            pairs=said,
        ),
        details,
    )


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


def _place(
    fold: _Fold, seat: int, square: int, tile: int, claims: tuple[Equation, ...] | None
) -> None:
    state = fold.state
    turn_of(state, seat)
    _refuse_if_ending(state)
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


def _draw_extra(fold: _Fold, seat: int) -> None:
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


def _end_turn(fold: _Fold, seat: int) -> None:
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


def _play_turn(fold: _Fold, command: PlayTurn) -> None:
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
            _place(fold, command.seat, p.square, p.tile, p.claims)
            # An extra tile is asked for "if the bag is not empty": a whole turn sent at
            # once cannot know what earlier draws left, so an empty bag skips the draw.
            if p.draw_extra and fold.state.bag:
                _draw_extra(fold, command.seat)
        except RuleError as err:
            details = {**err.details, "placement": number}
            if err.code == "no_extra_tile":  # the placement itself was legal: say which it was
                details.update(square=square_name(p.square), tile=p.tile)
            raise RuleError(
                err.code,
                says("placement {number}: {message}", number=number, message=err.message),
                details,
            ) from None
    _end_turn(fold, command.seat)


def _exchange(fold: _Fold, command: Exchange) -> None:
    _turn_start(fold.state, command.seat, "exchanging")
    _refuse_if_ending(fold.state)
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


def _leave(fold: _Fold, seat: int) -> None:
    """A seat resigning or out of time in the middle of its turn: the tiles placed so far
    stand and score; no refill, the seat is leaving."""
    turn = fold.state.turn
    if turn is not None and turn.seat == seat and turn.placements:
        fold.emit(TurnEnded(seat=seat, points=turn.points, bonus=0, drawn=()))


# --- corrections (players referee) -----------------------------------------


def _boards_seen(
    position: Position, placements: tuple[PlacedTile, ...]
) -> list[tuple[PlacedTile, Position]]:
    """Each placement of a turn with the board it was made on.

    ``position`` is the board after the turn; the board each placement saw is
    rebuilt by taking off it and the placements after it.
    """
    return [
        (placed, position.with_changes((p.square, -1) for p in placements[index:]))
        for index, placed in enumerate(placements)
    ]


def _wrong_claim(before: Position, placed: PlacedTile, claim: Equation) -> str | None:
    """Why ``claim`` is not an equation ``placed`` completes on ``before``; None if it is."""
    where = f"{placed.tile} at {square_name(placed.square)}"
    real = {frozenset((e.near, e.far)) for e in real_equations(before, placed.square, placed.tile)}
    demanded = OPERATION[placed.square]
    a, b = before.cells[claim.near], before.cells[claim.far]
    if demanded is not None and claim.op != demanded:
        return f"{where}: the square demands {demanded}, not {claim.op}"
    if frozenset((claim.near, claim.far)) not in real or claim.op not in makes(a, b).get(
        placed.tile, frozenset()
    ):
        return f"{where}: {a} {claim.op} {b} does not make {placed.tile}"
    return None


def find_mistake(position: Position, placements: tuple[PlacedTile, ...]) -> tuple[int, str] | None:
    """The index of the first wrong placement of a turn, and why; None if all are right.

    A placement is wrong when its tile completes no equation there or when one of
    its claimed equations is not real. ``position`` is the board after the turn.
    """
    for index, (placed, before) in enumerate(_boards_seen(position, placements)):
        if not real_equations(before, placed.square, placed.tile):
            return index, explain_refusal(before, placed.square, placed.tile).message
        for claim in placed.equations:
            wrong = _wrong_claim(before, placed, claim)
            if wrong is not None:
                return index, wrong
    return None


@dataclass(frozen=True, slots=True)
class Review:
    """What a correction (rules version 2) finds in a turn.

    ``illegal`` is the index of the first placement whose tile completes no
    equation (it and every placement after it are taken back), or None;
    ``rescored`` are the placements before it with a wrong claim, as they stand
    once only their real claimed equations score; ``reason`` says it in words.
    """

    illegal: int | None
    rescored: tuple[PlacedTile, ...]
    reason: str


def review_turn(position: Position, placements: tuple[PlacedTile, ...]) -> Review | None:
    """Every mistake a correction finds in a turn (rules version 2); None if it has none.

    ``position`` is the board after the turn.
    """
    reasons: list[str] = []
    rescored: list[PlacedTile] = []
    for index, (placed, before) in enumerate(_boards_seen(position, placements)):
        if not real_equations(before, placed.square, placed.tile):
            reasons.append(explain_refusal(before, placed.square, placed.tile).message)
            return Review(index, tuple(rescored), "; ".join(reasons))
        wrong = [(c, _wrong_claim(before, placed, c)) for c in placed.equations]
        said = [why for _, why in wrong if why is not None]
        if said:
            kept = tuple(c for c, why in wrong if why is None)
            points = placed.tile * len(kept) * PREMIUM[placed.square]
            rescored.append(replace(placed, equations=kept, points=points, extra=None))
            reasons.extend(said)
    if not reasons:
        return None
    return Review(None, tuple(rescored), "; ".join(reasons))


def _checked(target: MathableTurn) -> dict[str, Any]:
    """The turn a correction found right, as data: whose it was and what it placed."""
    return {
        "seat": target.seat,
        "placements": [
            {"square": square_name(p.square), "tile": p.tile} for p in target.placements
        ],
    }


def _correct(fold: _Fold, seat: int) -> None:
    state = fold.state
    if state.options.referee != "players":
        raise RuleError(
            "corrections_off",
            says("the server referees this game: mistakes cannot happen"),
            {"referee": state.options.referee},
        )
    if state.status != "playing" or state.turn is None:
        raise RuleError(
            "game_over", says("only a game in play can be corrected"), {"status": state.status}
        )
    if not is_seat(state, seat) or state.seats[seat].resigned:
        raise RuleError(
            "not_seated",
            says("you have no seat in this game"),
            {
                "seat": shown(seat),
                "seats": len(state.seats),
                "resigned": is_seat(state, seat) and state.seats[seat].resigned,
            },
        )
    in_progress = state.turn.seat != seat and bool(state.turn.placements)
    target = state.turn if in_progress else state.correctable
    if target is None or target.seat == seat:
        raise RuleError(
            "nothing_to_correct",
            says("there is no opponent's turn open to correction"),
            {"correctable_seat": None if target is None else target.seat},
        )
    if state.rules_version >= V2:
        _correct_v2(fold, seat, target, in_progress)
        return
    found = find_mistake(state.position, target.placements)
    if found is None:
        raise RuleError(
            "no_mistake", says("every placement of that turn is right"), _checked(target)
        )
    index, reason = found
    removed = target.placements[index:]
    lost = sum(p.points for p in removed) + (0 if in_progress else target.bonus)
    fold.emit(
        Corrected(
            seat=seat,
            target=target.seat,
            removed=tuple((p.square, p.tile) for p in removed),
            points_lost=lost,
            reason=reason,
        )
    )
    if in_progress:
        rack = fold.state.seats[target.seat].rack
        drawn = fold.draw(RACK_SIZE - len(rack))
        kept = fold.state.turn.points if fold.state.turn else 0
        fold.emit(TurnEnded(seat=target.seat, points=kept, bonus=0, drawn=drawn))
    end_if_over(fold)


def _correct_v2(fold: _Fold, seat: int, target: MathableTurn, in_progress: bool) -> None:
    """RULES.md "Corrections": an illegal tile is taken back with those after it (its
    extra tile goes back into the bag) and ends the turn; a wrong claim on a legal
    tile only sets its points to those of its real claimed equations."""
    state = fold.state
    review = review_turn(state.position, target.placements)
    if review is None:
        raise RuleError(
            "no_mistake", says("every placement of that turn is right"), _checked(target)
        )
    fixed = {p.square: p.points for p in review.rescored}
    lost = sum(p.points - fixed[p.square] for p in target.placements if p.square in fixed)
    removed: tuple[PlacedTile, ...] = ()
    to_bag: tuple[int, ...] = ()
    if review.illegal is not None:
        removed = target.placements[review.illegal :]
        lost += sum(p.points for p in removed) + (0 if in_progress else target.bonus)
        if state.rules_version >= V3:
            # Every placement taken back earned its extra only as part of the turn undone.
            to_bag = tuple(p.extra for p in removed if p.extra is not None)
        else:
            # Rules version 2 returned only the illegal placement's own extra tile.
            extra = target.placements[review.illegal].extra
            to_bag = (extra,) if extra is not None else ()
    fold.emit(
        Corrected(
            seat=seat,
            target=target.seat,
            removed=tuple((p.square, p.tile) for p in removed),
            points_lost=lost,
            reason=review.reason,
            to_bag=to_bag,
            rescored=review.rescored,
        )
    )
    if in_progress and removed:
        rack = fold.state.seats[target.seat].rack
        drawn = fold.draw(RACK_SIZE - len(rack))
        kept = fold.state.turn.points if fold.state.turn else 0
        fold.emit(TurnEnded(seat=target.seat, points=kept, bonus=0, drawn=drawn))
    if not in_progress or removed:  # a turn whose points alone were fixed goes on
        end_if_over(fold)


# --- the end ------------------------------------------------------------------


def end_reason(state: GameState, *, waiting: bool = False) -> str | None:
    """Why the game is over now, or None while it goes on.

    With players as referee, a game that would end right after a turn still open
    to correction waits for the next player: they correct it or pass, and only
    then does it end (``waiting=True`` gives the reason it is waiting to end on).
    """
    if state.status != "playing":
        return None
    active = state.active_seats()
    if len(active) <= 1:
        return "resigned"
    if state.correctable is not None and state.options.referee == "players" and not waiting:
        return None
    if not state.bag and any(not state.seats[s].rack for s in active):
        return "rack_emptied"
    if state.idle_turns >= 2 * len(active):
        return "no_placements"
    if state.rules_version >= V2:
        in_play = set(state.bag).union(*(state.seats[s].rack for s in active))
        if not has_legal_move(state.position, in_play):
            return "blocked"
    elif not state.bag and not any(
        has_legal_move(state.position, state.seats[s].rack) for s in active
    ):
        return "blocked"
    return None


def pending_end(state: GameState) -> str | None:
    """The reason a players-refereed game ends unless its last turn is corrected, or None."""
    if state.correctable is None or state.options.referee != "players":
        return None
    return end_reason(state, waiting=True)


def _refuse_if_ending(state: GameState) -> None:
    if pending_end(state) is not None:
        raise RuleError(
            "game_ending",
            says(
                "the game is over unless the last turn is corrected: correct it, or pass to end it"
            ),
            {"reason": pending_end(state)},
        )


#: Mathable's lifecycle (``mathable.core.lifecycle``): what it shares with every game.
MATHABLE: lifecycle.GameRules[GameState] = lifecycle.GameRules(
    ruleset=RULESET,
    rules_version=RULES_VERSION,
    tile_set=TILE_SET,
    apply=apply,
    deal=deal_start,
    end_reason=end_reason,
    deductions=lambda state: tuple(sum(seat.rack) for seat in state.seats),
    referees=("server", "players"),
    bad_referee=says("referee is 'server' or 'players'"),
    bad_tiles=says("tiles must list all 106 tiles of the game, each exactly once"),
    bad_order=says("a bag order lists all 106 tiles, and only without tiles"),
    leave=_leave,
)


__all__ = [
    "Command",
    "Correct",
    "Decline",
    "Create",
    "DrawExtra",
    "EndTurn",
    "EndVacation",
    "Exchange",
    "GiveTime",
    "Join",
    "Pass",
    "Place",
    "PlayTurn",
    "Resign",
    "Review",
    "StartVacation",
    "TimeOut",
    "TurnPlacement",
    "UseVacationDay",
    "check",
    "deal_start",
    "default_policy",
    "end_reason",
    "explain_refusal",
    "find_mistake",
    "pair_details",
    "pending_end",
    "real_equations",
    "review_turn",
]
