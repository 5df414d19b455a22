"""A database outage under a live server: clean 503s while it is down, recovery without a restart.

The outage is made by a TCP proxy between the server and PostgreSQL that
drops every connection and refuses new ones, then lets them through again
(bench/outage.py does the same by stopping PostgreSQL itself).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest
import requests
from bench.harness import Server, Stats, register

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]


class CuttableProxy:
    """Forwards a local port to a target; ``cut()`` drops and refuses, ``restore()`` serves."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()
        self.listener: socket.socket | None = None

    def restore(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        with self.lock:
            self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        with self.lock:
            listener, self.listener = self.listener, None
        if listener is not None:
            # shutdown wakes the thread blocked in accept(); close alone would not stop it.
            try:
                listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            listener.close()
        with self.lock:
            for conn in self.conns:
                try:
                    conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                conn.close()
            self.conns.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            with self.lock:
                if self.listener is not listener:
                    # Cut while this one was being opened: it is cut too (else it would
                    # outlive the cut, and its database session the test).
                    for s in (client, upstream):
                        s.close()
                    return
                self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.close()
                except OSError:
                    pass


@pytest.fixture
def proxy(postgres_url: str) -> Iterator[tuple[CuttableProxy, str]]:
    parts = urlsplit(postgres_url)
    proxy = CuttableProxy((parts.hostname or "127.0.0.1", parts.port or 5432))
    proxy.restore()
    netloc = (
        f"{parts.username}@127.0.0.1:{proxy.port}" if parts.username else f"127.0.0.1:{proxy.port}"
    )
    try:
        yield proxy, urlunsplit(parts._replace(netloc=netloc))
    finally:
        proxy.cut()


def test_database_outage_gives_clean_503s_and_the_server_recovers(
    proxy: tuple[CuttableProxy, str],
) -> None:
    cuttable, url = proxy
    with Server(url, workers=2) as server:
        ann = register(server.base, Stats(), "ann")
        headers = {"Authorization": f"Bearer {ann.token}"}
        game = requests.post(f"{server.base}/v1/games", json={"players": 2}, headers=headers,
                             timeout=10).json()  # fmt: skip
        cuttable.cut()
        # More requests than the pool holds connections: the dead pooled ones fail
        # on use, and then new connections are refused; both must be a clean 503.
        answers = []
        for _ in range(6):
            answers += [
                requests.get(f"{server.base}/v1/games/{game['id']}", timeout=30),
                requests.get(f"{server.base}/v1/me", headers=headers, timeout=30),
                requests.post(
                    f"{server.base}/v1/games/{game['id']}/join",
                    json={},
                    headers=headers,
                    timeout=30,
                ),  # fmt: skip
            ]
        for answer in answers:
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"]["code"] == "database_unavailable"
            assert int(answer.headers["Retry-After"]) >= 1
        cuttable.restore()
        deadline = time.monotonic() + 30
        while True:
            answer = requests.get(f"{server.base}/v1/games/{game['id']}", timeout=30)
            if answer.status_code == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert answer.status_code == 200
        assert answer.json()["version"] == game["version"]  # nothing was written meanwhile
        assert server.proc is not None and server.proc.poll() is None  # never restarted
