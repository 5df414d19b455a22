"""Correspondence clocks derived from event times: deadlines, time left, timeouts.

Time never enters ``apply``. The server writes the time of every event (``at``,
milliseconds since 1970 UTC) beside it, and the clock of a game is a fold of
``(at, event, state after the event)``: the same log always gives the same
deadlines. "Now" is passed in; nothing here reads the wall clock.

Two kinds (``ClockSpec``): ``per_move`` seconds for every move (the clock is
set back to full after each move), or a bank that starts at ``initial``, gains
``increment`` after each move and never exceeds ``max``. A clock stands still
on Saturdays and Sundays (UTC) with ``weekends_off``, and for a seat whose
player is on vacation.

>>> from mathable.games.mathable.events import GameCreated, GameStarted
>>> from mathable.core.state import Turn
>>> from mathable.games.mathable.state import GameState
>>> spec = ClockSpec(per_move=3 * 86400)
>>> created = GameCreated("mathable", 2, 2, "server", None, None, (), "p1", spec)
>>> started = GameStarted(((1,), (2,)), 1, ((1,), (2,)))
>>> clock = advance(None, 0, created, GameState())
>>> clock = advance(clock, 1000, started, GameState(status="playing", turn=Turn(1, 7)))
>>> clock.deadline == 1000 + 3 * DAY
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Final

from mathable.core.errors import RuleError
from mathable.core.events import (
    Event,
    GameCreated,
    TimeGiven,
    VacationDayUsed,
    VacationEnded,
    VacationStarted,
)
from mathable.core.lifecycle.clocks import MAX_SECONDS, check_spec
from mathable.core.ruleset import AnyState, apply_any, empty_state
from mathable.core.state import ClockSpec
from mathable.core.words import says

SECOND: Final = 1000
DAY: Final = 86_400 * SECOND
WEEK: Final = 7 * DAY
#: 1970-01-01 was a Thursday: shifted by three days, weeks start on Monday 00:00 UTC.
_TO_MONDAY: Final = 3 * DAY
_WORKDAYS: Final = 5 * DAY


# --- counting time ------------------------------------------------------------------


def _workday_ms(t: int) -> int:
    """Milliseconds of Monday-to-Friday time from a Monday long ago to ``t`` (monotone)."""
    u = t + _TO_MONDAY
    return (u // WEEK) * _WORKDAYS + min(u % WEEK, _WORKDAYS)


def _from_workday_ms(count: int) -> int:
    """The first moment at which ``_workday_ms`` reaches ``count``."""
    weeks, rest = divmod(count, _WORKDAYS)
    if rest == 0 and weeks > 0:
        return (weeks - 1) * WEEK + _WORKDAYS - _TO_MONDAY
    return weeks * WEEK + rest - _TO_MONDAY


def counted(start: int, end: int, weekends_off: bool) -> int:
    """The clock time between two moments: all of it, or only weekdays (UTC).

    >>> friday_noon = 2 * DAY // 2 + DAY  # 1970-01-02 12:00 was a Friday
    >>> counted(friday_noon, friday_noon + 3 * DAY, True) // 3_600_000  # to Monday noon
    24
    """
    if end <= start:
        return 0
    if not weekends_off:
        return end - start
    return _workday_ms(end) - _workday_ms(start)


def add_counted(start: int, amount: int, weekends_off: bool) -> int:
    """The moment at which ``amount`` of clock time has passed since ``start``."""
    if amount <= 0:
        return start
    if not weekends_off:
        return start + amount
    return max(start, _from_workday_ms(_workday_ms(start) + amount))


# --- the clock of a game ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClockState:
    """A game's clock after some event: time left per seat (ms) and whose clock runs.

    ``remaining[s]`` is seat s's time at ``since`` (the time of the last event);
    only the ``running`` seat's time goes down after it. ``vacations[s]`` is the
    (start, end) of seat s's latest vacation, if any.
    """

    spec: ClockSpec
    remaining: tuple[int, ...] = ()
    running: int | None = None
    since: int = 0
    vacations: tuple[tuple[int, int] | None, ...] = ()
    turns_played: int = 0

    def _paused(self, seat: int, start: int, end: int) -> int:
        """Clock time of ``seat`` between two moments that its vacation takes away."""
        vacation = self.vacations[seat] if seat < len(self.vacations) else None
        if vacation is None:
            return 0
        return counted(max(start, vacation[0]), min(end, vacation[1]), self.spec.weekends_off)

    def used(self, seat: int, start: int, end: int) -> int:
        """The clock time ``seat`` spends between two moments (weekends, vacation excepted)."""
        return counted(start, end, self.spec.weekends_off) - self._paused(seat, start, end)

    @property
    def deadline(self) -> int | None:
        """When the running seat's time is up (ms), or None when no clock runs.

        A vacation only ever starts at an event, so one that counts is under way at
        ``since``: the clock resumes at its end.
        """
        if self.running is None:
            return None
        left = self.remaining[self.running]
        start = self.since
        vacation = self.vacations[self.running]
        if vacation is not None and vacation[0] <= start < vacation[1] and left > 0:
            start = vacation[1]
        return add_counted(start, left, self.spec.weekends_off)

    def remaining_at(self, now: int) -> tuple[int, ...]:
        """Time left per seat at ``now`` (ms, never below 0)."""
        left = list(self.remaining)
        if self.running is not None:
            left[self.running] -= self.used(self.running, self.since, max(now, self.since))
        return tuple(max(0, ms) for ms in left)

    def expired(self, now: int) -> int | None:
        """The seat whose time is up at ``now``, or None."""
        deadline = self.deadline
        if deadline is None or now < deadline:
            return None
        return self.running

    def on_vacation(self, now: int) -> list[int]:
        """Seats whose player is on vacation at ``now``."""
        return [
            seat
            for seat, vacation in enumerate(self.vacations)
            if vacation is not None and vacation[0] <= now < vacation[1]
        ]

    @property
    def due(self) -> int | None:
        """When the server must act on its own (ms): at the deadline, unless the game
        waits for a claim and no vacation day may be spent first."""
        if self.spec.on_timeout == "claim" and not self.spec.auto_vacation:
            return None
        return self.deadline

    def full(self) -> int:
        """A seat's time at the start of the game (ms)."""
        seconds = self.spec.per_move if self.spec.per_move is not None else self.spec.initial
        return (seconds or 0) * SECOND

    def _after_move(self, left: int) -> int:
        """A seat's time once its move is made, given what it had left."""
        if self.spec.per_move is not None:
            return self.spec.per_move * SECOND
        # A late move (a claim mode clock nobody claimed) is forgiven, not carried.
        top = (self.spec.max if self.spec.max is not None else MAX_SECONDS) * SECOND
        return min(top, max(0, left) + self.spec.increment * SECOND)


def advance(clock: ClockState | None, at: int, event: Event, state: AnyState) -> ClockState | None:
    """The clock after ``event``, written at ``at`` (ms); ``state`` is the game after it."""
    if isinstance(event, GameCreated):
        if event.clock is None:
            return None
        seats = event.players
        return ClockState(event.clock, (0,) * seats, None, at, (None,) * seats, 0)
    if clock is None:
        return None
    left = list(clock.remaining)
    vacations = list(clock.vacations)
    mover = clock.running
    if mover is not None:
        left[mover] -= clock.used(mover, clock.since, max(at, clock.since))
    if event.starts_clocks:
        left = [clock.full()] * len(left)
    match event:
        case TimeGiven():
            left[event.to] += event.seconds * SECOND
        case VacationStarted():
            vacations[event.seat] = (at, at + event.days * DAY)
        case VacationEnded():
            vacation = vacations[event.seat]
            if vacation is not None and vacation[1] > at:
                vacations[event.seat] = (vacation[0], max(vacation[0], at))
        case VacationDayUsed():
            left[event.seat] += DAY
    running = state.turn.seat if state.status == "playing" and state.turn is not None else None
    if mover is not None and (running != mover or state.turns_played != clock.turns_played):
        left[mover] = clock._after_move(left[mover])
    return replace(
        clock,
        remaining=tuple(left),
        running=running,
        since=max(at, clock.since),
        vacations=tuple(vacations),
        turns_played=state.turns_played,
    )


def replay_timed(timed: Iterable[tuple[int, Event]]) -> tuple[AnyState, ClockState | None]:
    """The state and clock reached by folding ``(at, event)`` pairs from an empty game
    (of the ruleset its ``game_created`` names)."""
    state: AnyState = empty_state()
    clock = None
    for at, event in timed:
        state = apply_any(state, event)
        clock = advance(clock, at, event, state)
    return state, clock


def check_claim(state: AnyState, clock: ClockState | None, now: int, seat: int) -> int:
    """The seat whose timeout ``seat`` may claim at ``now``; RuleError if there is none."""
    if clock is None:
        raise RuleError("no_clock", says("this game has no clock"), {"clock": None})
    if clock.spec.on_timeout != "claim":
        raise RuleError(
            "claims_off",
            says("this game's clock ends a late player's game by itself"),
            {"on_timeout": clock.spec.on_timeout},
        )
    if state.status != "playing" or not 0 <= seat < len(state.seats):
        raise RuleError(
            "game_over", says("only a game in play has a clock running"), {"status": state.status}
        )
    if state.seats[seat].resigned:
        raise RuleError(
            "not_seated", says("you no longer play in this game"), {"seat": seat, "resigned": True}
        )
    late = clock.expired(now)
    if late is None:
        raise RuleError(
            "not_expired",
            says("the player to move still has time"),
            {
                "seat": clock.running,
                "remaining_ms": None
                if clock.running is None
                else clock.remaining_at(now)[clock.running],
            },
        )
    if late == seat:
        raise RuleError(
            "own_timeout", says("you cannot claim your own timeout: move instead"), {"seat": seat}
        )
    return late


__all__ = [
    "DAY",
    "MAX_SECONDS",
    "SECOND",
    "ClockSpec",
    "ClockState",
    "add_counted",
    "advance",
    "check_claim",
    "check_spec",
    "counted",
    "replay_timed",
]
