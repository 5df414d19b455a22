"""One write per answer under gunicorn: the response head goes out with the first body bytes.

gunicorn writes a response's head and its body with two ``sendall`` calls:
two segments, and on the client two wake-ups, for every answer. On loopback
or a busy machine the first send is the dear one (it wakes the client, which
then competes with the worker for a core), so a game view paid it twice.
``OneWriteResponse`` keeps the head until the first body bytes and sends
both at once; an answer without a body sends its head when it closes.
``install()`` makes gunicorn use it in the calling (worker) process.

It also checks each list of headers once: thousands of long-polls woken by one
move answer with the same headers (``HeadCache``), and gunicorn would check
every name and value of each against its patterns again (a tenth of a worker's
time while they are answered). A list seen before is taken as gunicorn
processed it then; a new or a wrong one goes through gunicorn as always. The
head's lines of a list are joined once too (``send_headers`` writes the head as
gunicorn's does).
"""

from __future__ import annotations

from typing import Any

from gunicorn.http import wsgi

#: Header lists gunicorn has processed: what it kept of each, its length and upgrade flag.
_Processed = tuple[tuple[tuple[str, str], ...], "int | None", bool]
#: Distinct header lists remembered at most (forgotten all at once beyond it).
PROCESSED_SIZE = 1024
_processed: dict[tuple[Any, ...], _Processed] = {}
#: The head's lines of each header list sent.
_lines: dict[tuple[tuple[str, str], ...], str] = {}


class OneWriteResponse(wsgi.Response):  # type: ignore[misc]
    """gunicorn's response, writing its head with the first body bytes."""

    sock: Any
    headers: list[tuple[str, str]]
    response_length: int | None
    upgrade: bool
    headers_sent: bool
    _head: bytes | None = None

    def process_headers(self, headers: Any) -> None:
        try:
            key = tuple(headers)
            found = _processed.get(key)
        except TypeError:  # something unhashable: gunicorn says what is wrong
            super().process_headers(headers)
            return
        if found is None:
            kept, length, upgrade = self.headers, self.response_length, self.upgrade
            self.headers, self.response_length, self.upgrade = [], None, False
            try:
                super().process_headers(headers)
                found = (tuple(self.headers), self.response_length, self.upgrade)
            finally:
                new = self.headers
                self.headers = kept + new
                if self.response_length is None:
                    self.response_length = length
                self.upgrade = self.upgrade or upgrade
            if len(_processed) >= PROCESSED_SIZE:
                _processed.clear()
            _processed[key] = found
            return
        processed, length, upgrade = found
        self.headers.extend(processed)
        if length is not None:
            self.response_length = length
        if upgrade:
            self.upgrade = True

    def is_chunked(self) -> bool:
        if self.response_length is not None:
            return False  # as gunicorn answers, without asking its config for a protocol
        return bool(super().is_chunked())

    def send_headers(self) -> None:
        """Keep the head (gunicorn's ``send_headers``, the lines of a header list seen
        before written once) until the first body bytes."""
        if self.headers_sent:
            return
        key = tuple(self.headers)
        lines = _lines.get(key)
        if lines is None:
            lines = "".join([f"{k}: {v}\r\n" for k, v in self.headers])
            if len(_lines) >= PROCESSED_SIZE:
                _lines.clear()
            _lines[key] = lines
        head = "".join(self.default_headers()) + lines + "\r\n"
        self._head = head.encode("latin-1")
        self.headers_sent = True

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
