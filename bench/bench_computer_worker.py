"""How many games against the computer one worker keeps up with, at each level (issue 44).

    nice -n 10 .venv/bin/python bench/bench_computer_worker.py          # SQLite
    MATHABLE_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/test \\
        nice -n 10 .venv/bin/python bench/bench_computer_worker.py      # and PostgreSQL

For each level, ``--games`` (1,000) Mathable games of a person against the computer run at
once on one database, with one ``ComputerWorker`` (the worker of ``mathable-server
computers``: claims from the outbox, thinks in its child process, sends each move as a
command) taking every computer turn. The people answer at once (a driver plays the
``greedy`` engine's move for each, in this process, through the game service): the
worker is never idle, so what it does is its ceiling. Figures, over the first
``--turns`` computer turns after the start: turns per second, and the wait after a
person's move until the computer's answer (the outbox row's ``created_at`` to its
``sent_at``, or from the start for the turns the computer had when its games began:
the backlog of 1,000 games waiting at once, the worst case) as median,
90th percentile and maximum; and how many games one worker keeps up with if each
person moves once a minute (turns per second times 60).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server"), str(ROOT)]

from sqlalchemy import select  # noqa: E402

from bench.harness import isolated_database  # noqa: E402
from mathable.core.computer import engines  # noqa: E402
from mathable.core.lifecycle import Create, Join  # noqa: E402
from mathable.core.ruleset import ruleset, ruleset_of  # noqa: E402
from mathable_server.games.computer_worker import ComputerWorker, computer_outbox  # noqa: E402
from mathable_server.games.computers import CHANNEL, Computers, ComputerTurns  # noqa: E402
from mathable_server.games.draws import new_salt  # noqa: E402
from mathable_server.games.service import Games, new_id  # noqa: E402
from mathable_server.store import Store  # noqa: E402
from mathable_server.store.engine import make_engine, outbox  # noqa: E402
from mathable_server.store.migrations import upgrade  # noqa: E402

LEVELS = {"easy": "casual", "medium": "greedy", "hard": "best", "expert": "strong"}


def _answer(game_id: str, game: object, new: object, now: int) -> tuple[int, dict[str, str]]:
    return 200, {}


def bench(label: str, url: str, level: str, opts: argparse.Namespace) -> str:
    engine = make_engine(url, 8)
    upgrade(engine)
    store = Store(engine)
    store.on_append.append(ComputerTurns())
    games = Games(store, cache_size=opts.games * 2)
    computers = Computers.setup(store, [(level, LEVELS[level])])
    computer = computers.levels[level].player_id
    tiles = list(ruleset("mathable").tile_set)
    ids = []
    for number in range(opts.games):
        order = tiles[:]
        random.Random(number).shuffle(order)
        person = f"pbench{number:06d}"
        create = Create(person, players=2, order=tuple(order), salt=new_salt(),
                        ruleset="mathable", invited=(computer,))  # fmt: skip
        game_id = new_id("g")
        games.create(create, _answer, None, game_id=game_id)
        games.join(game_id, lambda _s: Join(computer), _answer, None)
        ids.append((game_id, person))
    budget = opts.budget_ms
    worker = ComputerWorker(games, computer_outbox(engine, budget), computers, budget, batch=8)
    done = threading.Event()
    played = [0]

    def counted(_game: str, _version: int) -> None:
        played[0] += 1

    worker.on_command.append(counted)
    greedy = engines()["greedy"]

    def people() -> None:
        """Each person moves as soon as it is their turn (in a game still running)."""
        while not done.is_set():
            moved = False
            for game_id, person in ids:
                game = games.game(game_id).state
                seat = game.seat_of(person)
                if game.status != "playing" or game.turn is None or game.turn.seat != seat:
                    continue
                rules = ruleset_of(game)
                view = rules.view(game, seat)
                # greedy's whole turn is one command
                command = rules.command(seat, greedy.turn("mathable", view, game.version)[0])
                games.command(game_id, game.version, lambda _s, c=command: c, _answer, None)
                moved = True
            if not moved:
                time.sleep(0.05)

    driver = threading.Thread(target=people, daemon=True)
    started = time.monotonic()
    first_row = games.now()  # the start: every game is waiting on someone
    driver.start()
    while played[0] < opts.turns:
        if not worker.drain():
            time.sleep(0.01)
    took = time.monotonic() - started
    done.set()
    driver.join(30)
    worker.stop()
    with engine.connect() as conn:
        rows = conn.execute(
            select(outbox.c.created_at, outbox.c.sent_at).where(
                (outbox.c.channel == CHANNEL) & outbox.c.sent_at.is_not(None)
            )
        ).all()
    engine.dispose()
    # A turn the computer had from the set-up (it began the game) waits from the start.
    waits = sorted((sent - max(made, first_row)) / 1000 for made, sent in rows)
    if os.environ.get("BENCH_DEBUG"):
        print(len(rows), waits[:5], waits[-5:], file=sys.stderr)
    rate = played[0] / took
    p90 = waits[int(len(waits) * 0.9)] if waits else 0.0
    return (
        f"{label} {level:>6}: {rate:6.1f} computer turns/s over {played[0]} turns "
        f"({opts.games} games at once); wait after a move: median "
        f"{statistics.median(waits):5.1f} s, p90 {p90:5.1f} s, max {waits[-1]:5.1f} s; "
        f"keeps up with {rate * 60:,.0f} games of a move a minute"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=1000, help="computer turns measured")
    parser.add_argument("--budget-ms", type=int, default=5000)
    parser.add_argument("--level", action="append", help="easy, medium, hard, expert (all)")
    opts = parser.parse_args()
    targets = [("sqlite", None)]
    if os.environ.get("MATHABLE_TEST_POSTGRES_URL"):
        targets.append(("postgresql", os.environ["MATHABLE_TEST_POSTGRES_URL"]))
    for level in opts.level or list(LEVELS):
        for label, url in targets:
            with isolated_database(url) as database:
                print(bench(label, database, level, opts), flush=True)


if __name__ == "__main__":
    main()
