"""Benchmarks of the rules engine; prints medians. Run: .venv/bin/python bench/bench_rules.py

- legal_placements with a 7-tile rack on mid-game boards of about 60 tiles
  (both on a Position, as the server and bots hold it, and from a plain dict
  of square names, as the documented bot API takes it);
- best_turn on the same boards;
- replaying a complete game's log;
- complete two-player self-play games with best-turn players.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "shared")]

from mathable import (  # noqa: E402
    Create,
    EndTurn,
    GameState,
    Join,
    Pass,
    Place,
    Position,
    SeededBag,
    apply,
    best_turn,
    best_turn_in,
    check,
    legal_placements,
    legal_placements_in,
    parse_square,
    replay,
    square_name,
)
from mathable.core.events import Event  # noqa: E402


def mid_game(seed: int, tiles_on_board: int = 60) -> tuple[Position, tuple[int, ...]] | None:
    """Play a seeded game with random legal placements until ~60 tiles lie on the board;
    return the position and the rack of the player to move."""
    rng = random.Random(seed)
    state = GameState()
    for command in (Create("a", seed=seed), Join("b")):
        for e in check(state, command):
            state = apply(state, e)
    step = 0
    while state.status == "playing" and len(state.position.placed()) < tiles_on_board:
        assert state.turn is not None
        seat = state.turn.seat
        options = legal_placements_in(state.position, state.seats[seat].rack)
        if options and len(state.turn.placements) < 3:
            p = rng.choice(options)
            command: object = Place(seat, parse_square(p.square), p.tile)
        elif state.turn.placements:
            command = EndTurn(seat)
        else:
            command = Pass(seat)
        for e in check(state, command, SeededBag(seed, step)):  # type: ignore[arg-type]
            state = apply(state, e)
        step += 1
    if state.turn is None:
        return None  # this game ended before it reached the size
    rack = state.seats[state.turn.seat].rack
    fill = random.Random(seed).sample(range(1, 11), 7 - len(rack)) if len(rack) < 7 else []
    return state.position, tuple(rack) + tuple(fill)


def self_play(seed: int) -> list[Event]:
    state = GameState()
    log: list[Event] = []

    def run(command: object, salt: int) -> None:
        nonlocal state
        events = check(state, command, SeededBag(seed, salt))  # type: ignore[arg-type]
        for e in events:
            state = apply(state, e)
        log.extend(events)

    run(Create("a", seed=seed), 0)
    run(Join("b"), 1)
    salt = 2
    while state.status == "playing":
        assert state.turn is not None
        seat = state.turn.seat
        turn = best_turn_in(state.position, state.seats[seat].rack)
        if not turn.placements:
            run(Pass(seat), salt)
        else:
            for p in turn.placements:
                run(Place(seat, parse_square(p.square), p.tile), salt)
            run(EndTurn(seat), salt)
        salt += 1
    return log


def median_ms(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()

    boards = []
    seed = 0
    while len(boards) < args.boards:
        board = mid_game(seed)
        seed += 1
        if board is not None:
            boards.append(board)
    sizes = [len(pos.placed()) for pos, _ in boards]
    print(f"boards: {len(boards)} mid-game positions, {min(sizes)}-{max(sizes)} tiles placed")

    lp_pos = statistics.median(
        median_ms(lambda p=p, r=r: legal_placements_in(p, r), 200) for p, r in boards
    )
    print(f"legal_placements (Position, 7-tile rack): median {lp_pos:.3f} ms  (target <= 0.2)")
    dicts = [({square_name(s): v for s, v in p.placed().items()}, r) for p, r in boards]
    lp_dict = statistics.median(
        median_ms(lambda d=d, r=r: legal_placements(d, r), 50) for d, r in dicts
    )
    print(f"legal_placements (dict board, incl. building the cache): median {lp_dict:.3f} ms")

    results = []
    bt_times = []
    for p, r in boards:
        start = time.perf_counter()
        results.append(best_turn(p, r))
        bt_times.append((time.perf_counter() - start) * 1000)
    exhaustive = sum(t.exhaustive for t in results)
    print(
        f"best_turn: median {statistics.median(bt_times):.1f} ms, max {max(bt_times):.1f} ms, "
        f"exhaustive on {exhaustive}/{len(results)}  (target median <= 50)"
    )

    start = time.perf_counter()
    logs = [self_play(1000 + g) for g in range(args.games)]
    elapsed = time.perf_counter() - start
    print(
        f"self-play (2 best-turn players): {args.games / elapsed:.2f} games/s, "
        f"{statistics.mean(len(log) for log in logs):.0f} events per game"
    )
    rp = statistics.median(median_ms(lambda log=log: replay(log), 20) for log in logs)
    print(f"replay of a complete game's log: median {rp:.2f} ms  (target <= 5)")


if __name__ == "__main__":
    main()
