"""Whole Summy games played by engines through ``check`` (tests, benchmarks, tournaments).

>>> events = play_game(players=2, seed=3, choose=first_move)
>>> replay(events).status
'ended'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from mathable.core.bag import SeededBag
from mathable.core.events import Event
from mathable.core.lifecycle import Create, Join, Pass
from mathable.games.summy.commands import Discard, PlayEquation, check
from mathable.games.summy.events import apply, replay
from mathable.games.summy.movegen import Move, best_move, legal_moves
from mathable.games.summy.state import SummyState
from mathable.games.summy.tiles import EQUALS

#: An engine: the move to play for a hand on a table, or None to discard or pass.
Choose = Callable[[SummyState, int], Move | None]


def best(state: SummyState, seat: int) -> Move | None:
    """The highest-scoring equation (the bot and ``hint``)."""
    return best_move(state.table, state.seats[seat].rack, state.closed)


def first_move(state: SummyState, seat: int) -> Move | None:
    """The first equation found: quick, for long property runs."""
    return next(legal_moves(state.table, state.seats[seat].rack, state.closed), None)


def fallback(state: SummyState, seat: int) -> Discard | Pass:
    """No equation: discard the hand's least useful tiles (high digits and extra ``=``,
    which would count against it at the end), or pass once the supply is empty."""
    hand = state.seats[seat].rack
    if not state.supply:
        return Pass(seat)
    extra_equals = [t for t in hand if t == EQUALS][1:]
    digits = sorted((t for t in hand if t <= 9), reverse=True)
    tiles = (extra_equals + digits[:2]) or list(hand[:1])
    return Discard(seat, tuple(tiles[: len(state.supply)] or hand[:1]))


def turns(state: SummyState, choose: Choose) -> Iterator[PlayEquation | Discard | Pass]:
    """The command of the seat to move, by ``choose`` or the fallback (one per call)."""
    assert state.turn is not None
    seat = state.turn.seat
    move = choose(state, seat)
    yield move.command(seat) if move is not None else fallback(state, seat)


def play_game(
    players: int = 2, seed: int = 0, choose: Choose = best, max_turns: int = 1000
) -> list[Event]:
    """The events of a whole seeded game of ``players`` engines playing ``choose``."""
    bag = SeededBag(seed)
    events: list[Event] = []
    state = SummyState()

    def run(command: object) -> None:
        nonlocal state
        for event in check(state, command, bag):
            events.append(event)
            state = apply(state, event)

    run(Create("p0", players=players, seed=seed, ruleset="summy"))
    for index in range(1, players):
        run(Join(f"p{index}"))
    for _ in range(max_turns):
        if state.status != "playing":
            break
        for command in turns(state, choose):
            run(command)
    return events


__all__ = ["Choose", "best", "fallback", "first_move", "play_game", "replay"]
