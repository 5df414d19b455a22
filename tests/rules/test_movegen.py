"""Move generation: legal_placements, has_legal_move and best_turn (the bot API)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import mathable
from mathable import (
    CENTRE,
    best_turn,
    best_turn_in,
    greedy_turn,
    has_legal_move,
    legal_placements,
    legal_placements_in,
    square_name,
)
from tests.rules.movegen_helpers import brute_force, random_position, replay_line


def test_legal_placements_takes_the_board_with_or_without_the_centre_numbers() -> None:
    without = legal_placements({"I8": 12}, [16, 8])
    centre = {square_name(s): v for s, v in CENTRE.items()}
    with_centre = legal_placements({**centre, "I8": 12}, [16, 8])
    assert without == with_centre
    assert [(p.square, p.tile, p.points) for p in without] == [
        ("J8", 16, 16),
        ("H6", 8, 8),
        ("H9", 8, 8),
    ]


def test_legal_placements_lists_each_square_and_tile_once_even_with_duplicate_tiles() -> None:
    found = legal_placements({}, [7, 7, 7, 1])
    keys = [(p.square, p.tile) for p in found]
    assert len(keys) == len(set(keys))
    assert ("F8", 7) in keys and ("I8", 7) in keys


def test_has_legal_move_agrees_with_legal_placements() -> None:
    for seed in range(30):
        pos = random_position(seed, 25)
        rack = random.Random(seed).sample(mathable.TILE_SET, 5)
        assert has_legal_move(pos, rack) == bool(legal_placements_in(pos, rack))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(0, 30), rack_size=st.integers(1, 4))
def test_best_turn_is_exact_when_exhaustive(seed: int, size: int, rack_size: int) -> None:
    pos = random_position(seed, size)
    rng = random.Random(seed + 1)
    rack = rng.sample(list(range(1, 11)) * 2 + [12, 16, 20, 24, 0], rack_size)
    turn = best_turn_in(pos, rack, bonus_possible=True)
    assert turn.exhaustive
    assert turn.total == brute_force(pos, rack, bonus_possible=True)
    assert turn.total == replay_line(pos, list(turn.placements)) + turn.bonus
    assert not Counter(p.tile for p in turn.placements) - Counter(rack)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(10, 60), limit=st.integers(1, 300))
def test_best_turn_never_scores_below_greedy_even_when_cut_short(
    seed: int, size: int, limit: int
) -> None:
    pos = random_position(seed, size)
    rack = random.Random(seed).sample(mathable.TILE_SET, 7)
    greedy = greedy_turn(pos, rack)
    greedy_total = sum(p.points for p in greedy) + (50 if len(greedy) == 7 else 0)
    turn = best_turn_in(pos, rack, node_limit=limit)
    assert turn.total >= greedy_total
    assert turn.total == replay_line(pos, list(turn.placements)) + turn.bonus


def test_best_turn_counts_the_bonus_when_all_seven_tiles_go_down() -> None:
    # Player 2's rack of the rule book after player 1's turn: all seven fit, 71 + 50.
    board = {"I8": 12, "H6": 8, "G9": 2, "F7": 1, "J8": 16}
    turn = best_turn(board, [3, 4, 6, 7, 7, 8, 21])
    assert turn.exhaustive
    assert len(turn.placements) == 7 and turn.bonus == 50
    assert turn.total >= 121


def test_best_turn_of_an_empty_rack_or_a_stuck_rack_is_empty() -> None:
    assert best_turn({}, []).placements == ()
    stuck = best_turn({}, [90, 81])
    assert (stuck.placements, stuck.total, stuck.exhaustive) == ((), 0, True)
