"""Benchmark of Summy's move generator; prints medians. Run: .venv/bin/python bench/bench_summy.py

Mid-game tables come from seeded two-player games played by the best-move bot
until the table holds ``--tiles`` tiles or more (about 30: a third of the game);
the hand timed is that of the player to move, when it holds 8 tiles. For each
table it times ``best_move`` (the bot and ``hint``) and ``legal_moves`` (every
legal equation), and prints the median, the 90th percentile and the maximum.
Target (issue 12): best equation for a hand of 8 on a mid-game table, median
under 200 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(_ROOT), str(_ROOT / "shared")]

from tests.rules.summy_positions import mid_game  # noqa: E402

from mathable.games.summy import SummyState, apply  # noqa: E402
from mathable.games.summy.commands import end_reason  # noqa: E402
from mathable.games.summy.movegen import best_move, legal_moves  # noqa: E402
from mathable.games.summy.selfplay import play_game  # noqa: E402


def timed(function: object, *args: object) -> float:
    start = time.perf_counter()
    function(*args)  # type: ignore[operator]
    return time.perf_counter() - start


def report(name: str, seconds: list[float]) -> None:
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    print(
        f"{name}: median {statistics.median(ordered) * 1000:.0f} ms, "
        f"p90 {p90 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms over {len(ordered)} tables"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30, help="mid-game tables to time")
    parser.add_argument("--tiles", type=int, default=30, help="tiles on a mid-game table")
    args = parser.parse_args()
    tables = []
    seed = 0
    while len(tables) < args.tables:
        state = mid_game(seed, args.tiles)
        seed += 1
        if state is not None:
            tables.append(state)
    best_times, all_times, end_times, stuck_times, counts = [], [], [], [], []
    for state in tables:
        assert state.turn is not None
        hand = state.seats[state.turn.seat].rack
        best_times.append(timed(best_move, state.table, hand, state.closed))
        start = time.perf_counter()
        counts.append(sum(1 for _ in legal_moves(state.table, hand, state.closed)))
        all_times.append(time.perf_counter() - start)
        # Rules version 3: with the supply empty, every turn asks whether any hand can play.
        end_times.append(timed(end_reason, replace(state, supply=())))
    # And as games meet it: after every turn of whole games once the supply is empty.
    for seed in range(args.tables):
        state = None
        for event in play_game(players=2, seed=seed):
            state = apply(state, event) if state is not None else apply(SummyState(), event)
            if state.status == "playing" and not state.supply:
                stuck_times.append(timed(end_reason, state))
    sizes = [len(s.table) for s in tables]
    print(f"{len(tables)} tables of {min(sizes)}-{max(sizes)} tiles, hands of 8")
    report("best_move", best_times)
    report("legal_moves (all)", all_times)
    report("end check, supply empty", end_times)
    report("end check after each turn of 2-player games, supply empty", stuck_times)
    print(f"legal equations per hand: median {statistics.median(counts):.0f}, max {max(counts)}")


if __name__ == "__main__":
    main()
