"""Storage: the bytes a finished game takes, table by table, on SQLite and PostgreSQL.

    .venv/bin/python bench/bench_storage.py [--games 300] [--backend sqlite|postgresql]

``--games`` finished games of ~140 events each (a whole game self-played by the
engines, written in bulk as ``bench_finished.py`` writes them), each with the feed
rows a game played one command an event writes (two players: two rows a version),
and their ``finished_games`` rows (the backfill). Printed: bytes per game of each
table with its indexes (SQLite: ``dbstat``; PostgreSQL: ``pg_total_relation_size``),
and the total. Idempotency keys are left out: each keyed command keeps its first
answer (a whole view) for good, whatever the game.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server"), str(ROOT), str(ROOT / "bench")]

from sqlalchemy import insert, select, text  # noqa: E402

from bench.bench_finished import _schema, seed, timed_backfill  # noqa: E402
from mathable_server.store.engine import make_engine, player_feed  # noqa: E402
from mathable_server.store.schema import events, games  # noqa: E402

TABLES = ("events", "games", "game_members", "player_feed", "finished_games")


def add_feed(url: str) -> None:
    """Two feed rows per version of every game (each event its own command)."""
    engine = make_engine(url, 2)
    with engine.connect() as conn:
        ids = [r.id for r in conn.execute(select(games.c.id))]
        versions = conn.execute(
            select(events.c.version).where(events.c.game_id == ids[0]).order_by(events.c.version)
        ).scalars().all()  # fmt: skip
    for start in range(0, len(ids), 100):
        rows = [
            {"player_id": p, "game_id": g, "version": v, "kinds": "moved", "at": 1_800_000_000_000}
            for g in ids[start : start + 100]
            for v in versions
            for p in ("ada", "bob")
        ]
        with engine.connect().execution_options(sqlite_write=True) as conn, conn.begin():
            conn.execute(insert(player_feed), rows)
    engine.dispose()


def sizes(url: str, backend: str) -> dict[str, int]:
    engine = make_engine(url, 2)
    with engine.connect() as conn:
        if backend == "sqlite":
            conn.exec_driver_sql("VACUUM")
            found = {}
            for table in TABLES:
                found[table] = int(
                    conn.execute(
                        text(
                            "SELECT sum(pgsize) FROM dbstat WHERE name = :t OR name IN (SELECT "
                            "name FROM sqlite_master WHERE tbl_name = :t AND type = 'index')"
                        ),
                        {"t": table},
                    ).scalar()
                    or 0
                )
        else:
            with engine.execution_options(isolation_level="AUTOCOMMIT").connect() as auto:
                for table in TABLES:
                    auto.exec_driver_sql(f"VACUUM FULL {table}")
            found = {
                table: int(conn.execute(text(f"SELECT pg_total_relation_size('{table}')")).scalar())
                for table in TABLES
            }
    engine.dispose()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    opts = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="mathable-storage-"))
    drop = None
    try:
        if opts.backend == "sqlite":
            url = f"sqlite:///{folder / 'storage.db'}"
        else:
            base = os.environ.get("MATHABLE_TEST_POSTGRES_URL")
            if not base:
                raise SystemExit("set MATHABLE_TEST_POSTGRES_URL")
            url, drop = _schema(base)
        _, _, per_game = seed(url, opts.games)
        add_feed(url)
        timed_backfill(url)
        found = sizes(url, opts.backend)
        parts = ", ".join(f"{t} {found[t] / opts.games / 1024:.1f}" for t in TABLES)
        total = sum(found.values()) / opts.games / 1024
        before = (sum(found.values()) - found["finished_games"]) / opts.games / 1024
        print(
            f"{opts.backend}: {opts.games} finished games of {per_game} events: KB a game: "
            f"{parts}; total {total:.1f} KB ({before:.1f} KB without finished_games)"
        )
    finally:
        if drop is not None:
            drop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
