"""Clocks: what a game's clock may be, and the clock commands every game shares.

The rules have no clock: the server derives each game's from the times of its events
(``mathable.core.clock``) and sends the commands that follow from it (``TimeOut``,
``UseVacationDay``), or a player's (``GiveTime``, vacations, ``claim_timeout`` read by the
server into a ``TimeOut``). Here they are checked and folded: each writes its event; only
a timeout changes the state of the game (the seat leaves it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from mathable.core.errors import RuleError, shown
from mathable.core.events import (
    TimedOut,
    TimeGiven,
    VacationDayUsed,
    VacationEnded,
    VacationStarted,
)
from mathable.core.lifecycle.end import end_if_over, finish
from mathable.core.lifecycle.fold import Fold, S, is_int, is_seat, seat_left
from mathable.core.lifecycle.part import NO_FIELDS, Part, SharedCommand
from mathable.core.lifecycle.turns import seat_leaves
from mathable.core.state import ClockSpec, Lifecycle, Seat
from mathable.core.words import says

#: No duration of a clock (a move, a bank, a gift) may be longer than a year.
MAX_SECONDS: Final = 365 * 86_400
#: The most seats a game has (``Create.players``): the last seat is 3.
MAX_SEATS: Final = 4


def check_spec(spec: ClockSpec) -> None:
    """RuleError ``bad_clock`` unless ``spec`` is one kind with durations of 1 s to a year.

    >>> check_spec(ClockSpec(initial=10, max=5))
    Traceback (most recent call last):
    ...
    mathable.core.errors.RuleError: bad_clock: max (5 s) is below initial (10 s)
    """

    def duration(name: str, value: int | None, minimum: int = 1) -> None:
        if value is None:
            return
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(
                "bad_clock",
                says("{name} is a whole number of seconds", name=name),
                {"field": name, "value": shown(value), "accepted": "a whole number of seconds"},
            )
        if not minimum <= value <= MAX_SECONDS:
            raise RuleError(
                "bad_clock",
                says(
                    "{name} must be {min} to {max} seconds (a year)",
                    name=name,
                    min=minimum,
                    max=MAX_SECONDS,
                ),
                {"field": name, "value": value, "min": minimum, "max": MAX_SECONDS},
            )

    if (spec.per_move is None) == (spec.initial is None):
        raise RuleError(
            "bad_clock",
            says("give either per_move or initial (a time bank), not both"),
            {
                "fields": ["per_move", "initial"],
                "per_move": shown(spec.per_move),
                "initial": shown(spec.initial),
            },
        )
    if spec.per_move is not None and (spec.increment or spec.max is not None):
        raise RuleError(
            "bad_clock",
            says("increment and max belong to a time bank, not per_move"),
            {
                "fields": ["increment", "max"],
                "increment": shown(spec.increment),
                "max": shown(spec.max),
            },
        )
    duration("per_move", spec.per_move)
    duration("initial", spec.initial)
    duration("increment", spec.increment, minimum=0)
    duration("max", spec.max)
    if spec.initial is not None and spec.max is not None and spec.max < spec.initial:
        raise RuleError(
            "bad_clock",
            says(
                "max ({max} s) is below initial ({initial} s)", max=spec.max, initial=spec.initial
            ),
            {"fields": ["max", "initial"], "max": spec.max, "initial": spec.initial},
        )
    if spec.on_timeout not in ("lose", "claim"):
        raise RuleError(
            "bad_clock",
            says("on_timeout is 'lose' or 'claim'"),
            {"field": "on_timeout", "value": shown(spec.on_timeout), "accepted": ["lose", "claim"]},
        )


@dataclass(frozen=True, slots=True)
class TimeOut:
    """``seat`` is out of time. The caller (the server, by ``mathable.core.clock``) knows it is:
    the rules have no clock. ``claimed_by`` is the opponent claiming it, if any."""

    seat: int
    claimed_by: int | None = None


@dataclass(frozen=True, slots=True)
class GiveTime:
    """``seat`` gives ``seconds`` to the clock of seat ``to``."""

    seat: int
    to: int
    seconds: int


@dataclass(frozen=True, slots=True)
class StartVacation:
    """The player of ``seat`` goes on vacation for ``days`` days: their clock stands still."""

    seat: int
    days: int


@dataclass(frozen=True, slots=True)
class EndVacation:
    """The player of ``seat`` is back: their clock runs again."""

    seat: int


@dataclass(frozen=True, slots=True)
class UseVacationDay:
    """``seat``'s clock reached zero: a vacation day gives it 24 hours more."""

    seat: int


def clocked_seat(state: Lifecycle, seat: Any) -> None:
    """Refuses unless the game has a clock, is in play and ``seat`` still plays in it."""
    if state.options.clock is None:
        raise RuleError("no_clock", says("this game has no clock"), {"clock": None})
    if state.status != "playing":
        raise RuleError(
            "game_over" if state.status == "ended" else "game_not_started",
            says("the clock runs only while the game is played"),
            {"status": state.status},
        )
    if not is_seat(state, seat) or state.seats[seat].resigned:
        raise RuleError(
            "not_seated", says("that seat no longer plays in this game"), seat_left(state, seat)
        )


def _time_out(fold: Fold[S], command: TimeOut) -> None:
    clocked_seat(fold.state, command.seat)
    if fold.rules.leave is not None:
        fold.rules.leave(fold, command.seat)
    fold.emit(TimedOut(command.seat, command.claimed_by))
    if len(fold.state.active_seats()) <= 1:
        finish(fold, "timeout")
    else:
        end_if_over(fold)


def _give_time(fold: Fold[S], command: GiveTime) -> None:
    state = fold.state
    clocked_seat(state, command.seat)
    if not is_seat(state, command.to) or state.seats[command.to].resigned:
        raise RuleError(
            "bad_seat",
            says("seat {seat} does not play in this game", seat=command.to),
            {"field": "seat", "value": shown(command.to), "active_seats": state.active_seats()},
        )
    if command.to == command.seat:
        raise RuleError(
            "own_seat", says("time can only be given to an opponent"), {"seat": command.seat}
        )
    if not is_int(command.seconds) or not 1 <= command.seconds <= MAX_SECONDS:
        raise RuleError(
            "bad_seconds",
            says("give 1 to {max} seconds", max=MAX_SECONDS),
            {"field": "seconds", "value": shown(command.seconds), "min": 1, "max": MAX_SECONDS},
        )
    fold.emit(TimeGiven(command.seat, command.to, command.seconds))


def _start_vacation(fold: Fold[S], command: StartVacation) -> None:
    clocked_seat(fold.state, command.seat)
    if not is_int(command.days) or not 1 <= command.days <= 366:
        raise RuleError(
            "bad_days",
            says("a vacation lasts 1 to 366 days"),
            {"field": "days", "value": shown(command.days), "min": 1, "max": 366},
        )
    fold.emit(VacationStarted(command.seat, command.days))


def _end_vacation(fold: Fold[S], command: EndVacation) -> None:
    clocked_seat(fold.state, command.seat)
    fold.emit(VacationEnded(command.seat))


def _use_vacation_day(fold: Fold[S], command: UseVacationDay) -> None:
    clocked_seat(fold.state, command.seat)
    fold.emit(VacationDayUsed(command.seat))


def _timed_out(state: S, event: TimedOut) -> S:
    return seat_leaves(state, event.seat, timed_out=True)


def _clock_only(state: S, event: Any) -> S:
    return state  # only the clock changes: see ``mathable.core.clock``


def _read_give_time(seat: int, body: Mapping[str, Any]) -> GiveTime:
    return GiveTime(seat, body["seat"], body["seconds"])


#: A timeout claimed by an opponent: ``{"type": "claim_timeout"}``, read by the server into
#: a ``TimeOut`` (it knows the clock, which the rules never see).
CLAIMING_TIMEOUT = SharedCommand("claim_timeout", NO_FIELDS)
#: Time given to an opponent's clock: ``{"type": "give_time", "seat": 1, "seconds": 3600}``.
GIVING_TIME = SharedCommand(
    "give_time",
    {
        "type": "object",
        "properties": {
            "seat": {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1},
            "seconds": {"type": "integer", "minimum": 1, "maximum": MAX_SECONDS},
        },
        "required": ["seat", "seconds"],
        "additionalProperties": False,
    },
    read=_read_give_time,
)


def _seat_fields(seat: Seat) -> dict[str, Any]:
    return {"timed_out": seat.timed_out}


#: Clocks, as a part of the lifecycle.
PART = Part(
    checks={
        TimeOut: _time_out,
        GiveTime: _give_time,
        StartVacation: _start_vacation,
        EndVacation: _end_vacation,
        UseVacationDay: _use_vacation_day,
    },
    folds={
        TimedOut: _timed_out,
        TimeGiven: _clock_only,
        VacationStarted: _clock_only,
        VacationEnded: _clock_only,
        VacationDayUsed: _clock_only,
    },
    commands=(CLAIMING_TIMEOUT, GIVING_TIME),
    seat_fields=_seat_fields,
)


__all__ = [
    "CLAIMING_TIMEOUT",
    "GIVING_TIME",
    "MAX_SECONDS",
    "MAX_SEATS",
    "PART",
    "EndVacation",
    "GiveTime",
    "StartVacation",
    "TimeOut",
    "UseVacationDay",
    "check_spec",
    "clocked_seat",
]
