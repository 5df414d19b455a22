"""What a held long-poll costs in memory: one ``serve`` worker (gevent) holding N of them.

    nice -n 10 .venv/bin/python bench/bench_held_memory.py [--waiters 2000] [--repeats 3]
        [--kind poll|stream]

A fresh ``mathable-server serve --workers 1`` on a temporary SQLite file; a
warm-up of a few hundred long-polls (``GET /v1/games/{id}?wait=60&since=V``)
held and then woken by a move, so that the worker's allocators and caches hold
what any wait needs; then the worker's memory (``Pss`` and ``Rss`` of
``/proc/PID/smaps_rollup``, unique pages are what counts) with none held, and
again with ``--waiters`` held at once, each on a connection of its own (raw
sockets from this process, 127.0.0.1 only). The figure is the growth divided
by the number held: what each held long-poll costs the server, its socket's
kernel buffers apart (they are not the process's memory). With ``--kind
stream`` the same for ``GET /v1/games/{id}/stream`` (a stream held between
two lines). Repeated ``--repeats`` times on fresh servers; median and range.

    ... --compare /path/to/an/older/checkout   # that tree's server alternated, run by run
    ... --floor                                # and what the framework alone costs

``--compare`` runs the other tree's ``serve`` (its source first on ``PYTHONPATH``,
this tree's virtualenv) in alternation with this tree's, each on a fresh server, so
that both are measured under the same load. ``--floor`` adds the floors
(``held_floor.py``), measured the same way under the same gunicorn gevent worker:
a bare WSGI application whose request waits on a gevent ``Event`` (``bare``), a
Flask view that waits the same way (``flask``), and a Flask view whose response
body waits, after Flask is done with the request, as the server's long-polls do
(``flask-body``). What the server adds to a held long-poll is its figure less the
floor's. ``--trace FRAMES`` also prints where the worker's Python allocations grew
(``tracemalloc`` in the worker, snapshots with none and all held), by line.

Both growths are printed: ``Pss`` (the figure) and ``Rss``. They agree for
``serve``, whose master imports nothing of the application; a worker that shares
pages with its master would also count, in ``Pss``, the pages it stops sharing.
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_waiters import ENV, auth, example_game, register  # noqa: E402
from harness import Server, free_port  # noqa: E402

#: Connections of the one worker, as ``ENV`` gives ``serve`` (the floors get as many).
CONNECTIONS = int(ENV["MATHABLE_WORKER_CONNECTIONS"])
#: Held, then woken, before the figures: the worker's allocators hold what a wait needs.
WARM_UP = 300


def worker_of(master: int) -> int:
    """The pid of the one gunicorn worker under the ``master`` process."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        found = subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(master)], capture_output=True, text=True
        ).stdout.split()
        if len(found) == 1:
            return int(found[0])
        time.sleep(0.1)
    raise RuntimeError("no single worker found")


def memory_kb(pid: int) -> dict[str, int]:
    """``Rss``, ``Pss`` and the private pages of a process, in KB."""
    found = {}
    for row in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        name, _, rest = row.partition(":")
        if name in ("Rss", "Pss", "Private_Dirty", "Private_Clean"):
            found[name] = int(rest.split()[0])
    return found


def settled(pid: int, quiet: float = 1.0, timeout: float = 60) -> dict[str, int]:
    """The process's memory once it has stopped growing for ``quiet`` seconds."""
    last, since = memory_kb(pid), time.monotonic()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = memory_kb(pid)
        if now["Rss"] != last["Rss"]:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return now
    return last


def hold(port: int, path: str, token: str | None, n: int) -> list[socket.socket]:
    """``n`` requests sent, each on its own connection, none of them read."""
    authorization = "" if token is None else f"Authorization: Bearer {token}\r\n"
    request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{authorization}\r\n").encode()
    held = []
    for _ in range(n):
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        sock.sendall(request)
        held.append(sock)
    return held


def release(held: list[socket.socket]) -> None:
    for sock in held:
        sock.close()


class Run:
    """One server's figures: the worker's memory (KB) with none held and with all held."""

    def __init__(self, waiters: int, before: dict[str, int], after: dict[str, int]) -> None:
        self.before, self.after = before, after
        #: Bytes per held request: the growth of Pss, and of Rss.
        self.pss = (after["Pss"] - before["Pss"]) * 1024 / waiters
        self.rss = (after["Rss"] - before["Rss"]) * 1024 / waiters


def measured(pid: int, port: int, path: str, token: str | None, waiters: int) -> Run:
    before = settled(pid)
    snapshot(pid, "before")
    held = hold(port, path, token, waiters)
    after = settled(pid)
    snapshot(pid, "after")
    release(held)
    if TRACE.folder is not None:
        TRACE.report(waiters)
    return Run(waiters, before, after)


# --- --trace: where a held request's Python memory goes ----------------------------------

#: Put first on the worker's ``PYTHONPATH`` with ``--trace``: traces the allocations of
#: the process (``tracemalloc``, started before anything is imported) and dumps a
#: snapshot at each ``SIGRTMIN + 3`` (a signal gunicorn's workers leave alone).
SITECUSTOMIZE = """
import os, signal, tracemalloc
if os.environ.get("HELD_TRACE_FOLDER"):
    tracemalloc.start(int(os.environ.get("HELD_TRACE_FRAMES", "1")))
    def _dump(signum, frame):
        folder = os.environ["HELD_TRACE_FOLDER"]
        name = open(os.path.join(folder, "next")).read().strip()
        tracemalloc.take_snapshot().dump(os.path.join(folder, f"{name}.{os.getpid()}.part"))
        os.rename(os.path.join(folder, f"{name}.{os.getpid()}.part"),
                  os.path.join(folder, f"{name}.{os.getpid()}"))
    signal.signal(signal.SIGRTMIN + 3, _dump)
"""


class Trace:
    """Snapshots of the worker's Python allocations with none and with all held."""

    def __init__(self) -> None:
        self.folder: Path | None = None
        self.frames = 1
        self.taken: dict[str, Path] = {}

    def env(self) -> dict[str, str]:
        if self.folder is None:
            return {}
        (self.folder / "sitecustomize.py").write_text(SITECUSTOMIZE)
        return {"HELD_TRACE_FOLDER": str(self.folder), "HELD_TRACE_FRAMES": str(self.frames)}

    def report(self, waiters: int) -> None:
        import tracemalloc

        before = tracemalloc.Snapshot.load(str(self.taken["before"]))
        after = tracemalloc.Snapshot.load(str(self.taken["after"]))
        key = "traceback" if self.frames > 1 else "lineno"
        grown = after.compare_to(before, key)
        total = sum(stat.size_diff for stat in grown)
        print(f"  Python's allocations: {total / waiters / 1024:.2f} KB per held request")
        for stat in grown[:25]:
            if stat.size_diff < waiters * 16:
                break
            where = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in stat.traceback)
            each, blocks = stat.size_diff / waiters, stat.count_diff / waiters
            print(f"  {each:7.0f} B {blocks:5.1f} blocks  {where}")


TRACE = Trace()


def snapshot(pid: int, name: str) -> None:
    """The worker's allocations now, as ``name`` (with ``--trace``)."""
    if TRACE.folder is None:
        return
    (TRACE.folder / "next").write_text(name)
    os.kill(pid, signal.SIGRTMIN + 3)
    path = TRACE.folder / f"{name}.{pid}"
    deadline = time.monotonic() + 120
    while not path.exists():
        if time.monotonic() > deadline:
            raise RuntimeError("the worker dumped no snapshot (was it started with --trace?)")
        time.sleep(0.2)
    TRACE.taken[name] = path


def server_run(waiters: int, kind: str, tree: Path) -> Run:
    """``waiters`` held on a fresh ``serve`` of the source ``tree`` (this checkout or another)."""
    source = [str(tree / "shared"), str(tree / "server"), str(tree)]
    first = [str(TRACE.folder)] if TRACE.folder is not None else []
    env = {
        **ENV,
        **TRACE.env(),
        "PYTHONPATH": os.pathsep.join([*first, *source, os.environ.get("PYTHONPATH", "")]),
    }
    with tempfile.TemporaryDirectory(prefix="mathable-held-") as folder:
        url = f"sqlite:///{Path(folder) / 'held.db'}"
        with Server(url, workers=1, env=env) as server:
            assert server.proc is not None
            pid = worker_of(server.proc.pid)
            one, two = register(server.base, "ann"), register(server.base, "ben")
            game = example_game(server.base, one, two)
            version = requests.get(f"{server.base}/v1/games/{game}", timeout=30).json()["version"]
            if kind == "poll":
                path = f"/v1/games/{game}?wait=60&since={version}"
            else:
                path = f"/v1/games/{game}/stream?since={version}"
            # Warm-up: a few hundred held, then woken by a move (the example's first tile).
            warm = hold(server.port, path, one, WARM_UP)
            time.sleep(1.0)
            moved = requests.post(
                f"{server.base}/v1/games/{game}/moves",
                json={"type": "place", "square": "I8", "tile": 12, "expected_version": version},
                headers=auth(one),
                timeout=60,
            )
            moved.raise_for_status()
            version = moved.json()["version"]
            time.sleep(1.0)
            release(warm)
            path = path.rsplit("since=", 1)[0] + f"since={version}"
            return measured(pid, server.port, path, one, waiters)


# --- the floors: the same gunicorn worker, no server ----------------------------------------

#: The floors (``held_floor.py``): a bare WSGI application, a Flask view, a Flask body.
FLOORS = ("bare", "flask", "flask-body")


def floor_run(waiters: int, kind: str) -> Run:
    """``waiters`` held on a fresh floor server of ``kind``."""
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    env = dict(os.environ)
    if TRACE.folder is not None:
        env.update(TRACE.env())
        env["PYTHONPATH"] = os.pathsep.join([str(TRACE.folder), env.get("PYTHONPATH", "")])
    process = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("held_floor.py")),
            kind,
            str(port),
            str(CONNECTIONS),
        ],  # fmt: skip
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                requests.post(base, timeout=1).raise_for_status()
                break
            except requests.RequestException:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(f"the {kind} floor did not start") from None
                time.sleep(0.1)
        pid = worker_of(process.pid)
        warm = hold(port, "/", None, WARM_UP)
        time.sleep(1.0)
        requests.post(base, timeout=30).raise_for_status()
        time.sleep(1.0)
        release(warm)
        return measured(pid, port, "/", None, waiters)
    finally:
        # Its requests wait on: nothing ends them as a stopping server does (``serve``).
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waiters", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--kind", choices=("poll", "stream"), default="poll")
    parser.add_argument("--compare", metavar="TREE", help="an older checkout, alternated")
    parser.add_argument("--floor", action="store_true", help="measure the floors as well")
    parser.add_argument(
        "--trace",
        type=int,
        metavar="FRAMES",
        help="also print where the worker's Python allocations grew (tracemalloc, FRAMES deep);"
        " its figures are then inflated by the tracing",
    )
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.trace:
        TRACE.folder = Path(tempfile.mkdtemp(prefix="mathable-held-trace-"))
        TRACE.frames = args.trace
    here = Path(__file__).resolve().parents[1]
    targets: list[tuple[str, Callable[[], Run]]] = [
        ("this tree", functools.partial(server_run, args.waiters, args.kind, here))
    ]
    if args.compare:
        tree = Path(args.compare).resolve()
        targets.append(
            (f"{tree.name}", functools.partial(server_run, args.waiters, args.kind, tree))
        )
    if args.floor:
        targets += [
            (f"floor {kind}", functools.partial(floor_run, args.waiters, kind)) for kind in FLOORS
        ]
    per: dict[str, list[Run]] = {name: [] for name, _ in targets}
    for repeat in range(args.repeats):
        # Alternated, and each round starts with another: a machine growing busier or
        # quieter over the run weighs on each alike.
        turn = repeat % len(targets)
        for name, run in targets[turn:] + targets[:turn]:
            done = run()
            per[name].append(done)
            print(
                f"{name}: {args.waiters} held: worker Pss {done.before['Pss'] / 1024:.1f} -> "
                f"{done.after['Pss'] / 1024:.1f} MB, Rss {done.before['Rss'] / 1024:.1f} -> "
                f"{done.after['Rss'] / 1024:.1f} MB: {done.pss / 1024:.1f} KB each "
                f"({done.rss / 1024:.1f} by Rss)",
                flush=True,
            )
    print(f"per held {args.kind} (floors: per held request), medians over {args.repeats} servers:")
    for name, runs in per.items():
        pss, rss = [r.pss / 1024 for r in runs], [r.rss / 1024 for r in runs]
        print(
            f"  {name}: {statistics.median(pss):.1f} KB by Pss ({min(pss):.1f}-{max(pss):.1f}),"
            f" {statistics.median(rss):.1f} KB by Rss ({min(rss):.1f}-{max(rss):.1f})"
        )
    print(
        f"target 8 KB; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end"
    )


if __name__ == "__main__":
    main()
