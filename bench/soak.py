"""Soak: many games played concurrently to their end by bots over HTTP.

    .venv/bin/python bench/soak.py --games 200 --workers 2               # SQLite
    .venv/bin/python bench/soak.py --games 200 --database postgresql://postgres@127.0.0.1:5432/test

Starts ``mathable-server serve --workers N`` on a free local port (on a
temporary SQLite file, or a fresh schema of the PostgreSQL database), plays
every game in its own thread with best-turn bots (two identities per game),
then checks every game: it finished, its log replays to the views served,
tiles are conserved; scans every answer each identity received for other
seats' tiles and the server log for tokens; counts 5xx answers. Prints
requests/s and p50/p99 latencies. Exits non-zero when any check fails.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import isolated_database, soak  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default=None, help="database URL (default: temp SQLite)")
    parser.add_argument("--node-limit", type=int, default=200)
    args = parser.parse_args()
    with isolated_database(args.database) as url:
        backend = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
        print(f"soak: {args.games} games at once, {args.workers} workers, {backend}")
        report = soak(url, args.games, args.workers, args.node_limit)
    print(f"{len(report.games)}/{args.games} games finished in {report.elapsed:.1f} s")
    print(report.stats.report())
    print(f"leak scan: {report.answers_scanned} answers scanned; server log checked for tokens")
    print(f"5xx answers: {report.five_xx}; checks failed: {len(report.failures)}")
    for line in report.failures[:20]:
        print("  " + line)
    return 1 if report.failures or report.five_xx else 0


if __name__ == "__main__":
    sys.exit(main())
