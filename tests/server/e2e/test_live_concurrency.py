"""Against real servers with three gunicorn workers, on SQLite and on PostgreSQL.

Twenty clients race for one version: exactly one wins, the log has no gap or
duplicate, and replaying it gives the served view. Idempotent retries land on
different processes and still append once. A long-poll sees events written by
another process.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests

from mathable import GameState, Pass, apply, check, view
from mathable_server.games.service import Games
from mathable_server.store import Store
from mathable_server.store.engine import make_engine
from tests.server.conftest import fresh_postgres_schema, postgres_base_url
from tests.server.helpers import EXAMPLE_TILES
from tests.server.live import live_server

pytestmark = pytest.mark.e2e

CLIENTS = 20
WORKERS = 3


class Cluster:
    """A server with several worker processes, and the database it writes to."""

    def __init__(self, base_url: str, database_url: str) -> None:
        self.url = base_url
        self.database_url = database_url
        self.engine = make_engine(database_url, pool_size=2)
        self.store = Store(self.engine)

    def register(self, name: str) -> dict[str, str]:
        response = requests.post(f"{self.url}/v1/players", json={"name": name}, timeout=10)
        assert response.status_code == 201, response.text
        body: dict[str, str] = response.json()
        return {"Authorization": f"Bearer {body['token']}"}

    def example_game(self, tag: str) -> tuple[str, dict[str, str], dict[str, str]]:
        one, two = self.register(f"one-{tag}"), self.register(f"two-{tag}")
        created = requests.post(
            f"{self.url}/v1/games", json={"tiles": EXAMPLE_TILES}, headers=one, timeout=10
        )
        game_id: str = created.json()["id"]
        joined = requests.post(f"{self.url}/v1/games/{game_id}/join", headers=two, timeout=10)
        assert joined.status_code == 200 and joined.json()["version"] == 3
        return game_id, one, two

    def replayed(self, game_id: str) -> GameState:
        """The game rebuilt from its raw log, checking versions run 1, 2, 3... without gaps."""
        stored = self.store.events_after(game_id)
        assert [s.version for s in stored] == list(range(1, len(stored) + 1))
        state = GameState()
        for s in stored:
            state = apply(state, s.event)
        return state


def _start(database_url: str) -> Iterator[Cluster]:
    with live_server(database_url, workers=WORKERS) as base_url:
        cluster = Cluster(base_url, database_url)
        yield cluster
        cluster.engine.dispose()


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
)
def cluster(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Cluster]:
    if request.param == "sqlite":
        folder: Path = tmp_path_factory.mktemp("cluster")
        yield from _start(f"sqlite:///{folder / 'cluster.db'}")
        return
    base = postgres_base_url()
    if base is None:
        pytest.skip("MATHABLE_TEST_POSTGRES_URL is not set: PostgreSQL tests skipped")
    url, drop = fresh_postgres_schema(base)
    try:
        yield from _start(url)
    finally:
        drop()


def _race(
    cluster: Cluster,
    game_id: str,
    headers: dict[str, str],
    command: dict[str, Any],
    extra: dict[str, str] | None = None,
) -> list[requests.Response]:
    """CLIENTS clients, each on its own connection, send ``command`` at the same moment."""
    barrier = threading.Barrier(CLIENTS)
    sessions = [requests.Session() for _ in range(CLIENTS)]
    for session in sessions:  # connect first, so that the requests themselves race
        session.get(f"{cluster.url}/v1/health", timeout=10)

    def send(session: requests.Session) -> requests.Response:
        barrier.wait(timeout=30)
        return session.post(
            f"{cluster.url}/v1/games/{game_id}/moves",
            json=command,
            headers={**headers, **(extra or {})},
            timeout=60,
        )

    with ThreadPoolExecutor(CLIENTS) as pool:
        responses = list(pool.map(send, sessions))
    for session in sessions:
        session.close()
    return responses


def test_of_twenty_clients_at_one_version_exactly_one_wins(cluster: Cluster) -> None:
    game_id, one, _two = cluster.example_game("race")
    rounds = [
        {"type": "place", "square": "I8", "tile": 12, "expected_version": 3},
        {"type": "place", "square": "H6", "tile": 8, "expected_version": 4},
        {"type": "end_turn", "expected_version": 5},
    ]
    for command in rounds:
        responses = _race(cluster, game_id, one, command)
        statuses = sorted(r.status_code for r in responses)
        assert statuses == [200] + [409] * (CLIENTS - 1), statuses
        for r in responses:
            if r.status_code == 409:
                assert r.json()["error"]["current_version"] >= command["expected_version"] + 1
    state = cluster.replayed(game_id)
    assert state.version == 6
    served = requests.get(f"{cluster.url}/v1/games/{game_id}", headers=one, timeout=10).json()
    expected = view(state, 0)
    assert {k: served[k] for k in expected if k not in ("seats", "invited")} == {
        k: v for k, v in expected.items() if k not in ("seats", "invited")
    }
    assert [
        {k: s[k] for k in e} for s, e in zip(served["seats"], expected["seats"], strict=True)
    ] == expected["seats"]


def test_idempotent_retries_on_different_processes_append_once(cluster: Cluster) -> None:
    game_id, one, _two = cluster.example_game("retry")
    command = {"type": "place", "square": "I8", "tile": 12, "expected_version": 3}
    responses = _race(cluster, game_id, one, command, {"Idempotency-Key": "same-move-0123456789"})
    for _ in range(5):  # later retries, each on a new connection
        responses.append(
            requests.post(
                f"{cluster.url}/v1/games/{game_id}/moves",
                json=command,
                headers={**one, "Idempotency-Key": "same-move-0123456789"},
                timeout=10,
            )
        )
    assert {r.status_code for r in responses} == {200}
    assert len({r.content for r in responses}) == 1
    assert sum("Idempotent-Replayed" not in r.headers for r in responses) == 1
    assert cluster.replayed(game_id).version == 4


def test_every_process_serves_the_latest_version(cluster: Cluster) -> None:
    game_id, one, two = cluster.example_game("views")
    for version, (who, command) in enumerate(
        [(one, {"type": "pass"}), (two, {"type": "pass"}), (one, {"type": "pass"})], start=3
    ):
        response = requests.post(
            f"{cluster.url}/v1/games/{game_id}/moves",
            json={**command, "expected_version": version},
            headers=who,
            timeout=10,
        )
        assert response.status_code == 200, response.text
        seen = {
            requests.get(f"{cluster.url}/v1/games/{game_id}", timeout=10).json()["version"]
            for _ in range(12)
        }
        assert seen == {version + 1}


def test_a_long_poll_sees_events_written_by_another_process(cluster: Cluster) -> None:
    game_id, _one, _two = cluster.example_game("poll")
    # This test process is "another process": it appends through its own store.
    writer = Games(cluster.store)

    def write_soon() -> None:
        time.sleep(0.5)
        state = writer.state(game_id)
        seat = state.turn.seat  # type: ignore[union-attr]
        new = check(state, Pass(seat))
        after = state
        for event in new:
            after = apply(after, event)
        cluster.store.append(game_id, state.version, new, after, at=writer.now())

    thread = threading.Thread(target=write_soon)
    started = time.monotonic()
    thread.start()
    response = requests.get(f"{cluster.url}/v1/games/{game_id}?wait=20&since=3", timeout=30)
    thread.join()
    assert response.status_code == 200 and response.json()["version"] == 4
    assert time.monotonic() - started < 5
