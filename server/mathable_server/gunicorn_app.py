"""Running the app under gunicorn from Python (``mathable-server serve``)."""

from __future__ import annotations

from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

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
            "worker_class": "gthread",
            "threads": threads,
            "timeout": MAX_WAIT_SECONDS * 2,
            "graceful_timeout": 10,
            "keepalive": 5,
            "errorlog": "-",
            "loglevel": "info",
            "proc_name": "mathable-server",
        },
    ).run()
