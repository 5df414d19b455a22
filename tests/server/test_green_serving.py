"""What ``serve``'s workers change in gunicorn's writing of an answer.

A whole body goes out with its head in one ``sendall`` (the bytes are
gunicorn's own); a streamed or chunked body is written as gunicorn writes it;
the Date header is formatted once a second.
"""

from __future__ import annotations

from typing import Any

import pytest
from gunicorn import util
from gunicorn.config import Config
from gunicorn.http import wsgi

from mathable_server.gunicorn_app import OneSendResponse, _DateOncePerSecond


class Socket:
    """Records each ``sendall``."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.sent.append(bytes(data))


class Request:
    version = (1, 1)
    method = "GET"
    headers: list[tuple[str, str]] = []

    def should_close(self) -> bool:
        return False


def answer(kind: type, headers: list[tuple[str, str]], body: list[bytes]) -> list[bytes]:
    sock = Socket()
    response = kind(Request(), sock, Config())
    response.start_response("200 OK", headers)
    for part in body:
        response.write(part)
    response.close()
    return sock.sent


@pytest.fixture(autouse=True)
def fixed_date(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(util, "http_date", lambda timestamp=None: "Mon, 30 Nov 2026 20:00:00 GMT")


def test_a_whole_body_goes_with_its_head_in_one_send() -> None:
    body = b'{"id":"g1","version":4}'
    headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
    ours = answer(OneSendResponse, headers, [body])
    theirs = answer(wsgi.Response, headers, [body])
    assert len(theirs) == 2  # gunicorn: the head, then the body
    assert ours == [b"".join(theirs)]  # the same bytes, in one send


def test_a_streamed_or_unsized_body_is_written_as_gunicorn_writes_it() -> None:
    streamed: list[tuple[str, str]] = [("Content-Type", "application/x-ndjson")]
    lines = [b"\n", b'{"type":"moved"}\n']
    assert answer(OneSendResponse, streamed, lines) == answer(wsgi.Response, streamed, lines)
    sized = [("Content-Type", "text/plain"), ("Content-Length", "4")]
    parts = [b"ab", b"cd"]  # a body in two pieces
    assert answer(OneSendResponse, sized, parts) == answer(wsgi.Response, sized, parts)


def test_the_date_is_formatted_once_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []

    def formatted(timestamp: float | None = None) -> str:
        calls.append(timestamp)
        return f"second {int(timestamp or 0)}"

    clock = iter([100.1, 100.5, 100.9, 101.2])
    monkeypatch.setattr("mathable_server.gunicorn_app.time.time", lambda: next(clock))
    date = _DateOncePerSecond(formatted)
    assert [date() for _ in range(4)] == ["second 100"] * 3 + ["second 101"]
    assert calls == [100, 101]
    assert date(5.0) == "second 5"  # a given time is formatted as asked
