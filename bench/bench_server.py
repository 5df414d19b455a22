"""Server speed: requests/second against bare Flask baselines, and latency at 10 v 100,000 games.

    .venv/bin/python bench/bench_server.py                      # SQLite (and PostgreSQL if
    MATHABLE_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/test \\
        .venv/bin/python bench/bench_server.py --backend both     # the URL is set)

Every server runs under gunicorn with the same workers and threads. Figures:

- rate of ``GET /v1/games/{id}`` (a player's view) v a bare Flask endpoint that
  serialises a game-view-sized JSON body (target: at least half);
- rate of a ``place`` command v a bare Flask endpoint doing one INSERT in one
  transaction on the same database (target: at least a third);
- single-client latency (median) of the view and of ``place`` with 10 games
  stored and again with 100,000 (target: at most 1.25x apart).

Load comes from client processes with keep-alive connections on 127.0.0.1,
each in a closed loop for a fixed time. PostgreSQL runs use a schema of their
own, dropped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server"), str(ROOT)]

from sqlalchemy import (  # noqa: E402
    Column,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    insert,
    text,
)
from tests.server.helpers import EXAMPLE_TILES  # noqa: E402
from tests.server.live import free_port  # noqa: E402

from mathable import ClockSpec, Create, GameState, Join, apply, check, view  # noqa: E402
from mathable_server.http.auth import hash_token, new_token  # noqa: E402
from mathable_server.store import Store, encode_event, memberships, now_iso, projection  # noqa: E402
from mathable_server.store.engine import (  # noqa: E402
    events,
    game_members,
    games,
    make_engine,
    normalize_url,
)
from mathable_server.store.migrations import init_schema  # noqa: E402

#: The first turn of the rule book's example: five placements by seat 0, versions 3 to 7.
PLACES = [("I8", 12), ("H6", 8), ("G9", 2), ("F7", 1), ("J8", 16)]


# --- the bare baseline app (run in its own gunicorn) -----------------------------------


BARE = MetaData()
BARE_ROWS = Table(
    "bench_rows",
    BARE,
    Column("id", Integer, primary_key=True),
    Column("key", String(32)),
    Column("data", Text),
)


def bare_app(database_url: str) -> Any:
    """The baseline: Flask alone, one view-sized JSON body and one INSERT per request.

    Its table is created by the parent before the workers start (concurrent
    CREATE TABLEs from several workers would race on PostgreSQL)."""
    from flask import Flask, Response, request

    rows = BARE_ROWS
    engine = make_engine(database_url, 8)
    state = GameState()
    for command in (Create("p0", tiles=tuple(EXAMPLE_TILES)), Join("p1")):
        for event in check(state, command):
            state = apply(state, event)
    body = view(state, 0)
    app = Flask("bare")

    @app.get("/bare/view")
    def bare_view() -> Response:
        return Response(json.dumps(body, separators=(",", ":")), mimetype="application/json")

    @app.post("/bare/insert")
    def bare_insert() -> Response:
        data = request.get_json()
        with engine.connect().execution_options(sqlite_write=True) as conn, conn.begin():
            conn.execute(insert(rows).values(key=data["square"], data=json.dumps(data)))
        return Response('{"ok":true}', mimetype="application/json")

    return app


def run_bare(database_url: str, port: int, workers: int, threads: int) -> None:
    from gunicorn.app.base import BaseApplication

    class Bare(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in {
                "bind": f"127.0.0.1:{port}",
                "workers": workers,
                "worker_class": "gthread",
                "threads": threads,
                "loglevel": "warning",
            }.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            return bare_app(database_url)

    Bare().run()


# --- servers --------------------------------------------------------------------------------


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # One token drives thousands of requests a second here: measure the server, not its limiter.
    env["MATHABLE_RATE_LIMIT"] = "off"
    env["MATHABLE_ADDRESS_RATE_LIMIT"] = "off"
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "shared"), str(ROOT / "server"), str(ROOT), env.get("PYTHONPATH", "")]
    )
    return env


def _wait_up(port: int, path: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server on {port} exited")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"server on {port} did not start")


@contextmanager
def server(args: list[str], port: int, ready: str) -> Iterator[int]:
    process = subprocess.Popen(
        [sys.executable, *args], env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        _wait_up(port, ready, process)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


def real_server(database_url: str, workers: int, threads: int) -> Any:
    port = free_port()
    args = ["-m", "mathable_server", "serve", "--port", str(port), "--workers", str(workers),
            "--threads", str(threads), "--database-url", database_url]  # fmt: skip
    return server(args, port, "/v1/health")


def bare_server(database_url: str, workers: int, threads: int) -> Any:
    port = free_port()
    args = [__file__, "--bare-app", "--port", str(port), "--workers", str(workers),
            "--threads", str(threads), "--database-url", database_url]  # fmt: skip
    return server(args, port, "/bare/view")


# --- data -------------------------------------------------------------------------------------


class Seeder:
    """Writes players and started example games straight into the store, in bulk.

    With ``clock`` (seconds per move) the games have a clock that started when
    they are written (or ``ago`` seconds before), and their deadline is indexed.
    """

    def __init__(self, database_url: str, clock: int | None = None) -> None:
        self.clock = clock
        self.engine = make_engine(database_url, 2)
        init_schema(self.engine)
        BARE.create_all(self.engine)
        self.store = Store(self.engine)
        self.players: list[tuple[str, str]] = []
        for name in (f"one{secrets.token_hex(3)}", f"two{secrets.token_hex(3)}"):
            player_id = "p" + secrets.token_hex(6)
            token = new_token(player_id)
            self.store.create_player(player_id, name, None, hash_token(token))
            self.players.append((player_id, token))
        state = GameState()
        self.rows: list[dict[str, Any]] = []
        spec = None if clock is None else ClockSpec(per_move=clock, auto_vacation=False)
        for command in (
            Create(self.players[0][0], tiles=tuple(EXAMPLE_TILES), clock=spec),
            Join(self.players[1][0]),
        ):
            for event in check(state, command):
                state = apply(state, event)
                self.rows.append(
                    {"version": state.version, "type": event.type, "data": encode_event(event)}
                )
        self.state = state

    @property
    def token(self) -> str:
        return self.players[0][1]

    def add_games(self, count: int, ago: float = 0.0) -> list[str]:
        """``count`` started games, seat 0 to move; returns their ids."""
        ids = [f"b{secrets.token_hex(8)}" for _ in range(count)]
        now = now_iso()
        at = int((time.time() - ago) * 1000) if self.clock is not None else 0
        row = projection(self.state)
        if self.clock is not None:
            deadline = at + self.clock * 1000
            row |= {"deadline": deadline, "due_at": deadline}
        members = memberships(self.state)
        for start in range(0, count, 5000):
            chunk = ids[start : start + 5000]
            with self.engine.connect().execution_options(sqlite_write=True) as conn:
                with conn.begin():
                    conn.execute(
                        insert(events),
                        [
                            {"game_id": g, "schema_version": 1, "created_at": now, "at": at, **r}
                            for g in chunk
                            for r in self.rows
                        ],
                    )
                    conn.execute(
                        insert(games),
                        [{"id": g, "created_at": now, "updated_at": now, **row} for g in chunk],
                    )
                    conn.execute(
                        insert(game_members),
                        [
                            {"game_id": g, "player_id": p, "seat": s}
                            for g in chunk
                            for p, s in members.items()
                        ],
                    )
        return ids


# --- load -----------------------------------------------------------------------------------


def _request(
    conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None, headers: Any
) -> int:
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    response.read()
    return response.status


def _views(job: tuple[int, str, str, float]) -> tuple[int, list[float]]:
    port, path, token, seconds = job
    conn = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    times: list[float] = []
    deadline = time.monotonic() + seconds
    while (start := time.monotonic()) < deadline:
        status = _request(conn, "GET", path, None, headers)
        assert status == 200, status
        times.append(time.monotonic() - start)
    return len(times), times


def _places(job: tuple[int, list[str], str, float]) -> tuple[int, list[float]]:
    port, game_ids, token, seconds = job
    conn = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    times: list[float] = []
    deadline = time.monotonic() + seconds
    for game_id in game_ids:
        for offset, (square, tile) in enumerate(PLACES):
            if time.monotonic() >= deadline:
                return len(times), times
            body = json.dumps(
                {"type": "place", "square": square, "tile": tile, "expected_version": 3 + offset}
            ).encode()
            start = time.monotonic()
            status = _request(conn, "POST", f"/v1/games/{game_id}/moves", body, headers)
            assert status == 200, status
            times.append(time.monotonic() - start)
    if not times:
        raise RuntimeError("no games to play: seed more")
    return len(times), times  # ran out of games before the time: the rate is still fair


def _inserts(job: tuple[int, float]) -> tuple[int, list[float]]:
    port, seconds = job
    conn = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Content-Type": "application/json"}
    body = json.dumps({"type": "place", "square": "I8", "tile": 12, "expected_version": 3}).encode()
    times: list[float] = []
    deadline = time.monotonic() + seconds
    while (start := time.monotonic()) < deadline:
        assert _request(conn, "POST", "/bare/insert", body, headers) == 200
        times.append(time.monotonic() - start)
    return len(times), times


def rate(func: Any, jobs: list[Any], seconds: float) -> float:
    """Requests per second of ``len(jobs)`` client processes in closed loops."""
    with multiprocessing.get_context("fork").Pool(len(jobs)) as pool:
        started = time.monotonic()
        results = pool.map(func, jobs)
        elapsed = time.monotonic() - started
    return sum(n for n, _ in results) / min(elapsed, seconds + 0.5)


def median_ms(results: tuple[int, list[float]]) -> float:
    return statistics.median(results[1]) * 1000


# --- the run ------------------------------------------------------------------------------------


def bench(label: str, database_url: str, opts: argparse.Namespace) -> list[str]:
    out = []
    seeder = Seeder(database_url, opts.clock)
    clients, secs = opts.clients, opts.seconds
    place_games = seeder.add_games(clients * opts.place_games)
    with real_server(database_url, opts.workers, opts.threads) as port:
        path = f"/v1/games/{place_games[0]}"
        rate(_views, [(port, path, seeder.token, 1.0)] * clients, 1.0)  # warm up
        view_rate = rate(_views, [(port, path, seeder.token, secs)] * clients, secs)
        chunks = [place_games[i::clients] for i in range(clients)]
        place_rate = rate(_places, [(port, c[1:], seeder.token, secs) for c in chunks], secs)
    with bare_server(database_url, opts.workers, opts.threads) as port:
        rate(_views, [(port, "/bare/view", "", 1.0)] * clients, 1.0)
        bare_view = rate(_views, [(port, "/bare/view", "", secs)] * clients, secs)
        bare_insert = rate(_inserts, [(port, secs)] * clients, secs)
    out.append(f"{label}: GET /v1/games/{{id}} {view_rate:7.0f} req/s  bare view {bare_view:7.0f}"
               f" req/s  ratio {view_rate / bare_view:.2f} (target >= 0.50)")  # fmt: skip
    out.append(f"{label}: place command     {place_rate:7.0f} req/s  bare insert {bare_insert:5.0f}"
               f" req/s  ratio {place_rate / bare_insert:.2f} (target >= 0.33)")  # fmt: skip

    if opts.rates_only:
        seeder.engine.dispose()
        return out
    latencies: dict[str, dict[str, float]] = {}
    small = seeder.add_games(10)
    with real_server(database_url, opts.workers, opts.threads) as port:
        for label_n, extra in (("10", 0), ("100000", opts.many - 10 - len(place_games))):
            if extra > 0:
                started = time.monotonic()
                seeder.add_games(extra)
                print(f"  seeded {extra} more games in {time.monotonic() - started:.0f} s",
                      file=sys.stderr)  # fmt: skip
            fresh = seeder.add_games(opts.latency_games)
            path = f"/v1/games/{small[0]}"
            _views((port, path, seeder.token, 1.0))  # warm up
            latencies[label_n] = {
                "view": median_ms(_views((port, path, seeder.token, secs))),
                "place": median_ms(_places((port, fresh, seeder.token, secs))),
            }
    with seeder.engine.connect() as conn:
        stored = conn.execute(text("SELECT count(*) FROM games")).scalar()
    for kind in ("view", "place"):
        a, b = latencies["10"][kind], latencies["100000"][kind]
        ratio = max(a, b) / min(a, b)
        out.append(f"{label}: {kind:<5} latency p50 {a:6.2f} ms with few games, {b:6.2f} ms with"
                   f" {stored} games stored: x{ratio:.2f} (target <= 1.25)")  # fmt: skip
    seeder.engine.dispose()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--many", type=int, default=100_000)
    parser.add_argument("--place-games", type=int, default=600)
    parser.add_argument("--latency-games", type=int, default=1500)
    parser.add_argument(
        "--clock", type=int, default=None, metavar="SECONDS", help="games with a per-move clock"
    )
    parser.add_argument("--rates-only", action="store_true",
                        help="the ratios to bare Flask only, not the latencies")  # fmt: skip
    parser.add_argument("--bare-app", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--database-url", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.bare_app:
        run_bare(opts.database_url, opts.port, opts.workers, opts.threads)
        return
    pg = os.environ.get("MATHABLE_TEST_POSTGRES_URL")
    backend = opts.backend or ("both" if pg else "sqlite")
    lines = [f"gunicorn: {opts.workers} workers x {opts.threads} threads; {opts.clients} client "
             f"processes; {opts.seconds:.0f} s per figure; {os.cpu_count()} cores"]  # fmt: skip
    if backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as folder:
            lines += bench("sqlite", f"sqlite:///{folder}/bench.db", opts)
    if backend in ("postgresql", "both"):
        if not pg:
            raise SystemExit("set MATHABLE_TEST_POSTGRES_URL for the PostgreSQL figures")
        schema = f"bench_{secrets.token_hex(4)}"
        admin = create_engine(normalize_url(pg), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        joiner = "&" if "?" in pg else "?"
        try:
            lines += bench(
                "postgresql", f"{pg}{joiner}options={quote(f'-csearch_path={schema}')}", opts
            )
        finally:
            with admin.connect() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            admin.dispose()
    print("\n".join(lines))


if __name__ == "__main__":
    main()
