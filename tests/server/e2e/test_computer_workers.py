"""The computer's workers (issue 44): ``mathable-server computers`` processes beside a
server that plays no computer itself (``serve``). Two workers on one PostgreSQL each
take turns of many games and no turn is played twice; a worker killed with SIGKILL
while it thinks, then started again, loses no turn and repeats none; an engine of
another package (the entry-point group ``mathable.engines``) plays as a level of its own
(``MATHABLE_COMPUTERS``)."""

from __future__ import annotations

import os
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

from mathable.core.computer import engines
from tests.server.computer_play import Human, play_whole_game
from tests.server.computer_workers import computers_process, install_plugin
from tests.server.live import REPO, live_server

FAST = {"MATHABLE_COMPUTER_DELAY": "0.3", "MATHABLE_COMPUTER_BUDGET_MS": "3000"}
GAMES = 12


def _computer_turns(base: str, human: Human, game_id: str) -> int:
    """How many turns the computer's seat ended in the game (its own acts)."""
    view = human.view(game_id)
    mine = view["you"]
    events = human.session.get(f"{base}/v1/games/{game_id}/events", timeout=30).json()["events"]
    acts = {"turn_ended", "tiles_exchanged", "passed", "equation_played", "tiles_discarded"}
    return sum(1 for e in events if e["type"] in acts and e.get("seat") != mine)


def test_two_workers_on_one_postgresql_share_the_turns_and_play_none_twice(
    postgres_url: str, tmp_path: Path
) -> None:
    # ``serve`` plays no computer: the two ``computers`` processes play every turn.
    with live_server(postgres_url, workers=2, env=FAST) as base:
        tables = []
        for number in range(GAMES):
            human = Human.register(base, f"person{number}")
            level = ("easy", "medium")[number % 2]
            ruleset = ("mathable", "summy")[number // 2 % 2]
            tables.append((human, human.new_game(ruleset=ruleset, computer=level)["id"]))
        logs = [tmp_path / "one.log", tmp_path / "two.log"]
        with (
            computers_process(postgres_url, logs[0], FAST) as one,
            computers_process(postgres_url, logs[1], FAST) as two,
            ThreadPoolExecutor(GAMES) as pool,
        ):
            played = list(pool.map(lambda t: play_whole_game(t[0], t[1]), tables))
            turns = {game_id: _computer_turns(base, human, game_id) for human, game_id in tables}
            # A worker logs a command once it has committed: the last line may follow the
            # game's end by a moment, so the logs are read until they hold every turn.
            deadline = time.monotonic() + 20
            while True:
                commands = one.played() + two.played()
                sent = Counter((g, v) for g, v, outcome in commands if outcome == "ok")
                if sum(sent.values()) >= sum(turns.values()) or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            shares = len(one.played()), len(two.played())
        assert all(p.view["status"] == "ended" for p in played)
        # Each worker took turns, and no (game, version) was played by both or twice.
        assert min(shares) > 0, shares
        assert max(sent.values()) == 1
        # Every turn the computer ended is one command a worker sent: none lost, none doubled.
        for game_id, count in turns.items():
            assert count == sum(1 for g, _v in sent if g == game_id), game_id


def test_a_worker_killed_mid_turn_and_started_again_loses_and_repeats_nothing(
    tmp_path: Path,
) -> None:
    plugin = install_plugin(tmp_path / "plugin")
    marker = tmp_path / "thinking"
    env = {
        "MATHABLE_COMPUTERS": "easy=casual,slow=slow",
        "MATHABLE_COMPUTER_DELAY": "0.3",
        "MATHABLE_COMPUTER_BUDGET_MS": "3000",
        "SLOW_ENGINE_MARKER": str(marker),
        "SLOW_ENGINE_SECONDS": "2.5",  # killed well before it decides, even under load
    }
    paths = [str(plugin), str(REPO / "shared"), str(REPO / "server"),
             os.environ.get("PYTHONPATH", "")]  # fmt: skip
    path = os.pathsep.join(p for p in paths if p)
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    with live_server(url, worker_class="gthread", env={**env, "PYTHONPATH": path}) as base:
        listed = requests.get(f"{base}/v1/computers", timeout=30).json()["computers"]
        assert {c["level"]: c["engine"] for c in listed} == {"easy": "casual", "slow": "slow"}
        human = Human.register(base, "ada")
        game_id = human.new_game(ruleset="mathable", computer="slow")["id"]
        log = tmp_path / "computers.log"
        view = human.view(game_id)
        if view["your_turn"]:  # the person began: they move, and the turn is the computer's
            body = {**engines()["greedy"].turn("mathable", view, 1)[0],
                    "expected_version": view["version"]}  # fmt: skip
            moved = human.session.post(f"{base}/v1/games/{game_id}/moves", json=body, timeout=30)
            assert moved.status_code == 200, moved.text
        with computers_process(url, log, env, path=str(plugin)) as first:
            deadline = time.monotonic() + 60
            while not marker.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert marker.exists(), log.read_text()
            first.kill()  # while it thinks about its first turn
        thought = marker.read_text().split()
        before = human.view(game_id)
        quick = {**env, "SLOW_ENGINE_SECONDS": "0"}  # the rest of the game need not wait
        with computers_process(url, log, quick, path=str(plugin)) as second:
            played = play_whole_game(human, game_id)
            turns = _computer_turns(base, human, game_id)
            # A worker logs a command once it has committed: the last line may follow the
            # game's end by a moment, so the log is read until it holds every turn.
            deadline = time.monotonic() + 20
            while True:
                commands = second.played()
                done = {(g, v) for g, v, outcome in commands if outcome == "ok"}
                if len(done) >= turns or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
        assert played.view["status"] == "ended"
        # The turn it was thinking about when killed was played once, by the next worker.
        assert int(thought[0]) == before["version"]
        sent = Counter((g, v) for g, v, outcome in commands if outcome == "ok")
        assert sent[(game_id, before["version"])] == 1
        assert max(sent.values()) == 1
        assert turns == _computer_turns(base, human, game_id) == len(sent)
