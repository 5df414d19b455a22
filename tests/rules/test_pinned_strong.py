"""The ``strong`` engine's weighing pinned on positions of greedy self-play games: the 50
bonus of a candidate that empties a full rack and of no other, the leave of each candidate,
the endgame margin once the bag is empty, and a seat left without opponents.

Ties go by the order of the squares in the position, which depends on the order the tiles
were placed: the positions are taken from the games themselves, not rebuilt from boards.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from functools import cache

import pytest

from mathable import ExchangeTiles, Placement, Play, PlayerView, TurnChoice
from mathable.games.mathable.board import parse_square
from mathable.games.mathable.engine import checked_choice
from mathable.games.mathable.engines import greedy
from mathable.games.mathable.movegen import best_turn_in, position_from
from mathable.games.mathable.selfplay import play_game
from mathable.games.mathable.strong import (
    _Candidate,
    _candidates,
    _endgame_value,
    _exchange,
    _play,
    greedy_points,
    strong,
)


@cache
def _decisions(seed: int) -> tuple[PlayerView, ...]:
    """Every view a seat decided on in a two-seat greedy self-play game of this seed."""
    views: list[PlayerView] = []

    def recorded(view: PlayerView) -> TurnChoice:
        views.append(view)
        return greedy(view)

    play_game([recorded, recorded], seed=seed)
    return tuple(views)


def test_only_a_turn_that_empties_a_full_rack_gets_the_bonus_in_the_weighing() -> None:
    view = _decisions(10)[20]
    assert (view.rack, view.bag_size, view.started_with) == ((0, 2, 4, 2, 70, 8, 5), 35, 7)
    answer = strong(view)
    # All seven tiles for the bonus, in one turn without extra tiles.
    assert str(answer) == "C6=70 F3=8 D3=2 C3=5 C8=4 G3=2 D2=0"
    assert isinstance(answer, Play) and answer.draw_extra is False and answer.end_turn
    assert checked_choice(answer, view) == answer
    # Begun with six tiles, no turn earns the bonus: C6=70 alone, then the extra tile.
    assert str(strong(replace(view, started_with=6))) == "C6=70 (extra tiles) (turn goes on)"


def test_with_the_bag_empty_and_one_opponent_the_turn_is_weighed_by_the_endgame_margin() -> None:
    view = _decisions(21)[26]
    assert (view.rack, view.bag_size, view.opponents()) == ((60, 72, 42, 9, 4, 1, 2), 0, [0])
    assert str(strong(view)) == "B10=4 K10=2 J13=1 (extra tiles)"
    # Weighed against sampled replies instead (as with a tile left in the bag), another turn.
    sampled = strong(replace(view, bag_size=1))
    assert str(sampled) == "L9=2 (extra tiles) (turn goes on)"  # L9=2 M9=4 M7=9 K10=1 in parts


def test_a_seat_without_opponents_weighs_its_turn_by_points_and_leave_alone() -> None:
    view = replace(_decisions(13)[25], resigned=(True, False))
    assert (view.seat, view.bag_size, view.opponents()) == (1, 22, [])
    # No reply to weigh against: C8=7 I7=3, not E3=7 I7=3 as against one-tile replies.
    assert str(strong(view)) == "C8=7 I7=3 (extra tiles)"


def test_one_tile_in_the_bag_still_draws_at_the_first_operation_square() -> None:
    line = (Placement("I8", 12, 12), Placement("J8", 16, 16), Placement("I7", 3, 3))
    chosen = _Candidate(line, 31, frozenset((parse_square(p.square), p.tile) for p in line))
    view = replace(_decisions(10)[0], rack=(12, 16, 3, 7, 40, 9, 5), bag_size=1, started_with=6)
    assert view.position == position_from({})
    assert _play(view, chosen) == Play(line[:2], draw_extra=True, end_turn=False)


def test_with_one_tile_in_the_bag_one_tile_is_given_back() -> None:
    view = replace(_decisions(10)[0], rack=(90, 81, 3), bag_size=1, placed=())
    assert _exchange(view) == ExchangeTiles((90,))


def test_going_out_of_a_full_rack_at_the_end_counts_the_bonus_too() -> None:
    view = _decisions(21)[26]
    assert view.bonus_possible and view.bag_size == 0
    out = _Candidate((), 20, frozenset())
    assert _endgame_value(view, out, view.position, [], (90, 81)) == 20 + 50 + 2 * 171
    assert _endgame_value(replace(view, started_with=6), out, view.position, [], (90, 81)) == (
        20 + 2 * 171
    )


def _described(found: list[_Candidate]) -> str:
    lines = sorted(f"{c.points} {' '.join(str(p) for p in c.line)}" for c in found)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


@pytest.mark.parametrize(
    ("seed", "index", "count", "digest"),
    [
        (
            3,
            0,
            297,
            "2f7497912f158e56",
        ),  # a game's first turn: the exact best turn and a beam line agree
        (2, 18, 377, "a0ebb411e8269bf5"),  # the exact best turn is one the beam missed
        (12, 13, 377, "7fd90fbe1096e627"),  # the exact search is cut at NODE_LIMIT nodes
    ],
)
def test_the_candidates_of_self_play_positions_are_pinned_lines_in_order_and_points(
    seed: int, index: int, count: int, digest: str
) -> None:
    # Each line in the order its tiles go down (the order decides where a turn stops for an
    # extra tile), with its points (premiums included); the exact best turn replaces a beam
    # line of the same tiles only when it scores more.
    view = _decisions(seed)[index]
    found = _candidates(view)
    assert (len(found), _described(found)) == (count, digest)
    exact = best_turn_in(
        view.position, view.rack, bonus_possible=view.bonus_possible, node_limit=6_000
    )
    key = frozenset((parse_square(p.square), p.tile) for p in exact.placements)
    assert sum(p.points for p in exact.placements) == max(c.points for c in found)
    assert any(c.placed == key for c in found)


def _racks(view: PlayerView) -> list[list[int]]:
    """The seat's rack and three racks of the tiles it cannot see (smallest, biggest, spread)."""
    unseen = list(view.unseen())
    return [list(view.rack), unseen[:7], unseen[-7:], unseen[::5][:7]]


GREEDY_REPLIES = {
    (3, 5): [0, 5, 0, 24],
    (10, 20): [91, 3, 180, 36],
    (2, 18): [132, 4, 387, 30],
    (12, 13): [62, 16, 401, 46],
    (21, 26): [7, 63, 63, 63],
}


@pytest.mark.parametrize(("seed", "index"), sorted(GREEDY_REPLIES))
def test_greedy_replies_score_the_best_placement_at_each_step_on_self_play_positions(
    seed: int, index: int
) -> None:
    # What a rack scores played greedily (the most points each step, two equations counted
    # twice, a premium square's factor, each tile once, the squares each placement opens or
    # closes), pinned for racks the opponent may hold; ties go to the first square and value.
    view = _decisions(seed)[index]
    assert [greedy_points(view.position, rack) for rack in _racks(view)] == GREEDY_REPLIES[
        (seed, index)
    ]


def test_a_square_making_two_equations_scores_its_value_twice_in_a_greedy_reply() -> None:
    # A1 (3x) takes 7 = 3 + 4 both across and down: 7 x 2 x 3.
    board = position_from({"A2": 3, "A3": 4, "B1": 3, "C1": 4})
    assert greedy_points(board, [7]) == 42
