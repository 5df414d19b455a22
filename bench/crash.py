"""Crash durability: kill -9 the server at random moments while bots write, restart, repeat.

    .venv/bin/python bench/crash.py --kills 20                 # SQLite
    .venv/bin/python bench/crash.py --kills 20 --database postgresql://postgres@127.0.0.1:5432/test

Bots play games back to back in threads; a killer sends SIGKILL to the whole
server process group (gunicorn master and workers) at random moments and
starts it again. Clients retry through their Idempotency-Key. At the end,
every command answered 2xx must be in the log exactly as answered (the log
up to that version replays to the view the client was served), every log
has no gap, and tiles are conserved. Exits non-zero on any failure.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import crash, isolated_database  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--bots", type=int, default=8, help="games played at once")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default=None)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with isolated_database(args.database) as url:
        report = crash(url, args.kills, args.bots, args.workers, args.seed, progress=True)
    print(report.stats.report())
    print(f"{report.kills} kills in {report.elapsed:.0f} s; {len(report.games)} games completed; "
          f"{report.acks_checked} acknowledged commands checked against the log; "
          f"failures: {len(report.failures)}")  # fmt: skip
    for line in report.failures[:20]:
        print("  " + line)
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
