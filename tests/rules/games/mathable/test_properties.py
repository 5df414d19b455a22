"""Property-based tests: random complete games keep every invariant of the rules."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathable import (
    PAIRS,
    TILE_SET,
    Correct,
    DrawExtra,
    EndTurn,
    Equation,
    Exchange,
    GameState,
    Pass,
    Place,
    Resign,
    RuleError,
    SeededBag,
    apply,
    check,
    legal_placements_in,
    parse_square,
    pending_end,
    redact,
    replay,
    view,
)
from mathable.core.events import Event, GameEnded
from mathable.games.mathable.board import SIZE, square_name
from mathable.games.mathable.events import Corrected, TurnEnded
from tests.rules.helpers import Game


def tiles_accounted(state: GameState) -> Counter[int]:
    on_board = list(state.position.placed().values())
    in_racks = [t for seat in state.seats for t in seat.rack]
    return Counter(list(state.bag) + in_racks + on_board)


def scores_from_events(log: list[Event], seats: int) -> list[int]:
    scores = [0] * seats
    state = GameState()
    for event in log:
        if isinstance(event, TurnEnded):
            scores[event.seat] += event.points + event.bonus
        elif isinstance(event, Corrected):
            in_progress = (
                state.turn is not None
                and state.turn.seat == event.target
                and bool(state.turn.placements)
            )
            if not in_progress:
                scores[event.target] -= event.points_lost
        elif isinstance(event, GameEnded):
            scores = [s - d for s, d in zip(scores, event.deductions, strict=True)]
        state = apply(state, event)
    return scores


def random_claims(rng: random.Random, state: GameState, square: int) -> tuple[Equation, ...]:
    pairs = [p for p in PAIRS[square] if all(state.position.cells[s] >= 0 for s in p)]
    rng.shuffle(pairs)
    chosen = pairs[: rng.randint(1, max(1, len(pairs)))]
    return tuple(Equation(a, b, rng.choice("+-x/")) for a, b in chosen)


def choose_command(rng: random.Random, state: GameState) -> object:
    turn = state.turn
    assert turn is not None
    seat = turn.seat
    rack = state.seats[seat].rack
    roll = rng.random()
    if pending_end(state) is not None:
        # The game ends unless the last turn is corrected: correct it or pass.
        others = [s for s in state.active_seats() if s != state.correctable.seat]  # type: ignore[union-attr]
        return rng.choice([Pass(seat), Correct(rng.choice(others))])
    if state.options.referee == "players" and roll < 0.15:
        others = [s for s in state.active_seats() if s != seat]
        return Correct(rng.choice(others))
    if roll < 0.01:
        return Resign(seat)
    if turn.extra_available and state.bag and rng.random() < 0.5:
        return DrawExtra(seat)
    options = legal_placements_in(state.position, rack)
    if options and rng.random() < 0.85:
        p = rng.choice(options)
        square = parse_square(p.square)
        if state.options.referee == "players":
            return Place(seat, square, p.tile, claims=random_claims(rng, state, square))
        return Place(seat, square, p.tile)
    if turn.placements:
        return EndTurn(seat)
    if rack and len(state.bag) >= 1 and rng.random() < 0.5:
        k = rng.randint(1, min(len(rack), len(state.bag), 7))
        return Exchange(seat, tuple(rng.sample(rack, k)))
    if state.options.referee == "players" and rack and rng.random() < 0.3:
        # A wrong placement the players referee lets through until corrected.
        empty = [s for s in state.position.accepts]
        if empty:
            square = rng.choice(empty)
            return Place(seat, square, rng.choice(rack), claims=random_claims(rng, state, square))
    return Pass(seat)


def play_random_game(seed: int, players: int, referee: str) -> tuple[Game, int]:
    rng = random.Random(seed)
    game = Game(players=players, referee=referee, seed=seed)
    steps = 0
    while game.state.status == "playing" and steps < 3000:
        command = choose_command(rng, game.state)
        try:
            events = check(game.state, command, SeededBag(seed, salt=steps))  # type: ignore[arg-type]
        except RuleError as err:
            assert err.code in {"no_mistake", "nothing_to_correct"}, err
            steps += 1
            continue
        before = game.state
        for event in events:
            game.state = apply(game.state, event)
            assert Event.from_dict(json.loads(json.dumps(event.to_dict()))) == event
        game.log.extend(events)
        assert game.state.version == before.version + len(events)
        check_invariants(game)
        steps += 1
    return game, steps


SEAT_KEYS = {"timed_out", "seat", "player", "score", "rack_size", "resigned"}


def check_invariants(game: Game) -> None:
    state = game.state
    assert tiles_accounted(state) == Counter(TILE_SET)
    for index in range(len(state.seats)):
        seen = view(state, index)
        # One rack in the whole view, the viewer's own; other seats show only a size.
        assert seen["rack"] == list(state.seats[index].rack)
        assert not {"bag", "seed", "tiles"} & set(seen)
        assert all(set(seat) == SEAT_KEYS for seat in seen["seats"])
    assert view(state, None)["rack"] is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    referee=st.sampled_from(["server", "players"]),
)
def test_random_games_keep_every_invariant(seed: int, players: int, referee: str) -> None:
    game, _ = play_random_game(seed, players, referee)
    state = game.state
    assert state.status == "ended", "a game between random players ends"
    assert replay(game.log) == state
    assert [s.score for s in state.seats] == scores_from_events(game.log, players)
    result = state.result
    assert result is not None
    active = state.active_seats()
    assert set(result.winners) <= set(active)
    assert all(result.scores[w] == max(result.scores[s] for s in active) for w in result.winners)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_event_feeds_hide_other_racks_and_draws(seed: int, players: int) -> None:
    game, _ = play_random_game(seed, players, "server")
    for viewer in [None, *range(players)]:
        for event in game.log:
            shown = redact(event, viewer)
            seat = getattr(event, "seat", None)
            if shown["type"] == "game_started":
                for i, rack in enumerate(shown["racks"]):
                    assert (rack is None) == (i != viewer)
            elif shown["type"] in ("turn_ended", "tiles_exchanged", "extra_tile_drawn"):
                hidden = shown.get("drawn", shown.get("tile"))
                if seat != viewer:
                    assert hidden is None
            elif shown["type"] == "game_created":
                assert "seed" not in shown and "tiles" not in shown


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 30), data=st.data())
def test_check_accepts_exactly_the_generated_placements(
    seed: int, moves: int, data: st.DataObject
) -> None:
    rng = random.Random(seed)
    game = Game(players=2, seed=seed)
    for _ in range(moves):
        if game.state.status != "playing":
            break
        command = choose_command(rng, game.state)
        try:
            events = check(game.state, command, SeededBag(seed))  # type: ignore[arg-type]
        except RuleError:
            continue
        for event in events:
            game.state = apply(game.state, event)
    state = game.state
    if state.status != "playing" or state.turn is None:
        return
    seat = state.turn.seat
    rack = state.seats[seat].rack
    generated = {
        (parse_square(p.square), p.tile): p.points
        for p in legal_placements_in(state.position, rack)
    }
    for square, tile in generated:
        (event,) = check(state, Place(seat, square, tile))
        assert event.points == generated[(square, tile)]  # type: ignore[attr-defined]
    for _ in range(60):
        square = data.draw(st.integers(0, SIZE * SIZE - 1), label="square")
        tile = data.draw(st.sampled_from(sorted(set(rack)) or [1]), label="tile")
        try:
            check(state, Place(seat, square, tile))
        except RuleError:
            assert (square, tile) not in generated, square_name(square)
        else:
            assert (square, tile) in generated, square_name(square)
