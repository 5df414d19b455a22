"""Corrections, when the players referee a game of Mathable (RULES.md "Corrections"): a
seat challenges the turn an opponent is playing or has just played (``Correct``); what
the challenge finds (``find_mistake``, rules version 1; ``review_turn``, 2 and after)
is taken back or rescored.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mathable.core import lifecycle
from mathable.core.errors import RuleError, shown
from mathable.core.lifecycle import end_if_over, is_seat
from mathable.core.words import says
from mathable.games.mathable.arithmetic import makes
from mathable.games.mathable.board import OPERATION, PREMIUM, square_name
from mathable.games.mathable.events import Corrected, TurnEnded
from mathable.games.mathable.position import Position
from mathable.games.mathable.refusals import explain_refusal, real_equations
from mathable.games.mathable.state import V2, V3, Equation, GameState, MathableTurn, PlacedTile
from mathable.games.mathable.tiles import RACK_SIZE

#: The fold of one Mathable command (``mathable.core.lifecycle.Fold``).
_Fold = lifecycle.Fold[GameState]


@dataclass(frozen=True, slots=True)
class Correct:
    """Players mode: challenge the turn an opponent is playing or has just played."""

    seat: int


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


def correct(fold: _Fold, seat: int) -> None:
    """A seat challenges the turn an opponent is playing or has just played."""
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


__all__ = ["Correct", "Review", "correct", "find_mistake", "review_turn"]
