"""Soak: many games played concurrently to their end by bots over HTTP.

    .venv/bin/python bench/soak.py --games 200 --workers 2               # SQLite
    .venv/bin/python bench/soak.py --games 200 --database postgresql://postgres@127.0.0.1:5432/test

Starts ``mathable-server serve --workers N`` on a free local port, plays every
game in its own thread with best-turn bots (two identities per game), then
checks every game: it finished, its log replays to the views served, tiles are
conserved; and counts 5xx answers. Prints requests/s and p50/p99 latencies.
Exits non-zero when any check fails.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Server, Stats, check_game, leak_scan, play_game, register  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default=None, help="database URL (default: temp SQLite)")
    parser.add_argument("--node-limit", type=int, default=200)
    args = parser.parse_args()

    tmp = tempfile.mkdtemp(prefix="mathable-soak-")
    url = args.database or f"sqlite:///{tmp}/soak.db"
    stats = Stats()
    failures: list[str] = []
    finished: dict[str, dict[int, dict]] = {}
    lock = threading.Lock()
    everyone: list = []
    with Server(url, workers=args.workers) as server:
        print(f"server {server.base} on {url.split('@')[-1]}, {args.workers} workers")
        run = uuid.uuid4().hex[:6]

        def one(n: int) -> None:
            try:
                clients = [register(server.base, stats, f"soak{run}g{n}p{i}") for i in range(2)]
                for c in clients:
                    c.traffic = []
                gid = play_game(clients, node_limit=args.node_limit, rng=random.Random(n))
                served = {}
                for c in clients:
                    body = c.call("GET", f"/v1/games/{gid}", "view").json()
                    served[body["you"]] = body
                with lock:
                    finished[gid] = served
                    everyone.extend(clients)
            except Exception as err:  # noqa: BLE001 - every failure is reported
                with lock:
                    failures.append(f"game {n}: {type(err).__name__}: {err}")

        start = time.monotonic()
        threads = [threading.Thread(target=one, args=(n,)) for n in range(args.games)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - start
    print(f"{len(finished)}/{args.games} games finished in {elapsed:.1f} s")
    print(stats.report())
    for gid, served in finished.items():
        if any(body["status"] != "ended" for body in served.values()):
            failures.append(f"{gid}: not ended")
        failures.extend(check_game(url, gid, served))
    scanned = 0
    for client in everyone:
        failures.extend(leak_scan(url, client.traffic or [], client.token))
        scanned += len(client.traffic or [])
    server_log = server.log.read_text(errors="replace")
    leaked = [c for c in everyone if c.token and c.token in server_log]
    if leaked:
        failures.append(f"{len(leaked)} tokens appear in the server log {server.log}")
    print(
        f"leak scan: {scanned} answers to {len(everyone)} identities scanned; "
        f"server log ({len(server_log)} bytes) checked for their tokens"
    )
    five_xx = sum(n for status, n in stats.statuses.items() if status >= 500)
    print(f"5xx answers: {five_xx}; checks failed: {len(failures)}")
    for line in failures[:20]:
        print("  " + line)
    return 1 if failures or five_xx or len(finished) != args.games else 0


if __name__ == "__main__":
    sys.exit(main())
