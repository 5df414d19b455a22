"""What the ``strong`` engine does, pinned: the bonus, the extra tiles, the leave, the end."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from functools import cache

import pytest

import mathable
import mathable.games.mathable.strong as strong_module
from mathable import ExchangeTiles, PassTurn, Placement, Play, PlayerView, TurnChoice
from mathable.core.state import Seat
from mathable.games.mathable.board import OPERATION, parse_square
from mathable.games.mathable.engine import checked_choice
from mathable.games.mathable.engines import greedy
from mathable.games.mathable.movegen import best_turn_in, position_from
from mathable.games.mathable.selfplay import new_game, play_game
from mathable.games.mathable.state import MathableTurn
from mathable.games.mathable.strong import (
    REPLY_SAMPLES,
    _Candidate,
    _candidates,
    _endgame_value,
    _exchange,
    _leave,
    _leave_value,
    _play,
    _sample_racks,
    greedy_points,
    strong,
)
from tests.rules.helpers import bag_order, dealt

ALICE = (12, 16, 3, 7, 40, 9, 5)
BOB = (2, 8, 6, 1, 4, 10, 11)
#: Seven tiles that all fit on the empty board in one turn (93 points with the bonus).
SEVEN = (10, 5, 6, 9, 1, 8, 4)


def view_of(
    rack: tuple[int, ...],
    board: dict[str, int] | None = None,
    *,
    bag: int = 92,
    started_with: int = 7,
    placed: tuple[Placement, ...] = (),
    opponent_rack: int = 7,
) -> PlayerView:
    return PlayerView(
        seat=0,
        rack=rack,
        position=position_from(board or {}),
        bag_size=bag,
        scores=(0, 0),
        rack_sizes=(len(rack), opponent_rack),
        started_with=started_with,
        placed=placed,
    )


def test_strong_empties_its_rack_for_the_bonus_in_one_turn_without_extra_tiles() -> None:
    view = view_of(SEVEN)
    answer = checked_choice(strong(view), view)
    assert isinstance(answer, Play)
    assert sorted(p.tile for p in answer.placements) == sorted(SEVEN)
    # An extra tile drawn would have to be placed too: none is drawn, the turn ends.
    assert not answer.draw_extra and answer.end_turn


def test_without_the_bonus_at_stake_strong_stops_at_its_first_operation_square_to_draw() -> None:
    view = view_of(SEVEN, started_with=6)
    answer = checked_choice(strong(view), view)
    assert isinstance(answer, Play) and answer.draw_extra and not answer.end_turn
    squares = [parse_square(p.square) for p in answer.placements]
    assert OPERATION[squares[-1]] is not None
    assert all(OPERATION[s] is None for s in squares[:-1])


def test_strong_goes_on_after_the_extra_draw_and_whole_when_the_bag_is_empty() -> None:
    state = new_game(2, tiles=bag_order(*ALICE, *BOB))
    view = PlayerView.of(state, 0)
    assert strong(view) == Play(
        (Placement("I8", 12, 12), Placement("J8", 16, 16)), draw_extra=True, end_turn=False
    )
    line = (Placement("I8", 12, 12), Placement("J8", 16, 16), Placement("I7", 3, 3))
    chosen = _Candidate(line, 31, frozenset((parse_square(p.square), p.tile) for p in line))
    assert _play(view, chosen) == Play(line[:2], draw_extra=True, end_turn=False)
    # Nothing left to draw: the whole line, and the turn ends.
    assert _play(replace(view, bag_size=0), chosen) == Play(line, draw_extra=True)
    # A line with no operation square goes whole too.
    plain = _Candidate(line[:1], 12, frozenset({(parse_square("I8"), 12)}))
    assert _play(view, plain) == Play(line[:1], draw_extra=True)
    assert _play(view, _Candidate((), 0, frozenset())) == PassTurn()


def test_a_turn_begun_may_end_without_another_placement() -> None:
    placed = (Placement("I8", 12, 12),)
    view = view_of((40, 9), {"I8": 12}, started_with=7, placed=placed)
    found = _candidates(view)
    assert _Candidate((), 0, frozenset()) in found
    assert _Candidate((), 0, frozenset()) not in _candidates(replace(view, placed=()))
    # Nothing fits and tiles were placed: the turn ends.
    stuck = view_of((90, 81), {"I8": 12}, placed=placed)
    assert strong(stuck) == PassTurn()


def test_the_candidates_are_legal_lines_with_their_points_and_the_best_turn_among_them() -> None:
    view = PlayerView.of(new_game(2, tiles=bag_order(*ALICE, *BOB)), 0)
    found = _candidates(view)
    top = mathable.best_turn_in(view.position, view.rack, node_limit=6_000)
    assert max(c.points for c in found) == sum(p.points for p in top.placements)
    for c in found:
        play = checked_choice(Play(c.line), view)
        assert isinstance(play, Play)
        assert sum(p.points for p in play.placements) == c.points
        assert c.placed == frozenset((parse_square(p.square), p.tile) for p in c.line)
    # The beam keeps the single placements as well as the longer lines.
    assert {len(c.line) for c in found} >= {1, 2, 3}


def test_the_best_turn_with_its_bonus_is_a_candidate_even_where_the_beam_misses_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(strong_module, "BEAM", 1)  # one line kept per depth: the greedy one
    # All seven fit, but the most points without the bonus take six of them.
    view = view_of((6, 5, 4, 3, 12, 4, 2))
    found = _candidates(view)
    assert all(isinstance(c, _Candidate) for c in found)
    assert any(len(c.line) == 7 for c in found)
    assert not any(len(c.line) == 7 for c in _candidates(replace(view, started_with=6)))


def test_greedy_reply_points_count_a_placement_on_the_first_square() -> None:
    # A1 (3x) takes 7 = 3 + 4 below it: 21 points, more than 7 at A4 or I8.
    assert greedy_points(position_from({"A2": 3, "A3": 4}), [7]) == 21


def test_in_the_middle_game_strong_weighs_sampled_replies_not_the_endgame_margin() -> None:
    # A position of a self-play game (bag order 1:0, after four turns). Valued as an
    # endgame (the unseen tiles as the opponent's rack, going out as the game's end)
    # the turn would be H6=8 H5=10, towards emptying the rack; with the replies of
    # sampled racks it is I10=8 J9=4 K9=4. (Ties go by the order of the squares in
    # the position, so the same board built another way may choose another turn.)
    board = {"G5": 4, "F6": 9, "G6": 4, "F7": 2, "F8": 7, "I8": 7, "F9": 9, "G9": 4}
    board |= {"H9": 5, "I9": 1}
    view = view_of((8, 19, 10, 4, 49, 4, 28), board, bag=82)
    assert str(strong(view)) == "I10=8 J9=4 K9=4 (extra tiles)"


def test_the_leave_is_the_rack_less_the_tiles_placed() -> None:
    c = _Candidate((), 0, frozenset({(1, 7), (2, 12)}))
    assert sorted(_leave((7, 7, 12, 40), c)) == [7, 40]


@pytest.mark.parametrize(
    ("leave", "bag", "value"),
    [
        ([], 92, 0.0),
        ([5], 92, 1.0),  # a small tile fits almost anywhere
        ([5, 6], 92, 2.0),
        ([5, 5], 92, 0.0),  # a second one of the same value is worth less than none
        ([40], 92, -12.0),  # a big tile: 0.3 a point early
        ([40], 46, -20.0),  # 0.3 + 0.4 x half the bag gone
        ([40], 200, -12.0),  # more than a full bag counts as a full bag
        ([40], 14, -12.0 - 0.4 * 40 * (1 - 14 / 92)),
        ([40, 5], 13, -(0.3 + 0.4 * (1 - 13 / 92)) * 40 + 1.0 - 0.5 * 45),  # the end is near
        ([11], 92, -3.3),
        ([10], 92, 1.0),
    ],
)
def test_the_leave_value_prefers_small_tiles_and_weighs_big_ones_more_as_the_bag_empties(
    leave: list[int], bag: int, value: float
) -> None:
    assert _leave_value(leave, bag) == pytest.approx(value)


def test_opponent_racks_are_sampled_from_the_unseen_tiles_the_same_way_for_the_same_view() -> None:
    view = PlayerView.of(new_game(2, tiles=bag_order(*ALICE, *BOB)), 0)
    unseen = view.unseen()
    racks = _sample_racks(view, unseen, 7)
    assert len(racks) == REPLY_SAMPLES == 16 and all(len(r) == 7 for r in racks)
    assert all(set(r) <= set(unseen) for r in racks)
    assert racks == _sample_racks(view, unseen, 7)
    assert len({tuple(r) for r in racks}) > 1
    # Fewer unseen tiles than a rack: the opponent holds them all.
    assert all(sorted(r) == list(unseen[:3]) for r in _sample_racks(view, unseen[:3], 7))
    assert _sample_racks(view, unseen, 0) == []
    assert [len(r) for r in _sample_racks(view, unseen, 1)] == [1] * 16
    assert _sample_racks(view, (), 7) == []


def endgame_view(rack: tuple[int, ...], opponent: tuple[int, ...]) -> PlayerView:
    """Bag empty, the opponent holds ``opponent`` (the board is the centre's only)."""
    state = new_game(2, tiles=bag_order(*ALICE, *BOB))
    return replace(
        PlayerView.of(state, 0),
        rack=rack,
        bag_size=0,
        rack_sizes=(len(rack), len(opponent)),
        started_with=len(rack),
    )


def test_the_endgame_value_counts_going_out_and_both_racks() -> None:
    view = endgame_view((12, 7), (90, 81))
    after = view.position
    going_out = _Candidate((), 20, frozenset())
    # Going out: our points, and their rack deducted from them (a swing of twice its value).
    assert _endgame_value(view, going_out, after, [], (90, 81)) == 20 + 2 * (90 + 81)
    # Not going out; their tiles fit nowhere: our leave is deducted, half their rack counts.
    assert _endgame_value(view, going_out, after, [7], (90, 81)) == 20 - 7 + 0.5 * 171
    # They go out with their reply: its points, and our leave twice.
    value = _endgame_value(view, going_out, after, [5], (7,))  # 7 = 3 + 4 at I8
    assert value == 20 - 7 - 2 * 5
    # They place one tile of two: their points, our leave, half what they keep.
    assert _endgame_value(view, going_out, after, [5], (7, 90)) == 20 - 7 - 5 + 0.5 * 90


def test_at_the_end_strong_goes_out_when_it_can() -> None:
    state = new_game(2, tiles=bag_order(*ALICE, *BOB))
    seats = (
        Seat("a", (12, 7), 100),
        Seat("b", (90, 81, 72), 100),
    )
    state = mathable.GameState(
        status="playing", seats=seats, bag=(), turn=MathableTurn(0, 2),
        options=state.options,
    )
    view = PlayerView.of(state, 0)
    answer = checked_choice(strong(view), view)
    assert isinstance(answer, Play) and sorted(p.tile for p in answer.placements) == [7, 12]
    assert answer.end_turn


#: A board of a self-play game (bag order 1:2) at the end: the bag is empty.
LATE_BOARD = (
    "F1=10 F2=50 K2=9 C3=5 E3=28 F3=5 H3=64 I3=63 J3=1 K3=9 L3=8 B4=4 C4=25 E4=32 "
    "F4=10 H4=80 I4=72 J4=20 K4=1 B5=4 C5=5 E5=4 F5=5 G5=3 H5=10 I5=9 J5=19 K5=10 "
    "L5=9 A6=3 B6=8 C6=5 D6=13 E6=8 F6=5 G6=3 H6=8 I6=8 J6=1 K6=9 L6=8 A7=2 B7=2 C7=0 "
    "D7=2 E7=2 F7=1 I7=1 J7=2 K7=3 L7=6 M7=18 N7=12 A8=6 B8=4 C8=10 E8=16 F8=1 I8=7 "
    "J8=3 K8=27 L8=14 B9=2 D9=60 E9=6 F9=10 G9=4 H9=6 I9=8 J9=48 K9=6 L9=42 M9=7 "
    "N9=35 E10=10 F10=9 G10=7 H10=24 I10=15 J10=45 L10=56 E11=4 F11=90 H11=30 I11=7 "
    "J11=3 K11=21 L11=7 E12=6 F12=81 H12=6 L12=49 H13=5 H14=11 "
)


def test_at_the_end_strong_plays_for_the_margin_not_the_most_points() -> None:
    board = dict(w.split("=") for w in LATE_BOARD.split())
    view = view_of(
        (4, 70, 40, 1, 17, 36, 54),
        {square: int(tile) for square, tile in board.items()},
        bag=0,
        opponent_rack=5,
    )
    assert sorted(view.unseen()) == [2, 3, 7, 7, 9]  # the opponent's rack
    # Valued as going out, every turn would be worth its points: C9=54 M3=17 B3=1 B2=4.
    # Valued by the margin (what they reply, the tiles left on both racks), A9=4 D5=1.
    assert str(strong(view)) == "C9=54 M3=17 A9=4 D5=1 (extra tiles)"


@pytest.mark.parametrize(
    ("rack", "bag", "placed", "expected"),
    [
        ((90, 81, 3, 5, 60), 92, (), ExchangeTiles((90, 81, 60, 5, 3))),
        ((90, 81, 3, 5, 60), 2, (), ExchangeTiles((90, 81))),  # no more than the bag holds
        ((4, 90, 3), 92, (), ExchangeTiles((90, 4, 3))),
        ((90, 81), 0, (), PassTurn()),
        ((90, 81), 92, (Placement("I8", 12, 12),), PassTurn()),
    ],
)
def test_when_nothing_fits_strong_gives_back_the_big_tiles_first(
    rack: tuple[int, ...], bag: int, placed: tuple[Placement, ...], expected: object
) -> None:
    assert _exchange(view_of(rack, bag=bag, placed=placed)) == expected


def test_the_fast_greedy_reply_scores_what_greedy_play_scores() -> None:
    position = mathable.position_from({"I8": 12})
    assert greedy_points(position, [16]) == 16  # J8 = 12 + 4, on the + square
    # A greedy line (ties broken its own way) scores at least the best single placement
    # and at most the best whole turn.
    state = dealt()
    for seat in (0, 1):
        rack = list(state.seats[seat].rack)
        top = mathable.best_turn_in(state.position, rack, bonus_possible=False)
        first = mathable.legal_placements_in(state.position, rack)[0].points
        assert top.exhaustive
        assert first <= greedy_points(state.position, rack) <= top.total


# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_strong.py ----------------
# The ``strong`` engine's weighing pinned on positions of greedy self-play games: the 50
# bonus of a candidate that empties a full rack and of no other, the leave of each candidate,
# the endgame margin once the bag is empty, and a seat left without opponents.
#
# Ties go by the order of the squares in the position, which depends on the order the tiles
# were placed: the positions are taken from the games themselves, not rebuilt from boards.


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


def _line(*placements: tuple[str, int, int]) -> _Candidate:
    line = tuple(Placement(square, tile, points) for square, tile, points in placements)
    placed = frozenset((parse_square(p.square), p.tile) for p in line)
    return _Candidate(line, sum(p.points for p in line), placed)


def test_the_bonus_weighs_exactly_50_and_a_turn_without_it_nothing_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No opponent (no reply to weigh), 10 tiles in the bag: keeping the 5 is worth
    # 1 (a small tile) - 0.5 * 5 (a tile kept late) = -1.5.
    view = replace(view_of(SEVEN, bag=10), resigned=(False, True))
    assert view.bonus_possible and view.opponents() == []
    six = [("I8", 10, 10), ("J8", 6, 6), ("I9", 9, 9), ("J9", 1, 1), ("H8", 8, 8), ("I7", 4, 4)]
    out = _line(*six, ("H9", 5, 2))  # all seven: 40 points + 50
    assert out.points == 40

    def six_tiles_for(total: int) -> _Candidate:
        return _line(*six[:-1], ("I7", 4, 4 + total - 38))

    # Six tiles for 91 weigh 91 - 1.5 = 89.5 < 90: all seven, whole, for the bonus.
    monkeypatch.setattr(strong_module, "_candidates", lambda _view: [out, six_tiles_for(91)])
    assert strong(view) == Play(out.line, draw_extra=False)
    # Six tiles for 92 weigh 90.5 > 90: the six (played up to J8, an operation square).
    monkeypatch.setattr(strong_module, "_candidates", lambda _view: [out, six_tiles_for(92)])
    assert strong(view) == Play(six_tiles_for(92).line[:2], draw_extra=True, end_turn=False)


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
