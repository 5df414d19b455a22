"""What ``apply`` does with each kind of event in a Mathable game
(``mathable.games.mathable.events``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mathable import EndTurn, Equation, GameState, Pass, Place, Resign, RuleError, apply, replay
from mathable.core.events import DrawsRevealed, GameCreated, GameEnded, Passed, Resigned
from mathable.core.state import Result
from mathable.games.mathable.events import (
    Corrected,
    ExtraTileDrawn,
    TilePlaced,
    TilesExchanged,
    TurnEnded,
)
from mathable.games.summy.events import SummyStarted
from tests.rules.helpers import arranged, play, sq

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_events.py ----------------
# Events: the decoder's exact refusals and what ``apply`` does with each kind of event.


def test_an_object_that_is_not_an_event_cannot_be_applied() -> None:
    with pytest.raises(RuleError) as err:
        apply(GameState(), "passed")  # type: ignore[arg-type]
    assert err.value.code == "bad_event"
    assert err.value.message == "cannot apply 'passed'"
    assert err.value.details == {"type": None}


def test_another_game_s_event_is_refused_naming_its_type() -> None:
    """docs/errors.md, ``bad_event``: ``type``, the event type a reader finds in the log."""
    with pytest.raises(RuleError) as err:
        apply(GameState(), SummyStarted(0, ((),)))
    assert (err.value.code, err.value.details) == ("bad_event", {"type": "summy_started"})


def test_each_event_moves_the_version_on_by_one() -> None:
    state = arranged([(12,), (1,)], bag=(30,))
    assert apply(state, Passed(0)).version == state.version + 1


def test_a_created_game_keeps_its_options_and_seats_its_creator() -> None:
    event = GameCreated("mathable", 1, 3, "players", 9, None, ("bob",), "ann")
    state = apply(GameState(), event)
    assert (state.status, state.ruleset, state.rules_version) == ("waiting", "mathable", 1)
    assert (state.options.players, state.options.referee, state.options.seed) == (3, "players", 9)
    assert state.options.invited == ("bob",) and state.options.tiles is None
    assert [s.player for s in state.seats] == ["ann", None, None]
    assert state.bag == GameState().bag
    order = tuple(reversed(GameState().bag))
    ordered = apply(GameState(), GameCreated("other", 2, 2, "server", None, order, (), "ann"))
    assert ordered.bag == order and ordered.options.referee == "server"
    assert (ordered.ruleset, ordered.rules_version) == ("other", 2)


def test_a_tile_on_an_operation_square_opens_the_extra_draw_and_a_plain_one_closes_it() -> None:
    state = arranged([(16, 8), (1,)], board={"I8": 12}, bag=(30,))
    state = apply(state, TilePlaced(0, sq("J8"), 16, (Equation(sq("I8"), sq("H8"), "+"),), 16))
    assert state.turn is not None and state.turn.extra_available
    assert state.seats[0].rack == (8,) and state.position.cells[sq("J8")] == 16
    state = apply(state, TilePlaced(0, sq("H6"), 8, (), 8))
    assert state.turn is not None and not state.turn.extra_available


def test_an_extra_tile_goes_from_the_bag_to_the_rack_and_closes_the_draw() -> None:
    state = arranged([(16,), (1,)], board={"I8": 12}, bag=(30, 31, 30))
    state = apply(state, TilePlaced(0, sq("J8"), 16, (), 16))
    state = apply(state, ExtraTileDrawn(0, 30))
    assert state.seats[0].rack == (30,) and state.bag == (31, 30)
    assert state.turn is not None and not state.turn.extra_available


def test_a_turn_ended_scores_points_and_bonus_refills_and_hands_the_turn_on() -> None:
    state = arranged([(12, 1), (1,)], bag=(30, 31, 32))
    state = apply(state, TilePlaced(0, sq("I8"), 12, (), 12))
    state = apply(state, TurnEnded(0, 12, 50, (31,)))
    assert state.seats[0].score == 62 and state.seats[0].rack == (1, 31)
    assert state.bag == (30, 32)
    assert state.last_turn is not None
    assert (state.last_turn.ended_by, state.last_turn.bonus) == ("played", 50)
    assert not state.last_turn.extra_available
    assert state.turn is not None and state.turn.seat == 1 and state.turn.started_with == 1
    assert state.correctable is None  # the server referees


def test_only_a_players_refereed_turn_with_tiles_down_stays_open_to_correction() -> None:
    state = arranged([(12, 1), (1,)], bag=(30,), referee="players")
    played = apply(state, TilePlaced(0, sq("I8"), 12, (), 12))
    played = apply(played, TurnEnded(0, 12, 0, ()))
    assert played.correctable is not None and played.correctable.seat == 0
    passed = apply(state, Passed(0))
    assert passed.correctable is None


def test_acting_next_closes_the_correction_window_acting_out_of_turn_does_not() -> None:
    base = arranged([(12, 1), (1, 2), (3,)], bag=tuple(range(20, 40)), referee="players")
    state = play(base, Place(0, sq("I8"), 12, claims=(Equation(sq("H8"), sq("G8"), "x"),)))
    state = play(state, EndTurn(0))
    assert state.correctable is not None
    assert apply(state, Resigned(2)).correctable is not None  # seat 2 is not next
    assert apply(state, Resigned(1)).correctable is None
    assert apply(state, Passed(1)).correctable is None
    assert apply(state, TilesExchanged(1, (2,), (39,))).correctable is None


def test_an_exchange_puts_the_tiles_given_back_at_the_bottom_of_the_bag() -> None:
    state = arranged([(1, 2, 3), (4,)], bag=(30, 31, 32))
    state = replace(state, idle_turns=1)
    state = apply(state, TilesExchanged(0, (2, 3), (31, 30)))
    assert state.seats[0].rack == (1, 31, 30) and state.bag == (32, 2, 3)
    assert state.last_turn is not None
    assert (state.last_turn.seat, state.last_turn.started_with) == (0, 3)
    assert (state.last_turn.ended_by, state.last_turn.exchanged) == ("exchanged", 2)
    assert (state.idle_turns, state.turns_played) == (2, 1)
    assert state.turn is not None and state.turn.seat == 1


def test_a_pass_is_recorded_as_the_last_turn() -> None:
    state = apply(arranged([(1,), (4,)], bag=(30,)), Passed(0))
    assert state.last_turn is not None
    assert (state.last_turn.seat, state.last_turn.ended_by) == (0, "passed")
    assert (state.idle_turns, state.turns_played) == (1, 1)


def test_the_game_ended_event_sets_the_final_scores_and_clears_the_turn() -> None:
    state = arranged([(1,), (4,)], bag=(), referee="players")
    state = apply(state, GameEnded("no_placements", (1, 4), (-1, -4), (0,)))
    assert state.status == "ended" and state.turn is None and state.correctable is None
    assert [s.score for s in state.seats] == [-1, -4]
    assert state.result == Result("no_placements", (1, 4), (-1, -4), (0,))


def test_correcting_an_ended_turn_takes_its_tiles_and_points_back() -> None:
    state = arranged([(12, 13, 1), (5,)], bag=(30, 31), referee="players")
    state = apply(state, TilePlaced(0, sq("I8"), 12, (), 12))
    state = apply(state, TilePlaced(0, sq("H6"), 13, (), 13))
    state = apply(state, TurnEnded(0, 25, 0, (30, 31)))
    state = apply(state, Corrected(1, 0, ((sq("H6"), 13),), 13, "13 at H6: wrong"))
    assert state.position.placed() == {sq("I8"): 12}
    assert state.seats[0].score == 12 and sorted(state.seats[0].rack) == [1, 13, 30, 31]
    assert state.correctable is None
    assert state.last_turn is not None
    assert [p.square for p in state.last_turn.placements] == [sq("I8")]
    assert state.turn is not None and state.turn.seat == 1


def test_correcting_a_turn_in_progress_cuts_it_back_without_touching_the_score() -> None:
    state = arranged([(12, 13, 1), (5,)], bag=(30,), referee="players")
    state = apply(state, TilePlaced(0, sq("I8"), 12, (), 12))
    state = apply(state, TilePlaced(0, sq("H6"), 13, (), 13))
    state = apply(state, Corrected(1, 0, ((sq("H6"), 13),), 13, "wrong"))
    assert state.seats[0].score == 0 and sorted(state.seats[0].rack) == [1, 13]
    assert state.turn is not None and state.turn.seat == 0
    assert [p.square for p in state.turn.placements] == [sq("I8")]
    assert state.turn.points == 12 and not state.turn.extra_available


def test_replay_folds_a_log_from_an_empty_game() -> None:
    assert replay([]) == GameState()
    state = arranged([(1,), (4,)], bag=(30,))
    assert replay([]).version == 0 and play(state, Pass(0)).version == state.version + 1


def test_correcting_an_ended_turn_takes_its_bonus_off_the_last_turn() -> None:
    state = arranged([(12,), (5,)], bag=(30, 31), referee="players")
    state = apply(state, TilePlaced(0, sq("I8"), 12, (), 12))
    state = apply(state, TurnEnded(0, 12, 50, (30,)))
    assert state.last_turn is not None and state.last_turn.bonus == 50
    state = apply(state, Corrected(1, 0, ((sq("I8"), 12),), 62, "wrong"))
    assert state.last_turn is not None and state.last_turn.bonus == 0
    assert state.seats[0].score == 0


def test_the_end_closes_the_correction_window() -> None:
    # Seat 0's turn is open to correction when seat 0 itself resigns: the game is over.
    state = arranged([(12, 1), (5,)], referee="players", bag=(30, 31))
    state = play(state, Place(0, sq("I8"), 12, claims=(Equation(sq("H8"), sq("G8"), "+"),)))
    state = play(state, EndTurn(0))
    assert state.correctable is not None
    ended = play(state, Resign(0))
    assert ended.status == "ended" and ended.correctable is None and ended.turn is None


def test_a_game_ended_event_scores_every_seat() -> None:
    state = arranged([(12,), (5,)], bag=())
    with pytest.raises(ValueError):
        apply(state, GameEnded("rack_emptied", (0, 0), (3,), (0,)))


def test_revealing_the_draws_marks_the_game_revealed_and_nothing_else() -> None:
    state = arranged([(12,), (5,)], bag=())
    assert state.draws_revealed is False
    after = apply(state, DrawsRevealed(order=tuple(range(5)), salt="ab" * 16))
    assert after.draws_revealed is True
    assert replace(after, draws_revealed=False, version=state.version) == state
