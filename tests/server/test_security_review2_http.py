"""The HTTP edge's findings of the second security review (issue 27), one test each.

docs/security.md, "Second review (issue 27)", says what each finding was and what a user
or operator sees now. No test sends traffic anywhere but 127.0.0.1.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import logging
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask

from mathable_server.notify.webhooks import WebhookRefused, is_public, resolve
from mathable_server.run.access_log import redact
from mathable_server.run.dev_server import CappedServer
from mathable_server.run.gunicorn_app import RedactingLogger
from tests.server.apps import make_app
from tests.server.helpers import Table


def _app(tmp_path: Path, **settings: Any) -> Flask:
    return make_app(f"sqlite:///{tmp_path / 'review2.db'}", **settings)


# --- 1. no Content-Security-Policy, framing or nosniff headers ---------------------------


def test_r2_1_pages_and_pictures_carry_a_content_policy_no_framing_and_nosniff(
    tmp_path: Path,
) -> None:
    client = _app(tmp_path).test_client()
    table = Table(client)
    answers = {
        "home": client.get("/"),
        "page": client.get(f"/games/{table.id}"),
        "missing": client.get("/games/gnosuchgame"),
        "svg": client.get(f"/v1/games/{table.id}/board.svg"),
        "json": client.get(f"/v1/games/{table.id}"),
        "error": client.get("/v1/games/gnosuchgame"),
        "health": client.get("/v1/health"),
    }
    for name, answer in answers.items():
        assert answer.headers["X-Content-Type-Options"] == "nosniff", name
        assert answer.headers["X-Frame-Options"] == "DENY", name
        assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"], name
    page = answers["page"]
    policy = dict(
        part.strip().split(" ", 1) for part in page.headers["Content-Security-Policy"].split(";")
    )
    # The game page's one script runs by its hash; no other inline script would. 'self':
    # the play page's own script file (issue 28); nothing else this server answers is a
    # script (nosniff: a JSON body is never run as one).
    script = re.search(r"<script>(.*?)</script>", page.get_data(True), re.S)
    assert script is not None
    digest = base64.b64encode(hashlib.sha256(script[1].encode()).digest()).decode()
    assert policy["script-src"] == f"'self' 'sha256-{digest}'"
    assert policy["default-src"] == "'none'" and policy["connect-src"] == "'self'"
    assert policy["base-uri"] == "'none'" and policy["form-action"] == "'self'"
    assert answers["svg"].headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert "script-src" not in answers["svg"].headers["Content-Security-Policy"]


# --- 2. the home page printed whatever Host the request named -----------------------------


def test_r2_2_a_forged_host_is_never_printed_on_the_home_page(tmp_path: Path) -> None:
    client = _app(tmp_path).test_client()
    forged = client.get("/", headers={"Host": "evil.example"}).get_data(True)
    assert "evil.example" not in forged
    assert "--server https://&lt;this server&#39;s address&gt; register" in forged
    assert "MATHABLE_PUBLIC_URL" in forged
    for host in ("evil.example:80@127.0.0.1", "127.0.0.1:x", "localhost.evil.example"):
        assert "evil" not in client.get("/", headers={"Host": host}).get_data(True)
    # A development server, reached on this machine, names the address it was reached at.
    local = client.get("/", headers={"Host": "127.0.0.1:8080"}).get_data(True)
    assert "--server http://127.0.0.1:8080 register" in local
    configured = _app(tmp_path, public_url="https://mathable.example.org").test_client()
    page = configured.get("/", headers={"Host": "evil.example"}).get_data(True)
    assert "--server https://mathable.example.org register" in page and "evil" not in page


# --- 3. the unsubscribe secret reached the access log ------------------------------------


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


def test_r2_3_the_unsubscribe_secret_is_redacted_in_the_access_logs(
    dev_server: tuple[str, Flask], caplog: pytest.LogCaptureFixture
) -> None:
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


# --- 4. IPv4-translated IPv6 addresses passed the webhook address check ------------------


@pytest.mark.parametrize(
    "address",
    [
        "::ffff:0:7f00:1",  # ::ffff:0:127.0.0.1, IPv4-translated (::ffff:0:0:0/96)
        "::ffff:0:a9fe:a9fe",  # ... 169.254.169.254
        "::ffff:0:a00:1",  # ... 10.0.0.1
        "::ffff:127.0.0.1",  # IPv4-mapped
        "64:ff9b::7f00:1",  # NAT64
        "::7f00:1",  # IPv4-compatible
        "100::1",  # discard-only, outside global unicast
    ],
)
def test_r2_4_an_ipv6_address_carrying_a_private_ipv4_one_is_refused_at_lookup(
    tmp_path: Path, address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not is_public(ipaddress.ip_address(address))
    client = _app(tmp_path).test_client()
    table = Table(client)
    # A literal needs no lookup and no connection: refused when it is set.
    answer = client.put(
        "/v1/me/notifications",
        json={"webhook": {"url": f"https://[{address}]:9/hook", "secret": "s" * 20}},
        headers=table.bob.auth,
    )
    assert answer.status_code == 422 and answer.json["error"]["code"] == "webhook_refused"
    assert "not a public address" in answer.json["error"]["message"]  # not for being http
    # A name answering that address is refused at the delivery's lookup: nothing is sent.
    answers = [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, 80, 0, 0))]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: answers)
    with pytest.raises(WebhookRefused, match="not a public address"):
        resolve("http://hook.example/x", allow_private=False)


def test_r2_4_public_addresses_behind_the_ipv4_carrying_prefixes_still_pass() -> None:
    for address in ("::ffff:0:808:808", "64:ff9b::808:808", "2606:4700::1", "8.8.8.8"):
        assert is_public(ipaddress.ip_address(address)), address


def test_r2_1_a_not_modified_answer_keeps_the_stored_policy(table: Table) -> None:
    """A 304 carries no Content-Security-Policy (it would replace the stored page's or
    view's), but still nosniff and no framing; a held long-poll answers the same."""
    client = table.client
    url = f"/v1/games/{table.id}"
    first = client.get(url, headers=table.ada.auth)
    again = client.get(url, headers={**table.ada.auth, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert "Content-Security-Policy" not in again.headers
    assert again.headers["X-Content-Type-Options"] == "nosniff"
    assert again.headers["X-Frame-Options"] == "DENY"
    assert first.headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"
