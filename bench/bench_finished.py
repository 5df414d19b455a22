"""Finished games in the lists: the archive's page of 100 and ``/v1/me?details=true``.

    nice -n 10 .venv/bin/python bench/bench_finished.py [--games 2000] [--rounds 5] \\
        [--compare /path/to/an/older/checkout] [--backend postgresql]

A database grown to ``--games`` finished games of one player (each a whole game
self-played by the engines, ~140 events, written in bulk under ids of their own),
their ``finished_games`` rows written by the migration's backfill (timed: printed per
game). Then, round after round, each server (this tree's, and ``--compare``'s on a
copy of the database taken back to the revision before 0015) is started afresh with
one worker and asked, by one client: ``GET /v1/me?details=true&limit=100`` once (the
first read of a fresh server) and ``GET /v1/players/{name}/games?max=100`` three
times. Printed: the worker's CPU per request (``/proc/<pid>/task/*/schedstat``),
medians over the rounds; targets 50 ms each. The servers are alternated, so a busy
machine slows each alike.
"""

from __future__ import annotations

import argparse
import http.client
import os
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server"), str(ROOT), str(ROOT / "bench")]

from sqlalchemy import create_engine, insert, text  # noqa: E402
from tests.rules.record_helpers import mathable_selfplay  # noqa: E402

from bench.bench_server import (  # noqa: E402
    _real_args,
    cpu_seconds,
    server_process,
    worker_pid,
)
from mathable.core.ruleset import replay_any  # noqa: E402
from mathable_server.http.auth import hash_token, new_token  # noqa: E402
from mathable_server.store import Store, encode_event, memberships, now_iso, projection  # noqa: E402
from mathable_server.store.engine import events, game_members, games, make_engine  # noqa: E402
from mathable_server.store.finished import backfill  # noqa: E402
from mathable_server.store.migrations import downgrade, init_schema  # noqa: E402

BEFORE = "0014_signin_links_by_player"


def write_copies(engine: Any, played: list[Any], state: Any, prefix: str, count: int) -> list[str]:
    """``count`` copies of one game (its events ``played``, replayed to ``state``) written
    straight into the tables (events, games, members), 200 games a transaction; their
    ids (``prefix`` and random hex). The players must exist."""
    now = now_iso()
    rows = [
        {"version": n, "type": e.type, "schema_version": e.schema_version(),
         "data": encode_event(e)}
        for n, e in enumerate(played, 1)
    ]  # fmt: skip
    row = projection(state)
    members = memberships(state)
    ids = [f"{prefix}{secrets.token_hex(7)}" for _ in range(count)]
    for start in range(0, count, 200):
        chunk = ids[start : start + 200]
        with engine.connect().execution_options(sqlite_write=True) as conn, conn.begin():
            conn.execute(
                insert(events),
                [{"game_id": g, "created_at": now, "at": 0, **r} for g in chunk for r in rows],
            )
            conn.execute(
                insert(games),
                [{"id": g, "created_at": now, "updated_at": now, **row} for g in chunk],
            )
            conn.execute(
                insert(game_members),
                [{"game_id": g, "player_id": p, "seat": s} for g in chunk
                 for p, s in members.items()],
            )  # fmt: skip
    return ids


def seed(url: str, count: int) -> tuple[str, str, int]:
    """``count`` finished games of ada against bob; (ada's name, token, events a game)."""
    engine = make_engine(url, 2)
    init_schema(engine)
    store = Store(engine)
    played = mathable_selfplay(3)  # ada v bob, ended, its order revealed
    state = replay_any(played)
    token = new_token("ada")
    store.create_player("ada", "ada", None, hash_token(token))
    store.create_player("bob", "bob", None, hash_token(new_token("bob")))
    write_copies(engine, played, state, "f", count)
    engine.dispose()
    return "ada", token, len(played)


def timed_backfill(url: str) -> float:
    """The migration's backfill of every finished game: ms of CPU per game."""
    engine = make_engine(url, 2)
    started = time.process_time()
    written = backfill(engine)
    spent = time.process_time() - started
    engine.dispose()
    return spent * 1000 / max(written, 1)


def _get(conn: http.client.HTTPConnection, path: str, token: str) -> int:
    conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    response = conn.getresponse()
    body = response.read()
    assert response.status == 200, (response.status, body[:200])
    return len(body)


def one_round(url: str, root: Path, name: str, token: str) -> tuple[float, float]:
    """A fresh server: (CPU of its first /v1/me?details=true, median CPU of the archive)."""
    with ExitStack() as stack:
        args, port = _real_args(url, 1, 1)
        _, process = stack.enter_context(server_process(args, port, "/v1/health", root))
        pid = worker_pid(process.pid)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        _get(conn, "/v1/health", token)
        before = cpu_seconds(pid)
        _get(conn, "/v1/me?details=true&limit=100", token)
        me = cpu_seconds(pid) - before
        archive = []
        for _ in range(3):
            before = cpu_seconds(pid)
            _get(conn, f"/v1/players/{name}/games?max=100", token)
            archive.append(cpu_seconds(pid) - before)
        return me * 1000, statistics.median(archive) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--compare", metavar="TREE", help="an older checkout, alternated")
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    opts = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="mathable-finished-"))
    cleanups: list[Any] = [lambda: shutil.rmtree(folder, ignore_errors=True)]
    try:
        if opts.backend == "sqlite":
            url = f"sqlite:///{folder / 'now.db'}"
        else:
            base = os.environ.get("MATHABLE_TEST_POSTGRES_URL")
            if not base:
                raise SystemExit("set MATHABLE_TEST_POSTGRES_URL")
            url, drop = _schema(base)
            cleanups.append(drop)
        started = time.monotonic()
        name, token, per_game = seed(url, opts.games)
        print(f"seeded {opts.games} finished games of {per_game} events in "
              f"{time.monotonic() - started:.0f} s", file=sys.stderr)  # fmt: skip
        per = timed_backfill(url)
        servers = [("now", url, ROOT, token)]
        if opts.compare:
            if opts.backend == "sqlite":
                old = f"sqlite:///{folder / 'before.db'}"
                shutil.copy(folder / "now.db", folder / "before.db")
                old_token = token
            else:
                old, drop_old = _schema(os.environ["MATHABLE_TEST_POSTGRES_URL"])
                cleanups.append(drop_old)
                old_token = seed(old, opts.games)[1]
            engine = make_engine(old, 2)
            downgrade(engine, BEFORE)
            engine.dispose()
            servers.append(("compare", old, Path(opts.compare), old_token))
        figures: dict[str, list[tuple[float, float]]] = {label: [] for label, *_ in servers}
        for number in range(opts.rounds):
            turn = servers[number % len(servers) :] + servers[: number % len(servers)]
            for label, db, root, key in turn:
                figures[label].append(one_round(db, root, name, key))
        print(f"{opts.backend}: {opts.games} finished games of {per_game} events; backfill "
              f"{per:.1f} ms of CPU a game; {opts.rounds} rounds alternated, load average "
              f"{os.getloadavg()[0]:.1f}, {os.cpu_count()} cores")  # fmt: skip
        for label, _, root, _ in servers:
            me = statistics.median(f[0] for f in figures[label])
            archive = statistics.median(f[1] for f in figures[label])
            print(f"{opts.backend} {label} ({root}): GET /v1/me?details=true&limit=100 (first, "
                  f"fresh server) {me:.1f} ms CPU; GET /v1/players/{{name}}/games?max=100 "
                  f"{archive:.1f} ms CPU (targets <= 50 ms)")  # fmt: skip
    finally:
        for cleanup in reversed(cleanups):
            cleanup()


def _schema(base: str) -> tuple[str, Any]:
    from urllib.parse import quote

    from mathable_server.store.engine import normalize_url

    schema = f"bench_{secrets.token_hex(4)}"
    admin = create_engine(normalize_url(base), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))

    def drop() -> None:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()

    joiner = "&" if "?" in base else "?"
    return f"{base}{joiner}options={quote(f'-csearch_path={schema}')}", drop


if __name__ == "__main__":
    main()
