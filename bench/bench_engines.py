"""The ``strong`` engine against ``best``: a duplicate match, and time per turn.

    .venv/bin/python bench/bench_engines.py                      # 400 games, all cores
    .venv/bin/python bench/bench_engines.py --games 40 --jobs 1  # a quick look

Plays ``--games`` duplicate games (200 bag orders, each played twice with the
engines swapping seats) locally through the rules package, the same way as
``mathable-cli tournament --engines strong,best --duplicate``. Prints the
share of games each engine won, the mean scores and margin, the Elo
difference with its 95% interval, and each engine's time per turn (median,
90th percentile, worst). The target: ``strong`` wins at least 60% of the
games with a median under 1 s per turn.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "client")]

from mathable_cli.screens.mathable.tournaments import jobs_for, run, tally  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--engines", default="strong,best")
    args = parser.parse_args()
    engines = args.engines.split(",")
    jobs = jobs_for(engines, args.games, duplicate=True, seed=args.seed)
    started = time.monotonic()
    done = [0]

    def progress(_outcome: object) -> None:
        done[0] += 1
        if done[0] % 20 == 0:
            print(f"  {done[0]}/{len(jobs)} games, {time.monotonic() - started:.0f} s",
                  file=sys.stderr, flush=True)  # fmt: skip

    [result] = tally(engines, run(jobs, args.jobs), duplicate=True, on_game=progress)
    a, b = engines
    print(f"{a} vs {b}: {result.games} duplicate games (seed {args.seed}, {args.jobs} processes, "
          f"{time.monotonic() - started:.0f} s)")  # fmt: skip
    print(f"  wins {result.wins(0)}-{result.wins(1)}, draws {result.draws}: "
          f"{a} won {result.wins(0) / result.games:.1%} of the games "
          f"(score with half draws {result.score:.1%})")  # fmt: skip
    print(f"  mean score {result.mean_score(0):.1f} vs {result.mean_score(1):.1f}, "
          f"mean margin {result.mean_margin:+.1f}")  # fmt: skip
    value, low, high = result.elo_interval()
    print(f"  Elo difference {value:+.0f} (95% interval {low:+.0f} to {high:+.0f})")
    for side, name in enumerate(engines):
        think = sorted(result.think(side))
        p90 = think[int(0.9 * (len(think) - 1))]
        print(f"  {name}: {len(think)} turns, median {statistics.median(think) * 1000:.0f} ms, "
              f"p90 {p90 * 1000:.0f} ms, worst {think[-1] * 1000:.0f} ms per turn; "
              f"{len(result.errors(side))} engine errors")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
