"""A whole game between engines, locally through the rules (tournaments, benchmarks, tests).

>>> from mathable.games.mathable.engines import best, greedy
>>> game = play_game([greedy, best], seed=3)
>>> game.reason in ("rack_emptied", "blocked", "no_placements"), len(game.scores)
(True, 2)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from mathable.core.bag import OrderedBag, SeededBag
from mathable.core.errors import RuleError
from mathable.core.events import Event
from mathable.games.mathable.commands import Command, Create, Join, check
from mathable.games.mathable.engine import (
    Engine,
    EngineError,
    PlayerView,
    checked_choice,
    to_commands,
)
from mathable.games.mathable.engines import best as fallback_engine
from mathable.games.mathable.events import apply
from mathable.games.mathable.state import GameState

#: A game with more turns than this is stopped (the idle rule ends every game long before).
MAX_TURNS = 2_000


@dataclass
class GameRecord:
    """How one game went: final scores, winners, and each seat's thinking time and errors."""

    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    reason: str = ""
    turns: int = 0
    #: Seconds each turn took to decide (all its decisions, for a turn played in parts), per seat.
    think: list[list[float]] = field(default_factory=list)
    #: What went wrong with an engine's turn (the fallback played instead), per seat.
    errors: list[list[str]] = field(default_factory=list)


def new_game(
    players: int, *, tiles: Sequence[int] | None = None, seed: int | None = None
) -> GameState:
    """A started game: from a given bag order (seat 0 begins) or shuffled by ``seed``."""
    state = GameState()
    commands: list[Command] = [
        Create("seat0", players=players, seed=seed, tiles=tuple(tiles) if tiles else None)
    ]
    commands += [Join(f"seat{i}") for i in range(1, players)]
    for command in commands:
        for event in check(state, command, _bag(state, seed)):
            state = apply(state, event)
    return state


def _bag(state: GameState, seed: int | None) -> OrderedBag | SeededBag:
    if state.options.tiles is not None:
        return OrderedBag()
    return SeededBag(seed if seed is not None else 0, salt=state.version)


def play_game(
    engines: Sequence[Engine],
    *,
    tiles: Sequence[int] | None = None,
    seed: int | None = None,
    fallback: Engine | None = None,
) -> GameRecord:
    """Play ``engines`` (one per seat, seat 0 first) against each other to the end.

    An engine that raises or returns a turn the rules refuse is recorded in
    ``errors`` and ``fallback`` (by default ``best``) plays that turn instead.
    """
    if fallback is None:
        fallback = fallback_engine
    state = new_game(len(engines), tiles=tiles, seed=seed)
    record = GameRecord(think=[[] for _ in engines], errors=[[] for _ in engines])
    while state.status == "playing":
        if record.turns >= MAX_TURNS:
            raise RuntimeError(f"the game did not end after {MAX_TURNS} turns")
        assert state.turn is not None
        seat = state.turn.seat
        think = 0.0
        # A turn is played in parts while the engine's plays say it goes on.
        while state.status == "playing" and state.turn is not None and state.turn.seat == seat:
            view = PlayerView.of(state, seat)
            started = time.perf_counter()
            try:
                events = _turn_events(state, seat, engines[seat], view, seed)
            except (EngineError, RuleError, Exception) as err:  # noqa: B014 - every failure falls back
                record.errors[seat].append(f"{type(err).__name__}: {err}")
                events = _turn_events(state, seat, fallback, view, seed)
            think += time.perf_counter() - started
            for event in events:
                state = apply(state, event)
        record.think[seat].append(think)
        record.turns += 1
    assert state.result is not None
    record.scores = state.result.scores
    record.winners = state.result.winners
    record.reason = state.result.reason
    return record


def _turn_events(
    state: GameState, seat: int, engine: Engine, view: PlayerView, seed: int | None
) -> list[Event]:
    """The events of one decision: a whole turn, or part of one that goes on."""
    choice = checked_choice(engine(view), view)
    commands = to_commands(choice, seat, bag_size=view.bag_size, mid_turn=bool(view.placed))
    events: list[Event] = []
    for command in commands:
        for event in check(state, command, _bag(state, seed)):
            events.append(event)
            state = apply(state, event)
    return events
