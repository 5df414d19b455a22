"""Summy's engine against an independent reading of RULES.md (``summy_reference``).

Whole games are played from seeded random supplies. At every turn the plays tried
are those the move generator finds when the ends of the equations are left open
(so that many would lengthen an equation on the table), and random tiles laid near
the table; the engine (the play as a command: ``check`` on the game's state) and the reference
must agree on each: refused by both, or accepted by both for the same points."""

from __future__ import annotations

import itertools
import random

import pytest

from mathable import Create, Join, RuleError
from mathable.games.summy import SUPPLY_SET, SummyState, apply, check, judge
from mathable.games.summy.events import EquationPlayed
from mathable.games.summy.movegen import legal_moves
from mathable.games.summy.moves import Discard, PlayEquation
from tests.rules.summy_reference import Table


def _engine(state: SummyState, hand: list[int], placements: list, direction: str | None):  # type: ignore[no-untyped-def]
    """The engine's verdict on the play, as a command to the game (``check``, the way the
    server asks): (points, direction) of the equation played, None if refused."""
    assert state.turn is not None and list(state.seats[state.turn.seat].rack) == hand
    command = PlayEquation(state.turn.seat, tuple(placements), direction)
    try:
        events = check(state, command)
    except RuleError:
        with pytest.raises(RuleError):  # the judge alone agrees
            judge(state.table, hand, placements, direction, state.closed)
        return None
    (played,) = [e for e in events if isinstance(e, EquationPlayed)]
    return played.points, played.direction


def _random_plays(rng: random.Random, state: SummyState, hand: list[int]) -> list:  # type: ignore[type-arg]
    """A few random placements of hand tiles in a row or column beside the table."""
    plays = []
    squares = list(state.table)
    for _ in range(12):
        x, y = rng.choice(squares)
        dx, dy = rng.choice([(1, 0), (0, 1)])
        start = rng.randint(-4, 1)
        k = rng.randint(1, min(4, len(hand)))
        tiles = rng.sample(hand, k)
        line = [(x + (start + i) * dx, y + (start + i) * dy) for i in range(8)]
        empty = [s for s in line if s not in state.table][:k]
        placements = [(sx, sy, t) for (sx, sy), t in zip(empty, tiles, strict=False)]
        direction = rng.choice([None, "across", "down"]) if len(placements) == 1 else None
        plays.append((placements, direction))
    return plays


@pytest.mark.parametrize("seed", range(4))
def test_the_engine_and_the_reference_agree_on_every_play_tried(seed: int) -> None:
    rng = random.Random(seed)
    order = list(SUPPLY_SET)
    rng.shuffle(order)
    state = SummyState()
    for command in (Create("a", tiles=tuple(order), ruleset="summy"), Join("b")):
        for event in check(state, command):
            state = apply(state, event)
    reference = Table()
    tried = spoiling = 0
    for _ in range(25):
        if state.status != "playing" or state.turn is None:
            break
        seat = state.turn.seat
        hand = list(state.seats[seat].rack)
        open_ends = list(itertools.islice(legal_moves(state.table, hand), 20))
        plays = [(list(m.placements), m.direction) for m in open_ends]
        plays += _random_plays(rng, state, hand)
        accepted = []
        for placements, direction in plays:
            mine = _engine(state, hand, placements, direction)
            theirs = reference.judge(hand, placements, direction)
            tried += 1
            spoiling += any((x, y) in reference.ends for x, y, _ in placements)
            assert mine == (theirs[:2] if theirs else None), (placements, direction)
            if theirs is not None:
                accepted.append((placements, theirs))
        if accepted:
            placements, (_, direction, line) = rng.choice(accepted)
            command: object = PlayEquation(seat, tuple(placements), direction)
            reference.play(placements, direction, line)
        else:
            command = Discard(seat, tuple(hand[:2])) if state.supply else None
            if command is None:
                break
        for event in check(state, command):
            state = apply(state, event)
        assert set(state.table.items()) == set(reference.tiles.items())
        assert set(state.closed) == reference.ends
    assert tried > 100 and spoiling > 0  # the ends were put to the test
