"""Slow and idle clients hold no server: ``serve`` answers while clients trickle their
headers into every thread, and ``run`` caps its connections (503 ``server_busy`` beyond
the cap) and closes idle ones after its read timeout.

Pinned since the first security review (issue 10), findings 3 and 9 (slow clients).
"""

from __future__ import annotations

import select
import socket
import threading
import time
from pathlib import Path

import pytest
import requests

from tests.server.live import live_server


def _tricklers(url: str, count: int, stop: threading.Event) -> list[threading.Thread]:
    host, port = url.removeprefix("http://").split(":")

    def trickle() -> None:
        with socket.create_connection((host, int(port)), timeout=30) as sock:
            for byte in b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000:
                if stop.is_set():
                    return
                try:
                    sock.sendall(bytes([byte]))
                except OSError:
                    return  # the server gave up on us: what it should do
                time.sleep(0.5)

    threads = [threading.Thread(target=trickle, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads


@pytest.mark.e2e
def test_serve_is_not_starved_by_clients_trickling_their_headers(tmp_path: Path) -> None:
    """First security review (issue 10), finding 3: clients trickling their headers starved
    the server."""
    with live_server(f"sqlite:///{tmp_path / 'slow.db'}", threads=4) as url:
        stop = threading.Event()
        _tricklers(url, 4, stop)
        try:
            time.sleep(1.0)  # every thread has a trickler
            started = time.monotonic()
            health = requests.get(f"{url}/v1/health", timeout=12)
            assert health.status_code == 200 and time.monotonic() - started < 12
        finally:
            stop.set()


def _health_until(url: str, status: int, within: float) -> requests.Response:
    """GET /v1/health until it answers ``status`` or ``within`` seconds pass; the last answer."""
    deadline = time.monotonic() + within
    while True:
        answer = requests.get(f"{url}/v1/health", timeout=5)
        if answer.status_code == status or time.monotonic() > deadline:
            return answer
        time.sleep(0.2)


def _refused(sock: socket.socket) -> bool:
    """Whether the server answered this silent connection at once (503 busy) and closed it."""
    readable, _, _ = select.select([sock], [], [], 0)
    return bool(readable)


@pytest.mark.e2e
def test_run_caps_connections_and_times_out_idle_ones(tmp_path: Path) -> None:
    """First security review (issue 10), finding 9: ``run`` took any number of connections
    and kept idle ones open."""
    env = {"MATHABLE_MAX_CONNECTIONS": "3"}
    with live_server(f"sqlite:///{tmp_path / 'run.db'}", env=env) as url:
        host, port = url.removeprefix("http://").split(":")
        # A connection keeps its slot a few milliseconds after its answer has left (the
        # server drains and closes it): a silent connection opened meanwhile, right after
        # the start-up probe, is answered busy and closed, and then only two hold slots.
        # Such a one is seen (it has its answer) and replaced; any other 200 is a failure.
        idle = [socket.create_connection((host, int(port))) for _ in range(3)]
        try:
            for _attempt in range(10):
                busy = requests.get(f"{url}/v1/health", timeout=5)
                refused = [sock for sock in idle if _refused(sock)]
                if busy.status_code == 503 or not refused:
                    break
                for sock in refused:
                    sock.close()
                    idle[idle.index(sock)] = socket.create_connection((host, int(port)))
            assert busy.status_code == 503 and busy.json()["error"]["code"] == "server_busy"
            time.sleep(10)  # the read timeout (10 s) closes the silent connections
            assert _health_until(url, 200, within=10).status_code == 200
        finally:
            for sock in idle:
                sock.close()
