"""Whose turn it is, passing it and leaving the game: the turn commands every game shares.

A game plays its own turns (Mathable's placements, Summy's equations); ``turn_of`` is how
each asks whether it is a seat's turn. A pass (``Pass``) ends a turn with nothing played:
the kernel checks it so unless the game's own ``check`` has a rule of its own about it
(Mathable refuses a pass once tiles are placed; Summy passes only once the supply is
empty); the game folds ``passed`` (its own counters of turns). Resigning (``Resign``)
leaves the game, which goes on without the seat.

>>> from mathable.games.mathable.events import replay
>>> turn_of(replay([]), 0)
Traceback (most recent call last):
...
mathable.core.errors.RuleError: game_not_started: the game has not started yet
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from mathable.core.errors import RuleError, shown
from mathable.core.events import Passed, Resigned
from mathable.core.lifecycle.end import end_if_over
from mathable.core.lifecycle.fold import Fold, S, is_seat, seat_left
from mathable.core.lifecycle.part import Part, SharedCommand
from mathable.core.state import Lifecycle, Seat, Turn
from mathable.core.words import says


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing."""

    seat: int


@dataclass(frozen=True, slots=True)
class Resign:
    """Leave the game; it goes on without this seat."""

    seat: int


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


def _pass(fold: Fold[S], command: Pass) -> None:
    """A pass, in a game whose own rules say nothing more of it."""
    turn_of(fold.state, command.seat)
    fold.emit(Passed(command.seat))
    end_if_over(fold)


def _resign(fold: Fold[S], command: Resign) -> None:
    state = fold.state
    seat = command.seat
    if state.status != "playing":
        raise RuleError(
            "game_over" if state.status == "ended" else "game_not_started",
            says("only a game in play can be resigned"),
            {"status": state.status},
        )
    if not is_seat(state, seat) or state.seats[seat].resigned:
        raise RuleError(
            "not_seated", says("you have no seat left in this game"), seat_left(state, seat)
        )
    if fold.rules.leave is not None:
        fold.rules.leave(fold, seat)
    fold.emit(Resigned(seat))
    end_if_over(fold)


def seat_leaves(state: S, seat: int, *, timed_out: bool = False) -> S:
    """The state once ``seat`` has left the game (resigned, or out of time): its turn, if
    it was the seat's, goes to the next seat still playing."""
    out = {"timed_out": True} if timed_out else {}
    state = replace(state, seats=state.with_seat(seat, resigned=True, **out))
    if state.turn is not None and state.turn.seat == seat:
        state = replace(state, turn=state.next_turn(seat))
    return state


def _resigned(state: S, event: Resigned) -> S:
    return seat_leaves(state, event.seat)


def _read_pass(seat: int, body: Mapping[str, Any]) -> Pass:
    return Pass(seat)


def _read_resign(seat: int, body: Mapping[str, Any]) -> Resign:
    return Resign(seat)


#: A pass as players write it: ``{"type": "pass"}``, or the word in a mail reply.
PASSING = SharedCommand(
    "pass",
    read=_read_pass,
    turn=True,
    reply_words={
        "en": ("pass",),
        "fr": ("passer", "passe", "je passe"),
        "nb": ("stå over", "står over", "jeg står over"),
        "it": ("passo", "passa", "passare"),
    },
)
#: Resigning as players write it: ``{"type": "resign"}``, or the word in a mail reply.
RESIGNING = SharedCommand(
    "resign",
    read=_read_resign,
    reply_words={
        "en": ("resign",),
        "fr": ("abandonner", "abandonne", "abandon", "j'abandonne"),
        "nb": ("gi opp", "gir opp", "jeg gir opp"),
        "it": ("abbandono", "abbandona", "abbandonare", "mi arrendo"),
    },
)


def _seat_fields(seat: Seat) -> dict[str, Any]:
    return {"resigned": seat.resigned}


#: Turns, passes and resigning, as a part of the lifecycle.
PART = Part(
    checks={Pass: _pass, Resign: _resign},
    folds={Resigned: _resigned},
    commands=(PASSING, RESIGNING),
    seat_fields=_seat_fields,
)


__all__ = ["PART", "PASSING", "RESIGNING", "Pass", "Resign", "seat_leaves", "turn_of"]
