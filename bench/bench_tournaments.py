"""Tournaments of 1,000 players: pairing time, a round's start, the standings' read and
the database rows a tournament game costs.

    .venv/bin/python bench/bench_tournaments.py                 # SQLite (and PostgreSQL
    MATHABLE_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/test \\
        .venv/bin/python bench/bench_tournaments.py             # if the URL is set)

Pairing alone (pure, no database): a Swiss round of 1,000 by standings with no rematch
(round 5, after four rounds), a league's divisions of 10 and their round robins, a
duplicate round's tables of 4, a round robin's 499,500 pairs. Then on a database: a
Swiss of 1,000 players (the first ``--rounds`` rounds: each round's 500 games begun and
created, their results written as the hook writes them, the next round paired from the
standings), a league of 1,000 (100 divisions of 10: its first season's 4,500 games), the
standings' read (``GET /v1/tournaments/{id}``'s work) and the rows each game added to
every table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server"), str(ROOT)]

from sqlalchemy import func, select  # noqa: E402

from bench.harness import isolated_database  # noqa: E402
from mathable_server.games.service import Games  # noqa: E402
from mathable_server.games.timesource import MovableTime  # noqa: E402
from mathable_server.store import Store  # noqa: E402
from mathable_server.store.engine import make_engine  # noqa: E402
from mathable_server.store.migrations import init_schema  # noqa: E402
from mathable_server.store.schema import metadata  # noqa: E402
from mathable_server.tournaments import pairing  # noqa: E402
from mathable_server.tournaments.hook import TournamentHook  # noqa: E402
from mathable_server.tournaments.service import Spec, Tournaments  # noqa: E402
from mathable_server.tournaments.standings import Played, standings  # noqa: E402


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms"


def pure(players: int) -> list[str]:
    names = [f"p{i:04d}" for i in range(players)]
    rng = random.Random(1)
    met: set[frozenset[str]] = set()
    games: list[Played] = []
    byes: list[str] = []
    for number in range(1, 5):
        ranked = [line.name for line in standings("swiss", names, games)]
        pairs, bye = pairing.swiss(ranked, met, byes)
        for a, b in pairs:
            met.add(frozenset((a, b)))
            win = rng.random() < 0.5
            games.append(Played(number, (a, b), (1, 2) if win else (2, 1), (100, 90)))
        if bye:
            byes.append(bye)
    started = time.perf_counter()
    ranked = [line.name for line in standings("swiss", names, games)]
    standing = time.perf_counter() - started
    started = time.perf_counter()
    pairing.swiss(ranked, met, byes)
    swiss = time.perf_counter() - started
    started = time.perf_counter()
    divisions = pairing.divisions(names, 10)
    tables = [pairing.round_robin(d) for d in divisions]
    league = time.perf_counter() - started
    started = time.perf_counter()
    pairing.duplicate_tables(names, 4, met)
    duplicate = time.perf_counter() - started
    started = time.perf_counter()
    everyone = pairing.round_robin(names)
    robin = time.perf_counter() - started
    started = time.perf_counter()
    pairing.round_robin(names[:100], 4)
    covering = time.perf_counter() - started
    return [
        f"pure, {players} players: Swiss round 5 pairing {ms(swiss)} (standings of 2,000 "
        f"games {ms(standing)}); league divisions of 10 and their round robins "
        f"({sum(map(len, tables))} games) {ms(league)}; duplicate tables of 4 {ms(duplicate)}; "
        f"round robin of all ({len(everyone):,} pairs) {ms(robin)}; a 4-seat covering of "
        f"100 players {ms(covering)}",
    ]


def counts(store: Store) -> dict[str, int]:
    with store.engine.connect() as conn:
        return {
            t.name: int(conn.execute(select(func.count()).select_from(t)).scalar() or 0)
            for t in metadata.sorted_tables
        }


def results(store: Store, boards: list[dict[str, Any]], at: int, rng: random.Random) -> None:
    """Each board's game ended (as the hook records it: one transaction a game)."""
    for board in boards:
        if board["game_id"] is None or board["result"] is not None:
            continue
        seats = len(board["players"].split())
        places = list(range(1, seats + 1))
        rng.shuffle(places)
        scores = [200 - 20 * p for p in places]
        store.settle_board(board["game_id"], {"places": places, "scores": scores}, at)


class Said(list[str]):
    """Lines printed as they are added (a long run shows its progress)."""

    def append(self, line: str) -> None:
        print(line, flush=True)
        super().append(line)


def on_database(label: str, url: str, players: int, rounds: int) -> list[str]:
    engine = make_engine(url, 4)
    init_schema(engine)
    store = Store(engine)
    store.on_append.append(TournamentHook(store.dialect))
    clock = MovableTime()
    games = Games(store, 5000, clock)
    service = Tournaments(store, games, lambda: "bench-secret")
    ids = []
    for i in range(players):
        player_id = "p" + secrets.token_hex(6)
        store.create_player(player_id, f"bench{i}", None, secrets.token_hex(32))
        ids.append(player_id)
    rng = random.Random(2)
    lines = Said()
    swiss = service.create(None, Spec("Swiss", "mathable", "swiss", rounds=rounds,
                                      max_players=players))  # fmt: skip
    for player_id in ids:
        store.enter(swiss, player_id, clock.now_ms(), players, ("open",))
    before = counts(store)
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        if number == 1:
            service.start(swiss, None)
        else:
            service.advance(swiss)
        begun = time.perf_counter() - started
        boards = [b for b in store.boards(swiss) if b["round"] == number]
        made = sum(1 for b in boards if b["game_id"])
        if number == 1:
            after = counts(store)
            added = {k: (after[k] - before[k]) / made for k in after if after[k] != before[k]}
            lines.append(f"{label}: rows a tournament game adds: " + json.dumps(
                {k: round(v, 2) for k, v in sorted(added.items())}))  # fmt: skip
        each = ms(begun / made)
        lines.append(f"{label}: Swiss of {players}, round {number}: paired, begun and its "
                     f"{made} games created in {ms(begun)} ({each} a game)")  # fmt: skip
        started = time.perf_counter()
        results(store, boards, clock.now_ms(), rng)
        took = ms(time.perf_counter() - started)
        lines.append(f"{label}:   its {made} results written in {took}")
        clock.advance(hours=1)
    reads = []
    for _ in range(5):
        started = time.perf_counter()
        view = service.view(swiss)
        reads.append(time.perf_counter() - started)
    size = len(json.dumps(view))
    lines.append(f"{label}: the standings' read (GET /v1/tournaments/{{id}}'s work) after "
                 f"{rounds} rounds: median {ms(sorted(reads)[2])}, {size:,} bytes")  # fmt: skip
    league = service.create(None, Spec("League", "mathable", "league", division_size=10,
                                       max_players=players))  # fmt: skip
    for player_id in ids:
        store.enter(league, player_id, clock.now_ms(), players, ("open",))
    started = time.perf_counter()
    service.start(league, None)
    begun = time.perf_counter() - started
    made = sum(1 for b in store.boards(league) if b["game_id"])
    lines.append(f"{label}: league of {players} (divisions of 10): season 1's {made} games "
                 f"begun and created in {ms(begun)} ({ms(begun / made)} a game)")  # fmt: skip
    started = time.perf_counter()
    service.view(league)
    lines.append(f"{label}:   its standings' read {ms(time.perf_counter() - started)}")
    engine.dispose()
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default=None)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    opts = parser.parse_args()
    pg = os.environ.get("MATHABLE_TEST_POSTGRES_URL")
    backend = opts.backend or ("both" if pg else "sqlite")
    lines = [f"{os.cpu_count()} cores", *pure(opts.players)]
    print("\n".join(lines), flush=True)
    if backend in ("sqlite", "both"):
        with isolated_database(None) as url:
            on_database("sqlite", url, opts.players, opts.rounds)
    if backend in ("postgresql", "both"):
        if not pg:
            raise SystemExit("set MATHABLE_TEST_POSTGRES_URL for the PostgreSQL figures")
        with isolated_database(pg) as url:
            on_database("postgresql", url, opts.players, opts.rounds)


if __name__ == "__main__":
    main()
