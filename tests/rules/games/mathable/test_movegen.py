"""Move generation: legal_placements, has_legal_move and best_turn (the bot API)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mathable
from mathable import (
    CENTRE,
    Placement,
    Position,
    best_turn,
    best_turn_in,
    greedy_turn,
    has_legal_move,
    legal_placements,
    legal_placements_in,
    parse_square,
    position_from,
    square_name,
)
from tests.rules.helpers import position
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


# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_movegen.py ---------------
# The position cache and move generation, pinned on boards whose answers are worked out by hand.


def test_position_from_reads_names_and_values_or_keeps_a_position() -> None:
    pos = Position.initial()
    assert position_from(pos) is pos
    assert position_from([("I8", "12")]) == position_from({"i8": 12}) == position(I8=12)


# --- move generation ------------------------------------------------------------------------


def test_an_empty_rack_has_no_legal_move_even_where_squares_accept_values() -> None:
    assert not has_legal_move(Position.initial(), [])
    assert has_legal_move(Position.initial(), [90, 12])


def test_legal_placements_are_sorted_by_points_then_square_then_tile() -> None:
    found = legal_placements_in(Position.initial(), [7, 12, 1, 90])
    # 3 and 4 make 7, 1 and 12 beside them (F8, I8); 1 and 2 make 1 beside them (F7, I7).
    assert [str(p) for p in found] == [
        "F8=12", "I8=12", "F8=7", "I8=7", "F7=1", "F8=1", "I7=1", "I8=1",
    ]  # fmt: skip


BONUS_BOARD = {
    "H5": 4, "F6": 4, "G6": 4, "H6": 2, "I6": 8, "E7": 4, "F7": 3, "F8": 1, "I8": 1, "H9": 6,
}  # fmt: skip


def test_the_bonus_can_make_the_best_turn_a_line_of_fewer_points() -> None:
    # From 5, 8, 0 the most points are 13 with two tiles; the three can all go down for
    # 13 + 50 only in another order on other squares, which the search must find itself.
    pos = position_from(BONUS_BOARD)
    without = best_turn(pos, [5, 8, 0], bonus_possible=False)
    assert (without.total, len(without)) == (13, 2)
    greedy = greedy_turn(pos, [5, 8, 0])
    assert len(greedy) == 2
    turn = best_turn(pos, [5, 8, 0], bonus_possible=True)
    assert (turn.total, turn.bonus, len(turn), turn.exhaustive) == (63, 50, 3, True)
    assert turn.total == brute_force(pos, [5, 8, 0], bonus_possible=True)
    assert replay_line(pos, list(turn)) == 13


def test_the_bonus_is_assumed_only_for_a_rack_of_seven() -> None:
    assert (best_turn({}, [12]).total, best_turn({}, [12]).bonus) == (12, 0)
    assert best_turn({}, [12], bonus_possible=True).total == 12 + 50
    assert best_turn({}, [12, 90], bonus_possible=True).total == 12


def test_greedy_takes_the_best_placement_each_time_and_stops_when_nothing_fits() -> None:
    assert greedy_turn(Position.initial(), [12, 90]) == [Placement("F8", 12, 12)]
    assert greedy_turn(position(I8=12), [16, 90, 8]) == [
        Placement("J8", 16, 16),
        Placement("H6", 8, 8),
    ]
    assert greedy_turn(Position.initial(), [90]) == []


def test_a_search_cut_short_at_once_falls_back_on_the_greedy_line() -> None:
    turn = best_turn({"I8": 12}, [16, 90, 8], node_limit=1)
    assert (turn.exhaustive, turn.nodes) == (False, 1)
    assert list(turn) == [Placement("J8", 16, 16), Placement("H6", 8, 8)]
    assert (turn.total, turn.bonus) == (24, 0)


def test_an_exhaustive_search_reports_its_nodes_and_iterates_its_placements() -> None:
    turn = best_turn({"I8": 12}, [16, 90, 8])
    assert turn.exhaustive and turn.nodes > 1 and len(turn) == 2
    assert list(turn) == list(turn.placements)
    assert turn.total == brute_force(position(I8=12), [16, 90, 8], bonus_possible=False)


def test_greedy_places_every_copy_of_a_tile_that_fits() -> None:
    # 3 x 4 makes 12 beside the centre on both sides: both 12s go down.
    assert greedy_turn(Position.initial(), [12, 12]) == [
        Placement("F8", 12, 12),
        Placement("I8", 12, 12),
    ]


def reachable_sets(pos: Position, rack: list[int]) -> set[frozenset[tuple[int, int]]]:
    """Every set of placements a legal order of the rack reaches, the empty set too."""
    found: set[frozenset[tuple[int, int]]] = set()

    def walk(pos: Position, rack: list[int], placed: frozenset[tuple[int, int]]) -> None:
        if placed in found:
            return
        found.add(placed)
        for p in legal_placements_in(pos, rack):
            square = parse_square(p.square)
            rest = list(rack)
            rest.remove(p.tile)
            walk(pos.place(square, p.tile), rest, placed | {(square, p.tile)})

    walk(pos, rack, frozenset())
    return found


def test_the_search_visits_each_set_of_placements_once_whatever_the_order() -> None:
    # F8=12 then I8=7 and I8=7 then F8=12 reach one set: it is searched once.
    for board, rack in (({}, [12, 7]), ({}, [12, 7, 1]), ({"I8": 12}, [16, 8, 4])):
        turn = best_turn(board, rack)
        assert turn.exhaustive
        assert turn.nodes == len(reachable_sets(position_from(board), rack)), (board, rack)


def test_a_last_placement_worth_one_point_still_belongs_to_the_best_turn() -> None:
    # H9=8 (4 x 2), I9=5 (8 - 3), I8=1 (4 - 3): 14, one more than stopping before the 1.
    turn = best_turn({"G9": 3}, [5, 8, 1])
    assert [str(p) for p in turn] == ["H9=8", "I9=5", "I8=1"]
    assert turn.total == 14 == brute_force(position(G9=3), [5, 8, 1], bonus_possible=False)
    assert sum(p.points for p in greedy_turn(position(G9=3), [5, 8, 1])) < 14


@pytest.mark.parametrize(
    ("seed", "rack"),
    [(8, [4, 4, 6, 7]), (22, [3, 3, 4, 1]), (31, [1, 1, 8, 2]), (32, [2, 2, 4, 3])],
)
def test_a_rack_with_two_of_a_tile_can_play_both_after_the_search_backs_out(
    seed: int, rack: list[int]
) -> None:
    # Positions where the best turn lays both copies, reached only after the search has
    # laid one copy elsewhere and taken it back (the copy must come back to the rack).
    pos = random_position(seed, seed % 25)
    turn = best_turn_in(pos, rack, bonus_possible=False)
    assert turn.total == brute_force(pos, rack, bonus_possible=False)


def test_a_search_cut_short_deep_in_still_plays_a_line_no_worse_than_greedy() -> None:
    # The limit falls inside the search, not at its first node: each level it stopped in
    # keeps the best it had found, and the line read back is one the board plays.
    pos = position_from({"I8": 12})
    rack = [16, 90, 8, 4]
    greedy = sum(p.points for p in greedy_turn(pos, rack))
    for limit in (2, 3, 5, 8, 13):
        turn = best_turn_in(pos, rack, node_limit=limit)
        assert not turn.exhaustive and turn.nodes == limit
        assert turn.total >= greedy
        assert turn.total == replay_line(pos, list(turn.placements)) + turn.bonus
