"""Summy positions with the supply empty, for the tests and the benchmark of the end check
(issue 47): seeded games played to the last draw, and hands dealt from the tiles that are
not on the table (so within the game's tile counts: six of each digit, five of each sign,
fourteen ``=``).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from mathable.core.bag import SeededBag
from mathable.core.lifecycle import Create, Join
from mathable.games.summy import SummyState, apply, check
from mathable.games.summy.movegen import best_move, legal_moves
from mathable.games.summy.selfplay import fallback
from mathable.games.summy.tiles import TILE_SET


@lru_cache(maxsize=64)
def dry_table(seed: int, players: int = 4) -> SummyState:
    """The state of a seeded game of ``players`` when its supply has just run out (or as it
    ended, if it ended first): each turn plays one of the first five equations found, at
    random, or discards (``selfplay.fallback``) when there is none."""
    rng = random.Random(seed)
    bag = SeededBag(seed)
    state = SummyState()
    commands: list[object] = [Create("p0", players=players, seed=seed, ruleset="summy")]
    commands += [Join(f"p{seat}") for seat in range(1, players)]
    for command in commands:
        for event in check(state, command, bag):
            state = apply(state, event)
    while state.status == "playing" and state.supply and state.turn is not None:
        seat = state.turn.seat
        found = legal_moves(state.table, state.seats[seat].rack, state.closed)
        moves = list(itertools.islice(found, 5))
        command = rng.choice(moves).command(seat) if moves else fallback(state, seat)
        for event in check(state, command, bag):
            state = apply(state, event)
    return state


def tiles_left(state: SummyState) -> list[int]:
    """The tiles not on the table (those the hands and the discards hold), sorted."""
    return sorted((Counter(TILE_SET) - Counter(state.table.values())).elements())


def with_hands(state: SummyState, hands: Sequence[Sequence[int]]) -> SummyState:
    """``state`` with the supply empty and these hands, seat by seat."""
    seats = tuple(
        replace(seat, rack=tuple(hand)) for seat, hand in zip(state.seats, hands, strict=True)
    )
    return replace(state, supply=(), seats=seats)


__all__ = ["dry_table", "tiles_left", "with_hands"]


def mid_game(seed: int, tiles: int) -> SummyState | None:
    """A seeded game played by the best-move bot until ``tiles`` lie on the table, with
    8 tiles in the hand of the seat to move; None if the game ends first."""
    bag = SeededBag(seed)
    state = SummyState()
    for command in (Create("a", seed=seed, ruleset="summy"), Join("b")):
        for event in check(state, command, bag):
            state = apply(state, event)
    while state.status == "playing" and state.turn is not None:
        seat = state.turn.seat
        if len(state.table) >= tiles and len(state.seats[seat].rack) == 8:
            return state
        move = best_move(state.table, state.seats[seat].rack, state.closed)
        command = move.command(seat) if move is not None else fallback(state, seat)
        for event in check(state, command, bag):
            state = apply(state, event)
    return None
