"""Server cost: CPU per request against bare Flask floors, and latency at 10 v 100,000 games.

    nice -n 10 .venv/bin/python bench/bench_server.py --cpu-only        # SQLite (and PostgreSQL if
    MATHABLE_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/test \\
        nice -n 10 .venv/bin/python bench/bench_server.py --backend both   # the URL is set)
    ... --compare /path/to/an/older/checkout    # that tree's server alternated as well

The ratios are CPU, not throughput: the CPU time the one worker process of each
server spends (``/proc/<pid>/task/*/schedstat``) per request, divided by the
floor's. Every server runs under the same gunicorn worker (``serve``'s default,
gevent, one worker; the floors are Flask alone under gunicorn's gevent worker
with the standard library patched as ``serve`` patches it). One client sends its
requests one after the other; the servers are measured in alternation, round
after round (``--rounds``, ``--requests`` each), and the medians compared, so a
busy machine slows every one alike. Figures:

- CPU of ``GET /v1/games/{id}`` (a player's view, cached) v a bare Flask endpoint
  that serialises a game-view-sized JSON body (target: at most 2x);
- CPU of a ``place`` command (with an ``Idempotency-Key``, as the CLI sends) v the
  floor: Flask inserting one row in one transaction through the project's own
  engine (``make_engine``) on the same database (target: at most 2x);
- single-client latency (median) of the view and of ``place`` with 10 games
  stored and again with 100,000 (target: at most 1.25x apart).

Earlier versions printed requests per second of 4 client processes against
gthread floors while ``serve`` ran gevent workers: the clients' own CPU, on the
same two cores, and the worker classes decided the ratio as much as the server.
PostgreSQL runs use a schema of their own, dropped at the end.
"""

from __future__ import annotations

import sys

if "--bare-app" in sys.argv:  # the floor: patched before anything is imported, as serve is
    from gevent import monkey

    monkey.patch_all()

import argparse
import http.client
import json
import os
import secrets
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
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
from mathable_server.store.migrations import current_revision, downgrade, init_schema  # noqa: E402

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
                "worker_class": "gevent",
                "loglevel": "warning",
            }.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            return bare_app(database_url)

    Bare().run()


# --- servers --------------------------------------------------------------------------------


def _env(root: Path = ROOT) -> dict[str, str]:
    """The servers' environment; ``root``: the source tree whose server runs."""
    env = dict(os.environ)
    # One token drives thousands of requests a second here: measure the server, not its limiter.
    env["MATHABLE_RATE_LIMIT"] = "off"
    env["MATHABLE_ADDRESS_RATE_LIMIT"] = "off"
    env["PYTHONPATH"] = os.pathsep.join(
        [str(root / "shared"), str(root / "server"), str(root), env.get("PYTHONPATH", "")]
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
def server(args: list[str], port: int, ready: str, root: Path = ROOT) -> Iterator[int]:
    with server_process(args, port, ready, root) as (held_port, _process):
        yield held_port


@contextmanager
def server_process(
    args: list[str], port: int, ready: str, root: Path = ROOT
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    process = subprocess.Popen(
        [sys.executable, *args], env=_env(root), stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _wait_up(port, ready, process)
        yield port, process
    finally:
        process.terminate()
        process.wait(timeout=30)


def _real_args(database_url: str, workers: int, threads: int) -> tuple[list[str], int]:
    port = free_port()
    args = ["-m", "mathable_server", "serve", "--port", str(port), "--workers", str(workers),
            "--threads", str(threads), "--database-url", database_url]  # fmt: skip
    return args, port


def _bare_args(database_url: str, workers: int, threads: int) -> tuple[list[str], int]:
    port = free_port()
    args = [__file__, "--bare-app", "--port", str(port), "--workers", str(workers),
            "--threads", str(threads), "--database-url", database_url]  # fmt: skip
    return args, port


def real_server(database_url: str, workers: int, threads: int) -> Any:
    args, port = _real_args(database_url, workers, threads)
    return server(args, port, "/v1/health")


def bare_server(database_url: str, workers: int, threads: int) -> Any:
    args, port = _bare_args(database_url, workers, threads)
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


def median_ms(results: tuple[int, list[float]]) -> float:
    return statistics.median(results[1]) * 1000


# --- CPU per request, in the one worker of each server -----------------------------------------

TICKS = os.sysconf("SC_CLK_TCK")


def worker_pid(master: int) -> int:
    """The one worker process of the gunicorn master ``master``."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        if len(children) == 1:
            return int(children[0])
        time.sleep(0.1)
    raise RuntimeError(f"gunicorn {master} has no single worker")


def cpu_seconds(pid: int) -> float:
    """CPU time of process ``pid`` so far, all its threads: the scheduler's nanoseconds
    (``/proc/<pid>/task/*/schedstat``), else user + system ticks (``/proc/<pid>/stat``)."""
    try:
        return (
            sum(
                int(task.joinpath("schedstat").read_text().split()[0])
                for task in Path(f"/proc/{pid}/task").iterdir()
            )
            / 1e9
        )
    except (OSError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS


def user_system(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of process ``pid`` so far (``/proc/<pid>/stat``, ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICKS, int(fields[12]) / TICKS


class Measured:
    """One kind of request to one server: the worker's CPU per request, round by round
    (and its part in the kernel: on a virtual machine, a system call can cost many times
    what it costs on bare metal, and a ratio of CPU then says how many each side makes)."""

    def __init__(self, label: str, port: int, pid: int, send: Any, warm: Any = None) -> None:
        self.label, self.port, self.pid = label, port, pid
        self.send, self.warm = send, warm
        self.samples: list[float] = []
        self.user = 0.0
        self.system = 0.0
        self.requests = 0
        self.conn = http.client.HTTPConnection("127.0.0.1", port)

    def round(self, requests: int) -> None:
        # A new connection each round: an idle one is closed after serve's keepalive (5 s).
        self.conn.close()
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port)
        if self.warm is not None:
            self.warm(self.conn, requests)  # untimed: the games to play, read once
        before = cpu_seconds(self.pid)
        user, system = user_system(self.pid)
        self.send(self.conn, requests)
        self.samples.append((cpu_seconds(self.pid) - before) / requests)
        user_after, system_after = user_system(self.pid)
        self.user += user_after - user
        self.system += system_after - system
        self.requests += requests

    @property
    def split(self) -> str:
        """User and system CPU per request over every round (in ticks: coarse per round)."""
        per = 1000 / max(1, self.requests)
        return f"user {self.user * per:.2f} + system {self.system * per:.2f} ms"

    @property
    def ms(self) -> float:
        return statistics.median(self.samples) * 1000


def _view_sender(path: str, token: str) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}

    def send(conn: http.client.HTTPConnection, count: int) -> None:
        for _ in range(count):
            assert _request(conn, "GET", path, None, headers) == 200

    return send


def _insert_sender(conn: http.client.HTTPConnection, count: int) -> None:
    headers = {"Content-Type": "application/json"}
    body = json.dumps({"type": "place", "square": "I8", "tile": 12, "expected_version": 3}).encode()
    for _ in range(count):
        assert _request(conn, "POST", "/bare/insert", body, headers) == 200


def _place_sender(game_ids: list[str], token: str) -> tuple[Any, Any]:
    """A sender of ``place`` commands (each with its ``Idempotency-Key``) to ``game_ids``,
    five to a game, and the warm-up that reads the next round's games first."""
    moves = iter([(g, i) for g in game_ids for i in range(len(PLACES))])
    auth = {"Authorization": f"Bearer {token}"}
    ahead: list[tuple[str, int]] = []

    def warm(conn: http.client.HTTPConnection, count: int) -> None:
        ahead[:] = [next(moves) for _ in range(count)]
        for game_id in dict.fromkeys(g for g, _ in ahead):
            assert _request(conn, "GET", f"/v1/games/{game_id}", None, auth) == 200

    def send(conn: http.client.HTTPConnection, count: int) -> None:
        for game_id, offset in ahead[:count]:
            square, tile = PLACES[offset]
            body = json.dumps(
                {"type": "place", "square": square, "tile": tile, "expected_version": 3 + offset}
            ).encode()
            headers = {**auth, "Content-Type": "application/json",
                       "Idempotency-Key": secrets.token_hex(8)}  # fmt: skip
            status = _request(conn, "POST", f"/v1/games/{game_id}/moves", body, headers)
            assert status == 200, status

    return warm, send


def cpu_ratios(
    label: str, database_url: str, seeder: Seeder, opts: argparse.Namespace
) -> list[str]:
    """The worker's CPU per request of the server (and of ``--compare``'s) v the floors,
    measured in alternation, ``opts.rounds`` rounds of ``opts.requests`` requests."""
    n, rounds = opts.requests, opts.rounds
    roots = [("server", ROOT, database_url, seeder)]
    if opts.compare:
        # The older checkout on a database of its own, at the revision it knows.
        other = Seeder(opts.compare_url, opts.clock)
        if current_revision(other.engine) != opts.compare_revision:
            downgrade(other.engine, opts.compare_revision)
        roots.append(("compare", Path(opts.compare), opts.compare_url, other))
    with ExitStack() as stack:
        places: list[Measured] = []
        views: list[Measured] = []
        for name, root, url, seeded in roots:
            args, port = _real_args(url, 1, opts.threads)
            _, process = stack.enter_context(server_process(args, port, "/v1/health", root))
            pid = worker_pid(process.pid)
            ids = seeded.add_games(-(-(n * rounds + 20) // len(PLACES)) + 1)
            view = _view_sender(f"/v1/games/{ids[-1]}", seeded.token)
            views.append(Measured(name, port, pid, view))
            warm, send = _place_sender(ids[:-1], seeded.token)
            places.append(Measured(name, port, pid, send, warm))
        args, port = _bare_args(database_url, 1, opts.threads)
        _, process = stack.enter_context(server_process(args, port, "/bare/view"))
        pid = worker_pid(process.pid)
        bare_view = Measured("floor", port, pid, _view_sender("/bare/view", ""))
        bare_insert = Measured("floor", port, pid, _insert_sender)
        everyone = [*views, bare_view, *places, bare_insert]
        for item in everyone:  # warm up: imports, caches, connections (not counted)
            (item.warm or (lambda c, k: None))(item.conn, 20)
            item.send(item.conn, 20)
        for number in range(rounds):
            turn = number % len(everyone)  # who goes first changes from round to round
            for item in everyone[turn:] + everyone[:turn]:
                item.round(n)
    out = []
    kinds = [("view ", bare_view, views, "GET /v1/games/{id}"),
             ("place", bare_insert, places, "POST .../moves place")]  # fmt: skip
    for what, floor, items, target in kinds:
        for item in items:
            per_round = [a / b for a, b in zip(item.samples, floor.samples, strict=True)]
            out.append(
                f"{label}: {what} CPU per request ({target}, {item.label}) {item.ms:.2f} ms, "
                f"floor {floor.ms:.2f} ms: ratio {item.ms / floor.ms:.2f} (per round: median "
                f"{statistics.median(per_round):.2f}, {min(per_round):.2f}-{max(per_round):.2f};"
                f" target <= 2.00); {item.split} v the floor's {floor.split}"
            )
        if len(items) == 2:  # the server and --compare's, measured in the same rounds
            paired = sorted(a / b for a, b in zip(items[0].samples, items[1].samples, strict=True))
            quartiles = statistics.quantiles(paired, n=4) if len(paired) > 1 else paired * 3
            out.append(
                f"{label}: {what} server / compare, paired rounds: median "
                f"{statistics.median(paired):.2f} (quartiles {quartiles[0]:.2f}-{quartiles[2]:.2f})"
            )
    out.append(f"{label}: {rounds} rounds of {n} requests each, alternated; load average "
               f"{os.getloadavg()[0]:.1f}")  # fmt: skip
    return out


# --- the run ------------------------------------------------------------------------------------


def bench(label: str, database_url: str, opts: argparse.Namespace) -> list[str]:
    seeder = Seeder(database_url, opts.clock)
    out = cpu_ratios(label, database_url, seeder, opts)
    if opts.cpu_only:
        seeder.engine.dispose()
        return out
    latencies: dict[str, dict[str, float]] = {}
    small = seeder.add_games(10)
    secs = opts.seconds
    with seeder.engine.connect() as conn:
        held = int(conn.execute(text("SELECT count(*) FROM games")).scalar() or 0)
    with real_server(database_url, opts.workers, opts.threads) as port:
        for label_n, extra in (("10", 0), ("100000", opts.many - held)):
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
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--many", type=int, default=100_000)
    parser.add_argument("--latency-games", type=int, default=1500)
    parser.add_argument(
        "--clock", type=int, default=None, metavar="SECONDS", help="games with a per-move clock"
    )
    parser.add_argument("--cpu-only", action="store_true",
                        help="the CPU ratios to bare Flask only, not the latencies")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=7, help="alternated rounds per figure")
    parser.add_argument("--requests", type=int, default=300, help="requests per round")
    parser.add_argument(
        "--compare-revision",
        default="0014_signin_links_by_player",
        help="the newest migration --compare's checkout knows",
    )
    parser.add_argument(
        "--compare",
        metavar="TREE",
        help="another checkout whose server is measured in alternation too",
    )
    parser.add_argument("--bare-app", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--database-url", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.bare_app:
        run_bare(opts.database_url, opts.port, opts.workers, opts.threads)
        return
    pg = os.environ.get("MATHABLE_TEST_POSTGRES_URL")
    backend = opts.backend or ("both" if pg else "sqlite")
    lines = [f"CPU: serve's gevent worker, one, v the floors under gunicorn's gevent worker; "
             f"latency: {opts.workers} workers, {opts.seconds:.0f} s per figure; "
             f"{os.cpu_count()} cores"]  # fmt: skip
    if backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as folder:
            opts.compare_url = f"sqlite:///{folder}/compare.db"
            lines += bench("sqlite", f"sqlite:///{folder}/bench.db", opts)
    if backend in ("postgresql", "both"):
        if not pg:
            raise SystemExit("set MATHABLE_TEST_POSTGRES_URL for the PostgreSQL figures")
        schema = f"bench_{secrets.token_hex(4)}"
        admin = create_engine(normalize_url(pg), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        joiner = "&" if "?" in pg else "?"
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}_c"'))
        opts.compare_url = f"{pg}{joiner}options={quote(f'-csearch_path={schema}_c')}"
        try:
            lines += bench(
                "postgresql", f"{pg}{joiner}options={quote(f'-csearch_path={schema}')}", opts
            )
        finally:
            with admin.connect() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
                conn.execute(text(f'DROP SCHEMA "{schema}_c" CASCADE'))
            admin.dispose()
    print("\n".join(lines))


if __name__ == "__main__":
    main()
