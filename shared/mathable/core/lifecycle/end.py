"""The end every game shares: ``game_ended`` (each seat's deductions, the best of those still
playing win) and the bag order committed to at creation, revealed (``draws_revealed``).

A game says why it is over (``GameRules.end_reason``) and what each seat loses for its
tiles (``GameRules.deductions``); its commands call ``end_if_over`` after each turn.
"""

from __future__ import annotations

from dataclasses import replace

from mathable.core.commitment import revelation
from mathable.core.events import DrawsRevealed, GameEnded
from mathable.core.lifecycle.fold import Fold, S
from mathable.core.lifecycle.part import Part
from mathable.core.state import Result


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


def _ended(state: S, event: GameEnded) -> S:
    final_seats = tuple(
        replace(seat, score=score) for seat, score in zip(state.seats, event.scores, strict=True)
    )
    return replace(
        state,
        status="ended",
        seats=final_seats,
        turn=None,
        result=Result(event.reason, event.deductions, event.scores, event.winners),
    )


def _revealed(state: S, event: DrawsRevealed) -> S:
    return replace(state, draws_revealed=True)


#: The end, as a part of the lifecycle.
PART = Part(folds={GameEnded: _ended, DrawsRevealed: _revealed})


__all__ = ["PART", "end_if_over", "finish"]
