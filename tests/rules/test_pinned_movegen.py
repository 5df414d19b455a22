"""The position cache and move generation, pinned on boards whose answers are worked out by hand."""

from __future__ import annotations

import random

import pytest

from mathable import (
    EMPTY,
    Placement,
    Position,
    RuleError,
    best_turn,
    greedy_turn,
    has_legal_move,
    legal_placements_in,
    parse_square,
    position_from,
)
from mathable.games.mathable.position import accepted_values
from tests.rules.helpers import position, sq
from tests.rules.movegen_helpers import brute_force, random_position, replay_line

# --- position -------------------------------------------------------------------------------


def test_an_empty_square_accepts_each_value_its_pairs_make_with_the_count_of_pairs() -> None:
    # I8 pairs with H8, G8 (4, 3) only; H9 with H8, H7 (4, 2) only: 2 is 4 - 2 and 4 / 2,
    # still one equation. Both are plain squares.
    pos = Position.initial()
    assert accepted_values(pos.cells, sq("I8")) == {7: 1, 1: 1, 12: 1}
    assert accepted_values(pos.cells, sq("H9")) == {6: 1, 2: 1, 8: 1}
    assert dict(pos.accepts[sq("H9")]) == {6: 1, 2: 1, 8: 1}


def test_an_operation_square_accepts_only_what_its_operation_makes() -> None:
    # J8 (+) pairs with I8, H8; K8 (x) with J8, I8.
    pos = position(I8=12)
    assert accepted_values(pos.cells, sq("J8")) == {16: 1}
    pos = position(I8=2, J8=6)
    assert accepted_values(pos.cells, sq("K8")) == {12: 1}


def test_an_occupied_square_accepts_nothing() -> None:
    pos = Position.initial()
    assert accepted_values(pos.cells, sq("H8")) == {}
    assert sq("H8") not in pos.accepts and pos.equations(sq("H8"), 4) == 0


def test_a_value_completing_two_pairs_counts_twice_and_scores_twice() -> None:
    pos = position(F9=6, G9=2)  # H9: 2 + 6 across, 4 x 2 down... and 4 / 2, 4 - 2
    assert pos.equations(sq("H9"), 8) == 2
    assert pos.points(sq("H9"), 8) == 16
    assert pos.equations(sq("H9"), 13) == 0 and pos.points(sq("H9"), 13) == 0


def test_points_count_the_premium_of_the_square() -> None:
    pos = position(B1=2, C1=5)  # A1 is 3x: 7 by one pair
    assert pos.points(sq("A1"), 7) == 7 * 1 * 3


def test_tiles_lists_the_centre_and_placed_only_what_players_placed() -> None:
    pos = position(I8=12)
    centre = {sq("G7"): 1, sq("H7"): 2, sq("G8"): 3, sq("H8"): 4}
    assert pos.tiles() == centre | {sq("I8"): 12}
    assert pos.placed() == {sq("I8"): 12}
    assert Position.initial().placed() == {}


def test_taking_a_tile_off_gives_back_the_position_before_it() -> None:
    before = Position.initial()
    after = before.place(sq("I8"), 12)
    assert after.cells[sq("I8")] == 12 and sq("J8") in after.accepts
    undone = after.with_changes([(sq("I8"), EMPTY)])
    assert undone == before
    assert {s: dict(v) for s, v in undone.accepts.items()} == {
        s: dict(v) for s, v in before.accepts.items()
    }


def test_the_cache_after_any_changes_equals_the_cache_built_from_scratch() -> None:
    rng = random.Random(19)
    for seed in range(15):
        pos = random_position(seed, 20)
        placed = list(pos.placed())
        removed = rng.sample(placed, min(3, len(placed)))
        pos = pos.with_changes((s, EMPTY) for s in removed)
        fresh = Position.from_tiles(pos.placed())
        assert fresh.cells == pos.cells
        assert {s: dict(v) for s, v in pos.accepts.items()} == {
            s: dict(v) for s, v in fresh.accepts.items()
        }


def test_a_position_built_from_tiles_caches_every_square_that_accepts_a_value() -> None:
    # A1 is surrounded: both its pairs are full, no square of them is empty.
    pos = position(B1=2, C1=5, A2=1, A3=6)
    assert dict(pos.accepts[sq("A1")]) == accepted_values(pos.cells, sq("A1"))
    assert pos.equations(sq("A1"), 7) == 2  # 2 + 5 and 1 + 6
    for square in range(196):
        assert dict(pos.accepts.get(square, {})) == accepted_values(pos.cells, square)


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


def test_placements_parse_either_notation_and_print_as_square_equals_tile() -> None:
    assert Placement.parse(" 7@f8 ") == Placement("F8", 7)
    assert str(Placement("F8", 7, 7)) == "F8=7"
    assert parse_square(Placement.parse("N14=0").square) == 195


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


def test_placement_notation_refusals_say_what_was_expected() -> None:
    with pytest.raises(RuleError) as err:
        Placement.parse("I8")
    assert err.value.message == "'I8': write a placement as I8=12 or 12@I8"
    with pytest.raises(RuleError) as err:
        Placement.parse(" I8=x ")
    assert err.value.message == "' I8=x ': 'x' is not a tile number"


def test_a_placement_splits_at_its_first_equals_or_at_sign() -> None:
    with pytest.raises(RuleError) as err:
        Placement.parse("I8=12=3")  # square I8, tile "12=3"
    assert err.value.code == "bad_placement"
    with pytest.raises(RuleError) as err:
        Placement.parse("12@I8@3")  # tile 12, square "I8@3"
    assert err.value.code == "bad_square"


def test_a_last_placement_worth_one_point_still_belongs_to_the_best_turn() -> None:
    # H9=8 (4 x 2), I9=5 (8 - 3), I8=1 (4 - 3): 14, one more than stopping before the 1.
    turn = best_turn({"G9": 3}, [5, 8, 1])
    assert [str(p) for p in turn] == ["H9=8", "I9=5", "I8=1"]
    assert turn.total == 14 == brute_force(position(G9=3), [5, 8, 1], bonus_possible=False)
    assert sum(p.points for p in greedy_turn(position(G9=3), [5, 8, 1])) < 14


def test_a_placement_s_index_is_its_square_as_the_commands_take_it() -> None:
    assert [Placement(name, 1).index for name in ("A1", "N1", "J8", "N14")] == [0, 13, 107, 195]
    assert all(Placement(name, 1).index == parse_square(name) for name in ("G7", "B13"))
