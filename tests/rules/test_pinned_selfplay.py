"""Whole games between engines, Mathable's and Summy's (``mathable.games.mathable.selfplay``,
``mathable.games.summy.selfplay``), and the choices of Summy's simple engines."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from mathable import Create, GameState, Join, Pass, PassTurn
from mathable.core.bag import SeededBag
from mathable.core.state import Seat
from mathable.games.mathable import selfplay
from mathable.games.mathable.commands import check
from mathable.games.mathable.engine import Play, PlayerView
from mathable.games.mathable.engines import best as best_engine
from mathable.games.mathable.engines import greedy
from mathable.games.mathable.events import apply
from mathable.games.mathable.selfplay import new_game, play_game
from mathable.games.summy import Discard, SummyState, parse_tiles, replay
from mathable.games.summy import selfplay as summy_selfplay
from mathable.games.summy.movegen import best_move, legal_moves
from tests.rules.helpers import ALICE, BOB, bag_order
from tests.rules.summy_helpers import started

FRONT = "12+3" + "4x5:" + "6789-:=0" + "1234"


def test_a_seeded_game_is_dealt_from_the_seeded_bag_salted_by_version() -> None:
    state = GameState()
    for command in (Create("seat0", players=3, seed=11), Join("seat1"), Join("seat2")):
        for event in check(state, command, SeededBag(11, salt=state.version)):
            state = apply(state, event)
    assert new_game(3, seed=11) == state
    assert [s.player for s in state.seats] == ["seat0", "seat1", "seat2"]
    assert new_game(3, seed=11) != new_game(3, seed=12)
    # No seed: the seeded bag of 0.
    assert new_game(2).seats == new_game(2, seed=0).seats != new_game(2, seed=1).seats


def test_a_game_from_a_given_order_deals_it_in_seat_order() -> None:
    state = new_game(2, tiles=bag_order(*ALICE, *BOB))
    assert state.status == "playing" and state.turn is not None and state.turn.seat == 0
    assert (state.seats[0].rack, state.seats[1].rack) == (ALICE, BOB)
    assert state.options.tiles == bag_order(*ALICE, *BOB)


def test_a_seeded_game_between_engines_is_the_same_every_time() -> None:
    first = play_game([greedy, best_engine], seed=4)
    again = play_game([greedy, best_engine], seed=4)
    assert (first.scores, first.winners, first.reason, first.turns) == (
        again.scores,
        again.winners,
        again.reason,
        again.turns,
    )
    assert first.errors == [[], []] and len(first.think) == 2
    assert len(first.think[0]) + len(first.think[1]) == first.turns > 10


def test_the_fallback_engine_plays_the_turns_an_engine_fails() -> None:
    def broken(view: object) -> object:
        raise ValueError("no idea")

    record = play_game([broken, greedy], tiles=bag_order(*ALICE, *BOB), fallback=greedy)  # type: ignore[list-item]
    same = play_game([greedy, greedy], tiles=bag_order(*ALICE, *BOB))
    assert (record.scores, record.reason, record.turns) == (same.scores, same.reason, same.turns)
    assert record.errors[0] and set(record.errors[0]) == {"ValueError: no idea"}
    assert record.errors[1] == []


# --- Summy -----------------------------------------------------------------------------------


def test_summy_s_engines_play_the_best_or_the_first_equation_found() -> None:
    state = started(FRONT)
    table, hand = state.table, state.seats[0].rack
    assert summy_selfplay.best(state, 0) == best_move(table, hand)
    assert summy_selfplay.first_move(state, 0) == next(legal_moves(table, hand))
    assert summy_selfplay.best(state, 1) == best_move(table, state.seats[1].rack)
    assert summy_selfplay.best(state, 0) != summy_selfplay.best(state, 1)
    signs = replace(state, seats=(Seat("p0", tuple(parse_tiles("+-x:"))), state.seats[1]))
    assert summy_selfplay.first_move(signs, 0) is None


def test_summy_s_fallback_discards_extra_equals_and_the_two_highest_digits() -> None:
    state = started(FRONT)
    hand = tuple(parse_tiles("3=9=1=x7"))
    with_hand = replace(state, seats=(Seat("p0", hand), state.seats[1]))
    assert summy_selfplay.fallback(with_hand, 0) == Discard(0, tuple(parse_tiles("==97")))
    digits = replace(state, seats=(Seat("p0", tuple(parse_tiles("2x85"))), state.seats[1]))
    assert summy_selfplay.fallback(digits, 0) == Discard(0, tuple(parse_tiles("85")))
    signs = replace(state, seats=(Seat("p0", tuple(parse_tiles(":+-"))), state.seats[1]))
    assert summy_selfplay.fallback(signs, 0) == Discard(0, tuple(parse_tiles(":")))
    assert summy_selfplay.fallback(replace(with_hand, supply=()), 0) == Pass(0)


def test_summy_s_turns_give_the_engine_s_move_else_the_fallback() -> None:
    state = started(FRONT)
    move = summy_selfplay.best(state, 0)
    assert move is not None
    assert list(summy_selfplay.turns(state, summy_selfplay.best)) == [move.command(0)]
    assert list(summy_selfplay.turns(state, lambda s, seat: None)) == [
        summy_selfplay.fallback(state, 0)
    ]


def test_a_seeded_summy_game_between_engines_ends_and_is_the_same_every_time() -> None:
    events = summy_selfplay.play_game(players=3, seed=3, choose=summy_selfplay.first_move)
    assert events == summy_selfplay.play_game(players=3, seed=3, choose=summy_selfplay.first_move)
    state = replay(events)
    assert isinstance(state, SummyState) and state.status == "ended"
    assert [s.player for s in state.seats] == ["p0", "p1", "p2"]
    assert state.options.seed == 3 and state.ruleset == "summy"
    assert events != summy_selfplay.play_game(players=3, seed=4, choose=summy_selfplay.first_move)
    # The default engine is best, on two seats, seeded with 0.
    default = summy_selfplay.play_game(max_turns=2)
    assert default == summy_selfplay.play_game(2, 0, summy_selfplay.best, 2)
    assert default != summy_selfplay.play_game(2, 0, lambda state, seat: None, 2)


def test_a_summy_game_stops_after_its_turn_limit() -> None:
    events = summy_selfplay.play_game(players=2, seed=3, max_turns=0)
    assert [e.type for e in events] == ["game_created", "player_joined", "summy_started"]
    three = summy_selfplay.play_game(players=2, seed=3, max_turns=3)
    assert replay(three).turns_played == 3 and replay(three).status == "playing"


def _by_hand(
    seed: int | None, tiles: tuple[int, ...] | None = None
) -> tuple[tuple[int, ...], str, int]:
    """play_game([greedy, greedy], ...) step by step: every draw from the given order, else
    from the seeded bag (seed 0 without a seed) salted by the game's version."""
    from mathable.core.bag import OrderedBag
    from mathable.games.mathable.engine import PlayerView, checked_choice, to_command

    state = new_game(2, seed=seed, tiles=tiles)
    turns = 0
    while state.status == "playing":
        assert state.turn is not None
        seat = state.turn.seat
        view = PlayerView.of(state, seat)
        command = to_command(checked_choice(greedy(view), view), seat)
        bag = (
            OrderedBag()
            if tiles is not None
            else SeededBag(seed if seed is not None else 0, salt=state.version)
        )
        for event in check(state, command, bag):
            state = apply(state, event)
        turns += 1
    assert state.result is not None
    return state.result.scores, state.result.reason, turns


def test_every_draw_of_a_game_between_engines_comes_from_the_seeded_bag() -> None:
    for seed in (4, None):
        record = play_game([greedy, greedy], seed=seed)
        assert (record.scores, record.reason, record.turns) == _by_hand(seed)


def test_a_game_that_does_not_end_is_stopped_after_max_turns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import mathable.games.mathable.selfplay as selfplay

    calls = []

    def passes(view: object) -> object:
        calls.append(1)
        return PassTurn()

    monkeypatch.setattr(selfplay, "MAX_TURNS", 3)
    with pytest.raises(RuntimeError) as raised:
        play_game([passes, passes], tiles=bag_order(*ALICE, *BOB))  # type: ignore[list-item]
    assert str(raised.value) == "the game did not end after 3 turns"
    assert len(calls) == 3


def test_a_game_from_a_given_order_draws_from_it_and_its_fallback_from_the_seed() -> None:
    order = bag_order(*ALICE, *BOB)
    record = play_game([greedy, greedy], tiles=order)
    assert (record.scores, record.reason, record.turns) == _by_hand(None, tiles=order)

    def broken(view: object) -> object:
        raise ValueError("no idea")

    fallen = play_game([broken, greedy], seed=4, fallback=greedy)  # type: ignore[list-item]
    assert (fallen.scores, fallen.reason, fallen.turns) == _by_hand(4)


def test_each_turn_s_thinking_time_is_recorded_in_seconds() -> None:
    record = play_game([greedy, best_engine], seed=4)
    times = [t for seat in record.think for t in seat]
    assert len(times) == record.turns
    assert all(isinstance(t, float) and 0 <= t < 60 for t in times)


def test_a_turn_played_in_parts_is_timed_as_the_sum_of_its_parts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def in_parts(view: PlayerView) -> object:
        if view.placed:
            return PassTurn()  # ends the turn begun
        choice = greedy(view)
        if isinstance(choice, Play):
            return Play(choice.placements[:1], end_turn=False)
        return choice

    # Each reading of the clock is one second after the last: every part lasts a second.
    clock = iter(range(10**6))
    monkeypatch.setattr(selfplay, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    record = play_game([in_parts, greedy], seed=4)
    assert record.errors == [[], []]
    assert set(record.think[1]) == {1.0}
    assert set(record.think[0]) == {2.0}  # a placement, then the end of the turn
    assert all(isinstance(t, float) for t in record.think[0])
