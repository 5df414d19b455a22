"""One write per answer under gunicorn: the response head goes out with the first body bytes.

gunicorn writes a response's head and its body with two ``sendall`` calls:
two segments, and on the client two wake-ups, for every answer. On loopback
or a busy machine the first send is the dear one (it wakes the client, which
then competes with the worker for a core), so a game view paid it twice.
``OneWriteResponse`` keeps the head until the first body bytes and sends
both at once; an answer without a body sends its head when it closes.
``install()`` makes gunicorn use it in the calling (worker) process.
"""

from __future__ import annotations

from typing import Any

from gunicorn.http import wsgi


class _Capture:
    """Stands in for the socket while gunicorn writes the head: keeps the bytes."""

    def __init__(self) -> None:
        self.data = b""

    def sendall(self, data: bytes) -> None:
        self.data += data


class OneWriteResponse(wsgi.Response):  # type: ignore[misc]
    """gunicorn's response, writing its head with the first body bytes."""

    sock: Any
    _head: bytes | None = None

    def send_headers(self) -> None:
        if self.headers_sent:
            return
        sock = self.sock
        capture = _Capture()
        self.sock = capture
        try:
            super().send_headers()
        finally:
            self.sock = sock
        self._head = capture.data

    def _flush_head(self) -> None:
        head, self._head = self._head, None
        if head:
            self.sock.sendall(head)

    def _emit_body(self, data: bytes) -> None:
        head, self._head = self._head, None
        if head is None:
            super()._emit_body(data)
        elif self.chunked:
            self.sock.sendall(b"".join([head, b"%X\r\n" % len(data), data, b"\r\n"]))
        else:
            self.sock.sendall(head + data)

    def sendfile(self, respiter: Any) -> bool:
        # gunicorn writes a file straight to the socket: the head must be out before it.
        self.send_headers()
        self._flush_head()
        return bool(super().sendfile(respiter))

    def close(self) -> None:
        self.send_headers()
        self._flush_head()
        super().close()


def install() -> None:
    """Answer with ``OneWriteResponse`` in this process (call it in each worker)."""
    wsgi.Response = OneWriteResponse
