"""Fifteen's own events, and ``apply``: the state after an event (never validates).

A Fifteen log holds ``fifteen_started`` and ``digit_claimed`` (the game's own, with
``game = "fifteen"``) and the events every game has (``game_created`` with
``ruleset: "fifteen"``, ``player_joined``, ``passed``, ``resigned``, ``game_ended``...),
which ``mathable.core.lifecycle.apply`` folds.

>>> DigitClaimed(seat=0, digit=5).to_dict()
{'type': 'digit_claimed', 'v': 1, 'seat': 0, 'digit': 5}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from mathable.core import codec, lifecycle
from mathable.core.errors import RuleError
from mathable.core.events import Event, Passed
from mathable.core.state import Turn
from mathable.core.words import says

from fifteen.state import RULESET, FifteenState, line_of


@dataclass(frozen=True, slots=True)
class FifteenStarted(Event):
    """Both seats are taken: the game starts, ``first_seat`` to claim first."""

    type: ClassVar[str] = "fifteen_started"
    game: ClassVar[str] = RULESET
    starts_clocks: ClassVar[bool] = True
    first_seat: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"first_seat": codec.INT}


@dataclass(frozen=True, slots=True)
class DigitClaimed(Event):
    """``seat`` claimed ``digit``."""

    type: ClassVar[str] = "digit_claimed"
    game: ClassVar[str] = RULESET
    seat: int
    digit: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT, "digit": codec.INT}


#: Fifteen's own kinds of event (the others are shared with every game).
FIFTEEN_EVENTS: frozenset[type[Event]] = frozenset((FifteenStarted, DigitClaimed))


def _ended_turn(state: FifteenState, seat: int, how: str) -> FifteenState:
    before = state.turn if state.turn is not None else Turn(seat=seat, started_with=0)
    state = replace(
        state,
        last_turn=replace(before, ended_by=how),
        idle_turns=0 if how == "claimed" else state.idle_turns + 1,
        turns_played=state.turns_played + 1,
    )
    return replace(state, turn=Turn(seat=state.next_seat(seat), started_with=0))


def apply(state: FifteenState, event: Event) -> FifteenState:
    """The state after ``event``. Trusts the event: it was checked when it was made.

    A claim that makes three digits summing to 15 scores the claimer 1 point; the
    kernel's ``finish`` then names the best score the winner (both, at 0-0: a draw).
    """
    state = replace(state, version=state.version + 1)
    match event:
        case FifteenStarted():
            return replace(
                state, status="playing", turn=Turn(seat=event.first_seat, started_with=0)
            )
        case DigitClaimed():
            seat = state.seats[event.seat]
            held = seat.rack + (event.digit,)
            score = 1 if line_of(held) is not None else seat.score
            state = replace(
                state,
                free=tuple(d for d in state.free if d != event.digit),
                seats=state.with_seat(event.seat, rack=held, score=score),
                last_claim=event.digit,
            )
            return _ended_turn(state, event.seat, "claimed")
        case Passed():
            return _ended_turn(state, event.seat, "passed")
    shared = lifecycle.apply(state, event)
    if shared is None:
        raise RuleError("bad_event", says("a Fifteen game cannot apply {event}", event=event.type))
    return shared


def replay(events: Iterable[Event]) -> FifteenState:
    """The state reached by folding ``events`` from an empty Fifteen game."""
    state = FifteenState()
    for event in events:
        state = apply(state, event)
    return state


__all__ = ["FIFTEEN_EVENTS", "DigitClaimed", "FifteenStarted", "apply", "replay"]
