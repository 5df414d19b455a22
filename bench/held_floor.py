"""The floors of ``bench_held_memory.py --floor``: gunicorn's gevent worker with no server.

    .venv/bin/python bench/held_floor.py bare|flask|flask-body PORT CONNECTIONS

One worker, as ``serve`` runs it (the connections, backlog and keep-alive it gives
gunicorn; the standard library patched first; the collector set as
``gunicorn_app.collect_less`` sets it once the application is loaded). ``GET``
waits on a gevent ``Event`` (60 s at most), then answers ``ok``; ``POST`` wakes
every request waiting. ``bare``: a WSGI application that waits, then answers;
``flask``: a Flask view that waits; ``flask-body``: a Flask view that answers at
once with a body that waits (iterated once Flask is done with the request, as the
server's held long-polls are). Nothing else is imported, so that the worker
shares no more with its master than ``serve``'s does.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import gc  # noqa: E402
import sys  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from typing import Any  # noqa: E402

from gunicorn.app.base import BaseApplication  # noqa: E402


def floor_app(kind: str) -> Any:
    """The WSGI application of the floor ``kind``."""
    from gevent.event import Event

    waiting: set[Event] = set()

    def wait() -> None:
        event = Event()
        waiting.add(event)
        try:
            event.wait(60)
        finally:
            waiting.discard(event)

    def wake() -> None:
        for event in list(waiting):
            event.set()

    if kind == "bare":

        def bare(environ: dict[str, object], start_response: Any) -> list[bytes]:
            if environ["REQUEST_METHOD"] == "POST":
                wake()
            else:
                wait()
            start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
            return [b"ok"]

        return bare

    from flask import Flask, Response

    app = Flask("floor")

    @app.post("/")
    def woken() -> str:
        wake()
        return "ok"

    @app.get("/")
    def held() -> Response:
        if kind == "flask":
            wait()
            return Response("ok", mimetype="text/plain")

        def body() -> Iterator[bytes]:
            wait()
            yield b"ok"

        return Response(body(), mimetype="text/plain")

    return app


class Floor(BaseApplication):  # type: ignore[misc]
    def __init__(self, kind: str, port: int, connections: int) -> None:
        self._kind, self._port, self._connections = kind, port, connections
        super().__init__()

    def load_config(self) -> None:
        options = {
            "bind": f"127.0.0.1:{self._port}",
            "workers": 1,
            "worker_class": "gevent",
            "worker_connections": self._connections,
            "backlog": 4096,
            "keepalive": 5,
            "loglevel": "warning",
        }
        for key, value in options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        app = floor_app(self._kind)
        # As serve's workers do (``gunicorn_app.collect_less``).
        gc.collect()
        gc.freeze()
        _, middle, oldest = gc.get_threshold()
        gc.set_threshold(50_000, middle, oldest)
        return app


if __name__ == "__main__":
    kind, port, connections = sys.argv[1:]
    Floor(kind, int(port), int(connections)).run()
