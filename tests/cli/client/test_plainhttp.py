"""``mathable_client.plainhttp`` against raw answers on 127.0.0.1: what ``http.client``
read for an ``http://`` server, it reads too (a chunked body, a body that runs to the
connection's end, an informational answer first, a body with a length), and a command
against an ``http://`` server imports neither ``http.client`` nor ``ssl``."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

from mathable_client.plainhttp import BadAnswer, PlainConnection


@pytest.fixture
def answering() -> Iterator[tuple[int, list[bytes], list[bytes]]]:
    """A server that answers each connection's request with the next canned bytes (and
    closes it); what it was sent is kept."""
    answers: list[bytes] = []
    received: list[bytes] = []
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += conn.recv(65536)
                received.append(data)
                conn.sendall(answers.pop(0))

    threading.Thread(target=serve, daemon=True).start()
    yield listener.getsockname()[1], answers, received
    listener.close()


def get(port: int) -> tuple[int, list[tuple[str, str]], bytes, bool]:
    connection = PlainConnection(f"127.0.0.1:{port}", timeout=5)
    try:
        connection.request("GET", "/v1/x?a=1", None, {"Authorization": "Bearer t"})
        answer = connection.getresponse()
        return answer.status, answer.getheaders(), answer.read(), answer.will_close
    finally:
        connection.close()


def test_a_chunked_body_is_read_whole(answering: tuple[int, list[bytes], list[bytes]]) -> None:
    port, answers, received = answering
    answers.append(
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n"
        b"4\r\n{\"a\"\r\n3;ext=1\r\n: 1\r\n1\r\n}\r\n0\r\nTrailer: x\r\n\r\n"
    )
    status, headers, body, _ = get(port)
    assert (status, body) == (200, b'{"a": 1}')
    assert ("X-A", "1") in headers
    sent = received[0].decode()
    assert sent.startswith("GET /v1/x?a=1 HTTP/1.1\r\n")
    assert f"Host: 127.0.0.1:{port}\r\n" in sent and "Authorization: Bearer t\r\n" in sent


def test_a_body_without_length_runs_to_the_end(
    answering: tuple[int, list[bytes], list[bytes]],
) -> None:
    port, answers, _ = answering
    answers.append(b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n[1, 2]")
    status, _, body, will_close = get(port)
    assert (status, body, will_close) == (200, b"[1, 2]", True)


def test_an_informational_answer_is_skipped(
    answering: tuple[int, list[bytes], list[bytes]],
) -> None:
    port, answers, _ = answering
    answers.append(
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\n{}"
    )
    status, _, body, will_close = get(port)
    assert (status, body, will_close) == (404, b"{}", False)


def test_endless_interim_answers_and_huge_bodies_are_refused(
    answering: tuple[int, list[bytes], list[bytes]],
) -> None:
    """Fourth review, (j): a few 1xx answers are skipped, not any number of them (one
    call each, before); a body is read only up to ``MAX_BODY``, whatever its length says."""
    from mathable_client.plainhttp import MAX_BODY, MAX_INTERIM

    port, answers, _ = answering
    answers.append(b"HTTP/1.1 102 Processing\r\n\r\n" * (MAX_INTERIM + 1)
                   + b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")  # fmt: skip
    with pytest.raises(BadAnswer, match="interim"):
        get(port)
    answers.append(f"HTTP/1.1 200 OK\r\nContent-Length: {MAX_BODY + 1}\r\n\r\n{{}}".encode())
    with pytest.raises(BadAnswer, match="body over"):
        get(port)
    answers.append(f"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                   f"{MAX_BODY + 1:x}\r\n{{}}".encode())  # fmt: skip
    with pytest.raises(BadAnswer, match="body over"):
        get(port)


def test_what_is_not_an_answer_is_refused(
    answering: tuple[int, list[bytes], list[bytes]],
) -> None:
    port, answers, _ = answering
    answers.append(b"SSH-2.0-OpenSSH\r\n\r\n")
    with pytest.raises(BadAnswer):
        get(port)


def test_a_header_that_would_split_the_request_is_refused() -> None:
    connection = PlainConnection("127.0.0.1:9", timeout=1)
    with pytest.raises(ValueError):
        connection.request("GET", "/", None, {"Authorization": "t\r\nX-Evil: 1"})
    assert connection.sock is None  # refused before any connection


def test_a_call_to_an_http_server_imports_neither_http_client_nor_ssl(
    answering: tuple[int, list[bytes], list[bytes]],
) -> None:
    port, answers, _ = answering
    answers.append(b"HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n{\"id\": \"p\"}")
    code = (
        "import sys, json\n"
        "from mathable_client.transport import Transport\n"
        f"reply = Transport('http://127.0.0.1:{port}').request('GET', '/v1/me')\n"
        "print(json.dumps([reply.data, 'http.client' in sys.modules, 'ssl' in sys.modules]))\n"
    )
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert json.loads(done.stdout) == [{"id": "p"}, False, False]
