"""Waiting clients at scale: N long-polls held on ``serve --workers 2``, all woken by one move.

    .venv/bin/python bench/bench_waiters.py --waiters 10000              # SQLite
    .venv/bin/python bench/bench_waiters.py --waiters 10000 \\
        --database postgresql://postgres@127.0.0.1:5432/test             # PostgreSQL
    .venv/bin/python bench/bench_waiters.py --waiters 10000 --kind game  # game streams
    .venv/bin/python bench/bench_waiters.py --waiters 10000 --servers 2 \\
        --database postgresql://postgres@127.0.0.1:5432/test             # two instances

Prints, for each run: how many long-polls (``GET /v1/games/{id}?wait=60``)
were held at once, the time to open them, the wake-up latency of each (from
sending the move to its answer: p50, p99, max; target p99 < 1 s), and a
move's latency (median of sequential ``place`` commands on other games) with
none held and with all held (target: at most 1.5x), both timed from a process
of their own (from a thread of the load generator they would wait for its GIL
behind the waiters' reads: that times the load generator, not the server).
With ``--servers 2`` the waiters are split over two ``serve`` instances on
different ports sharing one PostgreSQL database, and the move goes through the
first.

The load generator is one asyncio process on the same machine (raw HTTP/1.1
over 127.0.0.1); the open-files limit is raised as far as the hard limit
allows (each side needs a descriptor per connection). Waiters are spread over
``--callers`` spectator accounts so that the per-caller cap holds.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import multiprocessing
import os
import random
import resource
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import text  # noqa: E402
from tests.server.helpers import EXAMPLE_TILES  # noqa: E402

from harness import Server, isolated_database  # noqa: E402
from mathable_server.store.engine import make_engine  # noqa: E402

ENV = {
    # One address and a few tokens drive everything here: measure waiting, not the limiter.
    "MATHABLE_RATE_LIMIT": "off",
    "MATHABLE_ADDRESS_RATE_LIMIT": "off",
    "MATHABLE_REGISTRATION_LIMIT": "off",
    "MATHABLE_REGISTRATION_CEILING": "off",
    "MATHABLE_GAME_LIMIT": "off",
    "MATHABLE_ALLOW_GIVEN_TILES": "1",
    "MATHABLE_MAX_OPEN_INVITATIONS": "100000",
    "MATHABLE_MAX_POLLS_PER_CALLER": "100000",
    "MATHABLE_MAX_CONNECTIONS_PER_ADDRESS": "100000",
    # Workers do not share accepts evenly: room for all on either one.
    "MATHABLE_WORKER_CONNECTIONS": "16000",
}


def raise_file_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def register(base: str, name: str) -> str:
    response = requests.post(f"{base}/v1/players", json={"name": name}, timeout=30)
    response.raise_for_status()
    token: str = response.json()["token"]
    return token


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


_orders = itertools.count()


def example_game(base: str, one: str, two: str) -> str:
    """A game of the worked example's racks, the rest of its bag in an order of its own (a
    player sits in one unfinished game of a bag order at a time: 422 ``same_order``)."""
    rest = EXAMPLE_TILES[14:]
    random.Random(next(_orders)).shuffle(rest)
    created = requests.post(
        f"{base}/v1/games", json={"tiles": EXAMPLE_TILES[:14] + rest}, headers=auth(one),
        timeout=30,
    )  # fmt: skip
    created.raise_for_status()
    game_id: str = created.json()["id"]
    joined = requests.post(f"{base}/v1/games/{game_id}/join", headers=auth(two), timeout=30)
    joined.raise_for_status()
    return game_id


def place(session: requests.Session, base: str, game_id: str, token: str) -> float:
    """One ``place`` (the example's first tile, version 3): its latency in seconds."""
    started = time.perf_counter()
    response = session.post(
        f"{base}/v1/games/{game_id}/moves",
        json={"type": "place", "square": "I8", "tile": 12, "expected_version": 3},
        headers=auth(token),
        timeout=120,
    )
    elapsed = time.perf_counter() - started
    response.raise_for_status()
    return elapsed


def move_latency(base: str, games: list[str], token: str) -> float:
    with requests.Session() as session:
        place(session, base, games[0], token)  # warm the connection
        return statistics.median(place(session, base, g, token) for g in games[1:])


class Waiters:
    """N raw HTTP long-polls, opened in batches, each timed from ``moved_at`` to its answer."""

    def __init__(
        self,
        targets: list[tuple[str, int]],
        path: str,
        tokens: list[str],
        n: int,
        stream: bool,
        awaited: bytes = b'"moved"',
    ) -> None:
        self.targets, self.path, self.tokens, self.n = targets, path, tokens, n
        self.stream = stream
        #: What the line a stream waits for holds.
        self.awaited = awaited
        self.opened = 0
        self.answers: list[tuple[float, bytes]] = []
        self.errors: list[str] = []
        self.moved_at: float | None = None
        self.all_open = asyncio.Event()
        self.unanswered = 0
        #: Requests whose answer (its head) has come: a stream's before its events.
        self.heads = 0

    async def one(self, index: int, gate: asyncio.Semaphore) -> None:
        host, port = self.targets[index % len(self.targets)]
        token = self.tokens[index % len(self.tokens)]
        request = (
            f"GET {self.path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Authorization: Bearer {token}\r\nConnection: close\r\n\r\n"
        ).encode()
        try:
            async with gate:
                reader, writer = await asyncio.open_connection(host, port)
                writer.write(request)
                await writer.drain()
            self.opened += 1
            if self.opened == self.n:
                self.all_open.set()
            head = await reader.readuntil(b"\r\n\r\n")
            self.heads += 1
            if self.stream and b" 200 " in head.split(b"\r\n")[0]:
                # Chunks of NDJSON: heartbeats until the move's line comes.
                while self.awaited not in (chunk := await reader.readuntil(b"\n")):
                    if not chunk:
                        break
            at = time.perf_counter()
            self.answers.append((at, head))
            writer.close()
        except Exception as err:  # counted, reported
            self.errors.append(f"{type(err).__name__}: {err}")
            self.opened += 1
            if self.opened == self.n:
                self.all_open.set()


def feed_head(database_url: str) -> int:
    engine = make_engine(database_url, 1)
    try:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT max(seq) FROM player_feed")).scalar() or 0)
    finally:
        engine.dispose()


def held(database_url: str) -> int:
    """Long-polls the servers hold now (each holds a lease row while it waits)."""
    engine = make_engine(database_url, 1)
    try:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT count(*) FROM held_polls")).scalar() or 0)
    finally:
        engine.dispose()


async def run_waiters(
    waiters: Waiters, database_url: str, settle: float, move: object, between: object
) -> tuple[float, float, float]:
    """Open every waiter, wait until the servers hold them all, run ``between()`` (move
    latencies), then ``move()``.

    Returns (seconds until all were held, move latency while held, seconds until all
    answered)."""
    gate = asyncio.Semaphore(500)
    started = time.perf_counter()
    tasks = [asyncio.create_task(waiters.one(i, gate)) for i in range(waiters.n)]
    await waiters.all_open.wait()
    loop = asyncio.get_running_loop()
    while await loop.run_in_executor(None, held, database_url) < waiters.n - len(waiters.errors):
        if time.perf_counter() - started > 50:
            break  # the waits would run out: measure what is held
        await asyncio.sleep(0.5)
    opened = time.perf_counter() - started
    print(f"  ... held after {opened:.1f} s; the move in {settle:g} s", flush=True)
    await asyncio.sleep(settle)
    held_latency: float = await loop.run_in_executor(None, between)  # type: ignore[arg-type]
    waiters.moved_at = time.perf_counter()
    await loop.run_in_executor(None, move)  # type: ignore[arg-type]
    _done, pending = await asyncio.wait(tasks, timeout=90)
    for task in pending:  # never woken: reported as not answered
        task.cancel()
    waiters.unanswered = len(pending)
    return opened, held_latency, time.perf_counter() - waiters.moved_at


def cpu_seconds(pids: list[int]) -> float:
    """CPU time (user + system) the processes ``pids`` have used so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def worker_pids(instances: list[Server]) -> list[int]:
    """The worker processes of each ``serve`` (the children of its master)."""
    found = []
    for server in instances:
        assert server.proc is not None
        master = server.proc.pid
        children = Path(f"/proc/{master}/task/{master}/children")
        found += [int(p) for p in children.read_text().split()] if children.exists() else []
    return found


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def bench(label: str, database: str | None, servers: int, opts: argparse.Namespace) -> list[str]:
    with isolated_database(database) as url, ExitStack() as stack:
        # Forked now, before any waiter's connection is open.
        timer = stack.enter_context(
            ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
        )
        timer.submit(time.time).result()
        instances = [stack.enter_context(Server(url, workers=opts.workers, env=ENV))
                     for _ in range(servers)]  # fmt: skip
        base = instances[0].base
        one, two = register(base, "mover"), register(base, "other")
        callers = [register(base, f"watcher{i}") for i in range(opts.callers)]
        game = example_game(base, one, two)
        # Moves timed on games of other players: they wake none of the waiters.
        three, four = register(base, "timer"), register(base, "timed")
        latency_games = [
            example_game(base, three, four) for _ in range(2 * opts.latency_moves + 2)
        ]
        half = len(latency_games) // 2
        idle_latency = timer.submit(move_latency, base, latency_games[:half], three).result()

        targets = [("127.0.0.1", s.port) for s in instances]
        if opts.kind == "stream":
            # The two players' streams (a waiter per connection), from the feed's head now.
            cursor = feed_head(url)
            path = f"/v1/me/stream?since={cursor}"
            waiters = Waiters(targets, path, [one, two], opts.waiters, stream=True)
        elif opts.kind == "game":
            # The game's own stream from its version now: spectators, and every tenth
            # one of its two seats (a seat's line and a spectator's, each made once).
            path = f"/v1/games/{game}/stream?since=3"
            tokens = [one, two] + callers[:8]
            waiters = Waiters(targets, path, tokens, opts.waiters, stream=True,
                              awaited=b'"type":"game"')  # fmt: skip
        else:
            path = f"/v1/games/{game}?wait=60&since=3"
            waiters = Waiters(targets, path, callers, opts.waiters, stream=False)

        def between() -> float:
            return timer.submit(move_latency, base, latency_games[half:], three).result()

        workers = worker_pids(instances)
        used: dict[str, float] = {}

        def move() -> None:
            used["servers"] = -cpu_seconds(workers)
            used["generator"] = -time.process_time()
            with requests.Session() as session:
                place(session, base, game, one)

        opened, held_latency, all_woken = asyncio.run(
            run_waiters(waiters, url, opts.settle, move, between)
        )
        used["servers"] += cpu_seconds(workers)
        used["generator"] += time.process_time()
        moved_at = waiters.moved_at or 0.0
        early = [a for a in waiters.answers if a[0] < moved_at]
        refused = [a for a in waiters.answers if b"X-Long-Poll: refused" in a[1]]
        good = [
            a for a in waiters.answers if a[0] >= moved_at and b" 200 " in a[1].split(b"\r\n")[0]
        ]
        wakes = [a[0] - moved_at for a in good]
        what = {"stream": "streams", "game": "game streams"}.get(opts.kind, "long-polls")
        lines = [
            f"{label}: {opts.waiters} {what} on serve --workers {opts.workers} x {servers}: "
            f"all held {opened:.1f} s after the first was sent; held until the move "
            f"{len(waiters.answers) - len(early)}, answered early {len(early)} "
            f"(refused {len(refused)}), errors {len(waiters.errors)}, "
            f"not answered within 90 s {waiters.unanswered} (of which without even a head "
            f"{waiters.n - waiters.heads - len(waiters.errors)})",
        ]
        if wakes:
            lines.append(
                f"{label}: woken by one move: {len(wakes)}; wake-up first {min(wakes):.3f} s  p50 "
                f"{percentile(wakes, 50):.3f} s  p99 {percentile(wakes, 99):.3f} s  "
                f"max {max(wakes):.3f} s  (target p99 < 1 s);"
                f" all answered {all_woken:.2f} s after the move"
            )
        if wakes:
            lines.append(
                f"{label}: CPU from the move until all answered: servers' workers "
                f"{used['servers']:.2f} s ({used['servers'] / len(wakes) * 1e6:.0f} us per "
                f"answer), load generator {used['generator']:.2f} s "
                f"({used['generator'] / len(wakes) * 1e6:.0f} us per answer)"
            )
        lines.append(
            f"{label}: move latency (median place) {idle_latency * 1000:.1f} ms with none held, "
            f"{held_latency * 1000:.1f} ms with {opts.waiters} held: "
            f"x{held_latency / idle_latency:.2f} (target <= 1.5)"
        )
        if early:
            statuses = Counter(a[1].split(b"\r\n")[0].decode() for a in early)
            lines.append(f"{label}: early answers: {dict(statuses)}")
        if waiters.errors:
            lines.append(f"{label}: first error: {waiters.errors[0]}")
        return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waiters", type=int, default=10_000)
    parser.add_argument(
        "--kind", choices=["poll", "stream", "game"], default="poll",
        help="long-polls on the game (60 s at most), the players' event streams, or the "
        "game's stream (GET /v1/games/{id}/stream: spectators and its seats)",
    )  # fmt: skip
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--servers", type=int, default=1, help="serve instances (PostgreSQL)")
    parser.add_argument("--database", default=None, help="postgresql://... (default: SQLite)")
    parser.add_argument("--callers", type=int, default=100, help="spectator accounts waiting")
    parser.add_argument("--latency-moves", type=int, default=30)
    parser.add_argument("--settle", type=float, default=1.0,
                        help="seconds between all held and the move")  # fmt: skip
    opts = parser.parse_args()
    limit = raise_file_limit()
    needed = opts.waiters + 200
    if limit < needed:
        print(f"open-files limit {limit} < {needed}: holding {limit - 200}", file=sys.stderr)
        opts.waiters = max(1, limit - 200)
    label = "postgresql" if opts.database else "sqlite"
    if opts.servers > 1 and not opts.database:
        raise SystemExit("two instances share a PostgreSQL database: give --database")
    print(f"{os.cpu_count()} cores; open-files limit {limit}; load generator: one asyncio process",
          flush=True)  # fmt: skip
    for line in bench(label, opts.database, opts.servers, opts):
        print(line, flush=True)


if __name__ == "__main__":
    main()
