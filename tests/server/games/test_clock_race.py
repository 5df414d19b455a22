"""Many processes notice one timeout at once: exactly one ``timed_out`` event is written.

Real processes on SQLite and PostgreSQL: several ``mathable-server tick`` at
the same moment, and ``serve --workers 3`` read concurrently (with its sweeper
on), all living two days ahead of the games' clocks (``MATHABLE_TIME_OFFSET``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections import Counter

import requests
from sqlalchemy import create_engine, select

from mathable_server.games.timesource import MovableTime
from mathable_server.store.engine import events, normalize_url
from tests.server.apps import make_app
from tests.server.helpers import Account, new_game, register
from tests.server.live import REPO, live_server

GAMES = 12
TWO_DAYS = str(2 * 86400)


def _clocked_games(database_url: str) -> tuple[list[str], Account]:
    """Started games whose one-day clock began now (real time); and one player's account."""
    app = make_app(database_url)
    app.extensions["mathable"].games.time = MovableTime()
    client = app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    ids = []
    for _ in range(GAMES):
        game = new_game(client, ada, clock={"per_move": 86400, "auto_vacation": False})
        assert client.post(f"/v1/games/{game['id']}/join", headers=bob.auth).status_code == 200
        ids.append(game["id"])
    app.extensions["mathable"].store.engine.dispose()
    return ids, ada


def _timeouts(database_url: str) -> Counter[str]:
    engine = create_engine(normalize_url(database_url))
    with engine.connect() as conn:
        rows = conn.execute(select(events.c.game_id).where(events.c.type == "timed_out")).all()
    engine.dispose()
    return Counter(row.game_id for row in rows)


def test_ticks_racing_write_one_timeout_per_game(database_url: str) -> None:
    ids, _ = _clocked_games(database_url)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "shared"), str(REPO / "server")])
    env["MATHABLE_TIME_OFFSET"] = TWO_DAYS
    command = [sys.executable, "-m", "mathable_server", "tick", "--database-url", database_url]
    ticks = [
        subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(4)
    ]
    outcomes = [tick.communicate(timeout=120) for tick in ticks]
    assert all(tick.returncode == 0 for tick in ticks), outcomes
    assert _timeouts(database_url) == Counter({game_id: 1 for game_id in ids})


def test_workers_reading_at_once_write_one_timeout_per_game(database_url: str) -> None:
    ids, ada = _clocked_games(database_url)
    environment = {"MATHABLE_TIME_OFFSET": TWO_DAYS, "MATHABLE_SWEEP_SECONDS": "1"}
    with live_server(database_url, workers=3, env=environment) as base_url:
        answers: list[int] = []

        def read(game_id: str) -> None:
            with requests.Session() as session:
                for _ in range(3):
                    response = session.get(
                        f"{base_url}/v1/games/{game_id}", headers=ada.auth, timeout=30
                    )
                    answers.append(response.status_code)
                    assert response.json()["result"]["reason"] == "timeout"

        threads = [threading.Thread(target=read, args=(g,)) for g in ids for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert answers == [200] * len(ids) * 9
    assert _timeouts(database_url) == Counter({game_id: 1 for game_id in ids})
