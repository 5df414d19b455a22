"""The state's helpers every game shares (``mathable.core.state``): seats in turn,
seats by player, tiles taken off a rack."""

from __future__ import annotations

import pytest

from mathable import GameState
from mathable.core.state import Seat, has_tiles, remove_tiles

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_codec_state.py -----------
# Event field codecs and the state's helpers, pinned with their exact refusals.


def four_seats(resigned: tuple[int, ...] = ()) -> GameState:
    seats = tuple(Seat(player=f"p{i}", resigned=i in resigned) for i in range(4))
    return GameState(seats=seats)


def test_the_next_seat_goes_clockwise_and_skips_resigned_seats() -> None:
    state = four_seats()
    assert [state.next_seat(s) for s in range(4)] == [1, 2, 3, 0]
    state = four_seats(resigned=(1, 2))
    assert state.next_seat(0) == 3 and state.next_seat(3) == 0
    assert four_seats(resigned=(1, 2, 3)).next_seat(0) == 0
    assert four_seats(resigned=(0, 1, 2, 3)).next_seat(2) == 2
    assert state.active_seats() == [0, 3]


def test_seats_are_found_by_player_and_changed_one_at_a_time() -> None:
    state = four_seats()
    assert state.seat_of("p2") == 2 and state.seat_of("p0") == 0 and state.seat_of("zed") is None
    seats = state.with_seat(1, score=9, rack=(1, 2))
    assert seats[1] == Seat(player="p1", rack=(1, 2), score=9)
    assert seats[0] == state.seats[0] and state.seats[1].score == 0


def test_tiles_are_removed_one_occurrence_each_earliest_first() -> None:
    assert remove_tiles((5, 3, 5, 7), (5,)) == (3, 5, 7)
    assert remove_tiles((5, 3, 5, 7), [5, 5]) == (3, 7)
    with pytest.raises(ValueError):
        remove_tiles((5, 3), (5, 5))
    assert has_tiles((5, 3, 5), (5, 5)) and has_tiles((1,), ())
    assert not has_tiles((5, 3), (5, 5))
