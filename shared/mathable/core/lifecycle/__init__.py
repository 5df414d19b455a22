"""The lifecycle every game shares, as commands checked and as events applied.

Creating a game, joining, declining and cancelling, passing and resigning, the clock
commands (timeouts, time given, vacations), the end and its deductions, and the events they
write (``game_created``, ``player_joined``, ``resigned``, ``timed_out``, ``game_ended``,
``draws_revealed``...) work the same in every game. Each ruleset checks and applies
its own turns (Mathable: ``mathable.games.mathable.commands`` and
``mathable.games.mathable.events``; Summy: ``mathable.games.summy``) and hands the
rest to ``check`` and ``apply`` here, with a
``GameRules`` that says what differs: its name and rules version, its tiles, which
referees it allows, how a game starts and ends, and what a hand is worth at the end.
The state fields they read and change are those of ``mathable.core.state.Lifecycle``.

One module a job, each a part of the lifecycle (``part.Part``): ``creation`` (create,
join, decline, open), ``turns`` (whose turn, pass, resign), ``clocks`` (a clock's spec,
timeouts, time given, vacations), ``end`` (the end and the order revealed) and ``offers``
(a module each: a draw offer, a takeback, a nudge). ``shared`` adds the parts up: one
``check``, one ``apply``, and the commands players write (``pass``, ``resign``,
``give_time``...) read from JSON and mail for every game, listed in its
``command_types``, their body schemas given to the server. ``fold`` holds what every
check is made with (``GameRules``, ``Fold``). Every name of the lifecycle is imported
from here.

>>> from mathable.games.mathable.events import replay
>>> turn_of(replay([]), 0)
Traceback (most recent call last):
...
mathable.core.errors.RuleError: game_not_started: the game has not started yet
"""

from __future__ import annotations

from mathable.core.lifecycle.clocks import (
    MAX_SECONDS,
    EndVacation,
    GiveTime,
    StartVacation,
    TimeOut,
    UseVacationDay,
    check_spec,
    clocked_seat,
)
from mathable.core.lifecycle.creation import Create, Decline, Join, Open, closed, creator_of
from mathable.core.lifecycle.end import end_if_over, finish
from mathable.core.lifecycle.fold import Fold, GameRules, S, default_policy, is_int, is_seat
from mathable.core.lifecycle.part import Part, SharedCommand
from mathable.core.lifecycle.shared import apply, check
from mathable.core.lifecycle.turns import Pass, Resign, turn_of

LifecycleCommand = (
    Create
    | Join
    | Decline
    | Open
    | Resign
    | TimeOut
    | GiveTime
    | StartVacation
    | EndVacation
    | UseVacationDay
)


__all__ = [
    "MAX_SECONDS",
    "Create",
    "Decline",
    "Open",
    "closed",
    "creator_of",
    "EndVacation",
    "Fold",
    "GameRules",
    "GiveTime",
    "Join",
    "LifecycleCommand",
    "Part",
    "Pass",
    "Resign",
    "S",
    "SharedCommand",
    "StartVacation",
    "TimeOut",
    "UseVacationDay",
    "apply",
    "check",
    "check_spec",
    "clocked_seat",
    "default_policy",
    "end_if_over",
    "finish",
    "is_int",
    "is_seat",
    "turn_of",
]
