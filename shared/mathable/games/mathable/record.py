"""Mathable's turns in a game record (``mathable.core.record``), written and read back.

A turn is its placements in the order played, ``SQUARE=TILE`` each, ``+`` after
one that drew the extra tile of its operation square, then its points (the kernel
writes them): ``I8=12 J8=16+ (55)``, ``... (71+50)`` with the 50 bonus. With
players as referee each placement states the equations it claims:
``I8=12:I6+I7:G8xH8``. A turn its player did not end (they resigned or ran out of
time in the middle of it, or an opponent corrected it while it was played) ends
with ``...``. An exchange is ``exchange 3 7 12`` (``exchange ? ? ?`` while the
tiles are hidden), a correction ``correct (-12)``: the points the corrected turn
lost.

>>> from mathable.games.mathable.events import TilePlaced, ExtraTileDrawn, TurnEnded
>>> from mathable.games.mathable.state import GameState
>>> run = [TilePlaced(0, 106, 12, (), 12), ExtraTileDrawn(0, 5), TurnEnded(0, 12, 0, (1,))]
>>> [t.written for t in record_turns(GameState(), run, None, True)]
['I8=12+ (12)']
>>> record_commands(GameState(), 0, "I8=12+ J8=5")  # doctest: +NORMALIZE_WHITESPACE
[Place(seat=0, square=106, tile=12, claims=None), DrawExtra(seat=0),
 Place(seat=0, square=107, tile=5, claims=None), EndTurn(seat=0)]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from mathable.core.errors import RuleError
from mathable.core.events import Event, Resigned, TimedOut
from mathable.core.record import number_word
from mathable.core.ruleset import RecordTurn
from mathable.core.words import says
from mathable.games.mathable.board import parse_square, square_name
from mathable.games.mathable.commands import Correct, DrawExtra, EndTurn, Exchange, Place
from mathable.games.mathable.events import (
    Corrected,
    ExtraTileDrawn,
    TilePlaced,
    TilesExchanged,
    TurnEnded,
)
from mathable.games.mathable.state import Equation

_SQUARE = r"[A-Na-n](?:1[0-4]|[1-9])"
_PLACEMENT = re.compile(rf"\A({_SQUARE})=(\d{{1,3}})((?::{_SQUARE}[-+x/]{_SQUARE})*)(\+?)\Z")
_CLAIM = re.compile(rf"({_SQUARE})([-+x/])({_SQUARE})")
#: The mark of a turn its player did not end.
LEFT = "..."


def _placement(event: TilePlaced, players_referee: bool) -> str:
    text = f"{square_name(event.square)}={event.tile}"
    if players_referee:
        text += "".join(f":{claim}" for claim in event.equations)
    return text


def record_turns(
    state: Any, events: Sequence[Event], then: Event | None, revealed: bool
) -> list[RecordTurn]:
    """Mathable's own events of a run as record lines (see the module)."""
    players_referee = state.options.referee == "players"
    out: list[RecordTurn] = []
    words: list[str] = []
    seat: int | None = None
    points = 0
    previous: Event | None = None

    def left_unended() -> None:
        nonlocal words, seat, points
        if words and seat is not None:
            out.append(RecordTurn(seat, " ".join([*words, LEFT]), points))
        words, seat, points = [], None, 0

    for index, event in enumerate(events):
        match event:
            case TilePlaced():
                if seat is not None and seat != event.seat:
                    left_unended()
                seat = event.seat
                words.append(_placement(event, players_referee))
                points += event.points
            case ExtraTileDrawn():
                if words:
                    words[-1] += "+"
            case TurnEnded() if isinstance(previous, Corrected) and event.seat == previous.target:
                pass  # the correction ended the turn it corrected: part of its line
            case TurnEnded():
                last = index == len(events) - 1
                # Resigning or running out of time in the middle of a turn ends it
                # (the tiles placed score, nothing is drawn): the line says it was left.
                left = (
                    last
                    and isinstance(then, Resigned | TimedOut)
                    and then.seat == event.seat
                    and not event.drawn
                    and not event.bonus
                    and bool(words)
                )
                text = " ".join([*words, LEFT] if left else words)
                out.append(RecordTurn(event.seat, text, event.points, event.bonus))
                words, seat, points = [], None, 0
            case TilesExchanged():
                left_unended()
                tiles = (
                    [str(t) for t in event.returned] if revealed else ["?"] * len(event.returned)
                )
                out.append(RecordTurn(event.seat, " ".join(["exchange", *tiles])))
            case Corrected():
                left_unended()
                out.append(RecordTurn(event.seat, "correct", -event.points_lost))
        previous = event
    left_unended()
    return out


def _bad(text: str, why: str) -> RuleError:
    return RuleError(
        "bad_notation",
        says("{text}: {why}", text=repr(text[:40]), why=why),
        {"text": text[:40], "accepted": "SQUARE=TILE, + after one that drew its extra tile"},
    )


def record_commands(state: Any, seat: int, text: str) -> list[Any]:
    """The commands of a record line's Mathable turn (see the module)."""
    words = text.split()
    if not words:
        raise _bad(text, says("the turn is empty"))
    if words[0] == "exchange":
        if any(word == "?" for word in words[1:]):
            raise RuleError(
                "hidden_tiles",
                says("the exchanged tiles are hidden in this record: it cannot be replayed"),
                {"text": text[:40]},
            )
        if not all(number_word(word) for word in words[1:]) or len(words) < 2:
            raise _bad(text, says("an exchange names the tiles given back: exchange 3 7 12"))
        return [Exchange(seat, tuple(int(w) for w in words[1:]))]
    if words == ["correct"]:
        return [Correct(seat)]
    left = words[-1] == LEFT
    if left:
        words = words[:-1]
    commands: list[Any] = []
    for word in words:
        match = _PLACEMENT.match(word)
        if match is None:
            raise _bad(word, says("a placement is written SQUARE=TILE (I8=12)"))
        claims = tuple(
            Equation(parse_square(near), parse_square(far), op)
            for near, op, far in _CLAIM.findall(match.group(3))
        )
        commands.append(
            Place(seat, parse_square(match.group(1)), int(match.group(2)), claims or None)
        )
        if match.group(4):
            commands.append(DrawExtra(seat))
    if not commands:
        raise _bad(text, says("the turn places no tile"))
    if not left:
        commands.append(EndTurn(seat))
    return commands


__all__ = ["LEFT", "record_commands", "record_turns"]
