"""The timeout sweep: 100,000 games with clocks, a few of them late, swept in under a second.

    .venv/bin/python bench/bench_sweep.py                 # SQLite (and PostgreSQL if
    MATHABLE_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/test \\
        .venv/bin/python bench/bench_sweep.py             # the URL is set)

Games are written in bulk (as ``bench_server.py`` does), each with a per-move
clock of 30 days; ``--late`` of them started 31 days ago. Figures: the time of
one ``Games.sweep()`` (finding the late games through the ``due_at`` index and
writing one ``timed_out`` and ``game_ended`` each), and of a sweep that finds
nothing (the index read alone).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server"), str(ROOT)]

from sqlalchemy import text  # noqa: E402

from bench.bench_server import Seeder  # noqa: E402
from bench.harness import isolated_database  # noqa: E402
from mathable_server.games.service import Games  # noqa: E402
from mathable_server.store import Store  # noqa: E402

DAY = 86400


def bench(label: str, database_url: str, opts: argparse.Namespace) -> list[str]:
    seeder = Seeder(database_url, clock=30 * DAY)
    started = time.monotonic()
    seeder.add_games(opts.games - opts.late)
    late = seeder.add_games(opts.late, ago=31 * DAY)
    print(f"  {label}: seeded {opts.games} games in {time.monotonic() - started:.0f} s",
          file=sys.stderr)  # fmt: skip
    games = Games(Store(seeder.engine))
    started = time.perf_counter()
    swept = games.sweep()
    sweep = time.perf_counter() - started
    started = time.perf_counter()
    again = games.sweep()
    idle = time.perf_counter() - started
    with seeder.engine.connect() as conn:
        ended = conn.execute(text("SELECT count(*) FROM games WHERE status = 'ended'")).scalar()
        timeouts = conn.execute(
            text("SELECT count(*) FROM events WHERE type = 'timed_out'")
        ).scalar()
    seeder.engine.dispose()
    assert swept == len(late) and again == 0 and ended == timeouts == len(late)
    return [
        f"{label}: sweep of {opts.games} clocked games, {len(late)} late: {sweep * 1000:6.0f} ms"
        f" (target < 1000 ms); a sweep with none late {idle * 1000:5.1f} ms"
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default=None)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--late", type=int, default=100)
    opts = parser.parse_args()
    pg = os.environ.get("MATHABLE_TEST_POSTGRES_URL")
    backend = opts.backend or ("both" if pg else "sqlite")
    lines = [f"{os.cpu_count()} cores"]
    if backend in ("sqlite", "both"):
        with isolated_database(None) as url:
            lines += bench("sqlite", url, opts)
    if backend in ("postgresql", "both"):
        if not pg:
            raise SystemExit("set MATHABLE_TEST_POSTGRES_URL for the PostgreSQL figures")
        with isolated_database(pg) as url:
            lines += bench("postgresql", url, opts)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
