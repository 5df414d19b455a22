"""Upgrade, dump and load figures for a database of many games.

    python bench/bench_transfer.py --copies 1000 [--database URL]

Builds a pre-migration database holding ``copies`` x the upgrade fixture's 10
games (1,000 copies: 10,000 games, 262,000 events; 5 accounts), then times
``migrate`` from the baseline, ``dump`` to a file and ``load`` into an empty
database of the same kind, and checks the load gave back the same dump.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / p) for p in ("", "shared", "server")]

from tests.server.run.upgrade.baseline import make_baseline_database  # noqa: E402

from bench.harness import isolated_database  # noqa: E402
from mathable_server.store import migrations  # noqa: E402
from mathable_server.store.dumps import dump, load  # noqa: E402
from mathable_server.store.engine import make_engine  # noqa: E402


def timed(label: str, work: object) -> float:
    started = time.perf_counter()
    work()  # type: ignore[operator]
    took = time.perf_counter() - started
    print(f"  {label:<34} {took:8.2f} s", flush=True)
    return took


def run(kind: str, source_url: str, target_url: str, copies: int, folder: Path) -> None:
    print(f"{kind}: {copies * 10:,} games, {copies * 262:,} events", flush=True)
    started = time.perf_counter()
    source = make_baseline_database(source_url, copies=copies)
    print(f"  {'build the pre-migration database':<34} {time.perf_counter() - started:8.2f} s")
    timed("migrate from the baseline", lambda: migrations.upgrade(source))
    path = folder / f"{kind}.jsonl"

    def write() -> None:
        with path.open("w") as out:
            dump(source, out)

    timed("dump", write)
    print(f"  {'file size':<34} {path.stat().st_size / 1e6:8.1f} MB")
    target = make_engine(target_url, 2)
    migrations.upgrade(target)

    def read() -> None:
        with path.open() as lines:
            load(target, lines)

    timed("load (check, replay, write)", read)
    again = folder / f"{kind}-again.jsonl"
    with again.open("w") as out:
        dump(target, out)
    same = path.read_text().splitlines()[1:-1] == again.read_text().splitlines()[1:-1]
    print(f"  {'reloaded dump identical':<34} {same}")
    source.dispose()
    target.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=1000)
    parser.add_argument("--database", default=None, help="a PostgreSQL URL to run there too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        run(
            "SQLite",
            f"sqlite:///{base}/source.db",
            f"sqlite:///{base}/target.db",
            args.copies,
            base,
        )
        if args.database:
            with (
                isolated_database(args.database) as source,
                isolated_database(args.database) as target,
            ):
                run("PostgreSQL", source, target, args.copies, base)


if __name__ == "__main__":
    main()
