"""Running the app under gunicorn from Python (``mathable-server serve``)."""

from __future__ import annotations

import socket
import time
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication
from gunicorn.workers.gthread import ThreadWorker

from mathable_server.app import create_app
from mathable_server.settings import MAX_WAIT_SECONDS, Settings, long_polls_for_threads


class GunicornServer(BaseApplication):  # type: ignore[misc]
    """Gunicorn with threaded workers; each worker builds its own app and connections."""

    def __init__(self, settings: Settings, options: dict[str, Any]) -> None:
        self._settings = settings
        self._options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self._options.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        # Called in each worker after the fork: no connection is shared between processes.
        return create_app(self._settings, create_schema=False)


#: Seconds a client has to send a whole request (head and body) once it has started.
REQUEST_READ_SECONDS = 5.0


class _ReadDeadline:
    """A socket whose reads share one deadline per request: a client trickling a byte at a
    time cannot hold a worker thread for longer than ``REQUEST_READ_SECONDS``."""

    def __init__(self, sock: socket.socket, seconds: float) -> None:
        self._sock = sock
        self._seconds = seconds
        self._deadline = time.monotonic() + seconds

    def restart(self) -> None:
        self._deadline = time.monotonic() + self._seconds

    def recv(self, size: int, *flags: int) -> bytes:
        remaining = self._deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("the client took too long to send its request")
        self._sock.settimeout(remaining)
        try:
            return self._sock.recv(size, *flags)
        finally:
            self._sock.settimeout(None)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class DeadlineWorker(ThreadWorker):  # type: ignore[misc]
    """gthread, with a deadline on reading each request (gunicorn has none of its own)."""

    def handle(self, conn: Any) -> Any:
        if isinstance(conn.sock, _ReadDeadline):
            conn.sock.restart()  # the next request on a kept-alive connection
        elif not self.cfg.is_ssl:
            conn.sock = _ReadDeadline(conn.sock, REQUEST_READ_SECONDS)
        return super().handle(conn)


def worker_settings(settings: Settings, threads: int) -> Settings:
    """``settings`` for a gthread worker of ``threads`` threads: the long-poll cap filled in."""
    if settings.max_long_polls is not None:
        return settings
    return settings.with_changes(max_long_polls=long_polls_for_threads(threads))


def serve(settings: Settings, host: str, port: int, workers: int, threads: int) -> None:
    """Serve until stopped, with ``workers`` processes of ``threads`` threads each.

    Unless ``settings`` say otherwise, a worker holds long-polls in at most half
    its threads (see ``long_polls_for_threads``).
    """
    GunicornServer(
        worker_settings(settings, threads),
        {
            "bind": f"{host}:{port}",
            "workers": workers,
            # Threads, so that long-polls (up to a minute) do not hold a whole process.
            # gthread with a read deadline per request (slow clients); behind nginx as
            # docs/server.md shows, nginx buffers every request before it reaches a worker.
            "worker_class": "mathable_server.gunicorn_app.DeadlineWorker",
            "threads": threads,
            "timeout": MAX_WAIT_SECONDS * 2,
            "graceful_timeout": 10,
            "keepalive": 5,
            "errorlog": "-",
            "loglevel": "info",
            "proc_name": "mathable-server",
        },
    ).run()
