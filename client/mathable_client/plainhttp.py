"""HTTP/1.1 over a plain socket: what ``DirectSender`` needs of ``http.client`` for an
``http://`` server, without importing it.

``http.client`` imports ``ssl`` (and ``email`` to read headers) whatever the
scheme: a third of what a one-call command (``mathable-cli show``) spends
starting. This speaks the subset the client uses: one request at a time on a
kept-alive connection, answers with a ``Content-Length``, chunked, or read to
the connection's end. ``https://`` still goes through ``http.client``.
"""

from __future__ import annotations

import socket
from collections.abc import Mapping
from typing import Any

#: The longest status line or header line read, and the most header lines.
MAX_LINE = 65536
MAX_HEADERS = 100
#: The largest body read (a server sending more is not one of ours), and the most
#: interim (1xx) answers skipped before the answer.
MAX_BODY = 64 * 1024 * 1024
MAX_INTERIM = 5


class RemoteDisconnected(ConnectionResetError):
    """The server closed the connection before any answer (a kept-alive one it dropped)."""


class BadAnswer(ConnectionError):
    """The server's bytes are not an HTTP/1.x answer."""


def _checked(text: str, what: str) -> bytes:
    """``text`` as it goes on the wire; ValueError for what would split the request."""
    if any(c in text for c in "\r\n\0"):
        raise ValueError(f"invalid {what} {text!r}")
    return text.encode("latin-1")


class PlainResponse:
    """A whole answer, read at once: ``status``, ``reason``, ``getheaders()``, ``read()``."""

    def __init__(
        self, status: int, reason: str, headers: list[tuple[str, str]], body: bytes, close: bool
    ) -> None:
        self.status, self.reason, self._headers, self._body = status, reason, headers, body
        self.will_close = close

    def getheaders(self) -> list[tuple[str, str]]:
        return list(self._headers)

    def read(self) -> bytes:
        return self._body


class PlainConnection:
    """One kept-alive connection to ``netloc`` (``host`` or ``host:port``)."""

    def __init__(self, netloc: str, timeout: float) -> None:
        host, _, port = netloc.rpartition(":") if netloc.rfind(":") > netloc.rfind("]") else (
            netloc, "", "")  # fmt: skip
        if not port:
            host, port = netloc, "80"
        if not port.isdigit():
            raise ValueError(f"nonnumeric port: {port!r}")
        self.host, self.port = host.strip("[]"), int(port)
        self._host_header = netloc
        self.timeout = timeout
        self.sock: socket.socket | None = None
        self._file: Any = None
        self._method = "GET"

    def _connect(self) -> None:
        # An ASCII host as bytes: a str one is encoded by the "idna" codec, whose import
        # (and stringprep's) costs more than the whole connection to 127.0.0.1.
        host: Any = self.host.encode("ascii") if self.host.isascii() else self.host
        self.sock = socket.create_connection((host, self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._file = self.sock.makefile("rb")

    def request(
        self, method: str, target: str, body: bytes | None, headers: Mapping[str, str]
    ) -> None:
        head = [_checked(f"{method} {target} HTTP/1.1", "request line")]
        names = {name.lower() for name in headers}
        if "host" not in names:
            head.append(b"Host: " + _checked(self._host_header, "host"))
        if "accept-encoding" not in names:
            head.append(b"Accept-Encoding: identity")
        for name, value in headers.items():
            if not name or any(c in name for c in ":\r\n\0 \t"):
                raise ValueError(f"invalid header name {name!r}")
            head.append(_checked(name, "header name") + b": " + _checked(str(value), "header"))
        if body is not None or method in ("POST", "PUT", "PATCH"):
            head.append(b"Content-Length: %d" % len(body or b""))
        data = b"\r\n".join(head) + b"\r\n\r\n" + (body or b"")
        if self.sock is None:
            self._connect()
        assert self.sock is not None
        self.sock.sendall(data)
        self._method = method

    def _line(self) -> bytes:
        assert self._file is not None
        line: bytes = self._file.readline(MAX_LINE + 1)
        if len(line) > MAX_LINE:
            raise BadAnswer("a line of the answer is too long")
        return line

    def getresponse(self) -> PlainResponse:
        for _interim in range(MAX_INTERIM + 1):
            answer = self._answer()
            if answer is not None:
                return answer
        raise BadAnswer(f"more than {MAX_INTERIM} interim (1xx) answers")

    def _read(self, size: int) -> bytes:
        assert self._file is not None
        if size > MAX_BODY:
            raise BadAnswer(f"an answer's body over {MAX_BODY} bytes")
        data: bytes = self._file.read(size)
        return data

    def _answer(self) -> PlainResponse | None:
        """The answer, or None for an interim (1xx) one (the answer follows)."""
        first = self._line()
        if not first:
            raise RemoteDisconnected("the server closed the connection without an answer")
        parts = first.decode("latin-1").rstrip("\r\n").split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
            raise BadAnswer(f"not an HTTP answer: {first[:80]!r}")
        version, status = parts[0], int(parts[1])
        reason = parts[2] if len(parts) > 2 else ""
        headers: list[tuple[str, str]] = []
        while True:
            line = self._line()
            if line in (b"\r\n", b"\n"):
                break
            if not line:
                raise BadAnswer("the answer ended in its headers")
            if len(headers) >= MAX_HEADERS:
                raise BadAnswer("too many headers")
            text = line.decode("latin-1").rstrip("\r\n")
            if text[:1] in (" ", "\t") and headers:  # a folded line continues the last
                name, value = headers[-1]
                headers[-1] = (name, f"{value} {text.strip()}")
                continue
            name, _, value = text.partition(":")
            headers.append((name.strip(), value.strip()))
        found = {name.lower(): value for name, value in headers}
        connection = found.get("connection", "").lower()
        close = "close" in connection or (version == "HTTP/1.0" and "keep-alive" not in connection)
        if status < 200 and status != 101:
            return None  # 1xx: the answer follows
        if self._method == "HEAD" or status in (204, 304):
            body = b""
        elif "chunked" in found.get("transfer-encoding", "").lower():
            body = self._chunked()
        elif "content-length" in found:
            if not found["content-length"].isdigit():
                raise BadAnswer(f"not a length: {found['content-length'][:40]!r}")
            length = int(found["content-length"])
            body = self._read(length)
            if len(body) < length:
                raise BadAnswer("the answer ended before its length")
        else:
            assert self._file is not None
            body, close = self._file.read(MAX_BODY + 1), True
            if len(body) > MAX_BODY:
                raise BadAnswer(f"an answer's body over {MAX_BODY} bytes")
        return PlainResponse(status, reason, headers, body, close)

    def _chunked(self) -> bytes:
        assert self._file is not None
        chunks: list[bytes] = []
        total = 0
        while True:
            size_line = self._line()
            if not size_line:
                raise BadAnswer("the answer ended in a chunk")
            try:
                size = int(size_line.split(b";", 1)[0].strip() or b"0", 16)
            except ValueError:
                raise BadAnswer(f"not a chunk's size: {size_line[:40]!r}") from None
            if size == 0:
                while self._line() not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return b"".join(chunks)
            total += size
            if total > MAX_BODY:
                raise BadAnswer(f"an answer's body over {MAX_BODY} bytes")
            chunk = self._read(size)
            if len(chunk) < size:
                raise BadAnswer("the answer ended in a chunk")
            chunks.append(chunk)
            self._line()  # the CRLF after the chunk

    def close(self) -> None:
        file, sock = self._file, self.sock
        self._file = self.sock = None
        if file is not None:
            file.close()
        if sock is not None:
            sock.close()
