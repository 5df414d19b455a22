"""Summy properties over random games and small random tables."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathable import RuleError
from mathable.core.events import Event
from mathable.core.ruleset import redact_any, replay_any
from mathable.games.summy import SUPPLY_SET, SummyState, apply, judge, replay
from mathable.games.summy.events import EquationPlayed
from mathable.games.summy.movegen import best_move, has_move, legal_moves
from mathable.games.summy.selfplay import first_move, play_game
from mathable.games.summy.state import ACROSS, DOWN
from mathable.games.summy.tiles import EQUALS, TILE_SET
from mathable.games.summy.view import view


def _random_move(seed: int):  # type: ignore[no-untyped-def]
    chooser = random.Random(seed)

    def choose(state: SummyState, seat: int):  # type: ignore[no-untyped-def]
        found = legal_moves(state.table, state.seats[seat].rack, state.closed)
        moves = list(itertools.islice(found, 5))
        return chooser.choice(moves) if moves else None

    return choose


def _game(seed: int, players: int, turns: int = 1000) -> list[Event]:
    return play_game(players=players, seed=seed, choose=_random_move(seed), max_turns=turns)


def _all_tiles(state: SummyState, discarded: Counter[int]) -> Counter[int]:
    held = sum((Counter(seat.rack) for seat in state.seats), Counter())
    return held + Counter(state.table.values()) + Counter(state.supply) + discarded


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_random_games_conserve_tiles_end_and_replay(seed: int, players: int) -> None:
    events = _game(seed, players)
    state = SummyState()
    discarded: Counter[int] = Counter()
    for event in events:
        state = apply(state, event)
        discarded += Counter(getattr(event, "discarded", ()))
        assert _all_tiles(state, discarded) == Counter(TILE_SET)
        assert all(len(seat.rack) <= 8 for seat in state.seats)
    assert state.status == "ended" and state.result is not None
    # Replaying the log from JSON gives the same game, through the ruleset registry too.
    decoded = [Event.from_dict(json.loads(json.dumps(e.to_dict()))) for e in events]
    assert replay(decoded) == state
    assert replay_any(decoded) == state
    # Every equation on the table scored its digits.
    for event in events:
        if isinstance(event, EquationPlayed):
            assert event.points == sum(int(ch) for ch in event.equation if ch.isdigit())


@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_nobody_sees_another_hand_nor_the_supply(seed: int) -> None:
    events = _game(seed, 2, turns=8)
    state = SummyState()
    for event in events:
        state = apply(state, event)
    for viewer in (None, 0, 1):
        seen = json.dumps(view(state, viewer))
        others = [s for s in range(2) if s != viewer]
        body = json.loads(seen)
        assert isinstance(body["supply"], int)
        for other in others:
            assert "rack" not in body["seats"][other]
        for event in events:
            shown = redact_any(event, viewer)
            if event.type == "summy_started":
                assert all(shown["hands"][o] is None for o in others)
            seat = getattr(event, "seat", None)
            if event.type in ("equation_played", "tiles_discarded") and seat != viewer:
                assert shown["drawn"] is None


def _brute_force(
    table: dict[tuple[int, int], int],
    hand: list[int],
    closed: frozenset[tuple[int, int]] = frozenset(),
) -> set[tuple[object, ...]]:
    """Every accepted placement of up to 3 hand tiles in a window around the table, none
    on a ``closed`` square."""
    xs = [x for x, _ in table]
    ys = [y for _, y in table]
    window_x = range(min(xs) - 4, max(xs) + 5)
    window_y = range(min(ys) - 4, max(ys) + 5)
    lines = [[(x, y) for x in window_x] for y in window_y] + [
        [(x, y) for y in window_y] for x in window_x
    ]
    found: set[tuple[object, ...]] = set()
    for k in range(1, min(3, len(hand)) + 1):
        orders = set(itertools.permutations(hand, k))
        for line in lines:
            empty = [s for s in line if s not in table]
            for squares in itertools.combinations(empty, k):
                for tiles in orders:
                    placements = [(s[0], s[1], t) for s, t in zip(squares, tiles, strict=True)]
                    for direction in (ACROSS, DOWN) if k == 1 else (None,):
                        if any(s in closed for s in squares):
                            continue
                        try:
                            judged = judge(table, hand, placements, direction)
                        except RuleError:
                            continue
                        found.add((frozenset(placements), judged.direction))
    return found


Case = tuple[dict[tuple[int, int], int], list[int], frozenset[tuple[int, int]]]


@st.composite
def small_tables(draw: st.DrawFn) -> Case:
    tiles = draw(st.lists(st.sampled_from(SUPPLY_SET), min_size=0, max_size=4))
    table = {(0, 0): EQUALS}
    for tile in tiles:
        square = draw(st.tuples(st.integers(-2, 2), st.integers(-2, 2)))
        table.setdefault(square, tile)
    hand = draw(st.lists(st.sampled_from(SUPPLY_SET), min_size=1, max_size=3))
    # Squares no tile may take (ends of equations, rules version 3): some empty ones.
    near = st.tuples(st.integers(-3, 3), st.integers(-3, 3))
    closed = frozenset(s for s in draw(st.lists(near, max_size=3)) if s not in table)
    return table, hand, closed


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_tables())
def test_generator_finds_exactly_what_check_accepts(case: Case) -> None:
    table, hand, closed = case
    generated = {
        (frozenset(m.placements), m.direction) for m in legal_moves(table, hand, closed)
    }
    assert generated == _brute_force(table, hand, closed)
    assert has_move(table, hand, closed) == bool(generated)
    best = best_move(table, hand, closed)
    if generated:
        assert best is not None
        top = max(judge(table, hand, list(p), d).points for p, d in generated)
        assert best.points == top
    else:
        assert best is None


def test_generator_on_fixed_tables_matches_brute_force() -> None:
    table = {(-3, 0): 1, (-2, 0): 10, (-1, 0): 2, (0, 0): EQUALS, (1, 0): 3}
    for hand in ([2, 12, EQUALS], [4, 12, 8], [3, 9, 1]):
        generated = {(frozenset(m.placements), m.direction) for m in legal_moves(table, hand)}
        assert generated == _brute_force(table, hand)
    # 1 and = below the end of 1+2=3: 2x1=2 down would take that end (rules version 3
    # closes it), so the generator finds it only while the end is open.
    crossed = table | {(2, 1): 1, (2, 2): EQUALS}
    ends = frozenset({(-4, 0), (2, 0)})
    hand = [2, 12, 2]
    opened = {(frozenset(m.placements), m.direction) for m in legal_moves(crossed, hand)}
    kept = {(frozenset(m.placements), m.direction) for m in legal_moves(crossed, hand, ends)}
    assert opened == _brute_force(crossed, hand) and kept == _brute_force(crossed, hand, ends)
    spoiling = (frozenset({(2, -1, 2), (2, 0, 12), (2, 3, 2)}), DOWN)
    assert spoiling in opened and spoiling not in kept


def test_every_move_of_a_whole_game_is_accepted() -> None:
    # play_game runs each generated move through check: an illegal one would raise.
    events = play_game(players=2, seed=11, choose=first_move)
    assert replay(events).status == "ended"
