"""The computer's levels against each other, in duplicate games (issue 44); prints each
pair's win rate. Run: nice -n 10 .venv/bin/python bench/bench_computer_levels.py

For each ruleset and each pair of levels (``expert`` against ``hard``, ``hard`` against
``medium``, ``medium`` against ``easy``, and ``expert`` against ``easy``), ``--deals``
tile orders are each played twice, the two levels swapping seats (duplicate games: the
luck of the draw is the same for both), through the JSON commands the server's computer
sends (``mathable.core.computer.duel``). A draw counts half. The levels are in order
when each stronger level wins more than half of its games against the next weaker one.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "shared")]

from mathable.core.computer import duel, engines  # noqa: E402
from mathable.core.ruleset import ruleset  # noqa: E402

#: The built-in levels and their engines (``mathable_server.games.computers.LEVELS``).
LEVELS = {"easy": "casual", "medium": "greedy", "hard": "best", "expert": "strong"}
PAIRS = [("expert", "hard"), ("hard", "medium"), ("medium", "easy"), ("expert", "easy")]


def win_rate(ruleset_name: str, strong: str, weak: str, deals: int, seed: int) -> float:
    """The share of duplicate games ``strong`` wins against ``weak`` (a draw is half)."""
    found = engines()
    a, b = found[LEVELS[strong]], found[LEVELS[weak]]
    tiles = list(ruleset(ruleset_name).tile_set)
    points = 0.0
    for deal in range(deals):
        order = tiles[:]
        random.Random(f"{seed}:{deal}").shuffle(order)
        for seats, mine in (((a, b), 0), ((b, a), 1)):
            scores = duel(ruleset_name, seats, order, seed=deal)
            other = scores[1 - mine]
            points += 1.0 if scores[mine] > other else 0.5 if scores[mine] == other else 0.0
    return points / (2 * deals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50, help="tile orders (2 games each)")
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--ruleset", action="append", help="mathable, summy (default: both)")
    args = parser.parse_args()
    for name in args.ruleset or ["mathable", "summy"]:
        for strong, weak in PAIRS:
            started = time.perf_counter()
            rate = win_rate(name, strong, weak, args.deals, args.seed)
            took = time.perf_counter() - started
            print(
                f"{name:9} {strong:>6} vs {weak:<6} {2 * args.deals:4} games: "
                f"{strong} wins {rate:6.1%} ({took:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
