"""Summy's turns in a game record (``mathable.core.record``), written and read back.

A play is written as people type it: the first square of the whole equation, its
direction and the whole equation, table tiles included, then its points (the
kernel writes them): ``-3,0 across 1+2=3 (6)``. A discard names the tiles put out
of the game, ``discard 9 =`` (``discard ? ?`` while they are hidden).

>>> from mathable.games.summy.events import EquationPlayed, replay
>>> from mathable.games.summy.state import SummyState
>>> laid = ((-3, 0, 1), (-2, 0, 10), (-1, 0, 2), (1, 0, 3))
>>> run = [EquationPlayed(0, laid, "across", "1+2=3", 6, ())]
>>> [t.written for t in record_turns(SummyState(), run, None, True)]
['-3,0 across 1+2=3 (6)']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mathable.core.errors import RuleError
from mathable.core.events import Event
from mathable.core.ruleset import RecordTurn
from mathable.core.words import says
from mathable.games.summy.events import EquationPlayed, TilesDiscarded
from mathable.games.summy.moves import Discard, PlayEquation
from mathable.games.summy.notation import play_words, read_play
from mathable.games.summy.state import ACROSS
from mathable.games.summy.tiles import NAMES, parse_tile


def _start(table: dict[tuple[int, int], int], event: EquationPlayed) -> tuple[int, int]:
    """The first square of the whole line an equation lies in."""
    dx, dy = (1, 0) if event.direction == ACROSS else (0, 1)
    new = {(x, y) for x, y, _ in event.placements}
    x, y = min(new)
    while (x - dx, y - dy) in table or (x - dx, y - dy) in new:
        x, y = x - dx, y - dy
    return x, y


def record_turns(
    state: Any, events: Sequence[Event], then: Event | None, revealed: bool
) -> list[RecordTurn]:
    """Summy's own events of a run as record lines (see the module)."""
    out: list[RecordTurn] = []
    table = dict(state.table)
    for event in events:
        match event:
            case EquationPlayed():
                start = _start(table, event)
                text = play_words(start, event.direction, event.equation)
                out.append(RecordTurn(event.seat, text, event.points))
                table.update({(x, y): t for x, y, t in event.placements})
            case TilesDiscarded():
                tiles = (
                    [NAMES[t] for t in event.discarded]
                    if revealed
                    else ["?"] * len(event.discarded)
                )
                out.append(RecordTurn(event.seat, " ".join(["discard", *tiles])))
    return out


def record_commands(state: Any, seat: int, text: str) -> list[Any]:
    """The command of a record line's Summy turn (see the module)."""
    words = text.split()
    if words and words[0] == "discard":
        if "?" in words[1:]:
            raise RuleError(
                "hidden_tiles",
                says("the discarded tiles are hidden in this record: it cannot be replayed"),
                {"text": text[:40]},
            )
        if len(words) < 2:
            raise RuleError(
                "bad_notation", says("a discard names its tiles: discard 9 ="), {"text": text[:40]}
            )
        return [Discard(seat, tuple(parse_tile(word) for word in words[1:]))]
    placements, direction = read_play(text, state.table)
    return [PlayEquation(seat, placements, direction)]


__all__ = ["record_commands", "record_turns"]
