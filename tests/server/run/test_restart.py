"""Stopping ``serve`` (SIGTERM, as systemd does; SIGHUP's old workers alike) drops nobody:
a held long-poll answers 503 ``shutting_down`` with ``Retry-After`` and a stream ends
cleanly, at once, instead of being cut when the worker is gone (a proxy's 502)."""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.server.live import free_port, serve_process
from tests.server.nginx import nginx_in_front

pytestmark = pytest.mark.e2e


def test_sigterm_ends_long_polls_with_503_and_streams_cleanly(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with serve_process(port, url, tmp_path / "server.log") as server:
        ann = requests.post(f"{base}/v1/players", json={"name": "ann"}, timeout=30).json()
        auth = {"Authorization": f"Bearer {ann['token']}"}
        game = requests.post(f"{base}/v1/games", json={}, headers=auth, timeout=30).json()
        answers: list[Any] = []

        def long_poll() -> None:
            path = f"{base}/v1/games/{game['id']}?wait=60&since={game['version']}"
            answers.append(requests.get(path, headers=auth, timeout=90))

        polls = [threading.Thread(target=long_poll) for _ in range(2)]
        for poll in polls:
            poll.start()
        stream = requests.get(f"{base}/v1/me/stream", headers=auth, stream=True, timeout=90)
        lines = stream.iter_lines()
        assert next(lines) == b""  # the first heartbeat: the stream is held
        game_stream = requests.get(
            f"{base}/v1/games/{game['id']}/stream", headers=auth, stream=True, timeout=90
        )
        game_lines = game_stream.iter_lines()
        assert next(game_lines) == b"" and b'"type":"game"' in next(game_lines)
        time.sleep(1.5)  # the long-polls are held too
        assert not answers
        stopped = time.monotonic()
        server.send_signal(signal.SIGTERM)
        rest = list(lines)  # ends, without a broken connection (that would raise)
        game_rest = list(game_lines)  # the game's own stream likewise
        for poll in polls:
            poll.join(timeout=30)
        took = time.monotonic() - stopped
        server.wait(timeout=30)
    assert rest == [] and game_rest == []
    assert [a.status_code for a in answers] == [503, 503]
    for answer in answers:
        assert answer.json()["error"]["code"] == "shutting_down"
        assert answer.headers["Retry-After"] == "1"
    assert took < 5, f"the waits ended {took:.1f} s after SIGTERM"
    assert "waiting requests told to ask again" in (tmp_path / "server.log").read_text()


def test_through_nginx_a_long_poll_held_at_sigterm_gets_503_not_502(tmp_path: Path) -> None:
    port = free_port()
    url = f"sqlite:///{tmp_path / 'games.db'}"
    env = {"MATHABLE_TRUSTED_PROXIES": "1"}
    (tmp_path / "nginx").mkdir()
    with (
        serve_process(port, url, tmp_path / "server.log", env) as server,
        nginx_in_front(f"http://127.0.0.1:{port}", tmp_path / "nginx") as front,
    ):
        base = f"http://{front}"
        ann = requests.post(f"{base}/v1/players", json={"name": "ann"}, timeout=30).json()
        auth = {"Authorization": f"Bearer {ann['token']}"}
        game = requests.post(f"{base}/v1/games", json={}, headers=auth, timeout=30).json()
        answers: list[Any] = []
        path = f"{base}/v1/games/{game['id']}?wait=60&since={game['version']}"
        poll = threading.Thread(
            target=lambda: answers.append(requests.get(path, headers=auth, timeout=90))
        )
        poll.start()
        time.sleep(1.5)  # held, through nginx
        assert not answers
        server.send_signal(signal.SIGTERM)
        poll.join(timeout=30)
        server.wait(timeout=30)
    assert [a.status_code for a in answers] == [503]
    assert answers[0].json()["error"]["code"] == "shutting_down"
    assert answers[0].headers["Retry-After"] == "1"


def test_sighup_reloads_without_downtime_and_its_old_workers_end_their_waits(
    tmp_path: Path,
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with serve_process(port, url, tmp_path / "server.log") as server:
        ann = requests.post(f"{base}/v1/players", json={"name": "ann"}, timeout=30).json()
        auth = {"Authorization": f"Bearer {ann['token']}"}
        game = requests.post(f"{base}/v1/games", json={}, headers=auth, timeout=30).json()
        answers: list[Any] = []
        path = f"{base}/v1/games/{game['id']}?wait=60&since={game['version']}"
        poll = threading.Thread(
            target=lambda: answers.append(requests.get(path, headers=auth, timeout=90))
        )
        poll.start()
        time.sleep(1.5)
        server.send_signal(signal.SIGHUP)
        # Every request during the reload is answered: the listener never closes.
        statuses = []
        ends = time.monotonic() + 5
        while time.monotonic() < ends:
            statuses.append(requests.get(f"{base}/v1/health", timeout=30).status_code)
            time.sleep(0.05)
        poll.join(timeout=30)
        assert server.poll() is None
    assert set(statuses) == {200} and len(statuses) > 20
    assert [a.status_code for a in answers] == [503]
    assert answers[0].json()["error"]["code"] == "shutting_down"
