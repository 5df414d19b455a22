"""Whole Mathable games between engines (``mathable.games.mathable.selfplay``): dealt
from a seeded bag or a given order, the same every time, failures recorded and
played by the fallback."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import mathable
from mathable import Create, GameState, Join, PassTurn, Placement, Play, PlayerView
from mathable.core.bag import SeededBag
from mathable.games.mathable import selfplay
from mathable.games.mathable.commands import check
from mathable.games.mathable.engines import best, greedy
from mathable.games.mathable.engines import best as best_engine
from mathable.games.mathable.events import apply
from mathable.games.mathable.selfplay import new_game, play_game
from tests.rules.helpers import ALICE, BOB, bag_order


def test_a_whole_game_between_engines_ends_with_the_rules_result() -> None:
    record = play_game([greedy, best], tiles=bag_order(*ALICE, *BOB))
    assert record.reason in ("rack_emptied", "blocked", "no_placements")
    assert len(record.scores) == 2 and record.errors == [[], []]
    assert len(record.think[0]) + len(record.think[1]) == record.turns
    assert set(record.winners) <= {0, 1}
    assert max(record.scores) == record.scores[record.winners[0]]


def test_an_engine_that_fails_is_recorded_and_best_plays_for_it() -> None:
    calls = {"n": 0}

    def flaky(view: PlayerView) -> mathable.TurnChoice:
        calls["n"] += 1
        if calls["n"] % 2:
            raise RuntimeError("out of ideas")
        return Play((Placement("A1", 1),))  # never legal

    record = play_game([flaky, greedy], tiles=bag_order(*ALICE, *BOB))
    assert len(record.errors[0]) == calls["n"] > 0
    assert any("RuntimeError: out of ideas" in e for e in record.errors[0])
    assert any("A1 is not next to two tiles" in e for e in record.errors[0])
    assert record.errors[1] == []


def test_an_engine_places_the_extra_tile_it_drew_later_in_the_same_turn() -> None:
    views: list[PlayerView] = []

    def in_parts(view: PlayerView) -> mathable.TurnChoice:
        views.append(view)
        if len(views) == 1:
            return Play((Placement("I8", 12), Placement("J8", 16)), draw_extra=True, end_turn=False)
        if len(views) == 2:
            return Play((Placement("H9", 6),))  # the extra tile: 2 + 4 below H7 and H8
        return best(view)

    # The 15th tile of the bag (after both racks) is the extra drawn at J8: a 6.
    record = play_game([in_parts, best], tiles=bag_order(*ALICE, *BOB, 6))
    first, second = views[:2]
    assert second.placed == (Placement("I8", 12, 12), Placement("J8", 16, 16))
    assert sorted(second.rack) == sorted([3, 7, 40, 9, 5, 6]) and second.bag_size == 91
    assert second.started_with == 7 and not first.placed
    assert record.errors == [[], []]
    # One turn, thought about twice: its time is one entry.
    assert len(record.think[0]) + len(record.think[1]) == record.turns


# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_selfplay.py --------------
# Whole games between engines, Mathable's and Summy's (``mathable.games.mathable.selfplay``,
# ``mathable.games.summy.selfplay``), and the choices of Summy's simple engines.


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
