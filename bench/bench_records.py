"""Benchmark of game records; prints medians. Run: .venv/bin/python bench/bench_records.py

Whole games self-played by engines from a committed bag order (Mathable: ``best``
against ``greedy``; Summy: the best-move bot), then for each game: writing its
record (``write_record`` and ``text``), reading it back (``read_record``),
replaying it through the rules with every line, the points and the commitment
checked (``replay_record``), and reviewing it (``review``: one best-turn search a
turn). Prints the median and the maximum of each, and the records' sizes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "shared")]
sys.path[:0] = [str(Path(__file__).resolve().parents[1])]

from tests.rules.test_records import mathable_selfplay, summy_selfplay  # noqa: E402

from mathable.core.record import read_record, replay_record, write_record  # noqa: E402
from mathable.core.review import review  # noqa: E402


def timed(function: object, *args: object) -> tuple[float, object]:
    start = time.perf_counter()
    out = function(*args)  # type: ignore[operator]
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5, help="games per ruleset")
    args = parser.parse_args()
    for name, play in (("mathable", mathable_selfplay), ("summy", summy_selfplay)):
        times: dict[str, list[float]] = {"write": [], "read": [], "replay": [], "review": []}
        sizes = []
        for seed in range(1, args.games + 1):
            events = play(seed)
            seconds, text = timed(lambda e=events: write_record(e).text())
            times["write"].append(seconds)
            sizes.append(len(str(text).encode()))
            seconds, _ = timed(read_record, text)
            times["read"].append(seconds)
            seconds, replayed = timed(replay_record, text)
            times["replay"].append(seconds)
            seconds, _ = timed(review, replayed)
            times["review"].append(seconds)
        print(f"{name}: {args.games} games, records {min(sizes)}-{max(sizes)} bytes")
        for step, values in times.items():
            print(
                f"  {step}: median {statistics.median(values) * 1000:.1f} ms, "
                f"max {max(values) * 1000:.1f} ms"
            )


if __name__ == "__main__":
    main()
