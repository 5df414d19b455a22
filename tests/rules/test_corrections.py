"""The players referee mode: claims, corrections and their window (RULES.md "Corrections")."""

from __future__ import annotations

from mathable import (
    Correct,
    EndTurn,
    Equation,
    Exchange,
    Pass,
    Place,
    check,
    pending_end,
)
from mathable.events import Corrected, GameEnded, TurnEnded
from tests.rules.helpers import arranged, play, refused, sq


def claim(near: str, far: str, op: str) -> tuple[Equation, ...]:
    return (Equation(sq(near), sq(far), op),)


def players_game(rack: tuple[int, ...] = (12, 13, 8, 1, 1, 1, 1)) -> object:
    return arranged([rack, (5, 5, 5)], referee="players", bag=tuple(range(20, 40)))


def test_players_mode_accepts_a_well_formed_but_wrong_placement_and_scores_its_claims() -> None:
    state = players_game()
    state = play(state, Place(0, sq("I8"), 13, claims=claim("H8", "G8", "+")))  # 4 + 3 is not 13
    assert state.turn is not None and state.turn.points == 13
    assert state.position.cells[sq("I8")] == 13


def test_players_mode_still_needs_claims_naming_real_pairs() -> None:
    state = players_game()
    assert refused(state, Place(0, sq("I8"), 12)) == "claims_required"
    assert refused(state, Place(0, sq("I8"), 12, claims=claim("G8", "F8", "x"))) == "bad_claim"
    assert refused(state, Place(0, sq("I8"), 12, claims=claim("I7", "I6", "x"))) == "bad_claim"
    assert refused(state, Place(0, sq("I8"), 7)) == "tile_not_in_rack"


def test_an_unclaimed_equation_scores_nothing() -> None:
    # H9 completes 6 + 2 across and 2 x 4 down; only the claimed one scores.
    state = arranged([(8, 1), (1,)], board={"G9": 2, "F9": 6}, referee="players", bag=(40,))
    state = play(state, Place(0, sq("H9"), 8, claims=claim("G9", "F9", "+")))
    assert state.turn is not None and state.turn.points == 8


def test_correction_takes_back_the_wrong_tile_and_those_after_it_keeping_earlier_points() -> None:
    state = players_game()
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))  # right: 12
    state = play(state, Place(0, sq("H6"), 13, claims=claim("H7", "H8", "x")))  # wrong
    state = play(state, Place(0, sq("H9"), 8, claims=claim("H8", "H7", "x")))  # right, but after
    state = play(state, EndTurn(0))
    assert state.seats[0].score == 12 + 13 + 8
    events = check(state, Correct(1))
    (event,) = events
    assert isinstance(event, Corrected)
    assert event.removed == ((sq("H6"), 13), (sq("H9"), 8)) and event.points_lost == 21
    after = play(state, Correct(1))
    assert after.seats[0].score == 12
    assert after.position.cells[sq("H6")] == -1 and after.position.cells[sq("H9")] == -1
    assert {13, 8} <= set(after.seats[0].rack)
    # Tiles back on the rack even beyond seven; refill tiles stay drawn.
    assert len(after.seats[0].rack) == 9


def test_correction_finds_a_claimed_operation_the_square_does_not_allow() -> None:
    # J8 is a + square; 12 x 4 is not the point, 12 - 4 = 8 is arithmetic but not +.
    state = arranged(
        [(8, 1, 1), (5,)], board={"I8": 12}, referee="players", bag=tuple(range(20, 30))
    )
    state = play(state, Place(0, sq("J8"), 8, claims=claim("I8", "H8", "-")))
    state = play(state, EndTurn(0))
    (event,) = check(state, Correct(1))
    assert isinstance(event, Corrected) and "demands +" in event.reason


def test_correction_of_a_right_turn_is_refused() -> None:
    state = players_game()
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, EndTurn(0))
    assert refused(state, Correct(1)) == "no_mistake"


def test_correction_window_closes_when_the_next_player_acts() -> None:
    state = players_game()
    state = play(state, Place(0, sq("I8"), 13, claims=claim("H8", "G8", "+")))
    state = play(state, EndTurn(0))
    state = play(state, Pass(1))
    assert refused(state, Correct(1)) == "nothing_to_correct"
    assert state.seats[0].score == 13  # the mistake stands as played


def test_correction_during_the_turn_ends_it_and_loses_the_bonus() -> None:
    state = players_game()
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, Place(0, sq("J8"), 13, claims=claim("I8", "H8", "+")))  # 12 + 4 = 16
    events = check(state, Correct(1))
    assert [type(e) for e in events] == [Corrected, TurnEnded]
    after = play(state, Correct(1))
    assert after.seats[0].score == 12
    assert after.turn is not None and after.turn.seat == 1
    assert 13 in after.seats[0].rack and len(after.seats[0].rack) == 7


def test_the_mover_cannot_correct_their_own_turn_and_server_games_need_no_corrections() -> None:
    state = players_game()
    state = play(state, Place(0, sq("I8"), 13, claims=claim("H8", "G8", "+")))
    assert refused(state, Correct(0)) == "nothing_to_correct"
    server = arranged([(12,), (1,)], bag=(40,))
    assert refused(server, Correct(1)) == "corrections_off"


def test_correction_removes_the_bonus_of_an_ended_turn() -> None:
    rack = (12, 8, 2, 1, 16, 17, 13)
    state = arranged([rack, (5,)], referee="players", bag=tuple(range(20, 30)))
    line = [
        ("I8", 12, ("H8", "G8", "x")),
        ("H6", 8, ("H7", "H8", "x")),
        ("G9", 2, ("G8", "G7", "-")),
        ("F7", 1, ("G7", "H7", "-")),
        ("J8", 16, ("I8", "H8", "+")),
        ("K8", 17, ("J8", "I8", "+")),  # 16 + 12 is 28, not 17, and K8 demands x
    ]
    for square, tile, (near, far, op) in line:
        state = play(state, Place(0, sq(square), tile, claims=claim(near, far, op)))
    state = play(state, Place(0, sq("E7"), 13, claims=claim("F7", "G7", "+")))  # wrong too
    state = play(state, EndTurn(0))
    assert state.seats[0].score == 12 + 8 + 2 + 1 + 16 + 17 * 1 + 13 + 50
    after = play(state, Correct(1))
    assert after.seats[0].score == 12 + 8 + 2 + 1 + 16


def test_the_last_turn_of_a_game_can_still_be_corrected() -> None:
    # Seat 0 places its last tile with the bag empty, claiming a wrong equation.
    state = arranged([(90,), (5, 7)], referee="players", bag=())
    state = play(state, Place(0, sq("I8"), 90, claims=claim("H8", "G8", "x")))
    state = play(state, EndTurn(0))
    assert state.status == "playing" and state.turn is not None and state.turn.seat == 1
    assert pending_end(state) == "rack_emptied"
    assert refused(state, Place(1, sq("F8"), 7, claims=claim("G8", "H8", "+"))) == "game_ending"
    assert refused(state, Exchange(1, (5,))) == "game_ending"
    corrected = play(state, Correct(1))
    assert corrected.status == "playing" and corrected.seats[0].rack == (90,)
    assert corrected.seats[0].score == 0 and pending_end(corrected) is None


def test_passing_instead_of_correcting_ends_the_game_as_played() -> None:
    state = arranged([(12,), (5, 7)], referee="players", bag=())
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, EndTurn(0))
    assert pending_end(state) == "rack_emptied"
    events = check(state, Pass(1))
    assert isinstance(events[-1], GameEnded) and events[-1].reason == "rack_emptied"
    assert events[-1].scores == (12, -12)
