"""Under gunicorn an answer's head goes out with its first body bytes, in one write."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest
from gunicorn.config import Config
from gunicorn.http import wsgi
from gunicorn.http.errors import InvalidResponseHeader
from gunicorn.http.parser import RequestParser

from mathable_server.run import gunicorn_writes
from mathable_server.run.gunicorn_writes import OneWriteResponse

pytestmark = pytest.mark.both_databases

App = Callable[[dict[str, Any], Any], Iterable[bytes]]


class _Socket:
    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.writes.append(bytes(data))


GET = b"GET /v1/games/g1 HTTP/1.1\r\nHost: h\r\n\r\n"


def _serve(app: App, request: bytes = GET) -> list[bytes]:
    """The writes gunicorn makes to answer ``request`` with ``app``, as a worker does."""
    cfg = Config()
    parsed = next(RequestParser(cfg, iter([request]), ("127.0.0.1", 5000)))
    sock = _Socket()
    response, environ = wsgi.create(parsed, sock, ("127.0.0.1", 5000), ("127.0.0.1", 80), cfg)
    for item in app(environ, response.start_response):
        response.write(item)
    response.close()
    return sock.writes


def _view(_environ: dict[str, Any], start: Any) -> list[bytes]:
    start("200 OK", [("Content-Type", "application/json"), ("Content-Length", "11")])
    return [b'{"id":"g1"}']


def _stream(_environ: dict[str, Any], start: Any) -> Iterator[bytes]:
    start("200 OK", [("Content-Type", "application/x-ndjson")])
    yield b"\n"
    yield b'{"type":"moved"}\n'


def _not_modified(_environ: dict[str, Any], start: Any) -> list[bytes]:
    start("304 Not Modified", [("ETag", '"3"')])
    return []


@pytest.fixture
def one_write(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wsgi, "Response", wsgi.Response)  # put back after the test
    gunicorn_writes.install()
    assert wsgi.Response is OneWriteResponse


def test_a_view_is_one_write_with_head_and_body(one_write: None) -> None:
    writes = _serve(_view)
    assert len(writes) == 1
    head, _, body = writes[0].partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK") and b"Content-Length: 11" in head
    assert body == b'{"id":"g1"}'


def test_a_stream_sends_its_head_with_the_first_line(one_write: None) -> None:
    writes = _serve(_stream)
    assert writes[0].startswith(b"HTTP/1.1 200 OK") and writes[0].endswith(b"\r\n\r\n1\r\n\n\r\n")
    assert b"".join(writes[1:]) == b'11\r\n{"type":"moved"}\n\r\n0\r\n\r\n'


@pytest.mark.parametrize(
    ("app", "request_bytes"),
    [
        (_not_modified, GET),
        (_view, b"HEAD /v1/games/g1 HTTP/1.1\r\nHost: h\r\n\r\n"),
    ],
)
def test_an_answer_without_a_body_still_sends_its_head(
    one_write: None, app: App, request_bytes: bytes
) -> None:
    writes = _serve(app, request_bytes)
    assert len(writes) == 1 and writes[0].endswith(b"\r\n\r\n")


def _plain(app: App, request: bytes = GET) -> list[bytes]:
    """The writes gunicorn's own response makes, joined: what ``OneWriteResponse`` must send."""
    return [b"".join(_serve(app, request))]


def _headers(headers: list[tuple[str, str]], body: bytes = b"{}") -> App:
    def app(_environ: dict[str, Any], start: Any) -> list[bytes]:
        start("200 OK", headers)
        return [body]

    return app


@pytest.mark.parametrize(
    "headers",
    [
        [("Content-Type", "application/json"), ("Content-Length", "2"), ("X-A", " b ")],
        [("Content-Type", "application/json"), ("Connection", "close"), ("Keep-Alive", "1")],
        [("Content-Type", "application/json")],  # chunked
    ],
)
def test_headers_seen_before_are_sent_as_gunicorn_sends_them(
    monkeypatch: pytest.MonkeyPatch, headers: list[tuple[str, str]]
) -> None:
    gunicorn_writes._processed.clear()
    expected = _plain(_headers(headers))
    monkeypatch.setattr(wsgi, "Response", wsgi.Response)
    gunicorn_writes.install()
    first, second = (b"".join(_serve(_headers(headers))) for _ in range(2))
    date = re.compile(rb"Date: [^\r]*\r\n")
    assert date.sub(b"", first) == date.sub(b"", second) == date.sub(b"", expected[0])
    assert tuple(headers) in gunicorn_writes._processed


def test_a_wrong_header_is_refused_every_time(one_write: None) -> None:
    bad = _headers([("Content-Type", "application/json"), ("X-Bad", "a\r\nb")])
    for _ in range(2):
        with pytest.raises(InvalidResponseHeader):
            _serve(bad)
