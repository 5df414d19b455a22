"""Summy's move generator pinned on the tables of a seeded game: every move it finds is one
``judge`` accepts with the same points, and the number and set of moves and the best move
are pinned (a change to them changes what hints and bots find: check it against brute force,
as games/summy/test_properties.py does for small hands, before pinning the new figures).

Folded from ``test_pinned_summy_movegen.py``: tests written to kill the survivors of the
mutation runs (docs/mutation.md)."""

from __future__ import annotations

import hashlib

import pytest

from mathable.games.summy import PlayEquation, SummyState, judge, parse_tiles, replay
from mathable.games.summy.movegen import Move, best_move, has_move, legal_moves
from mathable.games.summy.selfplay import first_move, play_game

# (events replayed, moves found, digest of their sorted descriptions, best move, its points,
# tiles it lays) along the seeded game below (a rules version 3 game: no move takes the
# end of an equation on the table; re-pinned then, after the brute-force check of
# the Summy properties had been extended to the closed squares).
PINNED = [
    (3, 60, "e98d6e32d925a6e4", "-5,0 across 0x159=0", 15, 6),
    (6, 180, "242625273358e6d5", "-1,-9 down 38-4x5-9=9", 38, 8),
    (9, 11, "da4d457c12cf8b85", "-3,-4 down 733x1=733", 27, 6),
    (12, 171, "30b8c50def030dcf", "-9,-14 down 48-86:2=5", 33, 7),
    (15, 10, "db603d128a579bdf", "-15,-13 down 4220-9=4211", 25, 6),
]


@pytest.fixture(scope="module")
def game() -> list[object]:
    return play_game(players=2, seed=5, choose=first_move)  # type: ignore[return-value]


def _position(events: list[object], n: int) -> tuple[SummyState, tuple[int, ...]]:
    state = replay(events[:n])  # type: ignore[arg-type]
    assert state.turn is not None
    return state, state.seats[state.turn.seat].rack


@pytest.mark.parametrize(("n", "count", "digest", "best", "points", "laid"), PINNED)
def test_the_moves_of_each_position_are_those_pinned_and_each_is_legal(
    game: list[object], n: int, count: int, digest: str, best: str, points: int, laid: int
) -> None:
    state, hand = _position(game, n)
    moves = list(legal_moves(state.table, hand, state.closed))
    names = sorted(f"{m} {m.points} {sorted(m.placements)}" for m in moves)
    assert (len(moves), hashlib.sha256("\n".join(names).encode()).hexdigest()[:16]) == (
        count,
        digest,
    )
    for move in moves:
        judged = judge(state.table, hand, move.placements, move.direction, state.closed)
        assert (judged.equation, judged.points) == (move.equation, move.points)
        assert judged.squares[0] == move.start
    top = best_move(state.table, hand, state.closed)
    assert top is not None
    assert (str(top), top.points, len(top.placements)) == (best, points, laid)
    assert top.points == max(m.points for m in moves)
    assert has_move(state.table, hand, state.closed)


def test_the_best_move_prefers_more_tiles_among_equal_points() -> None:
    table = {(0, 0): 14}
    hand = parse_tiles("0+0x1")
    moves = list(legal_moves(table, hand))
    top = best_move(table, hand)
    assert top is not None
    most = max(m.points for m in moves)
    assert top.points == most == 1
    assert len(top.placements) == max(len(m.placements) for m in moves if m.points == most)


def test_no_move_without_a_hand_or_without_an_equation_to_make() -> None:
    table = {(0, 0): 14}
    assert list(legal_moves(table, [])) == []
    assert best_move(table, []) is None and not has_move(table, [])
    signs = parse_tiles("+-x:")
    assert list(legal_moves(table, signs)) == [] and best_move(table, signs) is None
    assert not has_move(table, signs)
    assert has_move(table, parse_tiles("12+3"))


def test_the_seed_example_finds_its_four_moves() -> None:
    found = sorted(str(m) for m in legal_moves({(0, 0): 14}, parse_tiles("12+3")))
    assert found == [
        "-3,0 across 1+2=3",
        "-3,0 across 2+1=3",
        "0,-3 down 1+2=3",
        "0,-3 down 2+1=3",
    ]


def test_a_move_prints_as_notation_and_plays_as_a_command() -> None:
    move = Move(((-3, 0, 1), (-2, 0, 10)), "across", "1+2=3", 6, (-3, 0))
    assert str(move) == "-3,0 across 1+2=3"
    assert move.command(1) == PlayEquation(1, ((-3, 0, 1), (-2, 0, 10)), "across")
    down = next(m for m in legal_moves({(0, 0): 14}, parse_tiles("12+3")) if m.direction == "down")
    assert down.start == (0, -3) and all(x == 0 for x, _, _ in down.placements)


def test_a_move_worth_no_points_is_still_the_best_move() -> None:
    hand = [0, 10, 0, 0]  # 0 + 0 = 0
    top = best_move({(0, 0): 14}, hand)
    assert top is not None and (top.equation, top.points) == ("0+0=0", 0)
    assert len(list(legal_moves({(0, 0): 14}, hand))) == 2


def test_a_left_side_whose_running_total_falls_below_zero_is_still_searched() -> None:
    # 1-96 is -95 when the + comes: the value can still come back up, so the cut for a
    # left side too big to fit must not fire on it (it did, and these moves were missed).
    hand = parse_tiles("1-96+961")
    found = {(m.equation, m.start, m.direction, m.points) for m in legal_moves({(0, 0): 14}, hand)}
    for equation in ("1-96+96=1", "1-91+96=6"):
        assert (equation, (-7, 0), "across", 32) in found
        assert (equation, (0, -7), "down", 32) in found
    new = [(-7 + i, 0, t) for i, t in enumerate(parse_tiles("1-96+96"))] + [(1, 0, 1)]
    assert judge({(0, 0): 14}, hand, new).points == 32


def test_among_equal_best_moves_the_one_in_the_line_that_could_score_most_is_kept(
    game: list[object],
) -> None:
    # Several lines hold 0+9-3=6 for as many points and tiles laid as the best; the line
    # searched first (the one whose digits could score most) gives the move kept.
    state, hand = _position(game, 10)
    assert hand == (11, 6, 11, 10, 3, 0, 4, 9)
    moves = legal_moves(state.table, hand, state.closed)
    equal = [m for m in moves if m.equation == "0+9-3=6"]
    assert {(-18, -9), (-12, -5), (-8, -15), (2, -8)} <= {m.start for m in equal}
    top = best_move(state.table, hand, state.closed)
    assert top is not None and str(top) == "-18,-9 across 0+9-3=6"


def test_a_left_side_before_a_table_times_is_not_cut_for_its_size() -> None:
    # 123 is bigger than the result 0 can show, but x0 brings it down: no cut may fire.
    table = {(-2, 0): 12, (-1, 0): 0, (0, 0): 14, (1, 0): 0}
    found = sorted(m.equation for m in legal_moves(table, parse_tiles("123")))
    assert found == [
        "123x0=0", "12x0=0", "132x0=0", "13x0=0", "1x0=0", "213x0=0", "21x0=0", "231x0=0",
        "23x0=0", "2x0=0", "312x0=0", "31x0=0", "321x0=0", "32x0=0", "3x0=0",
    ]  # fmt: skip


def test_a_table_nine_counts_in_what_a_line_could_score() -> None:
    # The row of the 8 is searched first and finds 0x8=0 (8 points); the row of the 9 can
    # still beat it (0x9=0) only if its 9 counts in the most that row could score.
    table = {(3, 1): 8, (-2, 0): 9}
    hand = parse_tiles("00x=")
    top = best_move(table, hand)
    assert top is not None
    assert (str(top), top.points, len(top.placements)) == ("-4,0 across 0x9=0", 9, 4)
    assert top.points == max(m.points for m in legal_moves(table, hand))


def test_a_table_sign_does_not_count_in_what_a_line_could_score() -> None:
    # 6+1=7 across and 1+6=7 down score alike; the row is searched first as both lines
    # could score as much, the + lower in the column adding nothing to it.
    table = {(0, 0): 1, (0, 5): 10}
    top = best_move(table, parse_tiles("6+=7"))
    assert top is not None
    assert (str(top), top.points) == ("-2,0 across 6+1=7", 14)


def test_a_hand_of_one_tile_can_finish_an_equation_on_the_table() -> None:
    table = {(0, 0): 1, (1, 0): 10, (2, 0): 2, (3, 0): 14}
    moves = [(str(m), m.points, m.placements) for m in legal_moves(table, parse_tiles("3"))]
    assert moves == [("0,0 across 1+2=3", 6, ((4, 0, 3),))]
    assert has_move(table, parse_tiles("3"))


@pytest.mark.parametrize(
    ("sign", "hand", "move"),
    [(10, "1=3", "1+2=3"), (11, "5=3", "5-2=3"), (12, "4=8", "4x2=8"), (13, "4=2", "4:2=2")],
)
def test_each_table_sign_serves_a_hand_without_signs(sign: int, hand: str, move: str) -> None:
    # The hand holds no sign: the equation must take the table's +, -, x or :.
    table = {(0, 0): sign, (1, 0): 2}
    found = [str(m) for m in legal_moves(table, parse_tiles(hand))]
    assert found == [f"-1,0 across {move}"]


def test_table_nines_count_in_the_room_and_the_points_a_branch_could_still_reach() -> None:
    # Two table digits, 3 and 9, in a row; the 9 also stands alone in its column. The
    # searches' bounds must count a table 9 as a digit (room for the result's digits) worth
    # 9 points, or equations such as 3+94=97 down through the 9 are cut.
    table = {(2, 3): 9, (0, 3): 3}
    hand = parse_tiles("+3=974")
    moves = {str(m): m.points for m in legal_moves(table, hand)}
    top = sorted(name for name, points in moves.items() if points == 32)
    assert top == [
        "-3,3 across 4+93=97", "-3,3 across 94+3=97", "0,3 across 3+94=97",
        "2,-2 down 3+94=97", "2,-2 down 4+93=97", "2,-2 down 93+4=97", "2,-2 down 94+3=97",
        "2,1 down 3+94=97", "2,1 down 4+93=97", "2,3 across 93+4=97", "2,3 across 94+3=97",
        "2,3 down 93+4=97", "2,3 down 94+3=97",
    ]  # fmt: skip
    assert max(moves.values()) == 32
    best = best_move(table, hand)
    assert best is not None and str(best) == "2,3 across 93+4=97"


def test_a_line_is_searched_past_a_gap_wider_than_the_hand() -> None:
    # Eleven empty squares between the 1 and the 2: the starts in the gap are skipped, the
    # 2 beyond it still searched.
    table = {(0, 0): 1, (12, 0): 2}
    found = sorted(str(m) for m in legal_moves(table, parse_tiles("+1=3")))
    assert [m for m in found if "across" in m] == ["10,0 across 1+2=3", "12,0 across 2+1=3"]
