"""``mathable-server run``: one process, a thread per connection, for development and small use.

Werkzeug's threaded server with two guards it lacks: a cap on connections
served at once (beyond it a new connection gets 503 at once) and a read
timeout on each connection. It is still a development server: anything
public runs ``mathable-server serve`` behind a reverse proxy (docs/server.md).
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask
from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

from mathable_server.run.access_log import redact

#: Connections served at once by ``run``.
DEFAULT_MAX_CONNECTIONS = 64
#: Seconds a connection may stay silent (while sending a request, or idle between two).
READ_TIMEOUT_SECONDS = 10

_BUSY_BODY = b'{"error":{"code":"server_busy","message":"too many connections; try again soon"}}'
BUSY_RESPONSE = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
    b"X-Content-Type-Options: nosniff\r\n"
    b"Retry-After: 1\r\nConnection: close\r\nContent-Length: "
    + str(len(_BUSY_BODY)).encode()
    + b"\r\n\r\n"
    + _BUSY_BODY
)


class _TimedHandler(WSGIRequestHandler):
    timeout = READ_TIMEOUT_SECONDS

    def log(self, type: str, message: str, *args: Any) -> None:  # noqa: A002 - werkzeug's
        # Every line werkzeug writes (the access line, errors): no unsubscribe secret.
        super().log(type, message, *(redact(a) if isinstance(a, str) else a for a in args))


class CappedServer(ThreadedWSGIServer):
    """At most ``max_connections`` connections at once; each read times out."""

    def __init__(self, host: str, port: int, app: Flask, max_connections: int) -> None:
        super().__init__(host, port, app, handler=_TimedHandler)
        self._slots = threading.BoundedSemaphore(max_connections)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            try:
                request.sendall(BUSY_RESPONSE)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


def run(app: Flask, host: str, port: int, max_connections: int) -> None:
    """Serve ``app`` until interrupted."""
    server = CappedServer(host, port, app, max_connections)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
