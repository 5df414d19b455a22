"""The players referee mode: claims, corrections and their window (RULES.md "Corrections")."""

from __future__ import annotations

import json
from dataclasses import replace

from mathable import (
    Correct,
    DrawExtra,
    EndTurn,
    Equation,
    Exchange,
    Pass,
    Place,
    Resign,
    check,
    pending_end,
    redact,
)
from mathable.core.events import GameEnded
from mathable.games.mathable.ending import end_reason
from mathable.games.mathable.events import Corrected, TurnEnded
from tests.rules.helpers import arranged, play, refusal, refused, sq


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


def test_a_game_waits_to_end_only_on_a_turn_still_open_to_correction() -> None:
    """``pending_end``: with no turn open to correction there is nothing to wait on, even in
    a players-refereed game that is over (it ends as its last turn does)."""
    state = arranged([(), (5, 7)], referee="players", bag=())
    assert state.correctable is None and end_reason(state) == "rack_emptied"
    assert pending_end(state) is None


# --- rules version 2 (issue 11): the extra tile and the wrong claim --------------


def test_correction_puts_the_extra_tile_drawn_after_an_illegal_placement_back_in_the_bag() -> None:
    # 13 on J8 claimed as 12 + 4 (it is 16); the extra tile 20 it earned was never earned.
    state = players_game()
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, Place(0, sq("J8"), 13, claims=claim("I8", "H8", "+")))
    state = play(state, DrawExtra(0))
    state = play(state, EndTurn(0))
    assert sorted(state.seats[0].rack) == [1, 1, 1, 1, 8, 20, 21]  # extra 20, refill 21
    (event,) = check(state, Correct(1))
    assert isinstance(event, Corrected) and event.to_bag == (20,)
    after = play(state, Correct(1))
    assert sorted(after.seats[0].rack) == [1, 1, 1, 1, 8, 13, 21]
    assert after.bag == tuple(range(22, 40)) + (20,)  # at the end of the bag
    assert after.seats[0].score == 12


def test_correction_during_the_turn_puts_the_extra_tile_back_before_the_refill() -> None:
    state = players_game()
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, Place(0, sq("J8"), 13, claims=claim("I8", "H8", "+")))
    state = play(state, DrawExtra(0))
    events = check(state, Correct(1))
    assert [type(e) for e in events] == [Corrected, TurnEnded]
    assert events[0].to_bag == (20,)  # type: ignore[attr-defined]
    assert events[1].drawn == (21,)  # type: ignore[attr-defined]
    after = play(state, Correct(1))
    assert sorted(after.seats[0].rack) == [1, 1, 1, 1, 8, 13, 21]
    assert after.bag[-1] == 20 and after.seats[0].score == 12


def test_an_extra_tile_earned_before_the_illegal_placement_stays_on_the_rack() -> None:
    # 16 on J8 (+: 12 + 4) is right and earns the extra 20; the 13 after it is wrong.
    state = players_game((12, 16, 13, 1, 1, 1, 1))
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, Place(0, sq("J8"), 16, claims=claim("I8", "H8", "+")))
    state = play(state, DrawExtra(0))
    state = play(state, Place(0, sq("H6"), 13, claims=claim("H7", "H8", "+")))
    state = play(state, EndTurn(0))
    (event,) = check(state, Correct(1))
    assert (
        isinstance(event, Corrected) and event.to_bag == () and event.removed == ((sq("H6"), 13),)
    )
    after = play(state, Correct(1))
    assert 20 in after.seats[0].rack and 20 not in after.bag


def test_a_wrong_claim_on_a_legal_tile_leaves_the_tile_and_scores_its_real_claims() -> None:
    # 16 on the + square J8 claimed as 12 + 4 and 4 x 4: both true sums, but x does not
    # count on a + square. The tile stays; the turn scores 16 instead of 32.
    board = {"I8": 12, "J7": 4, "J6": 4}
    state = arranged([(16, 1), (5,)], board=board, referee="players", bag=(20, 21))
    both = claim("I8", "H8", "+") + claim("J7", "J6", "x")
    state = play(state, Place(0, sq("J8"), 16, claims=both))
    state = play(state, EndTurn(0))
    assert state.seats[0].score == 32
    (event,) = check(state, Correct(1))
    assert isinstance(event, Corrected)
    assert event.removed == () and event.to_bag == () and event.points_lost == 16
    assert "demands +, not x" in event.reason
    after = play(state, Correct(1))
    assert after.position.cells[sq("J8")] == 16 and 16 not in after.seats[0].rack
    assert after.seats[0].score == 16
    assert after.last_turn is not None
    (placed,) = after.last_turn.placements
    assert placed.points == 16 and placed.equations == claim("I8", "H8", "+")
    assert after.turn is not None and after.turn.seat == 1  # seat 1 plays on


def test_a_wrong_claim_alone_keeps_the_bonus_and_the_rest_of_the_turn() -> None:
    # Seven tiles placed; the last, 8 on H9, is legal (4 x 2) but claimed as 4 + 2.
    rack = (12, 8, 2, 1, 16, 7, 8)
    state = arranged([rack, (5,)], referee="players", bag=tuple(range(20, 30)))
    line = [
        ("I8", 12, claim("H8", "G8", "x")),
        ("H6", 8, claim("H7", "H8", "x")),
        ("G9", 2, claim("G8", "G7", "-")),
        ("F7", 1, claim("G7", "H7", "-")),
        ("J8", 16, claim("I8", "H8", "+")),
        ("F8", 7, claim("G8", "H8", "+")),
        ("H9", 8, claim("H8", "H7", "+")),
    ]
    for square, tile, claims in line:
        state = play(state, Place(0, sq(square), tile, claims=claims))
    state = play(state, EndTurn(0))
    played = 12 + 8 + 2 + 1 + 16 + 7 + 8
    assert state.seats[0].score == played + 50
    (event,) = check(state, Correct(1))
    assert isinstance(event, Corrected) and event.removed == () and event.points_lost == 8
    after = play(state, Correct(1))
    assert after.seats[0].score == played - 8 + 50
    assert after.last_turn is not None and after.last_turn.bonus == 50
    assert [p.square for p in after.last_turn.placements] == [sq(s) for s, _, _ in line]
    assert after.position.cells[sq("H9")] == 8


def test_a_wrong_claim_corrected_during_the_turn_lets_the_turn_go_on() -> None:
    board = {"I8": 12, "J7": 4, "J6": 4}
    state = arranged([(16, 8, 1), (5,)], board=board, referee="players", bag=(20, 21))
    both = claim("I8", "H8", "+") + claim("J7", "J6", "x")
    state = play(state, Place(0, sq("J8"), 16, claims=both))
    events = check(state, Correct(1))
    assert [type(e) for e in events] == [Corrected]
    after = play(state, Correct(1))
    assert after.turn is not None and after.turn.seat == 0 and after.turn.points == 16
    assert after.turn.extra_available  # J8 is a + square: the extra tile may still be drawn
    assert refused(after, Correct(1)) == "no_mistake"  # the claims left are right
    after = play(after, Place(0, sq("H6"), 8, claims=claim("H7", "H8", "x")))
    after = play(after, EndTurn(0))
    assert after.seats[0].score == 16 + 8


def test_a_wrong_claim_before_an_illegal_tile_is_rescored_and_the_illegal_tile_taken_back() -> None:
    state = players_game()
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "+")))  # 4 + 3 is 7
    state = play(state, Place(0, sq("H6"), 13, claims=claim("H7", "H8", "x")))  # illegal
    state = play(state, EndTurn(0))
    assert state.seats[0].score == 12 + 13
    (event,) = check(state, Correct(1))
    assert isinstance(event, Corrected) and event.removed == ((sq("H6"), 13),)
    assert [(p.square, p.points) for p in event.rescored] == [(sq("I8"), 0)]
    assert event.points_lost == 25
    after = play(state, Correct(1))
    assert after.seats[0].score == 0 and after.position.cells[sq("I8")] == 12


def test_the_extra_tile_going_back_to_the_bag_is_hidden_from_everyone_but_its_owner() -> None:
    state = players_game()
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, Place(0, sq("J8"), 13, claims=claim("I8", "H8", "+")))
    state = play(state, DrawExtra(0))
    state = play(state, EndTurn(0))
    (event,) = check(state, Correct(1))
    assert redact(event, 0)["to_bag"] == [20]
    for viewer in (1, None):
        shown = redact(event, viewer)
        assert shown["to_bag"] is None and shown["to_bag_count"] == 1
        assert "20" not in json.dumps(shown)


# --- rules version 3 (issue 26): every extra of a placement taken back -----------------


def _illegal_then_extra() -> object:
    """I8 right, H6 illegal, then J8 right on the + square with its extra tile (20)."""
    state = players_game((12, 13, 16, 1, 1, 1, 1))
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, Place(0, sq("H6"), 13, claims=claim("H7", "H8", "x")))  # illegal
    state = play(state, Place(0, sq("J8"), 16, claims=claim("I8", "H8", "+")))
    return play(state, DrawExtra(0))


def test_a_later_placement_s_extra_tile_goes_back_to_the_bag_with_it() -> None:
    # Found in play: the extra of J8, taken back with H6 after it, stayed on the rack,
    # which then held 9 tiles.
    state = play(_illegal_then_extra(), EndTurn(0))
    assert sorted(state.seats[0].rack) == [1, 1, 1, 1, 20, 21, 22]  # extra 20, refill
    (event,) = check(state, Correct(1))
    assert isinstance(event, Corrected) and event.to_bag == (20,)
    assert event.removed == ((sq("H6"), 13), (sq("J8"), 16))
    after = play(state, Correct(1))
    assert sorted(after.seats[0].rack) == [1, 1, 1, 1, 13, 16, 21, 22]
    assert after.bag[-1] == 20 and after.seats[0].score == 12


def test_during_the_turn_a_later_placement_s_extra_goes_back_before_the_refill() -> None:
    events = check(_illegal_then_extra(), Correct(1))
    assert [type(e) for e in events] == [Corrected, TurnEnded]
    assert events[0].to_bag == (20,)  # type: ignore[attr-defined]
    after = play(_illegal_then_extra(), Correct(1))
    assert len(after.seats[0].rack) == 7 and 20 not in after.seats[0].rack


def test_rules_version_2_keeps_the_later_placement_s_extra_on_the_rack() -> None:
    state = replace(play(_illegal_then_extra(), EndTurn(0)), rules_version=2)
    (event,) = check(state, Correct(1))
    assert isinstance(event, Corrected) and event.to_bag == ()
    assert len(play(state, Correct(1)).seats[0].rack) == 9


def test_rules_version_2_puts_the_illegal_placement_s_own_extra_back_and_version_1_none() -> None:
    # RULES.md "Rules versions": from version 2 a correction puts the extra tile drawn right
    # after an illegal placement back into the bag; version 1 did not.
    state = players_game()
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, Place(0, sq("J8"), 13, claims=claim("I8", "H8", "+")))  # 16, not 13
    state = play(state, DrawExtra(0))  # the extra tile 20
    state = play(state, EndTurn(0))
    (event,) = check(replace(state, rules_version=2), Correct(1))
    assert isinstance(event, Corrected) and event.to_bag == (20,)
    assert event.removed == ((sq("J8"), 13),) and event.points_lost == 13
    (event,) = check(replace(state, rules_version=1), Correct(1))
    assert isinstance(event, Corrected) and event.to_bag == ()
    assert event.removed == ((sq("J8"), 13),) and event.points_lost == 13


def test_rules_version_1_refuses_correcting_a_right_turn_with_the_turn_as_data() -> None:
    """docs/errors.md: ``no_mistake`` gives ``seat`` and ``placements`` in every version."""
    state = players_game()
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, EndTurn(0))
    right = refusal(replace(state, rules_version=1), Correct(1))
    assert (right.code, right.details) == (
        "no_mistake",
        {"seat": 0, "placements": [{"square": "I8", "tile": 12}]},
    )
    assert right.message == "every placement of that turn is right"


# --- every refusal of a correction as data, a rescored premium square (issue 48) --------


def test_every_refusal_of_a_correction_as_data() -> None:
    """Each code and its details as docs/errors.md gives them: what a bot reads."""
    server = arranged([(12,), (1,)], bag=(40,))
    off = refusal(server, Correct(1))
    assert (off.code, off.details) == ("corrections_off", {"referee": "server"})
    assert off.message == "the server referees this game: mistakes cannot happen"
    state = players_game()
    stranger = refusal(state, Correct(7))
    assert (stranger.code, stranger.details) == (
        "not_seated",
        {"seat": 7, "seats": 2, "resigned": False},
    )
    assert stranger.message == "you have no seat in this game"
    assert refusal(state, Correct(-1)).details == {"seat": -1, "seats": 2, "resigned": False}
    nothing = refusal(state, Correct(1))
    assert (nothing.code, nothing.details) == ("nothing_to_correct", {"correctable_seat": None})
    assert nothing.message == "there is no opponent's turn open to correction"
    state = play(state, Place(0, sq("I8"), 12, claims=claim("H8", "G8", "x")))
    state = play(state, EndTurn(0))
    own = refusal(state, Correct(0))
    assert (own.code, own.details) == ("nothing_to_correct", {"correctable_seat": 0})
    right = refusal(state, Correct(1))
    assert (right.code, right.details) == (
        "no_mistake",
        {"seat": 0, "placements": [{"square": "I8", "tile": 12}]},
    )
    assert right.message == "every placement of that turn is right"
    resigned = arranged([(12,), (1,), (2,)], referee="players", bag=(40,))
    resigned = play(resigned, Resign(2))
    assert refusal(resigned, Correct(2)).details == {"seat": 2, "seats": 3, "resigned": True}
    over = play(players_game(), Resign(1))
    ended = refusal(over, Correct(1))
    assert (ended.code, ended.details) == ("game_over", {"status": "ended"})
    assert ended.message == "only a game in play can be corrected"


def test_a_wrong_claim_on_a_premium_square_is_rescored_by_its_right_claims_times_the_premium() -> (
    None
):
    # 7 on J5 (a x2 square, no operation): 3 + 4 down and 5 + 2 across are right, 10 x 3
    # across is not. The two right claims score 7 each, doubled: 28 instead of 42.
    board = {"J6": 3, "J7": 4, "I5": 5, "H5": 2, "K5": 10, "L5": 3}
    state = arranged([(7, 1), (5,)], board=board, referee="players", bag=(20, 21))
    right = claim("J6", "J7", "+") + claim("I5", "H5", "+")
    state = play(state, Place(0, sq("J5"), 7, claims=right + claim("K5", "L5", "x")))
    state = play(state, EndTurn(0))
    assert state.seats[0].score == 42
    (event,) = check(state, Correct(1))
    assert isinstance(event, Corrected) and event.removed == () and event.points_lost == 14
    (placed,) = event.rescored
    assert (placed.square, placed.tile, placed.points) == (sq("J5"), 7, 28)
    assert placed.equations == right and placed.extra is None
    after = play(state, Correct(1))
    assert after.seats[0].score == 28
    assert after.last_turn is not None and after.last_turn.placements == (placed,)


def test_a_rescored_placement_no_longer_holds_the_extra_tile_it_drew() -> None:
    board = {"I8": 12, "J7": 4, "J6": 4}
    state = arranged([(16, 1), (5,)], board=board, referee="players", bag=(20, 21, 22))
    both = claim("I8", "H8", "+") + claim("J7", "J6", "x")  # x does not count on J8 (+)
    state = play(state, Place(0, sq("J8"), 16, claims=both))
    state = play(state, DrawExtra(0))
    state = play(state, EndTurn(0))
    assert state.last_turn is not None and state.last_turn.placements[0].extra == 20
    (event,) = check(state, Correct(1))
    assert isinstance(event, Corrected) and event.to_bag == ()
    (placed,) = event.rescored
    assert (placed.points, placed.extra) == (16, None)
