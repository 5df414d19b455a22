"""Shared pieces of the load and fault scripts: a real server process, HTTP bots, checks.

Everything talks to a server on 127.0.0.1 only, with bounded loops.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import requests
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from mathable import TILE_SET, Event, best_turn, replay, view
from mathable_server.store.engine import normalize_url

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_executable() -> str:
    beside = Path(sys.executable).with_name("mathable-server")
    return (
        str(beside) if beside.exists() else (shutil.which("mathable-server") or "mathable-server")
    )


@contextmanager
def isolated_database(url: str | None, keep: bool = False) -> Iterator[str]:
    """A database of the run's own: a temporary SQLite file when ``url`` is None, or a fresh
    schema in the given PostgreSQL database (dropped afterwards unless ``keep``)."""
    if url is None:
        folder = Path(tempfile.mkdtemp(prefix="mathable-bench-"))
        yield f"sqlite:///{folder / 'bench.db'}"
        shutil.rmtree(folder, ignore_errors=True)
        return
    if not url.startswith("postgresql"):
        yield url
        return
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    # No pool: a connection kept across a database restart (bench/outage.py) would be dead.
    admin = create_engine(normalize_url(url), isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    joiner = "&" if "?" in url else "?"
    try:
        yield f"{url}{joiner}options={quote(f'-csearch_path={schema}')}"
    finally:
        if not keep:
            with admin.connect() as conn:
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


#: Bots here register two new players for every game and play as fast as they can, all
#: from 127.0.0.1: on a quick machine more than one address may register or ask in an
#: hour. The limits are not what these runs measure (tests/server checks them).
MANY_PLAYERS = {
    "MATHABLE_REGISTRATION_LIMIT": "off",
    "MATHABLE_REGISTRATION_CEILING": "off",
    "MATHABLE_GAME_LIMIT": "off",
    "MATHABLE_RATE_LIMIT": "off",
    "MATHABLE_ADDRESS_RATE_LIMIT": "off",
}


class Server:
    """``mathable-server serve`` in its own process group, so kill -9 takes every worker."""

    def __init__(self, database_url: str, workers: int = 2, log: Path | None = None,
                 env: dict[str, str] | None = None) -> None:  # fmt: skip
        self.database_url = database_url
        self.workers = workers
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log or Path(f"/tmp/mathable-bench-{self.port}.log")
        self.env = env or {}
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30) -> None:
        env = {**os.environ, "MATHABLE_DATABASE_URL": self.database_url, **self.env}
        cmd = [server_executable(), "serve", "--workers", str(self.workers),
               "--host", "127.0.0.1", "--port", str(self.port)]  # fmt: skip
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if requests.get(f"{self.base}/v1/games/nope", timeout=1).status_code == 404:
                    return
            except requests.RequestException:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: see {self.log}")
            time.sleep(0.1)
        raise RuntimeError(f"server did not answer within {timeout} s: see {self.log}")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        self.kill(signal.SIGTERM)

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@dataclass
class Stats:
    """Latencies and status codes of every request, by kind; thread-safe."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[int] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)
    started: float = 0.0

    last: float = 0.0

    def record(self, kind: str, seconds: float, status: int) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)
            self.statuses[status] += 1
            self.last = time.monotonic()
            self.started = self.started or self.last - seconds

    def report(self) -> str:
        """Requests per second over the time requests were made, and latencies by kind."""
        elapsed = max(self.last - self.started, 1e-9)
        total = sum(len(v) for v in self.latencies.values())
        lines = [f"{total} requests in {elapsed:.1f} s: {total / elapsed:.0f} req/s; "
                 f"statuses {dict(sorted(self.statuses.items()))}"]  # fmt: skip
        for kind, values in sorted(self.latencies.items()):
            values = sorted(values)
            p50 = statistics.median(values) * 1000
            p99 = values[min(len(values) - 1, int(len(values) * 0.99))] * 1000
            lines.append(f"  {kind:<12} n={len(values):<6} p50 {p50:6.1f} ms  p99 {p99:7.1f} ms")
        if self.errors:
            lines.append(f"  client-side errors: {dict(self.errors)}")
        return "\n".join(lines)


class Client:
    """One identity talking to the server; retries connection failures with the same key."""

    def __init__(self, base: str, stats: Stats, token: str | None = None,
                 patience: float = 120) -> None:  # fmt: skip
        self.base = base
        self.stats = stats
        self.token = token
        self.patience = patience
        self.session = requests.Session()
        #: Every answer received (kind, path, status, body) when recording for a leak scan.
        self.traffic: list[tuple[str, str, int, str]] | None = None

    def call(self, method: str, path: str, kind: str, body: Any = None,
             key: str | None = None) -> requests.Response:  # fmt: skip
        headers = {}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if key:
            headers["Idempotency-Key"] = key
        deadline = time.monotonic() + self.patience
        delay = 0.05
        while True:
            start = time.monotonic()
            try:
                response = self.session.request(
                    method, self.base + path, json=body, headers=headers, timeout=70
                )
            except requests.RequestException as err:
                with self.stats.lock:
                    self.stats.errors[type(err).__name__] += 1
                if time.monotonic() > deadline:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, 1.0)
                continue
            self.stats.record(kind, time.monotonic() - start, response.status_code)
            if self.traffic is not None:
                self.traffic.append((kind, path, response.status_code, response.text))
            if response.status_code in (502, 503, 504) and time.monotonic() < deadline:
                time.sleep(delay)
                delay = min(delay * 2, 1.0)
                continue
            return response


def register(base: str, stats: Stats, name: str) -> Client:
    """A new identity. Its retries carry one Idempotency-Key, so a registration whose
    answer was lost (the server died after it committed) is answered again, with a
    fresh token, instead of finding its own name taken."""
    client = Client(base, stats)
    response = client.call("POST", "/v1/players", "register", {"name": name}, key=str(uuid.uuid4()))
    if response.status_code != 201:
        raise RuntimeError(f"registering {name}: {response.status_code} {response.text[:200]}")
    client.token = response.json()["token"]
    return client


@dataclass
class Ack:
    """A command the server acknowledged with 2xx: what it answered, for the durability check."""

    game: str
    seat: int
    version: int
    body: dict[str, Any]


def play_game(clients: list[Client], acks: list[Ack] | None = None, node_limit: int = 300,
              rng: random.Random | None = None, max_turns: int = 400) -> str:  # fmt: skip
    """One complete game between bots, over HTTP; returns the game id."""
    rng = rng or random.Random()
    host = clients[0]
    game = host.call("POST", "/v1/games", "create", {"players": len(clients)},
                     key=str(uuid.uuid4())).json()  # fmt: skip
    gid = game["id"]
    for c in clients[1:]:
        r = c.call("POST", f"/v1/games/{gid}/join", "join", {}, key=str(uuid.uuid4()))
        assert r.status_code == 200, r.text
    seats = {}
    for c in clients:
        body = c.call("GET", f"/v1/games/{gid}", "view").json()
        seats[body["you"]] = c
    for _ in range(max_turns):
        state = host.call("GET", f"/v1/games/{gid}", "view").json()
        if state["status"] == "ended":
            return gid
        seat = state["turn"]["seat"]
        me = seats[seat]
        mine = me.call("GET", f"/v1/games/{gid}", "view").json()
        command = choose(mine, node_limit, rng)
        command["expected_version"] = mine["version"]
        response = me.call("POST", f"/v1/games/{gid}/moves", "move", command,
                           key=str(uuid.uuid4()))  # fmt: skip
        if response.status_code == 200 and acks is not None:
            body = response.json()
            acks.append(Ack(gid, seat, body["version"], body))
        elif response.status_code not in (200, 409):
            raise AssertionError(f"{gid}: {response.status_code} {response.text[:300]}")
    raise AssertionError(f"{gid}: no end after {max_turns} turns")


def choose(mine: dict[str, Any], node_limit: int, rng: random.Random) -> dict[str, Any]:
    """A best-turn bot's command for the view ``mine``."""
    turn = best_turn(mine["board"], mine["rack"], node_limit=node_limit)
    if turn.placements:
        return {"type": "turn", "placements": [
            {"square": p.square, "tile": p.tile} for p in turn.placements]}  # fmt: skip
    if mine["bag_size"] >= 3 and rng.random() < 0.7:
        return {"type": "exchange", "tiles": sorted(mine["rack"])[-3:]}
    return {"type": "pass"}


def stored_events(database_url: str, game_id: str) -> list[tuple[int, Event]]:
    engine = create_engine(normalize_url(database_url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT version, data FROM events WHERE game_id = :g ORDER BY version"),
                {"g": game_id},
            ).all()
    finally:
        engine.dispose()
    return [(int(v), Event.from_dict(json.loads(d))) for v, d in rows]


VIEW_KEYS = ("version", "status", "rack", "board", "bag_size", "turn", "result", "last_turn")


def check_game(database_url: str, game_id: str, served: dict[int, dict[str, Any]]) -> list[str]:
    """Problems with one game: gaps in its log, tiles not conserved, a served view the log
    does not replay to. ``served`` maps a seat to the last view it was served."""
    problems = []
    log = stored_events(database_url, game_id)
    versions = [v for v, _ in log]
    if versions != list(range(1, len(log) + 1)):
        problems.append(f"{game_id}: log versions have a gap or duplicate")
    state = replay(e for _, e in log)
    tiles = list(state.bag) + [t for s in state.seats for t in s.rack]
    tiles += list(state.position.placed().values())
    if sorted(tiles) != sorted(TILE_SET):
        problems.append(f"{game_id}: tiles not conserved")
    for seat, body in served.items():
        expected = view(replay(e for v, e in log if v <= body["version"]), seat)
        for key in VIEW_KEYS:
            if expected[key] != body[key]:
                problems.append(f"{game_id}: seat {seat} was served {key} the log does not give")
    return problems


SECRET_EVENT_FIELDS = {
    "game_started": ("racks", "start_draws"),
    "turn_ended": ("drawn",),
    "extra_tile_drawn": ("tile",),
    "tiles_exchanged": ("returned", "drawn"),
}


def leak_scan(database_url: str, traffic: list[tuple[str, str, int, str]],
              token: str | None) -> list[str]:  # fmt: skip
    """Problems in everything one identity received: another seat's rack or draws, the bag,
    the seed or tile order, or its own token echoed anywhere but registration."""
    problems: list[str] = []
    logs: dict[str, list[tuple[int, Event]]] = {}
    for kind, path, status, raw in traffic:
        if token and token in raw and kind != "register":
            problems.append(f"{path}: the token appears in a {status} answer")
        try:
            body = json.loads(raw)
        except ValueError:
            problems.append(f"{path}: a {status} answer is not JSON")
            continue
        if not isinstance(body, dict):
            continue
        if "error" in body:
            text_ = json.dumps(body)
            if "rack" in text_ or "bag" in text_.replace("bag_", ""):
                problems.append(f"{path}: an error mentions a rack or the bag: {text_[:120]}")
            continue
        for key in ("seed", "tiles", "bag"):
            if key in body:
                problems.append(f"{path}: the answer has a {key!r} field")
        if "board" in body and "you" in body and "version" in body:
            gid = body["id"]
            log = logs.get(gid) or logs.setdefault(gid, stored_events(database_url, gid))
            state = replay(e for v, e in log if v <= body["version"])
            seat = body["you"]
            own = None if seat is None else list(state.seats[seat].rack)
            if body["rack"] != own:
                problems.append(f"{path}: the rack served is not the viewer's own")
            for seat_entry in body["seats"]:
                if "rack" in seat_entry:
                    problems.append(f"{path}: a seat entry carries a rack")
        events_ = body.get("events") if isinstance(body.get("events"), list) else []
        viewer = body.get("you")
        for event in events_:
            for field_ in SECRET_EVENT_FIELDS.get(event.get("type"), ()):
                value = event.get(field_)
                if event["type"] == "game_started":
                    hidden = [i for i, v in enumerate(value or []) if v is not None and i != viewer]
                    if hidden:
                        problems.append(f"{path}: game_started shows seats {hidden}' {field_}")
                elif event.get("seat") != viewer and value is not None:
                    problems.append(f"{path}: {event['type']}.{field_} of another seat shown")
    return problems


@dataclass
class RunReport:
    """What a soak or crash run did and found."""

    stats: Stats
    games: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    kills: int = 0
    acks_checked: int = 0
    answers_scanned: int = 0
    elapsed: float = 0.0

    @property
    def five_xx(self) -> int:
        return sum(n for status, n in self.stats.statuses.items() if status >= 500)


def soak(url: str, games: int, workers: int = 2, node_limit: int = 200) -> RunReport:
    """Play ``games`` games at once, each in its own thread, to their end; then check every
    game (finished, log replays to the views served, tiles conserved), scan every answer
    for leaks and the server log for tokens."""
    report = RunReport(Stats())
    finished: dict[str, dict[int, dict[str, Any]]] = {}
    everyone: list[Client] = []
    lock = threading.Lock()
    run = uuid.uuid4().hex[:6]
    with Server(url, workers=workers, env=MANY_PLAYERS) as server:

        def one(n: int) -> None:
            try:
                clients = [register(server.base, report.stats, f"soak{run}g{n}p{i}")
                           for i in range(2)]  # fmt: skip
                for c in clients:
                    c.traffic = []
                gid = play_game(clients, node_limit=node_limit, rng=random.Random(n))
                served = {}
                for c in clients:
                    body = c.call("GET", f"/v1/games/{gid}", "view").json()
                    served[body["you"]] = body
                with lock:
                    finished[gid] = served
                    everyone.extend(clients)
            except Exception as err:  # noqa: BLE001 - every failure is reported
                with lock:
                    report.failures.append(f"game {n}: {type(err).__name__}: {err}")

        start = time.monotonic()
        threads = [threading.Thread(target=one, args=(n,)) for n in range(games)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        report.elapsed = time.monotonic() - start
    report.games = list(finished)
    for gid, served in finished.items():
        if any(body["status"] != "ended" for body in served.values()):
            report.failures.append(f"{gid}: not ended")
        report.failures.extend(check_game(url, gid, served))
    for client in everyone:
        report.failures.extend(leak_scan(url, client.traffic or [], client.token))
        report.answers_scanned += len(client.traffic or [])
    server_log = server.log.read_text(errors="replace")
    if any(c.token and c.token in server_log for c in everyone):
        report.failures.append(f"a token appears in the server log {server.log}")
    if len(finished) != games:
        report.failures.append(f"only {len(finished)} of {games} games finished")
    return report


class BackToBackBots:
    """Bot pairs that play games back to back on ``base`` until ``finish()``; the games
    completed, the commands acknowledged on the way, and what went wrong."""

    def __init__(self, base: str, stats: Stats, name: str, count: int) -> None:
        self.base, self.stats, self.name = base, stats, name
        self.games: list[str] = []
        self.acks: list[Ack] = []
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._play, args=(n,)) for n in range(count)]
        for t in self._threads:
            t.start()

    def _play(self, n: int) -> None:
        played = 0
        while not self._stop.is_set():
            try:
                clients = [register(self.base, self.stats, f"{self.name}b{n}g{played}p{i}")
                           for i in range(2)]  # fmt: skip
                mine: list[Ack] = []
                gid = play_game(clients, acks=mine, node_limit=100, rng=random.Random(n))
                with self._lock:
                    self.games.append(gid)
                    self.acks.extend(mine)
            except Exception as err:  # noqa: BLE001 - every failure is reported
                with self._lock:
                    self.failures.append(f"bot {n}: {type(err).__name__}: {str(err)[:200]}")
                return
            played += 1

    def finish(self, timeout: float = 300) -> None:
        """Let each bot end the game it is in, then stop."""
        self._stop.set()
        for t in self._threads:
            t.join(timeout=timeout)


def crash(url: str, kills: int, bots: int = 8, workers: int = 2, seed: int = 1,
          progress: bool = False) -> RunReport:  # fmt: skip
    """Bots play games back to back while the server's process group is killed with
    SIGKILL at random moments and started again; then every acknowledged command is
    checked against the log, and every log for gaps and tile conservation."""
    rng = random.Random(seed)
    report = RunReport(Stats())
    server = Server(url, workers=workers, env=MANY_PLAYERS)
    server.start()
    start = time.monotonic()
    pool = BackToBackBots(server.base, report.stats, f"crash{uuid.uuid4().hex[:6]}", bots)
    try:
        while report.kills < kills:
            time.sleep(rng.uniform(0.5, 3.0))
            server.kill()
            report.kills += 1
            time.sleep(rng.uniform(0.0, 1.0))
            server.start()
            if progress:
                print(f"kill {report.kills}: {len(pool.acks)} acknowledged commands so far",
                      flush=True)  # fmt: skip
    finally:
        pool.finish()
        server.stop()
    report.games, report.failures = pool.games, pool.failures
    report.elapsed = time.monotonic() - start
    by_game: dict[str, list[Ack]] = defaultdict(list)
    for ack in pool.acks:
        by_game[ack.game].append(ack)
    for gid in report.games:
        log = stored_events(url, gid)
        for ack in by_game[gid]:
            state = replay(e for v, e in log if v <= ack.version)
            if state.version != ack.version:
                report.failures.append(
                    f"{gid}: acknowledged version {ack.version} is not in the log"
                )
                continue
            expected = view(state, ack.seat)
            if any(expected[k] != ack.body[k] for k in VIEW_KEYS):
                report.failures.append(f"{gid}: version {ack.version} differs from its answer")
            report.acks_checked += 1
        report.failures.extend(check_game(url, gid, {}))
    if not report.games:
        report.failures.append("no game completed")
    return report
