"""Hostile input: over-long strings and headers, deep JSON, huge numbers. 4xx, never 5xx."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests
from flask.testing import FlaskClient

from tests.server.apps import make_app
from tests.server.helpers import Table, register
from tests.server.live import live_server

pytestmark = pytest.mark.both_databases

TEN_KB = 10 * 1024
ONE_MB = 1024 * 1024


def code_of(response: Any) -> str:
    code: str = response.json["error"]["code"]
    return code


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "a" * TEN_KB}, "name"),
        ({"name": "a" * 60_000}, "name"),
        ({"name": "ada", "email": "a" * TEN_KB + "@example.org"}, "email"),
        ({"name": "ada", "email": "a@" + "b." * 5000 + "org"}, "email"),
        ({"name": "ada", "invitation": "x" * TEN_KB}, "invitation"),
        ({"name": "ada", "a" * TEN_KB: 1}, "a" * TEN_KB),
    ],
)
def test_over_long_registration_fields_are_400_validation_error(
    client: FlaskClient, body: dict[str, Any], field: str
) -> None:
    started = time.monotonic()
    response = client.post("/v1/players", json=body)
    assert time.monotonic() - started < 1  # no pattern takes long on long input
    assert response.status_code == 400 and code_of(response) == "validation_error"
    assert list(response.json["error"]["fields"]) == [field]  # type: ignore[index]
    assert client.get("/v1/me", headers={"Authorization": "Bearer x.y"}).status_code == 401


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"referee": "r" * TEN_KB}, "referee"),
        ({"invite": ["n" * TEN_KB]}, "invite"),
        ({"invite": ["bob"] * 5000}, "invite"),
        ({"tiles": [1] * 10_000}, "tiles"),
    ],
)
def test_over_long_game_options_are_400_validation_error(
    client: FlaskClient, body: dict[str, Any], field: str
) -> None:
    ada = register(client, "ada")
    response = client.post("/v1/games", json=body, headers=ada.auth)
    assert response.status_code == 400 and code_of(response) == "validation_error"
    assert list(response.json["error"]["fields"]) == [field]  # type: ignore[index]
    assert client.get("/v1/me", headers=ada.auth).json["games"] == []  # type: ignore[index]


@pytest.mark.parametrize(
    "command",
    [
        {"type": "place", "square": "I" * TEN_KB, "tile": 12},
        {"type": "t" * TEN_KB},
        {"type": "turn", "placements": [{"square": "I8", "tile": 12}] * 2000},
        {"type": "exchange", "tiles": [1] * 10_000},
        {"type": "place", "square": "I8", "tile": 12, "equations": [{}] * 3000},
    ],
)
def test_over_long_commands_are_400_and_change_nothing(
    table: Table, unchanged: None, command: dict[str, Any]
) -> None:
    response = table.send(table.ada, **command)
    assert response.status_code == 400 and code_of(response) == "validation_error"


def test_a_megabyte_in_any_header_is_refused_with_a_stable_code(
    table: Table, unchanged: None
) -> None:
    url = f"/v1/games/{table.id}/moves"
    command = {"type": "pass", "expected_version": 3}
    huge = "a" * ONE_MB
    token = table.client.post(url, json=command, headers={"Authorization": f"Bearer {huge}"})
    assert token.status_code == 401 and code_of(token) == "bad_token"
    long_id = table.client.get("/v1/me", headers={"Authorization": f"Bearer {huge}.{huge}"})
    assert long_id.status_code == 401 and code_of(long_id) == "bad_token"
    for name, code in (("Idempotency-Key", "bad_idempotency_key"), ("If-Match", "bad_if_match")):
        response = table.client.post(url, json=command, headers={**table.ada.auth, name: huge})
        assert response.status_code == 400 and code_of(response) == code, name
    ignored = {"If-None-Match": huge, "X-Anything": huge, "User-Agent": huge}
    view = table.client.get(f"/v1/games/{table.id}", headers={**table.ada.auth, **ignored})
    assert view.status_code == 200


@pytest.mark.parametrize("depth", [50, 900, 990, 5_000, 30_000])
def test_deeply_nested_json_is_400(table: Table, unchanged: None, depth: int) -> None:
    nested = "[" * depth + "]" * depth
    for path, body in (
        ("/v1/players", '{"name": ' + nested + "}"),
        (f"/v1/games/{table.id}/moves", '{"type": "pass", "expected_version": ' + nested + "}"),
        ("/v1/games", '{"invite": ' + nested + "}"),
        ("/v1/games", nested),
    ):
        response = table.client.post(
            path, data=body, headers={**table.ada.auth, "Content-Type": "application/json"}
        )
        assert response.status_code == 400, (path, depth)
        assert code_of(response) in ("bad_json", "validation_error")
    deep = min(depth, 8000)  # objects nested deeper than this are over 64 KiB
    objects = '{"a": ' * deep + "1" + "}" * deep
    response = table.client.post(
        "/v1/games", data=objects, headers={**table.ada.auth, "Content-Type": "application/json"}
    )
    assert response.status_code == 400 and code_of(response) in ("bad_json", "validation_error")


def test_numbers_too_long_to_read_are_400(table: Table, unchanged: None) -> None:
    digits = "9" * 5000
    body = '{"type": "pass", "expected_version": ' + digits + "}"
    response = table.client.post(
        f"/v1/games/{table.id}/moves",
        data=body,
        headers={**table.ada.auth, "Content-Type": "application/json"},
    )
    assert response.status_code == 400 and code_of(response) == "bad_json"
    for query in (f"after={digits}", f"limit={digits}", "after=1e999", "after=-" + digits):
        events = table.client.get(f"/v1/games/{table.id}/events?{query}")
        assert events.status_code == 400 and code_of(events) == "validation_error", query
    for query in (f"wait={digits}", "wait=1e999", "wait=nan", f"since={digits}"):
        view = table.client.get(f"/v1/games/{table.id}?{query}")
        assert view.status_code == 400 and code_of(view) == "validation_error", query
    me = table.client.get(f"/v1/me?offset={digits}", headers=table.ada.auth)
    assert me.status_code == 400 and code_of(me) == "validation_error"


def test_game_ids_over_64_characters_are_404(table: Table, unchanged: None) -> None:
    long_id = "g" * TEN_KB
    answers = [
        table.client.get(f"/v1/games/{long_id}"),
        table.client.get(f"/v1/games/{long_id}/events"),
        table.client.post(f"/v1/games/{long_id}/join", headers=table.eve.auth),
        table.client.post(
            f"/v1/games/{long_id}/moves",
            json={"type": "pass", "expected_version": 3},
            headers=table.ada.auth,
        ),
    ]
    assert [(r.status_code, code_of(r)) for r in answers] == [(404, "game_not_found")] * 4


def test_unknown_query_parameters_of_any_length_are_400(table: Table) -> None:
    response = table.client.get(f"/v1/games/{table.id}?{'q' * TEN_KB}=1")
    assert response.status_code == 400 and code_of(response) == "validation_error"


def _raw_get(base_url: str, header: str) -> bytes:
    """A GET with ``header`` sent over a bare socket; the first bytes of the answer."""
    parts = urlsplit(base_url)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall(
            f"GET /v1/me HTTP/1.1\r\nHost: x\r\n{header}\r\nConnection: close\r\n\r\n".encode()
        )
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


@pytest.mark.e2e
def test_real_servers_refuse_megabyte_headers_with_431_and_keep_serving(
    live_url: str, tmp_path: Path
) -> None:
    # The HTTP servers refuse these before the app sees them (their own 431, not JSON).
    with live_server(f"sqlite:///{tmp_path / 'g.db'}", threads=2) as gunicorn_url:
        for url in (live_url, gunicorn_url):
            for header in (
                f"Authorization: Bearer {'a' * ONE_MB}",
                f"Idempotency-Key: {'k' * ONE_MB}",
                "X-Many: 1\r\n" + "".join(f"X-H{n}: v\r\n" for n in range(1000)) + "X-Z: 1",
            ):
                status_line = _raw_get(url, header).split(b"\r\n", 1)[0]
                assert status_line.startswith(b"HTTP/1.1 431"), (url, status_line)
            assert requests.get(f"{url}/v1/health", timeout=10).json() == {"status": "ok"}


@pytest.fixture
def any_table(database_url: str) -> Any:
    """A started game on SQLite and on PostgreSQL (which refuses NUL and 64-bit versions)."""
    app = make_app(database_url)
    yield Table(app.test_client())
    app.extensions["mathable"].store.engine.dispose()


def test_strings_postgresql_cannot_store_are_refused_at_the_edge(any_table: Table) -> None:
    client, auth = any_table.client, any_table.ada.auth
    before = any_table.observed()
    for name in ["a\u0000b", "\ud800x", "-dash", "x" * 33]:
        answer = client.post("/v1/games", json={"players": 2, "invite": [name]}, headers=auth)
        assert answer.status_code == 400 and code_of(answer) == "validation_error", name
    assert client.get("/v1/games/g%00x").status_code == 404
    assert client.get(f"/v1/games/{any_table.id}%00").status_code == 404
    assert client.get("/v1/me", headers={"Authorization": "Bearer p%00x.secret"}).status_code == 401
    assert any_table.observed() == before


def test_versions_beyond_32_bits_are_refused_not_crashed_on(any_table: Table) -> None:
    client, game, before = any_table.client, any_table.id, any_table.observed()
    huge = 2**31
    assert client.get(f"/v1/games/{game}/events?after={huge}").status_code == 400
    assert client.get(f"/v1/games/{game}?since={huge}&wait=1").status_code == 400
    assert any_table.send(any_table.ada, expected_version=huge, type="pass").status_code == 400
    assert any_table.observed() == before


def _chunked(size: int) -> Iterator[bytes]:
    yield b'{"name": "'
    for _ in range(size // 1024):
        yield b"a" * 1024
    yield b'"}'


@pytest.mark.e2e
@pytest.mark.parametrize("threads", [None, 2], ids=["run", "serve"])
def test_a_chunked_body_over_the_limit_gets_413(tmp_path: Path, threads: int | None) -> None:
    """First security review (issue 10), finding 10: chunked bodies skipped the 413 check."""
    with live_server(f"sqlite:///{tmp_path / 'chunks.db'}", threads=threads) as url:
        big = requests.post(f"{url}/v1/players", data=_chunked(1 << 20), timeout=30,
                            headers={"Content-Type": "application/json"})  # fmt: skip
        assert big.status_code == 413 and big.json()["error"]["code"] == "body_too_large"
        small = requests.post(
            f"{url}/v1/players",
            data=iter([b'{"name": ', b'"ada"}']),
            headers={"Content-Type": "application/json"},
            timeout=30,
        )
        assert small.status_code == 201, small.text
