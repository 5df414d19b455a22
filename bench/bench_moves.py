"""Moves per second across two ``serve`` instances on one PostgreSQL, with turn mail.

    MATHABLE_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/test \\
        .venv/bin/python bench/bench_moves.py [--games 3000 --clients 4 --seconds 10]

Both players of every game have a verified address, so each move (a whole
``turn``: the worked example's first, I8=12 and H6=8) hands the turn over and
its append hooks write the turn mail's outbox row in the move's transaction.
Every move also writes the player feed under its lock (``store.feed``): the
figure shows how long that lock is held, as two instances (each
``serve --workers W``) take it in turn. Games are written in bulk
(``bench_server.Seeder``); client processes in closed loops send one turn
each to games of their own, alternating between the two instances. Printed:
moves per second, the median and p99 latency of a move, and the outbox rows
written (one per move). ``--compare TREE --rounds N``: runs of this tree and of an
older checkout, alternated (each on a database of its own).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import statistics
import sys
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server"), str(ROOT), str(ROOT / "bench")]

from sqlalchemy import func, insert, select  # noqa: E402

from bench.bench_server import Seeder  # noqa: E402
from harness import Server, isolated_database  # noqa: E402
from mathable_server.store.engine import email_addresses, outbox  # noqa: E402
from mathable_server.store.migrations import downgrade  # noqa: E402

TURN = {"type": "turn", "placements": [{"square": "I8", "tile": 12},
                                       {"square": "H6", "tile": 8}]}  # fmt: skip
ENV = {"MATHABLE_RATE_LIMIT": "off", "MATHABLE_ADDRESS_RATE_LIMIT": "off",
       "MATHABLE_POOL_SIZE": "8"}  # fmt: skip


def _turns(job: tuple[list[int], list[str], str, float]) -> list[float]:
    ports, game_ids, token, seconds = job
    conns = [http.client.HTTPConnection("127.0.0.1", port) for port in ports]
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    times: list[float] = []
    deadline = time.monotonic() + seconds
    for number, game_id in enumerate(game_ids):
        if time.monotonic() >= deadline:
            break
        conn = conns[number % len(conns)]
        body = json.dumps({**TURN, "expected_version": 3}).encode()
        start = time.monotonic()
        conn.request("POST", f"/v1/games/{game_id}/moves", body=body, headers=headers)
        answer = conn.getresponse()
        answer.read()
        assert answer.status == 200, answer.status
        times.append(time.monotonic() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default=os.environ.get("MATHABLE_TEST_POSTGRES_URL"))
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1, help="workers of each instance")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=1, help="runs of each tree, alternated")
    parser.add_argument("--compare-revision", default="0014_signin_links_by_player",
                        help="the newest migration --compare's checkout knows")  # fmt: skip
    parser.add_argument("--compare", metavar="TREE",
                        help="an older checkout whose servers run in alternation")  # fmt: skip
    opts = parser.parse_args()
    if not opts.database or not opts.database.startswith("postgresql"):
        raise SystemExit("give a PostgreSQL URL: --database or MATHABLE_TEST_POSTGRES_URL")
    trees = [("this tree", ROOT)] + ([("compare", Path(opts.compare))] if opts.compare else [])
    opts.revision = {str(ROOT): None}
    if opts.compare:
        opts.revision[str(Path(opts.compare))] = opts.compare_revision
    print(f"{os.cpu_count()} cores; {opts.rounds} rounds, trees alternated")
    for number in range(opts.rounds):
        turn = number % len(trees)
        for label, tree in trees[turn:] + trees[:turn]:
            print(f"{label} ({tree}): " + run_once(opts, tree), flush=True)


def run_once(opts: argparse.Namespace, tree: Path) -> str:
    """One run on a database of its own with the servers of ``tree``: its figures."""
    env = dict(ENV)
    env["PYTHONPATH"] = os.pathsep.join([str(tree / "shared"), str(tree / "server")])
    with isolated_database(opts.database) as url, ExitStack() as stack:
        seeder = Seeder(url)
        if opts.revision.get(str(tree)) is not None:  # an older checkout: its schema
            downgrade(seeder.engine, opts.revision[str(tree)])
        games = seeder.add_games(opts.games)
        with seeder.engine.begin() as conn:
            conn.execute(
                insert(email_addresses),
                [
                    {
                        "player_id": p,
                        "address": f"{p}@example.org",
                        "verified_at": 1,
                        "code_hash": "",
                        "code_expires_at": 0,
                        "code_tries": 0,
                    }  # fmt: skip
                    for p, _token in seeder.players
                ],
            )
        servers = [stack.enter_context(Server(url, workers=opts.workers, env=env))
                   for _ in range(2)]  # fmt: skip
        ports = [s.port for s in servers]
        share = len(games) // opts.clients
        jobs = [
            (ports[i % 2 :] + ports[: i % 2], games[i * share : (i + 1) * share], seeder.token,
             opts.seconds)
            for i in range(opts.clients)
        ]  # fmt: skip
        load = os.getloadavg()[0]
        with multiprocessing.get_context("fork").Pool(opts.clients) as pool:
            started = time.monotonic()
            results = pool.map(_turns, jobs)
            elapsed = time.monotonic() - started
        times = sorted(t for r in results for t in r)
        with seeder.engine.connect() as conn:
            mails = conn.execute(select(func.count()).select_from(outbox)).scalar_one()
        seeder.engine.dispose()
    moves = len(times)
    if moves == opts.games - opts.games % opts.clients:
        print("ran out of games before the time: seed more (--games)", file=sys.stderr)
    p99 = times[min(moves - 1, int(0.99 * moves))]
    return (
        f"postgresql, 2 instances of serve --workers {opts.workers}, {opts.clients} clients: "
        f"{moves / elapsed:.0f} moves/s ({moves} turns in {elapsed:.1f} s); latency median "
        f"{statistics.median(times) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms; outbox rows {mails}; "
        f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after"
    )


if __name__ == "__main__":
    main()
