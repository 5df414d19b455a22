"""A turn: extra tiles, end of turn, bonus, refill, exchange, pass, resign."""

from __future__ import annotations

import pytest

from mathable import (
    DrawExtra,
    EndTurn,
    Exchange,
    Pass,
    Place,
    PlayTurn,
    Resign,
    RuleError,
    TurnPlacement,
    check,
)
from mathable.core.events import Passed
from mathable.games.mathable.events import ExtraTileDrawn, TilesExchanged, TurnEnded
from tests.rules.helpers import Game, arranged, bag_order, play, refusal, refused, sq


def test_extra_tile_may_be_drawn_right_after_placing_on_an_operation_square() -> None:
    state = arranged([(16, 1), (1,)], board={"I8": 12}, bag=(30, 40))
    state = play(state, Place(0, sq("J8"), 16))  # J8 is a + square: 12 + 4
    (event,) = check(state, DrawExtra(0))
    assert isinstance(event, ExtraTileDrawn) and event.tile == 30


def test_extra_tile_must_be_taken_before_the_next_placement() -> None:
    state = arranged([(16, 8), (1,)], board={"I8": 12}, bag=(30, 40))
    state = play(state, Place(0, sq("J8"), 16))
    state = play(state, Place(0, sq("H6"), 8))
    assert refused(state, DrawExtra(0)) == "no_extra_tile"


def test_no_extra_tile_after_a_plain_square_or_from_an_empty_bag() -> None:
    state = arranged([(12, 16), (1,)], bag=(30,))
    state = play(state, Place(0, sq("I8"), 12))
    assert refused(state, DrawExtra(0)) == "no_extra_tile"
    state = arranged([(16,), (1,)], board={"I8": 12}, bag=())
    state = play(state, Place(0, sq("J8"), 16))
    assert refused(state, DrawExtra(0)) == "bag_empty"


def test_extra_tile_drawn_can_be_placed_in_the_same_turn() -> None:
    state = arranged([(16,), (1,)], board={"I8": 12}, bag=(8, 40))
    state = play(state, Place(0, sq("J8"), 16))
    state = play(state, DrawExtra(0))
    state = play(state, Place(0, sq("H6"), 8))
    assert state.turn is not None and state.turn.points == 24


def test_turn_score_is_the_sum_of_its_placements_and_refills_to_seven() -> None:
    state = arranged([(12, 8, 1, 1, 1, 1, 1), (1,)], bag=(20, 21, 24, 25))
    state = play(state, Place(0, sq("I8"), 12))
    state = play(state, Place(0, sq("H6"), 8))
    (event,) = check(state, EndTurn(0))
    assert isinstance(event, TurnEnded)
    assert (event.points, event.bonus, event.drawn) == (20, 0, (20, 21))


def test_refill_stops_when_the_bag_runs_out() -> None:
    state = arranged([(12, 8, 1, 1, 1, 1, 1), (1,)], bag=(20,))
    state = play(state, PlayTurn(0, (TurnPlacement(sq("I8"), 12), TurnPlacement(sq("H6"), 8))))
    assert sorted(state.seats[0].rack) == [1, 1, 1, 1, 1, 20]


def test_mathable_bonus_for_emptying_a_rack_of_seven() -> None:
    game = Game(tiles=bag_order(1, 2, 8, 12, 16, 17, 42, 3, 4, 6, 7, 7, 8, 21))
    first = [("I8", 12), ("H6", 8), ("G9", 2), ("F7", 1), ("J8", 16)]
    turn = [("F8", 7), ("F9", 6), ("H9", 8), ("G6", 4), ("E9", 3), ("E8", 21), ("E10", 7)]
    game.run(PlayTurn(0, tuple(TurnPlacement(sq(s), t) for s, t in first)))
    events = game.run(PlayTurn(1, tuple(TurnPlacement(sq(s), t) for s, t in turn)))
    assert isinstance(events[-1], TurnEnded) and events[-1].bonus == 50


def test_no_bonus_when_the_turn_began_with_fewer_than_seven() -> None:
    state = arranged([(12, 8), (1,)], bag=(30, 40))
    state = play(state, Place(0, sq("I8"), 12))
    state = play(state, Place(0, sq("H6"), 8))
    (event,) = check(state, EndTurn(0))
    assert isinstance(event, TurnEnded) and event.bonus == 0


def test_no_bonus_when_an_extra_tile_is_left_on_the_rack() -> None:
    # Player 2 of the rule book places all seven tiles but took the extra tile on E8.
    game = Game(tiles=bag_order(1, 2, 8, 12, 16, 17, 42, 3, 4, 6, 7, 7, 8, 21))
    first = [("I8", 12), ("H6", 8), ("G9", 2), ("F7", 1), ("J8", 16)]
    game.run(PlayTurn(0, tuple(TurnPlacement(sq(s), t) for s, t in first)))
    turn = [("F8", 7), ("F9", 6), ("H9", 8), ("G6", 4), ("E9", 3), ("E8", 21), ("E10", 7)]
    placements = tuple(TurnPlacement(sq(s), t, draw_extra=(s == "E8")) for s, t in turn)
    events = game.run(PlayTurn(1, placements))
    assert isinstance(events[-1], TurnEnded)
    assert (events[-1].points, events[-1].bonus, len(events[-1].drawn)) == (71, 0, 6)


def test_whole_turn_is_all_or_nothing() -> None:
    state = arranged([(12, 8, 13), (1,)], bag=(30, 40, 50))
    command = PlayTurn(0, (TurnPlacement(sq("I8"), 12), TurnPlacement(sq("A1"), 13)))
    with pytest.raises(RuleError) as err:
        check(state, command)
    assert err.value.code == "no_pair" and err.value.message.startswith("placement 2:")


def test_exchange_gives_back_one_to_seven_tiles_and_draws_as_many() -> None:
    state = arranged([(1, 2, 3), (1,)], bag=(40, 50, 60))
    (event,) = check(state, Exchange(0, (1, 3)))
    assert isinstance(event, TilesExchanged) and event.drawn == (40, 50)
    after = play(state, Exchange(0, (1, 3)))
    assert sorted(after.seats[0].rack) == [2, 40, 50]
    assert after.bag == (60, 1, 3)  # given back to the end of the bag
    assert after.turn is not None and after.turn.seat == 1
    assert refused(state, Exchange(0, ())) == "bad_exchange"
    assert refused(state, Exchange(0, (7,))) == "tile_not_in_rack"
    assert refused(state, Exchange(0, (1, 1))) == "tile_not_in_rack"


def test_an_exchange_of_tiles_not_on_the_rack_names_them() -> None:
    state = arranged([(1, 2, 3), (1,)], bag=(40, 50, 60))
    assert refusal(state, Exchange(0, (1, 1, 7))).details == {"tiles": [1, 7], "rack": [1, 2, 3]}


def test_exchange_needs_the_bag_to_hold_as_many_tiles_as_given_back() -> None:
    state = arranged([(1, 2, 3), (1,)], bag=(40, 50))
    assert refused(state, Exchange(0, (1, 2, 3))) == "bag_too_small"
    assert isinstance(check(state, Exchange(0, (1, 2)))[0], TilesExchanged)


def test_pass_ends_the_turn_without_placing() -> None:
    state = arranged([(1,), (2,)], bag=(40,))
    events = check(state, Pass(0))
    assert isinstance(events[0], Passed)
    assert play(state, Pass(0)).turn.seat == 1  # type: ignore[union-attr]


def test_pass_and_exchange_are_refused_once_a_tile_is_placed() -> None:
    state = arranged([(12, 1, 2), (1,)], bag=(40, 41))
    state = play(state, Place(0, sq("I8"), 12))
    assert refused(state, Pass(0)) == "turn_in_progress"
    assert refused(state, Exchange(0, (1,))) == "turn_in_progress"


def test_a_resigned_seat_is_skipped_and_keeps_what_it_placed() -> None:
    state = arranged([(12, 1), (1,), (2,)], bag=(40, 41, 42))
    state = play(state, Place(0, sq("I8"), 12))
    state = play(state, Resign(0))
    assert state.seats[0].resigned and state.seats[0].score == 12
    assert state.turn is not None and state.turn.seat == 1
    state = play(state, Pass(1))
    assert state.turn is not None and state.turn.seat == 2
    state = play(state, Pass(2))
    assert state.turn is not None and state.turn.seat == 1


def test_placed_tiles_are_never_taken_back() -> None:
    state = arranged([(12, 1), (1,)], bag=(40, 41))
    state = play(state, Place(0, sq("I8"), 12))
    assert refused(state, Place(0, sq("I8"), 1)) == "square_taken"


def test_whole_turn_skips_an_extra_draw_when_the_bag_is_empty() -> None:
    state = arranged([(16, 8), (1,)], board={"I8": 12}, bag=())
    turn = PlayTurn(0, (TurnPlacement(sq("J8"), 16, draw_extra=True), TurnPlacement(sq("H6"), 8)))
    events = check(state, turn)
    assert not any(isinstance(e, ExtraTileDrawn) for e in events)
    assert isinstance(events[2], TurnEnded) and events[2].points == 24


def test_whole_turn_refuses_an_extra_draw_after_a_plain_square() -> None:
    state = arranged([(12, 8), (1,)], bag=(30, 40))
    with pytest.raises(RuleError) as err:
        check(state, PlayTurn(0, (TurnPlacement(sq("I8"), 12, draw_extra=True),)))
    assert err.value.code == "no_extra_tile"


def test_a_refused_whole_turn_reveals_nothing_of_the_tile_an_extra_draw_took() -> None:
    # E7 is a + square (F7 + G7 = 1 + 1 = 2); the second placement names a tile not on
    # the rack. Whatever the bag holds, the refusal is the same and names no bag tile.
    answers = set()
    for bag in [(32, 40), (35, 40), (90, 40)]:
        state = arranged([(2, 1, 1), (5,)], board={"F7": 1}, bag=bag)
        turn = PlayTurn(
            0, (TurnPlacement(sq("E7"), 2, draw_extra=True), TurnPlacement(sq("A1"), 999))
        )
        with pytest.raises(RuleError) as err:
            check(state, turn)
        assert err.value.code == "tile_not_in_rack"
        assert str(bag[0]) not in err.value.message
        answers.add(err.value.message)
    assert len(answers) == 1


# Seven tiles, two of them on operation squares (J8 is +, E8 is x).
SEVEN = [("I8", 12), ("J8", 16), ("H6", 8), ("G9", 2), ("F7", 1), ("F8", 7), ("F9", 6)]


def test_bonus_when_seven_tiles_and_the_extra_tile_drawn_are_all_placed() -> None:
    state = arranged([tuple(t for _, t in SEVEN), (1,)], bag=(21, 30, 31))
    for square, tile in SEVEN:
        state = play(state, Place(0, sq(square), tile))
        if square == "J8":
            state = play(state, DrawExtra(0))
    assert state.seats[0].rack == (21,)
    state = play(state, Place(0, sq("E8"), 21))  # 7 x 3 on the x square
    (event,) = check(state, EndTurn(0))
    assert isinstance(event, TurnEnded) and event.bonus == 50
    assert state.turn is not None and event.points == state.turn.points
    assert len(state.turn.placements) == 8


def test_several_extra_tiles_in_one_turn_each_follow_their_own_placement() -> None:
    rack = tuple(t for _, t in SEVEN[:6]) + (21,)
    state = arranged([rack, (1,)], bag=(30, 31, 32))
    drawn = []
    for square, tile in [*SEVEN[:6], ("E8", 21)]:
        state = play(state, Place(0, sq(square), tile))
        if square in ("J8", "E8"):
            (event,) = check(state, DrawExtra(0))
            assert isinstance(event, ExtraTileDrawn)
            drawn.append(event.tile)
            state = play(state, DrawExtra(0))
    assert drawn == [30, 31]
    assert sorted(state.seats[0].rack) == [30, 31]
    (ended,) = check(state, EndTurn(0))
    assert isinstance(ended, TurnEnded) and ended.bonus == 0  # two tiles left on the rack
    assert ended.drawn == (32,)
