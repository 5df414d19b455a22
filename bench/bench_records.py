"""Benchmark of game records; prints medians. Run: .venv/bin/python bench/bench_records.py

Whole games self-played by engines from a committed bag order (Mathable: ``best``
against ``greedy``; Summy: the best-move bot), then for each game: writing its
record (``write_record`` and ``text``), reading it back (``read_record``),
replaying it through the rules with every line, the points and the commitment
checked (``replay_record``), and reviewing it (``review``: one best-turn search a
turn). Prints the median and the maximum of each, and the records' sizes.

Then the worst lines for the reader (issue #32's review): a turn line of a player's
name, a colon and spaces up to the line cap (``MAX_LINE``), the same with 60,000
spaces (refused by the cap, and read by the turn parser itself, which is linear), and
points after a long run of spaces; with the regular expressions the reader used
before (quadratic: 16 s at 60,000 spaces) on a tenth of that for comparison.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "shared")]
sys.path[:0] = [str(Path(__file__).resolve().parents[1])]

import re  # noqa: E402

from tests.rules.record_helpers import mathable_selfplay, summy_selfplay  # noqa: E402

from mathable.core import record as record_module  # noqa: E402
from mathable.core.errors import RuleError  # noqa: E402
from mathable.core.record import MAX_LINE, read_record, replay_record, write_record  # noqa: E402
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
    worst_lines()


def _refused(text: str) -> str:
    try:
        read_record(text)
    except RuleError as err:
        return err.code
    return "read"


def worst_lines() -> None:
    head = '[Game "mathable"]\n[Seat1 "ann"]\n[Seat2 "ben"]\n'
    at_cap = "1. ann: x" + " " * (MAX_LINE - 10) + "y"
    long = "1. ann: x" + " " * 60_000 + "y"
    points = "1. ann: x" + " " * 60_000 + "(12"
    print("worst lines:")
    for label, text in (
        (f"turn line at the cap ({len(at_cap)} chars)", head + at_cap),
        (f"turn line of {len(long)} chars", head + long),
        (f"points line of {len(points)} chars", head + points),
    ):
        seconds, outcome = timed(_refused, text)
        print(f"  read_record, {label}: {seconds * 1000:.2f} ms ({outcome})")
    for label, line in (("60,000 spaces", long), ("60,000 spaces, points", points)):
        seconds, _ = timed(record_module._turn_line, line, 1)
        print(f"  the turn parser alone, {label}: {seconds * 1000:.2f} ms")
    old_turn = re.compile(r"\A(\d+)\.\s+(\S+?):(?:\s+(.*?))?\s*\Z")
    old_points = re.compile(r"\A(.*?)\s*\((-?\d+)(?:\+(\d+))?\)\Z")
    tenth = "1. ann: x" + " " * 6_000 + "y"
    seconds, _ = timed(old_turn.match, tenth)
    print(f"  the old turn pattern, 6,000 spaces: {seconds * 1000:.1f} ms")
    seconds, _ = timed(old_points.match, "x" + " " * 6_000 + "(12")
    print(f"  the old points pattern, 6,000 spaces: {seconds * 1000:.1f} ms")


if __name__ == "__main__":
    main()
