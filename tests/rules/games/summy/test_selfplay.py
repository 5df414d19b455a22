"""Whole Summy games between engines, and the choices of Summy's simple engines
(``mathable.games.summy.selfplay``)."""

from __future__ import annotations

from dataclasses import replace

from mathable import Pass
from mathable.core.state import Seat
from mathable.games.summy import Discard, SummyState, parse_tiles, replay
from mathable.games.summy import selfplay as summy_selfplay
from mathable.games.summy.movegen import best_move, legal_moves
from tests.rules.summy_helpers import started

# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_selfplay.py --------------
# Whole games between engines, Mathable's and Summy's (``mathable.games.mathable.selfplay``,
# ``mathable.games.summy.selfplay``), and the choices of Summy's simple engines.


FRONT = "12+3" + "4x5:" + "6789-:=0" + "1234"


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
