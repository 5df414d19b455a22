"""Fifteen's commands checked against a state: ``check(state, command)`` gives the events
it makes, or raises ``RuleError`` (a stable code, words for a person, details as data).

A turn is a claim (``Claim``) or a pass; passing, creating, joining, resigning and clocks
are the kernel's (``mathable.core.lifecycle``), told what differs by ``FIFTEEN`` (a
``GameRules``). The game checks its own claims first and hands the rest to the kernel;
it refuses a shared command only where its own rules say more (a game for two).

>>> from fifteen.events import replay
>>> check(replay([]), Claim(0, 5))
Traceback (most recent call last):
...
mathable.core.errors.RuleError: game_not_started: the game has not started yet
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mathable.core import lifecycle
from mathable.core.bag import BagPolicy
from mathable.core.errors import RuleError
from mathable.core.events import Event
from mathable.core.lifecycle import Create, default_policy, end_if_over, is_int, turn_of
from mathable.core.words import says

from fifteen.events import DigitClaimed, FifteenStarted, apply
from fifteen.state import DIGITS, RULES_VERSION, RULESET, FifteenState, line_of

#: A game of Fifteen has two seats (the kernel allows up to four: refused before it).
PLAYERS = 2


@dataclass(frozen=True, slots=True)
class Claim:
    """``seat`` claims ``digit`` (1 to 9, not yet held by anyone)."""

    seat: int
    digit: int


#: The refusals of a claim or a pass, beside the kernel's (not_your_turn, game_over...).
CODES = frozenset({"bad_digit", "digit_taken", "bad_players", "bad_command"})


def check(state: FifteenState, command: Any, bag: BagPolicy | None = None) -> list[Event]:
    """The events ``command`` makes in ``state``; RuleError if the rules refuse it."""
    fold = lifecycle.Fold(state, bag if bag is not None else default_policy(state), FIFTEEN)
    match command:
        case Claim():
            _claim(fold, command)
        case Create() if command.players != PLAYERS:
            raise RuleError(
                "bad_players",
                says("Fifteen is a game for two, not {players}", players=command.players),
                {"players": command.players, "allowed": [PLAYERS]},
            )
        case _:
            if not lifecycle.check(fold, command):
                raise RuleError(
                    "bad_command",
                    says("Fifteen has no such move: {command}", command=type(command).__name__),
                )
    return fold.events


def _claim(fold: lifecycle.Fold[FifteenState], command: Claim) -> None:
    state = fold.state
    turn_of(state, command.seat)
    digit = command.digit
    if not is_int(digit) or digit not in DIGITS:
        raise RuleError(
            "bad_digit",
            says("claim a digit from 1 to 9, not {digit}", digit=str(digit)[:12]),
            {"digit": digit},
        )
    if digit not in state.free:
        owner = next(i for i, seat in enumerate(state.seats) if digit in seat.rack)
        raise RuleError(
            "digit_taken",
            says("{digit} is held by seat {seat} already", digit=digit, seat=owner),
            {"digit": digit, "seat": owner, "free": list(state.free)},
        )
    fold.emit(DigitClaimed(seat=command.seat, digit=digit))
    end_if_over(fold)


def deal(state: FifteenState, policy: BagPolicy) -> FifteenStarted:
    """The start, once both seats are taken: the creator (seat 0) claims first."""
    return FifteenStarted(first_seat=0)


def end_reason(state: FifteenState) -> str | None:
    """Why the game is over now, or None while it goes on.

    >>> end_reason(FifteenState()) is None
    True
    """
    if state.status != "playing":
        return None
    active = state.active_seats()
    if len(active) <= 1:
        return "resigned"
    if any(line_of(seat.rack) is not None for seat in state.seats):
        return "fifteen"
    if not state.free:
        return "all_claimed"
    if state.idle_turns >= 2 * len(active):
        return "idle"
    return None


def legal_moves(state: FifteenState, seat: int) -> Iterator[Claim]:
    """Every claim ``seat`` may make now (none when it is not its turn)."""
    if state.status != "playing" or state.turn is None or state.turn.seat != seat:
        return
    for digit in state.free:
        yield Claim(seat, digit)


#: Fifteen's lifecycle: what it shares with every game (``mathable.core.lifecycle``).
FIFTEEN: lifecycle.GameRules[FifteenState] = lifecycle.GameRules(
    ruleset=RULESET,
    rules_version=RULES_VERSION,
    tile_set=DIGITS,
    apply=apply,
    deal=deal,
    end_reason=end_reason,
    deductions=lambda state: tuple(0 for _ in state.seats),
    referees=("server",),
    bad_referee=says("in Fifteen the server referees"),
    bad_tiles=says("tiles must list the digits 1 to 9, each once"),
    bad_order=says("an order lists the digits 1 to 9, each once, and only without tiles"),
)


__all__ = ["CODES", "FIFTEEN", "PLAYERS", "Claim", "check", "deal", "end_reason", "legal_moves"]
