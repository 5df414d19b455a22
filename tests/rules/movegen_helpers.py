"""Helpers for Mathable's move generation tests: random positions, and the best turn
found by brute force."""

from __future__ import annotations

import random

import mathable
from mathable import Position, legal_placements_in, parse_square


def random_position(seed: int, tiles: int) -> Position:
    """A position grown by random legal placements from random tiles."""
    rng = random.Random(seed)
    pos = Position.initial()
    for _ in range(tiles):
        options = legal_placements_in(pos, rng.sample(mathable.TILE_SET, 12))
        if not options:
            break
        p = rng.choice(options)
        pos = pos.place(parse_square(p.square), p.tile)
    return pos


def brute_force(pos: Position, rack: list[int], bonus_possible: bool) -> int:
    """The best turn score by trying every order of every placement."""
    best = 50 if bonus_possible and not rack else 0
    for p in legal_placements_in(pos, rack):
        rest = list(rack)
        rest.remove(p.tile)
        after = pos.place(parse_square(p.square), p.tile)
        best = max(best, p.points + brute_force(after, rest, bonus_possible))
    return best


def replay_line(pos: Position, line: list[mathable.Placement]) -> int:
    """Play a line of placements, checking each is legal and scores what it says."""
    total = 0
    for p in line:
        square = parse_square(p.square)
        assert pos.equations(square, p.tile) > 0
        assert pos.points(square, p.tile) == p.points
        total += p.points
        pos = pos.place(square, p.tile)
    return total
