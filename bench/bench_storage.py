"""Storage: the bytes a finished game takes, table by table, before and after compaction.

    nice -n 10 .venv/bin/python bench/bench_storage.py [--games 300] \\
        [--backend sqlite|postgresql] [--reads 2000]

``--games`` finished games of ~140 events each (a whole game self-played by the
engines, written in bulk as ``bench_finished.py`` writes them, each event a few
minutes after the one before, ``created_at`` as an append writes it), each with the
feed rows a game played one command an event writes (two players: two rows a
version), the answer an ``Idempotency-Key`` keeps for each of those commands (the
view of the seat that moved, as JSON: a bot keying every command), and their
``finished_games`` rows (the backfill). Printed, per game, table by table with its
indexes (SQLite: ``dbstat`` after ``VACUUM``; PostgreSQL: ``pg_total_relation_size``
after ``VACUUM FULL``): before compaction, then after ``store.archive`` compacted
every game (its CPU per game printed); and the check that every game's log reads back
exactly, every column of every event.

Then the CPU of reading a game's whole log and of reading "nothing after the last
version" (a caught-up poll) with the statement before the archive (events alone) and
with ``events_after``'s (events and archive in one statement), alternated, on a game
not compacted, and on a compacted one: ``--reads`` reads each, medians of 5 rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server"), str(ROOT), str(ROOT / "bench")]

from sqlalchemy import and_, bindparam, delete, insert, select, text, update  # noqa: E402
from tests.rules.record_helpers import mathable_selfplay  # noqa: E402

from bench.bench_finished import _schema, seed, timed_backfill  # noqa: E402
from mathable import ruleset  # noqa: E402
from mathable.core.ruleset import replay_any  # noqa: E402
from mathable_server.store import archive  # noqa: E402
from mathable_server.store.engine import make_engine, player_feed  # noqa: E402
from mathable_server.store.rows import iso  # noqa: E402
from mathable_server.store.schema import (  # noqa: E402
    event_archive,
    events,
    games,
    idempotency_keys,
)

TABLES = (
    "events",
    "event_archive",
    "games",
    "game_members",
    "player_feed",
    "idempotency_keys",
    "finished_games",
)
#: When the games were played: the first event of each (ms since 1970 UTC).
START_MS = 1_800_000_000_000
#: The statement every log was read with before the archive (events alone).
OLD_LOG = (
    select(events.c.version, events.c.data, events.c.created_at, events.c.at)
    .where(and_(events.c.game_id == bindparam("game_id"), events.c.version > bindparam("after")))
    .order_by(events.c.version)
)


def add_times(url: str) -> None:
    """Each game's events a few minutes apart (a different pace each game), and their
    ``created_at`` as an append writes it, as a server that played them would have."""
    engine = make_engine(url, 2)
    with engine.connect() as conn:
        ids = [r.id for r in conn.execute(select(games.c.id).order_by(games.c.id))]
        versions = conn.execute(
            select(events.c.version).where(events.c.game_id == ids[0]).order_by(events.c.version)
        ).scalars().all()  # fmt: skip
    query = (
        update(events)
        .where(and_(events.c.game_id == bindparam("g"), events.c.version == bindparam("v")))
        .values(at=bindparam("a"), created_at=bindparam("c"))
    )
    for number, game_id in enumerate(ids):
        rows, at = [], START_MS + number * 86_400_000
        for version in versions:
            at += 1 + (version * 7919 + number * 104_729) % 3_600_000  # up to an hour apart
            moment = iso(datetime.fromtimestamp(at / 1000, UTC))
            rows.append({"g": game_id, "v": version, "a": at, "c": moment})
        with engine.connect().execution_options(sqlite_write=True) as conn, conn.begin():
            conn.execute(query, rows)
            conn.execute(
                update(games).where(games.c.id == game_id).values(updated_at=rows[-1]["c"])
            )
    engine.dispose()


def add_answers(url: str) -> int:
    """The answer kept for each command of each game (a keyed command an event, by the
    seat to move: its view after it, as JSON); the bytes of one game's answers."""
    played = mathable_selfplay(3)
    rules = ruleset(replay_any(played[:1]).ruleset)
    bodies, state = [], None
    for number in range(1, len(played) + 1):
        state = replay_any(played[:number])
        seat = state.turn.seat if state.turn is not None else 0
        bodies.append(json.dumps(rules.view(state, seat), separators=(",", ":")))
    engine = make_engine(url, 2)
    with engine.connect() as conn:
        ids = [r.id for r in conn.execute(select(games.c.id))]
    for start in range(0, len(ids), 20):
        rows = [
            {"player_id": ("ada", "bob")[version % 2], "key": f"{g}-{version}",
             "fingerprint": "f" * 64, "game_id": g, "status": 200, "body": body,
             "created_at": "2027-01-15T08:00:00.000000Z"}
            for g in ids[start : start + 20]
            for version, body in enumerate(bodies, 1)
        ]  # fmt: skip
        with engine.connect().execution_options(sqlite_write=True) as conn, conn.begin():
            conn.execute(insert(idempotency_keys), rows)
    engine.dispose()
    return sum(len(b) for b in bodies)


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


def all_logs(url: str) -> dict[str, list[archive.RawEvent]]:
    """Every game's rows, as stored (compacted or not)."""
    engine = make_engine(url, 2)
    with engine.connect() as conn:
        ids = [r.id for r in conn.execute(select(games.c.id))]
        found = archive.raw_logs(conn, ids)
    engine.dispose()
    return found


def timed_compaction(url: str) -> tuple[archive.Compacted, float]:
    """Compact every game (finished long before "now"): what was done, ms of CPU a game."""
    engine = make_engine(url, 2)
    started = time.process_time()
    done = archive.Compactor(engine, lambda: START_MS + 10**12, chunk=500, batch=100).run_all()
    spent = time.process_time() - started
    engine.dispose()
    return done, spent * 1000 / max(done.games, 1)


def read_costs(url: str, compacted: str, live: str, reads: int) -> dict[str, float]:
    """CPU (microseconds) of one read of a whole log and of a caught-up poll: the old
    statement and ``events_and_archive``, alternated, medians of 5 rounds."""
    engine = make_engine(url, 2)

    def old(game_id: str, after: int) -> None:
        with engine.connect() as conn:
            rows = conn.execute(OLD_LOG, {"game_id": game_id, "after": after}).all()
            [archive._stored(archive.RawEvent(r.version, "", 0, r.data, r.created_at, r.at))
             for r in rows]  # fmt: skip

    def new(game_id: str, after: int) -> None:
        with engine.connect() as conn:
            archive.events_and_archive(conn, game_id, after)

    with engine.connect() as conn:
        last = archive.last_version(conn, live)
    cases = {
        "whole log, not compacted: events alone": (old, live, 0),
        "whole log, not compacted: events and archive": (new, live, 0),
        "whole log, compacted: events and archive": (new, compacted, 0),
        "caught-up poll: events alone": (old, live, last),
        "caught-up poll: events and archive": (new, live, last),
    }
    found: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(5):
        for name, (read, game_id, after) in cases.items():
            started = time.process_time()
            for _ in range(reads):
                read(game_id, after)
            found[name].append((time.process_time() - started) * 1e6 / reads)
    engine.dispose()
    return {name: statistics.median(values) for name, values in found.items()}


def shown(found: dict[str, int], games_count: int) -> str:
    parts = ", ".join(f"{t} {found[t] / games_count / 1024:.1f}" for t in TABLES)
    total = sum(found.values()) / games_count / 1024
    no_keys = (sum(found.values()) - found["idempotency_keys"]) / games_count / 1024
    return f"{parts}; total {total:.1f} KB ({no_keys:.1f} KB without idempotency_keys)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--reads", type=int, default=2000)
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
        add_times(url)
        add_feed(url)
        answers = add_answers(url)
        timed_backfill(url)
        logs = all_logs(url)
        before = sizes(url, opts.backend)
        print(
            f"{opts.backend}: {opts.games} finished games of {per_game} events "
            f"({answers / 1024:.1f} KB of kept answers a game); KB a game:"
        )
        print(f"  before compaction: {shown(before, opts.games)}")
        done, cpu = timed_compaction(url)
        after = sizes(url, opts.backend)
        print(f"  after compaction:  {shown(after, opts.games)}")
        print(f"  compaction: {done}; {cpu:.1f} ms of CPU a game")
        again = all_logs(url)
        exact = sum(1 for g, rows in logs.items() if again[g] == rows)
        print(f"  {exact} of {len(logs)} games read back exactly (every column of every event)")
        if exact != len(logs):
            raise SystemExit("a compacted log differs from its rows")
        live = sorted(logs)[0]
        # One game as it was: its rows back in ``events``, its archive row gone.
        engine = make_engine(url, 2)
        with engine.connect().execution_options(sqlite_write=True) as conn, conn.begin():
            conn.execute(insert(events), [{"game_id": live, **r._asdict()} for r in logs[live]])
            conn.execute(delete(event_archive).where(event_archive.c.game_id == live))
        engine.dispose()
        costs = read_costs(url, sorted(logs)[1], live, opts.reads)
        for name, micros in costs.items():
            print(f"  read, {name}: {micros:.0f} us of CPU")
    finally:
        if drop is not None:
            drop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
