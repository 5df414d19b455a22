"""The engine interface, the built-in engines and self-play (all in the rules package)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

import mathable
from mathable import TILE_SET, ExchangeTiles, PassTurn, Placement, Play, PlayerView
from mathable.games.mathable.engine import EngineError, checked_choice, to_command, to_commands
from mathable.games.mathable.engines import BUILTIN_ENGINES, best, greedy
from mathable.games.mathable.selfplay import new_game, play_game
from mathable.games.mathable.strong import greedy_points
from tests.rules.helpers import ALICE, BOB, bag_order, dealt


def test_player_view_counts_the_bag_and_the_other_racks_together_as_unseen() -> None:
    state = dealt()
    view = PlayerView.of(state, 0)
    assert view.rack == ALICE and view.bag_size == 92 and view.rack_sizes == (7, 7)
    expected = Counter(TILE_SET)
    expected.subtract(ALICE)
    assert Counter(view.unseen()) == +expected
    # The unseen tiles are exactly the bag plus bob's rack: nothing more is known.
    assert Counter(view.unseen()) == Counter(state.bag) + Counter(state.seats[1].rack)


def test_player_view_from_the_api_json_is_the_view_from_the_state() -> None:
    state = dealt()
    for event in mathable.check(state, mathable.PlayTurn(0, (mathable.TurnPlacement(106, 12),))):
        state = mathable.apply(state, event)
    from_json = PlayerView.from_json(mathable.view(state, 1))
    assert from_json == PlayerView.of(state, 1)
    assert from_json.position.cells == state.position.cells
    assert from_json.board == {"I8": 12}


def test_player_view_from_json_needs_a_seat() -> None:
    with pytest.raises(ValueError, match="no seat of yours"):
        PlayerView.from_json(mathable.view(dealt(), None))


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (None, "returned None (NoneType), not a Play, ExchangeTiles or PassTurn"),
        ("I8=12", "returned 'I8=12' (str), not a Play"),
        (Play(()), "must be a non-empty tuple"),
        (Play((Placement("I8", 13),)), "no 13 left on the rack"),
        (Play((Placement("A1", 12),)), "12 at A1: A1 is not next to two tiles"),
        (Play((Placement("Z9", 12),)), "'Z9' is not a square"),
        (Play(("I8=12", "I8=16")), "placement 2 (I8=16): I8 already holds 12"),
        (ExchangeTiles((1, 2)), "cannot exchange [1, 2]: not on the rack"),
        (ExchangeTiles(()), "exchange 1 to 7 tiles"),
        (ExchangeTiles(("12",)), "must be a tuple of ints"),  # type: ignore[arg-type]
    ],
)
def test_a_turn_the_view_does_not_allow_is_refused_with_the_reason(
    answer: object, message: str
) -> None:
    with pytest.raises(EngineError, match=re.escape(message)):
        checked_choice(answer, PlayerView.of(dealt(), 0))


def test_a_checked_play_carries_the_points_of_each_placement() -> None:
    play = checked_choice(Play.parse("I8=12 J8=16+"), PlayerView.of(dealt(), 0))
    assert play == Play((Placement("I8", 12, 12), Placement("J8", 16, 16)), draw_extra=True)
    command = to_command(play, 0)
    assert isinstance(command, mathable.PlayTurn)
    # The extra tile is asked for on the operation square (J8 is +) only.
    assert [p.draw_extra for p in command.placements] == [False, True]


@pytest.mark.parametrize("name", sorted(BUILTIN_ENGINES))
def test_every_built_in_engine_plays_a_legal_turn_and_exchanges_when_nothing_fits(
    name: str,
) -> None:
    engine = BUILTIN_ENGINES[name]
    view = PlayerView.of(dealt(), 0)
    assert isinstance(checked_choice(engine(view), view), Play)
    stuck = PlayerView.of(new_game(2, tiles=bag_order(90, 81, 72, 70, 64, 63, 60)), 0)
    answer = checked_choice(engine(stuck), stuck)
    assert isinstance(answer, ExchangeTiles) and sorted(answer.tiles) == sorted(stuck.rack)


def test_best_plays_the_highest_scoring_turn_and_greedy_no_more() -> None:
    view = PlayerView.of(dealt(), 0)
    top = mathable.best_turn_in(view.position, view.rack)
    best_play = best(view)
    greedy_play = greedy(view)
    assert isinstance(best_play, Play) and isinstance(greedy_play, Play)
    assert sum(p.points for p in best_play.placements) == top.total - top.bonus
    assert sum(p.points for p in greedy_play.placements) <= top.total


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


def test_a_play_that_goes_on_is_sent_tile_by_tile_with_its_extra_draws_and_no_end() -> None:
    goes_on = Play(Play.parse("I8=12 J8=16").placements, draw_extra=True, end_turn=False)
    play = checked_choice(goes_on, PlayerView.of(dealt(), 0))
    assert isinstance(play, Play) and not play.end_turn
    commands = to_commands(play, 0, bag_size=92)
    assert commands == [
        mathable.Place(0, mathable.parse_square("I8"), 12),
        mathable.Place(0, mathable.parse_square("J8"), 16),
        mathable.DrawExtra(0),  # J8 is an operation square
    ]
    # With the bag empty no extra tile is asked for; a play that ends a begun turn ends it.
    assert mathable.DrawExtra(0) not in to_commands(play, 0, bag_size=0)
    ending = Play(play.placements, draw_extra=False)
    assert to_commands(ending, 0, bag_size=92, mid_turn=True)[-1] == mathable.EndTurn(0)
    assert isinstance(to_commands(ending, 0, bag_size=92)[0], mathable.PlayTurn)


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


def test_a_turn_in_parts_scores_every_placement_the_extra_tile_included() -> None:
    state = new_game(2, tiles=bag_order(*ALICE, *BOB, 6))
    view = PlayerView.of(state, 0)
    part = checked_choice(
        Play((Placement("I8", 12), Placement("J8", 16)), draw_extra=True, end_turn=False), view
    )
    for command in to_commands(part, 0, bag_size=view.bag_size):
        for event in mathable.check(state, command):
            state = mathable.apply(state, event)
    assert state.turn is not None and state.turn.seat == 0 and 6 in state.seats[0].rack
    view = PlayerView.of(state, 0)
    rest = checked_choice(Play((Placement("H9", 6),)), view)
    for command in to_commands(rest, 0, bag_size=view.bag_size, mid_turn=True):
        for event in mathable.check(state, command):
            state = mathable.apply(state, event)
    assert state.seats[0].score == 12 + 16 + 6
    assert state.turn is not None and state.turn.seat == 1
    assert state.position.placed()[mathable.parse_square("H9")] == 6


def test_pass_ends_a_begun_turn() -> None:
    assert isinstance(to_command(PassTurn(), 0, mid_turn=True), mathable.EndTurn)
    assert isinstance(to_command(PassTurn(), 0), mathable.Pass)


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
