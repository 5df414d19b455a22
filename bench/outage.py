"""Database outage: stop PostgreSQL under load, start it again, and watch the server recover.

    .venv/bin/python bench/outage.py --database postgresql://postgres@127.0.0.1:5432/test

Needs root on a machine whose PostgreSQL cluster is managed by pg_ctlcluster
(as on the development machines). Bots play while PostgreSQL is stopped for
``--down`` seconds; a prober sends reads and writes during the outage. Every
answer while it is down must be a 503 with a JSON error and ``Retry-After``;
afterwards the same server processes (no restart) must serve again, every
game must finish, and every log must replay cleanly. Exits non-zero on failure.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import (  # noqa: E402
    BackToBackBots,
    Server,
    Stats,
    check_game,
    isolated_database,
    register,
)


def cluster(action: str) -> None:
    version = sorted(p.name for p in Path("/etc/postgresql").iterdir())[-1]
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", action, *(
            ["-m", "fast"] if action == "stop" else [])],
        check=True,
    )  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--down", type=float, default=8.0)
    parser.add_argument("--bots", type=int, default=6)
    args = parser.parse_args()

    stats = Stats()
    during: Counter[str] = Counter()
    run = uuid.uuid4().hex[:6]
    with isolated_database(args.database) as url, Server(url, workers=2) as server:
        prober = register(server.base, stats, f"outage{run}probe")
        game = prober.call("POST", "/v1/games", "create", {"players": 2}).json()["id"]

        bots = BackToBackBots(server.base, stats, f"outage{run}", args.bots)
        time.sleep(2)
        cluster("stop")
        down_at = time.monotonic()
        try:
            while time.monotonic() - down_at < args.down:
                for method, path in (("GET", f"/v1/games/{game}"), ("GET", "/v1/me"),
                                     ("POST", f"/v1/games/{game}/moves")):  # fmt: skip
                    try:
                        r = prober.session.request(
                            method, server.base + path, timeout=10,
                            headers={"Authorization": f"Bearer {prober.token}"},
                            json={"type": "pass", "expected_version": 1},
                        )  # fmt: skip
                    except Exception as err:  # noqa: BLE001
                        during[f"no answer ({type(err).__name__})"] += 1
                        continue
                    ok_shape = (
                        r.status_code == 503
                        and r.headers.get("Content-Type", "").startswith("application/json")
                        and r.json().get("error", {}).get("code") == "database_unavailable"
                        and "Retry-After" in r.headers
                    )
                    during["503 JSON" if ok_shape else f"unexpected {r.status_code}"] += 1
                time.sleep(0.2)
        finally:
            cluster("start")
        up_at = time.monotonic()
        recovered = None
        while time.monotonic() - up_at < 60:
            if prober.session.get(f"{server.base}/v1/games/{game}", timeout=5).status_code == 200:
                recovered = time.monotonic() - up_at
                break
            time.sleep(0.2)
        time.sleep(3)  # the bots play on after the recovery
        bots.finish(timeout=600)
        failures, finished = bots.failures, bots.games
        for gid in finished:  # while the run's schema still exists
            failures.extend(check_game(url, gid, {}))
    print(stats.report())
    print(f"answers while PostgreSQL was down: {dict(during)}")
    print(f"served again {recovered:.2f} s after PostgreSQL started" if recovered is not None
          else "the server did not recover within 60 s")  # fmt: skip
    bad = [k for k in during if k != "503 JSON"]
    print(f"{len(finished)} games finished; failures: {len(failures)}")
    for line in failures[:20]:
        print("  " + line)
    return 1 if failures or bad or recovered is None or not finished else 0


if __name__ == "__main__":
    sys.exit(main())
