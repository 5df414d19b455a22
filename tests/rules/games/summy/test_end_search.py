"""Summy's end check: the bounded search that proves "no equation" (``movegen`` and
``linesearch``) against the exhaustive search it replaced (``summy_exhaustive``, issue 47),
on tables of seeded games played until the supply ran out, with hands dealt from the
tiles not on the table. The same hands must get the same answer, the same positions the
same end; ``bench/bench_summy_end.py --agree`` runs the same comparison on 10,000
positions and more.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mathable import Pass
from mathable.core.events import GameEnded
from mathable.games.summy import SummyState, check
from mathable.games.summy.commands import can_play, end_reason
from mathable.games.summy.movegen import best_move, has_move, legal_moves
from mathable.games.summy.tiles import DIVIDE, EQUALS, MINUS, PLUS, TIMES, parse_tiles
from tests.rules import summy_exhaustive as exhaustive
from tests.rules.summy_positions import dry_table, mid_game, tiles_left, with_hands

Hand = tuple[int, ...]


@st.composite
def dry_positions(draw: st.DrawFn, most: int = 8) -> tuple[SummyState, list[Hand]]:
    """A table as its supply ran out, and a hand of 1 to ``most`` tiles for each seat from
    the tiles not on it (one time in four, the first hands take digits first: the hardest
    for the exhaustive search, as its hands of eight digits and no = cost it a second or
    more each: those are left to the benchmark)."""
    players = draw(st.integers(2, 4))
    state = dry_table(draw(st.integers(0, 39)), players)
    assume(state.status == "playing")  # a few 2-player games end before the supply runs out
    left = draw(st.permutations(tiles_left(state)))
    if draw(st.integers(0, 3)) == 0:
        left = [t for t in left if t <= 9] + [t for t in left if t > 9]
    hands: list[Hand] = []
    for _ in range(players):
        size = draw(st.integers(1, most))
        hands.append(tuple(left[:size]))
        left = left[size:]
    return state, hands


def _moves(found: object) -> list[tuple[object, ...]]:
    return [(m.placements, m.direction, m.equation, m.points, m.start) for m in found]  # type: ignore[attr-defined]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dry_positions(most=7))
def test_a_hand_can_play_when_the_exhaustive_search_says_so(
    position: tuple[SummyState, list[Hand]],
) -> None:
    state, hands = position
    for hand in hands:
        assert has_move(state.table, hand, state.closed) == exhaustive.has_move(
            state.table, hand, state.closed
        )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dry_positions(most=5))
def test_the_equations_and_the_best_are_those_of_the_exhaustive_search_in_its_order(
    position: tuple[SummyState, list[Hand]],
) -> None:
    state, hands = position
    for hand in hands:
        mine = _moves(legal_moves(state.table, hand, state.closed))
        assert mine == _moves(exhaustive.legal_moves(state.table, hand, state.closed))
        best = best_move(state.table, hand, state.closed)
        theirs = exhaustive.best_move(state.table, hand, state.closed)
        assert _moves([best] if best else []) == _moves([theirs] if theirs else [])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dry_positions(most=6))
def test_a_pass_ends_the_game_exactly_when_no_hand_can_form_an_equation(
    position: tuple[SummyState, list[Hand]],
) -> None:
    state, hands = position
    dry = with_hands(state, hands)
    stuck = not any(exhaustive.has_move(dry.table, hand, dry.closed) for hand in hands)
    assert (end_reason(dry) == "no_equations") == stuck
    if dry.status == "playing" and dry.turn is not None:
        ends = [e for e in check(dry, Pass(dry.turn.seat)) if isinstance(e, GameEnded)]
        assert [e.reason for e in ends if e.reason == "no_equations"] == (
            ["no_equations"] if stuck else []
        )


def test_a_kept_answer_is_given_for_its_own_table_and_closed_squares_only() -> None:
    hand = tuple(parse_tiles("12+3"))
    table = frozenset({((0, 0), EQUALS)})
    assert can_play(table, frozenset(), hand)
    # The same hand and table, the squares beside the = closed: no equation.
    shut = frozenset({(-1, 0), (1, 0), (0, -1), (0, 1)})
    assert not can_play(table, shut, hand)
    assert not has_move(dict(table), hand, shut)
    # A 1 two squares left of the =: 1+2=3 needs only the hand's + beside it, shut.
    assert not can_play(table | {((-2, 0), 1)}, shut, hand)
    assert can_play(table, frozenset(), hand)


@pytest.mark.parametrize(("seed", "count"), [(8, 1818), (4, 554), (18, 579)])
def test_on_the_tables_where_it_is_slowest_every_equation_is_the_exhaustive_searchs(
    seed: int, count: int
) -> None:
    """The mid-game tables of ``bench_summy_end.py`` part 4 where ``legal_moves`` takes
    longest (31-35 tiles, a hand of 8: hundreds of equations, most around lone tiles):
    the same moves as the exhaustive search, in its order, and the best the same."""
    state = mid_game(seed, 30)
    assert state is not None and state.turn is not None
    hand = state.seats[state.turn.seat].rack
    mine = _moves(legal_moves(state.table, hand, state.closed))
    assert len(mine) == count
    assert mine == _moves(exhaustive.legal_moves(state.table, hand, state.closed))
    best = best_move(state.table, hand, state.closed)
    theirs = exhaustive.best_move(state.table, hand, state.closed)
    assert best is not None and theirs is not None
    assert _moves([best]) == _moves([theirs])


@pytest.mark.parametrize("seed", range(8))
def test_hands_with_an_equals_and_a_sign_find_the_exhaustive_searchs_equations(seed: int) -> None:
    """Mid-game tables with hands that can form equations (three digits of the rack to
    move, an = and a sign): every equation, in the exhaustive search's order, the best and
    the answer to "is there one" are its own. Quick (a few hundred equations in all), so
    that a change of the line search is caught at once."""
    state = mid_game(seed, 10 + seed)
    assert state is not None and state.turn is not None
    rng = random.Random(seed)
    digits = [tile for tile in state.seats[state.turn.seat].rack if tile <= 9]
    found = 0
    for _ in range(4):
        sign = rng.choice([PLUS, MINUS, TIMES, DIVIDE])
        hand = (*rng.sample(digits, min(3, len(digits))), EQUALS, sign)
        mine = _moves(legal_moves(state.table, hand, state.closed))
        assert mine == _moves(exhaustive.legal_moves(state.table, hand, state.closed))
        assert has_move(state.table, hand, state.closed) == bool(mine)
        best = best_move(state.table, hand, state.closed)
        theirs = exhaustive.best_move(state.table, hand, state.closed)
        assert _moves([best] if best else []) == _moves([theirs] if theirs else [])
        found += len(mine)
    assert found >= 8  # the hands do form equations: the comparison is not of nothing
