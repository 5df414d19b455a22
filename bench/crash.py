"""Crash durability: kill -9 the server at random moments while bots write, restart, repeat.

    .venv/bin/python bench/crash.py --kills 20                 # SQLite
    .venv/bin/python bench/crash.py --kills 20 --database postgresql://postgres@127.0.0.1:5432/test

Bots play games back to back in threads; a killer sends SIGKILL to the whole
server process group (gunicorn master and workers) at random moments and
starts it again. Clients retry through their Idempotency-Key. At the end,
every command answered 2xx must be in the log exactly as answered (the log
up to that version replays to the view the client was served), every log
has no gap, and tiles are conserved. Exits non-zero on any failure.
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

from harness import (  # noqa: E402
    VIEW_KEYS,
    Ack,
    Server,
    Stats,
    check_game,
    play_game,
    register,
    stored_events,
)
from mathable import replay, view  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--bots", type=int, default=8, help="games played at once")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default=None)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="mathable-crash-")
    url = args.database or f"sqlite:///{tmp}/crash.db"
    stats = Stats()
    acks: list[Ack] = []
    games: list[str] = []
    failures: list[str] = []
    stop = threading.Event()
    lock = threading.Lock()
    server = Server(url, workers=args.workers)
    server.start()
    run = uuid.uuid4().hex[:6]

    def bot(n: int) -> None:
        played = 0
        while not stop.is_set():
            try:
                clients = [register(server.base, stats, f"crash{run}b{n}g{played}p{i}")
                           for i in range(2)]  # fmt: skip
                mine: list[Ack] = []
                gid = play_game(clients, acks=mine, node_limit=100, rng=random.Random(n))
                with lock:
                    games.append(gid)
                    acks.extend(mine)
            except Exception as err:  # noqa: BLE001 - every failure is reported
                with lock:
                    failures.append(f"bot {n}: {type(err).__name__}: {str(err)[:200]}")
                return
            played += 1

    threads = [threading.Thread(target=bot, args=(n,)) for n in range(args.bots)]
    for t in threads:
        t.start()
    kills = 0
    try:
        while kills < args.kills:
            time.sleep(rng.uniform(0.5, 3.0))
            server.kill()
            kills += 1
            time.sleep(rng.uniform(0.0, 1.0))
            server.start()
            print(f"kill {kills}: {len(acks)} acknowledged commands so far", flush=True)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=300)
        server.stop()
    print(stats.report())

    by_game: dict[str, list[Ack]] = {}
    for ack in acks:
        by_game.setdefault(ack.game, []).append(ack)
    checked = 0
    for gid in games:
        log = stored_events(url, gid)
        served = {}
        for ack in by_game.get(gid, []):
            state = replay(e for v, e in log if v <= ack.version)
            if state.version != ack.version:
                failures.append(f"{gid}: acknowledged version {ack.version} is not in the log")
                continue
            expected = view(state, ack.seat)
            if any(expected[k] != ack.body[k] for k in VIEW_KEYS):
                failures.append(f"{gid}: version {ack.version} differs from what was answered")
            served[ack.seat] = ack.body
            checked += 1
        failures.extend(check_game(url, gid, {}))
    print(f"{kills} kills; {len(games)} games completed; {checked} acknowledged commands "
          f"checked against the log; failures: {len(failures)}")  # fmt: skip
    for line in failures[:20]:
        print("  " + line)
    return 1 if failures or kills < args.kills or not games else 0


if __name__ == "__main__":
    sys.exit(main())
