"""Commands and ``check``: is a command legal here, and which events does it produce?

``check(state, command, bag)`` never changes ``state``; it returns the events to
append (drawing any tiles with the bag policy) or raises ``RuleError`` with a
stable code and a message a player understands. Each job has its module: playing a
turn (``turns``), explaining a refused placement (``refusals``), corrections when the
players referee (``corrections``), the end (``ending``); here are the start of a game,
Mathable's ``GameRules`` for the kernel's lifecycle, and ``check``, which asks each. Every
name a command module of Mathable ever had is imported from here.

>>> from mathable.games.mathable.events import replay
>>> check(replay([]), Pass(seat=0))
Traceback (most recent call last):
...
mathable.core.errors.RuleError: game_not_started: the game has not started yet
"""

from __future__ import annotations

from mathable.core import lifecycle
from mathable.core.bag import BagPolicy
from mathable.core.errors import RuleError
from mathable.core.events import Event
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
)
from mathable.core.words import says
from mathable.games.mathable import turns
from mathable.games.mathable.corrections import Correct, Review, correct, find_mistake, review_turn
from mathable.games.mathable.ending import end_reason, pending_end
from mathable.games.mathable.events import GameStarted, apply
from mathable.games.mathable.refusals import explain_refusal, pair_details, real_equations
from mathable.games.mathable.state import RULES_VERSION, RULESET, V2, V3, GameState
from mathable.games.mathable.tiles import RACK_SIZE, TILE_SET
from mathable.games.mathable.turns import (
    MAX_TURN_PLACEMENTS,
    DrawExtra,
    EndTurn,
    Exchange,
    Place,
    PlayTurn,
    TurnPlacement,
)

#: The fold of one Mathable command (``mathable.core.lifecycle.Fold``).
_Fold = lifecycle.Fold[GameState]

Command = Place | DrawExtra | EndTurn | PlayTurn | Exchange | Pass | Correct | LifecycleCommand


def check(state: GameState, command: Command, bag: BagPolicy | None = None) -> list[Event]:
    """The events ``command`` produces in ``state``; RuleError if the rules refuse it."""
    fold = _Fold(state, bag if bag is not None else default_policy(state), MATHABLE)
    match command:
        case Place():
            turns.place(fold, command.seat, command.square, command.tile, command.claims)
        case DrawExtra():
            turns.draw_extra(fold, command.seat)
        case EndTurn():
            turns.end_turn(fold, command.seat)
        case PlayTurn():
            turns.play_turn(fold, command)
        case Exchange():
            turns.exchange(fold, command)
        case Pass():
            turns.pass_turn(fold, command)
        case Correct():
            correct(fold, command.seat)
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
    leave=turns.leave,
)


__all__ = [
    "MATHABLE",
    "MAX_TURN_PLACEMENTS",
    "V2",
    "V3",
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
