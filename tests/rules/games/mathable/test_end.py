"""End of the game: RULES.md "End of the game", deductions and winners."""

from __future__ import annotations

from dataclasses import replace

from mathable import EndTurn, Exchange, Pass, Place, Resign, check, end_reason
from mathable.core.events import GameEnded
from tests.rules.helpers import arranged, play, sq


def ended(events: list[object]) -> GameEnded:
    assert isinstance(events[-1], GameEnded), events
    return events[-1]


def test_game_ends_when_the_bag_is_empty_and_a_player_places_their_last_tile() -> None:
    state = arranged([(12,), (5, 9)], bag=())
    state = play(state, Place(0, sq("I8"), 12))
    event = ended(check(state, EndTurn(0)))
    assert event.reason == "rack_emptied"
    assert event.deductions == (0, 14)
    assert event.scores == (12, -14) and event.winners == (0,)


def test_game_does_not_end_while_the_bag_still_holds_tiles() -> None:
    # The 7 in the bag fits F8 (3 + 4): the game is not blocked either.
    state = arranged([(12,), (5, 9)], bag=(7, *range(40, 49)))
    state = play(state, Place(0, sq("I8"), 12))
    assert not isinstance(check(state, EndTurn(0))[-1], GameEnded)


def test_game_ends_when_the_bag_is_empty_and_nobody_can_place() -> None:
    state = arranged([(12, 90), (81, 13)], bag=())
    state = play(state, Place(0, sq("I8"), 12))
    event = ended(check(state, EndTurn(0)))
    assert event.reason == "blocked"
    assert event.scores == (12 - 90, -94)


def test_game_ends_after_every_player_passed_or_exchanged_twice_in_a_row() -> None:
    state = arranged([(1, 2), (3, 4)], bag=(40, 41, 42, 43))
    state = play(state, Pass(0))
    state = play(state, Exchange(1, (3,)))
    state = play(state, Pass(0))
    assert end_reason(state) is None
    event = ended(check(state, Pass(1)))
    assert event.reason == "no_placements"


def test_a_placement_resets_the_count_of_idle_turns() -> None:
    state = arranged([(12, 1), (3, 4)], bag=(40, 41, 42, 43))
    state = play(state, Pass(0))
    state = play(state, Pass(1))
    state = play(state, Place(0, sq("I8"), 12))
    state = play(state, EndTurn(0))
    assert state.idle_turns == 0 and state.status == "playing"


def test_game_ends_when_all_but_one_resign_and_the_last_one_wins() -> None:
    state = arranged([(1,), (2,), (3,)], bag=(40,))
    state = play(state, Resign(2))
    assert state.status == "playing"
    event = ended(check(state, Resign(0)))
    assert event.reason == "resigned" and event.winners == (1,)


def test_equal_scores_share_the_win() -> None:
    # Seat 1 has 15 points and 3 on the rack; seat 0 goes out with 12.
    state = arranged([(12,), (3,)], bag=())
    seats = (state.seats[0], replace(state.seats[1], score=15))
    state = replace(state, seats=seats)
    state = play(state, Place(0, sq("I8"), 12))
    event = ended(check(state, EndTurn(0)))
    assert event.scores == (12, 12) and event.winners == (0, 1)


def test_final_state_records_the_result_and_no_turn() -> None:
    state = arranged([(12,), (5, 9)], bag=())
    state = play(state, Place(0, sq("I8"), 12))
    state = play(state, EndTurn(0))
    assert state.status == "ended" and state.turn is None
    assert state.result is not None and state.result.scores == (12, -14)
    assert [s.score for s in state.seats] == [12, -14]


# --- rules version 2 (issue 11): blocked with tiles left in the bag ---------------


def test_game_ends_blocked_when_nothing_on_a_rack_or_in_the_bag_fits_with_tiles_in_the_bag() -> (
    None
):
    # Nothing of 81, 90, 13, 14, 17, 19 fits the starting board: the game is over at once.
    state = arranged([(81, 90), (13, 14)], bag=(17, 19))
    event = ended(check(state, Pass(0)))
    assert event.reason == "blocked"
    assert event.deductions == (171, 27) and event.scores == (-171, -27)


def test_a_tile_in_the_bag_that_fits_keeps_a_blocked_looking_game_going() -> None:
    state = arranged([(81, 90), (13, 14)], bag=(17, 7))  # 7 fits F8 (3 + 4)
    assert not any(isinstance(e, GameEnded) for e in check(state, Pass(0)))


def test_the_rack_of_a_resigned_seat_is_not_in_play() -> None:
    state = arranged([(81, 90), (13, 14), (7,)], bag=(17, 19))
    # Seat 2 resigns out of turn: its 7 (which fits F8) leaves play, and nothing else fits.
    event = ended(check(state, Resign(2)))
    assert event.reason == "blocked" and event.deductions == (171, 27, 7)


def test_under_rules_version_1_a_blocked_game_with_tiles_in_the_bag_goes_on() -> None:
    state = replace(arranged([(81, 90), (13, 14)], bag=(17, 19)), rules_version=1)
    assert end_reason(play(state, Pass(0))) is None
    state = play(play(play(state, Pass(0)), Exchange(1, (13, 14))), Pass(0))
    event = ended(check(state, Pass(1)))
    assert event.reason == "no_placements"
    assert event.deductions == (171, 36)  # seat 1 now holds 17 and 19


def test_deductions_with_four_players_count_a_resigned_seats_rack_but_it_cannot_win() -> None:
    state = arranged([(12,), (5, 9), (3,), (40, 2)], bag=())
    seats = list(state.seats)
    seats[3] = replace(seats[3], score=500)
    state = replace(state, seats=tuple(seats))
    state = play(state, Resign(3))
    state = play(state, Place(0, sq("I8"), 12))
    event = ended(check(state, EndTurn(0)))
    assert event.reason == "rack_emptied"
    assert event.deductions == (0, 14, 3, 42)
    assert event.scores == (12, -14, -3, 458)
    assert event.winners == (0,)


def test_deductions_with_three_players_after_one_resigned_in_turn() -> None:
    state = arranged([(1, 2), (3, 4), (5, 6)], bag=(40, 41, 42, 43))
    state = play(state, Resign(0))  # seat 0 leaves on its own turn; seat 1 plays next
    assert state.turn is not None and state.turn.seat == 1
    event = ended(check(state, Resign(1)))
    assert event.reason == "resigned" and event.winners == (2,)
    assert event.deductions == (3, 7, 11) and event.scores == (-3, -7, -11)
