"""What a cached game costs: the memory of each game a process keeps (``MATHABLE_CACHE_GAMES``).

    nice -n 10 .venv/bin/python bench/bench_cache_memory.py [--games 500] [--seed 3]

A game of each ruleset (Mathable and Summy, two players) is self-played by the
engines (``tests/rules/record_helpers``); it is cut at several versions (early,
middle, late in play, and finished). For each cut, ``--games`` copies of it are
written under ids of their own to a temporary SQLite database, and a fresh
process reads them all into its game cache (``Games.game``, as a request does:
replayed from the stored events, kept by ``StateCache``), after a warm-up of a
few games that fills the process's own caches (statements, codecs). Printed per
cut: the growth of the process's ``Pss`` divided by the games (what a cached
game costs the process), and, from a second fresh process, the Python
allocations still held (``tracemalloc``) per game; and the cache's default size
(``DEFAULT_CACHE_GAMES``) times the largest figure.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import secrets
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server"), str(ROOT)]

from tests.rules.record_helpers import mathable_selfplay, summy_selfplay  # noqa: E402

from bench.bench_finished import write_copies  # noqa: E402
from mathable.core.events import Event  # noqa: E402
from mathable.core.ruleset import replay_any  # noqa: E402
from mathable_server.games.service import Games  # noqa: E402
from mathable_server.http.settings import DEFAULT_CACHE_GAMES  # noqa: E402
from mathable_server.store import Store, memberships  # noqa: E402
from mathable_server.store.engine import make_engine  # noqa: E402
from mathable_server.store.migrations import init_schema  # noqa: E402

#: Games read before measuring: the process's own caches fill with them.
WARM_UP = 20
#: Where each game is cut, as a share of its events (1.0: finished).
CUTS = (0.25, 0.5, 0.9, 1.0)


def played(ruleset: str, seed: int) -> list[Event]:
    return (mathable_selfplay if ruleset == "mathable" else summy_selfplay)(seed)


def write(url: str, ruleset: str, seed: int, version: int, count: int) -> list[str]:
    """``count`` copies of ``ruleset``'s self-played game cut at ``version``; their ids."""
    engine = make_engine(url, 2)
    init_schema(engine)
    store = Store(engine)
    kept = played(ruleset, seed)[:version]
    state = replay_any(kept)
    members = memberships(state)
    for player in members:
        store.create_player(player, player, None, secrets.token_hex(16))
    ids = write_copies(engine, kept, state, "c", count)
    engine.dispose()
    return ids


def pss_kb() -> int:
    for row in Path("/proc/self/smaps_rollup").read_text().splitlines():
        if row.startswith("Pss:"):
            return int(row.split()[1])
    raise RuntimeError("no Pss in smaps_rollup")


def cached_bytes(url: str, ids: list[str], traced: bool) -> float:
    """Bytes per game this process holds once ``ids`` (after the warm-up) are cached:
    its Pss growth, or with ``traced`` the Python allocations still held."""
    engine = make_engine(url, 2)
    service = Games(Store(engine), cache_size=len(ids))
    for game_id in ids[:WARM_UP]:
        service.game(game_id)
    measured = ids[WARM_UP:]
    gc.collect()
    if traced:
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
    else:
        before = pss_kb() * 1024
    for game_id in measured:
        service.game(game_id)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0] if traced else pss_kb() * 1024
    kept = sum(1 for game_id in ids if service.cache.get(game_id) is not None)
    assert kept == len(ids), f"the cache kept {kept} of {len(ids)}"
    engine.dispose()
    return (after - before) / len(measured)


def in_fresh_process(url: str, ids: list[str], traced: bool) -> float:
    found = subprocess.run(
        [sys.executable, __file__, "--measure", url, "--traced" if traced else "--pss"],
        input=json.dumps(ids),
        capture_output=True,
        text=True,
        check=True,
    )
    return float(found.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--measure", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--traced", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--pss", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(cached_bytes(args.measure, json.loads(sys.stdin.read()), args.traced))
        return
    largest = 0.0
    for ruleset in ("mathable", "summy"):
        length = len(played(ruleset, args.seed))
        for cut in CUTS:
            version = max(3, round(length * cut))
            with tempfile.TemporaryDirectory(prefix="mathable-cache-") as folder:
                url = f"sqlite:///{Path(folder) / 'cache.db'}"
                ids = write(url, ruleset, args.seed, version, args.games + WARM_UP)
                pss = in_fresh_process(url, ids, traced=False)
                traced = in_fresh_process(url, ids, traced=True)
            largest = max(largest, pss, traced)
            state = "finished" if cut == 1.0 else "in play"
            print(
                f"{ruleset} at version {version} of {length} ({state}): "
                f"{pss / 1024:.1f} KB a cached game (Pss), {traced / 1024:.1f} KB of Python "
                f"allocations; {args.games} games",
                flush=True,
            )
    print(
        f"the default cache ({DEFAULT_CACHE_GAMES} games, MATHABLE_CACHE_GAMES) at the largest: "
        f"{DEFAULT_CACHE_GAMES * largest / 2**20:.0f} MB a process; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
