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
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_waiters import ENV, auth, example_game, register  # noqa: E402
from harness import Server  # noqa: E402


def worker_of(server: Server) -> int:
    """The pid of the one gunicorn worker under the server's master."""
    assert server.proc is not None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        found = subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(server.proc.pid)], capture_output=True, text=True
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


def hold(port: int, path: str, token: str, n: int) -> list[socket.socket]:
    """``n`` requests sent, each on its own connection, none of them read."""
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: Bearer {token}\r\n\r\n"
    ).encode()
    held = []
    for _ in range(n):
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        sock.sendall(request)
        held.append(sock)
    return held


def release(held: list[socket.socket]) -> None:
    for sock in held:
        sock.close()


def one_run(waiters: int, kind: str) -> tuple[float, dict[str, int], dict[str, int]]:
    with tempfile.TemporaryDirectory(prefix="mathable-held-") as folder:
        url = f"sqlite:///{Path(folder) / 'held.db'}"
        with Server(url, workers=1, env=ENV) as server:
            pid = worker_of(server)
            one, two = register(server.base, "ann"), register(server.base, "ben")
            game = example_game(server.base, one, two)
            version = requests.get(f"{server.base}/v1/games/{game}", timeout=30).json()["version"]
            if kind == "poll":
                path = f"/v1/games/{game}?wait=60&since={version}"
            else:
                path = f"/v1/games/{game}/stream?since={version}"
            # Warm-up: a few hundred held, then woken by a move (the example's first tile).
            warm = hold(server.port, path, one, 300)
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
            before = settled(pid)
            held = hold(server.port, path, one, waiters)
            after = settled(pid)
            release(held)
    grown = after["Pss"] - before["Pss"]
    return grown * 1024 / waiters, before, after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waiters", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--kind", choices=("poll", "stream"), default="poll")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    per = []
    for _ in range(args.repeats):
        each, before, after = one_run(args.waiters, args.kind)
        per.append(each)
        print(
            f"{args.waiters} held {args.kind}s: worker Pss {before['Pss'] / 1024:.1f} -> "
            f"{after['Pss'] / 1024:.1f} MB (Rss {before['Rss'] / 1024:.1f} -> "
            f"{after['Rss'] / 1024:.1f} MB): {each / 1024:.1f} KB each"
        )
    print(
        f"per held {args.kind}: median {statistics.median(per) / 1024:.1f} KB "
        f"(range {min(per) / 1024:.1f}-{max(per) / 1024:.1f}) over {args.repeats} servers; "
        f"target 8 KB; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
