"""Running the app under gunicorn from Python (``mathable-server serve``).

Two kinds of worker:

- ``gevent`` (the default): green threads, so a request that waits (a
  long-poll, an event stream) costs a greenlet and a socket, not a thread:
  one worker holds thousands. Flask stays WSGI; ``mathable-server serve``
  monkey-patches the standard library before anything else is imported, and
  psycopg 3 (>= 3.1.14) waits cooperatively by itself. gunicorn reads each
  request head under a deadline (``keepalive`` seconds), and ``GreenWorker``
  caps the connections one client address holds;
- ``gthread``: a thread per request being served, with a read deadline; a
  worker then holds long-polls in at most half its threads.
"""

from __future__ import annotations

import gc
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask
from gunicorn import util
from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger
from gunicorn.workers.gthread import ThreadWorker

from mathable_server.http.app import create_app
from mathable_server.http.settings import MAX_WAIT_SECONDS, Settings, long_polls_for_threads
from mathable_server.run import gunicorn_writes, logs
from mathable_server.run.access_log import redact
from mathable_server.run.dev_server import BUSY_RESPONSE


class RedactingLogger(Logger):  # type: ignore[misc]
    """gunicorn's logger, every atom of its access lines redacted (``access_log.redact``),
    its lines in the application's format (``logs.FORMAT``)."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        logs.reformat(self.error_log)
        logs.reformat(self.access_log)

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        found: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {k: redact(v) if isinstance(v, str) else v for k, v in found.items()}


class GunicornServer(BaseApplication):  # type: ignore[misc]
    """Gunicorn with threaded workers; each worker builds its own app and connections."""

    def __init__(self, settings: Settings, options: dict[str, Any]) -> None:
        self._settings = settings
        self._options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self._options.items():
            if key.startswith("control_socket") and key not in self.cfg.settings:
                continue  # a gunicorn before 24 has no control socket to place
            self.cfg.set(key, value)

    def load(self) -> Flask:
        # Called in each worker after the fork: no connection is shared between processes.
        # Every worker class answers through gunicorn's writer: patched here, once.
        gunicorn_writes.install()
        util.http_date = _DateOncePerSecond(util.http_date)
        app = create_app(self._settings, create_schema=False)
        collect_less()
        return app


#: Allocations between two collections of the youngest generation (Python's default: 700).
GC_YOUNGEST = 50_000


def collect_less() -> None:
    """Keep the cyclic garbage collector from rescanning a worker's thousands of waiters.

    Each held request keeps a greenlet, its frames and its request objects alive;
    the default thresholds make the collector scan them again and again while
    thousands are woken at once (a third of a worker's time in profiles). What the
    worker built at start-up is frozen (never scanned again), and the youngest
    generation is collected every ``GC_YOUNGEST`` allocations, not every 700: cyclic
    garbage still goes, a little later.
    """
    gc.collect()  # start-up's garbage goes first: frozen, it would stay for good
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNGEST, middle, oldest)


class _DateOncePerSecond:
    """gunicorn's ``http_date``, formatted once a second rather than for every answer (a
    twentieth of a worker's time while thousands of woken long-polls are answered)."""

    def __init__(self, http_date: Callable[[float | None], str]) -> None:
        self._format = http_date
        self._second = -1
        self._text = ""

    def __call__(self, timestamp: float | None = None) -> str:
        if timestamp is not None:
            return self._format(timestamp)
        second = int(time.time())
        if second != self._second:
            self._text, self._second = self._format(second), second
        return self._text


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


def end_waits(worker: Any) -> None:
    """End the waits a stopping worker holds (``Wakeups.close``): its long-polls answer 503
    ``shutting_down`` with ``Retry-After`` and its streams end, at once, so that no proxy
    in front answers 502 for them when the worker is gone (SIGTERM; SIGHUP stops the old
    workers the same way)."""
    app = getattr(worker, "wsgi", None)
    services = getattr(app, "extensions", {}).get("mathable") if app is not None else None
    if services is not None:
        ended = services.wakeups.close()
        worker.log.info("stopping: %d waiting requests told to ask again", ended)


class DeadlineWorker(ThreadWorker):  # type: ignore[misc]
    """gthread, with a deadline on reading each request (gunicorn has none of its own)."""

    def handle_exit(self, sig: Any, frame: Any) -> None:
        super().handle_exit(sig, frame)
        # Not in the signal handler itself: the wake-ups take locks request threads hold.
        threading.Thread(target=end_waits, args=(self,), daemon=True).start()

    def handle(self, conn: Any) -> Any:
        if isinstance(conn.sock, _ReadDeadline):
            conn.sock.restart()  # the next request on a kept-alive connection
        elif not self.cfg.is_ssl:
            conn.sock = _ReadDeadline(conn.sock, REQUEST_READ_SECONDS)
        return super().handle(conn)


#: Connections one gevent worker holds at once (gunicorn's ``worker_connections``).
DEFAULT_CONNECTIONS = 10_000


def green_long_polls(connections: int) -> int:
    """Waiting requests a gevent worker of ``connections`` holds: all but a tenth, so that
    requests that do not wait always find room.

    >>> green_long_polls(10_000), green_long_polls(10)
    (9000, 9)
    """
    return max(1, connections - max(1, connections // 10))


def worker_settings(
    settings: Settings, threads: int, worker_class: str = "gthread", connections: int = 0
) -> Settings:
    """``settings`` for one worker: the cap on waiting requests filled in unless set."""
    if settings.max_long_polls is not None:
        return settings
    if worker_class == "gevent":
        return settings.with_changes(max_long_polls=green_long_polls(connections))
    return settings.with_changes(max_long_polls=long_polls_for_threads(threads))


def serve(
    settings: Settings,
    host: str,
    port: int,
    workers: int,
    threads: int,
    worker_class: str = "gevent",
    connections: int = DEFAULT_CONNECTIONS,
    access_log: str | None = None,
    control_socket: str | None = None,
) -> None:
    """Serve until stopped, with ``workers`` processes (gevent, or ``threads`` threads each).

    With gevent the caller must have monkey-patched the standard library first
    (``patch_for_gevent``). ``access_log``: a file or ``-`` (stderr) for gunicorn's
    access lines, None for none. ``control_socket``: where gunicorn's control socket
    (``gunicornc``) listens, None for none (gunicorn would otherwise make one in
    ``$XDG_RUNTIME_DIR`` or ``$HOME/.gunicorn`` unasked).
    """
    options: dict[str, Any] = {
        "bind": f"{host}:{port}",
        "workers": workers,
        "timeout": MAX_WAIT_SECONDS * 2,
        "graceful_timeout": 10,
        # gthread: idle time between requests; gevent: also the deadline for a request head.
        "keepalive": 5,
        "errorlog": "-",
        "loglevel": "info",
        "accesslog": access_log,
        "access_log_format": logs.ACCESS_FORMAT,
        # An access log turned on (--access-logfile) shows no unsubscribe secret.
        "logger_class": "mathable_server.run.gunicorn_app.RedactingLogger",
        "proc_name": "mathable-server",
    }
    if control_socket is None:
        options["control_socket_disable"] = True
    else:
        options["control_socket"] = control_socket
    if worker_class == "gevent":
        options["worker_class"] = "mathable_server.run.gunicorn_app.GreenWorker"
        options["worker_connections"] = connections
        options["backlog"] = 4096
    else:
        # gthread with a read deadline per request (slow clients); behind nginx as
        # docs/server.md shows, nginx buffers every request before it reaches a worker.
        options["worker_class"] = "mathable_server.run.gunicorn_app.DeadlineWorker"
        options["threads"] = threads
    GunicornServer(
        worker_settings(settings, threads, worker_class, connections), options
    ).run()


def _green_worker_class() -> type:
    # deferred: gevent, only for gevent workers (imported after green.patch_for_gevent)
    import gevent
    from gunicorn.workers.ggevent import GeventWorker

    class _GreenWorker(GeventWorker):  # type: ignore[misc]
        """gevent worker that caps the connections of one client address (trusted proxies
        aside: they cap their own clients)."""

        def handle_exit(self, sig: Any, frame: Any) -> None:
            super().handle_exit(sig, frame)
            gevent.spawn(end_waits, self)  # out of the signal handler, as gunicorn does

        def init_process(self) -> None:
            self._per_address: dict[str, int] = {}
            settings: Settings = self.app._settings
            self._cap = settings.max_connections_per_address
            self._proxies = settings.trusted_proxies
            super().init_process()

        def handle(self, listener: Any, client: Any, addr: Any) -> None:
            address = addr[0] if isinstance(addr, tuple) else str(addr)
            if isinstance(addr, tuple):
                # gunicorn writes a response's head and body apart: without this, Nagle and
                # delayed ACKs hold each kept-alive answer back ~40 ms.
                client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if self._proxies is not None and (
                self._proxies.count or self._proxies.trusts(address)
            ):
                super().handle(listener, client, addr)
                return
            held = self._per_address.get(address, 0)
            if held >= self._cap:
                try:
                    client.sendall(BUSY_RESPONSE)
                except OSError:
                    pass
                client.close()
                return
            self._per_address[address] = held + 1
            try:
                super().handle(listener, client, addr)
            finally:
                left = self._per_address[address] - 1
                if left:
                    self._per_address[address] = left
                else:
                    del self._per_address[address]

    return _GreenWorker


def __getattr__(name: str) -> Any:
    # gunicorn imports the worker class by name in the worker; gevent is imported only then.
    if name == "GreenWorker":
        return _green_worker_class()
    raise AttributeError(name)
