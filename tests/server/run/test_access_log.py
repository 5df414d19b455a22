"""The access logs: the one-click unsubscribe secret, which RFC 8058 puts in the URL,
never reaches them, however %-encoded, in the request line, path or ``Referer``:
``run``'s lines (``run/access_log.py``) and ``serve``'s gunicorn logger
(``RedactingLogger``) alike.

Pinned since the second security review (issue 27), the HTTP edge's finding 3.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask

from mathable_server.run.access_log import redact
from mathable_server.run.dev_server import CappedServer
from mathable_server.run.gunicorn_app import RedactingLogger
from tests.server.apps import make_app
from tests.server.helpers import Table


def _app(tmp_path: Path, **settings: Any) -> Flask:
    return make_app(f"sqlite:///{tmp_path / 'review2.db'}", **settings)


@pytest.fixture
def dev_server(tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    """``mathable-server run``'s server (werkzeug, its handler) on 127.0.0.1, in this process."""
    app = _app(tmp_path, public_url="http://127.0.0.1")
    server = CappedServer("127.0.0.1", 0, app, 8)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", app
    finally:
        server.shutdown()
        server.server_close()


def test_the_unsubscribe_secret_is_redacted_in_the_access_logs(
    dev_server: tuple[str, Flask], caplog: pytest.LogCaptureFixture
) -> None:
    """Second security review (issue 27), the HTTP edge's finding 3: the one-click
    unsubscribe secret (/v1/unsubscribe/<player>.<signature>) reached the access log."""
    url, app = dev_server
    client = app.test_client()
    table = Table(client)
    bob = client.get("/v1/me", headers=table.bob.auth).json["id"]
    token = app.extensions["mathable_mail"].context().unsubscribe_token(bob)
    link = f"{url}/v1/unsubscribe/{bob}.{token}"
    with caplog.at_level(logging.INFO, logger="werkzeug"):
        page = requests.get(link, timeout=10)
        assert page.status_code == 200 and page.headers["Referrer-Policy"] == "no-referrer"
        # RFC 8058 one-click still turns mail off, the secret in the URL as the mail gave it.
        one_click = requests.post(link, data={"List-Unsubscribe": "One-Click"}, timeout=10)
        assert one_click.json() == {"email": "off"}
        encoded = f"{url}/v1/unsubscribe/{bob}%2E{token[:4]}%{ord(token[4]):02X}{token[5:]}"
        assert requests.get(encoded, timeout=10).status_code == 200
    lines = [record.getMessage() for record in caplog.records if record.name == "werkzeug"]
    assert len([line for line in lines if "/v1/unsubscribe/" in line]) == 3, lines
    assert all(token not in line and token[5:] not in line for line in lines), lines
    assert f"/v1/unsubscribe/{bob}.[redacted]" in lines[0]
    # serve's (gunicorn's) access lines, when an operator turns them on, are redacted too.
    atoms = _gunicorn_atoms(f"/v1/unsubscribe/{bob}.{token}", referer=link)
    assert not [v for v in atoms.values() if isinstance(v, str) and token in v]
    assert atoms["r"] == f"POST /v1/unsubscribe/{bob}.[redacted] HTTP/1.1"
    assert redact("GET /v1/games/g1?since=2 HTTP/1.1") == "GET /v1/games/g1?since=2 HTTP/1.1"


def _gunicorn_atoms(path: str, referer: str) -> dict[str, Any]:
    from datetime import timedelta

    from gunicorn.config import Config

    class _Answer:
        status = "200 OK"
        sent = 12
        headers: list[tuple[str, str]] = []

    environ = {
        "REQUEST_METHOD": "POST",
        "RAW_URI": path,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_REFERER": referer,
    }
    request_headers = [("REFERER", referer)]
    found: dict[str, Any] = RedactingLogger(Config()).atoms(
        _Answer(), request_headers, environ, timedelta(milliseconds=3)
    )
    return found
