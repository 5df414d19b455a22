"""The transport's own HTTP (``http.client``) against a real server on 127.0.0.1.

The other CLI tests send through ``requests`` (``responses`` answers them); a
command run as a process sends through ``DirectSender`` (the end-to-end tests).
Here: what it sends, keep-alive and a connection the server dropped while it
idled, redirects, timeouts, refusals, TLS that does not verify, and when
``requests`` is used instead.
"""

from __future__ import annotations

import json
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from mathable_client import senders
from mathable_client.senders import DirectSender, RequestsSender, SendFailed, sender_for
from mathable_client.transport import ApiError, BadRequest, Transport, Unreachable


@pytest.fixture(autouse=True)
def direct(clean_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/cli/conftest.py sends every other test through requests: not these."""
    monkeypatch.setattr(senders, "sender_for", sender_for)


class Recorder(BaseHTTPRequestHandler):
    """Answers JSON; records each request and the connection it came on."""

    protocol_version = "HTTP/1.1"
    seen: list[dict[str, Any]]
    connections: set[int]
    script: dict[str, Any]

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        self.connections.add(self.client_address[1])
        self.seen.append(
            {
                "method": self.command,
                "path": self.path,
                "headers": dict(self.headers),
                "body": body,
                "connection": self.client_address[1],  # its port: an id() may be reused
            }
        )
        rule = self.script.get(self.path.split("?")[0], {})
        if rule.get("sleep"):
            time.sleep(rule["sleep"])
        status = rule.get("status", 200)
        if rule.get("statuses"):
            status = rule["statuses"].pop(0)
        payload = json.dumps(rule.get("json", {"ok": True, "path": self.path})).encode()
        self.send_response(status)
        for name, value in rule.get("headers", {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        try:
            self.wfile.write(payload)
        except BrokenPipeError:
            return  # the client gave up waiting (the timeout test)
        if rule.get("drop"):
            self.close_connection = True  # without saying so: the client keeps it

    do_GET = do_POST = do_DELETE = do_PATCH = _answer


@pytest.fixture
def server() -> Iterator[tuple[str, type[Recorder], ThreadingHTTPServer]]:
    handler = type("Handler", (Recorder,), {"seen": [], "connections": set(), "script": {}})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", handler, httpd
    httpd.shutdown()
    httpd.server_close()


def test_a_call_sends_its_json_token_key_and_query(server: Any) -> None:
    base, handler, _ = server
    transport = Transport(base, "tok", user_agent="mathable-cli/9")
    assert isinstance(transport.sender, DirectSender)
    reply = transport.request(
        "POST",
        "/v1/games/g1/moves",
        body={"type": "pass", "name": "Åse"},
        params={"a": 1, "none": None, "many": ["x", "y"]},
        idempotency_key="k" * 32,
    )
    assert reply.status == 200 and reply.data["ok"] is True
    request = handler.seen[0]
    assert request["method"] == "POST"
    assert request["path"] == "/v1/games/g1/moves?a=1&many=x&many=y"
    assert json.loads(request["body"]) == {"type": "pass", "name": "Åse"}
    headers = request["headers"]
    assert headers["Authorization"] == "Bearer tok"
    assert headers["Idempotency-Key"] == "k" * 32
    assert headers["Content-Type"] == "application/json"
    assert headers["User-Agent"] == "mathable-cli/9"
    assert headers["Accept"] == "application/json"


def test_a_read_has_no_body_and_no_key(server: Any) -> None:
    base, handler, _ = server
    Transport(base).request("GET", "/v1/games/g1")
    request = handler.seen[0]
    assert request["body"] == b""
    assert "Idempotency-Key" not in request["headers"]
    assert "Authorization" not in request["headers"]


def test_calls_share_one_kept_alive_connection(server: Any) -> None:
    base, handler, _ = server
    transport = Transport(base)
    for _ in range(5):
        transport.request("GET", "/v1/games/g1")
    assert len(handler.seen) == 5
    assert len({r["connection"] for r in handler.seen}) == 1


def test_a_connection_dropped_while_idle_is_replaced_at_once(server: Any) -> None:
    base, handler, _ = server
    handler.script["/one"] = {"drop": True}  # closed after answering, as after an idle timeout
    slept: list[float] = []
    transport = Transport(base, sleep=slept.append)
    transport.request("GET", "/one")
    time.sleep(0.2)  # the server has closed its end
    reply = transport.request("POST", "/two", body={}, idempotency_key="q" * 32)
    assert reply.status == 200
    assert slept == []  # no backoff: a new connection at once
    assert [r["path"] for r in handler.seen] == ["/one", "/two"]  # sent once
    assert len({r["connection"] for r in handler.seen}) == 2


def test_an_error_answer_is_an_api_error_with_its_code(server: Any) -> None:
    base, handler, _ = server
    handler.script["/v1/games/nope"] = {
        "status": 404,
        "json": {"error": {"code": "game_not_found", "message": "no such game"}},
    }
    with pytest.raises(ApiError) as caught:
        Transport(base).request("GET", "/v1/games/nope")
    assert (caught.value.status, caught.value.code) == (404, "game_not_found")


def test_a_busy_server_is_retried_after_the_time_it_asks(server: Any) -> None:
    base, handler, _ = server
    handler.script["/busy"] = {"statuses": [503, 200], "headers": {"retry-after": "2"}}
    slept: list[float] = []
    reply = Transport(base, sleep=slept.append).request("GET", "/busy")
    assert reply.status == 200
    assert len(slept) == 1 and 2.0 <= slept[0] <= 2.5  # Retry-After, whatever its case


def test_a_read_follows_a_redirect_and_keeps_the_token_on_the_same_host(server: Any) -> None:
    base, handler, _ = server
    handler.script["/old"] = {"status": 308, "headers": {"Location": "/new"}}
    reply = Transport(base, "tok").request("GET", "/old")
    assert reply.data["path"] == "/new"
    assert handler.seen[-1]["headers"]["Authorization"] == "Bearer tok"


def test_a_redirect_to_another_host_drops_the_token(server: Any) -> None:
    base, handler, _ = server
    port = base.rsplit(":", 1)[1]
    handler.script["/away"] = {
        "status": 302,
        "headers": {"Location": f"http://localhost:{port}/there"},
    }
    reply = Transport(base, "tok").request("GET", "/away")
    assert reply.data["path"] == "/there"
    assert "Authorization" not in handler.seen[-1]["headers"]


def test_a_write_follows_a_307_or_308_on_its_origin_with_its_key_and_body(server: Any) -> None:
    base, handler, _ = server
    handler.script["/moved"] = {"status": 308, "headers": {"Location": "/here"}}
    transport = Transport(base, "tok")
    reply = transport.request("POST", "/moved", body={"a": 1}, idempotency_key="k" * 32)
    assert reply.data["path"] == "/here"
    _, second = handler.seen
    assert second["method"] == "POST" and json.loads(second["body"]) == {"a": 1}
    assert second["headers"]["Idempotency-Key"] == "k" * 32
    assert second["headers"]["Authorization"] == "Bearer tok"


@pytest.mark.parametrize("status", [301, 302, 303, 307])
def test_a_write_is_not_moved_elsewhere_and_says_so(server: Any, status: int) -> None:
    base, handler, _ = server
    port = base.rsplit(":", 1)[1]
    where = f"http://localhost:{port}/elsewhere" if status == 307 else "/elsewhere"
    handler.script["/moved"] = {"status": status, "headers": {"Location": where}}
    with pytest.raises(ApiError) as caught:
        Transport(base, "tok").request("POST", "/moved", body={})
    assert caught.value.status == status and caught.value.code == f"http_{status}"
    assert [r["path"] for r in handler.seen] == ["/moved"]  # sent once, nowhere else


def test_a_redirect_loop_ends_with_a_bad_request(server: Any) -> None:
    base, handler, _ = server
    handler.script["/loop"] = {"status": 302, "headers": {"Location": "/loop"}}
    with pytest.raises(BadRequest, match="redirects"):
        Transport(base).request("GET", "/loop")
    assert 2 <= len(handler.seen) <= 20


def test_a_redirect_to_another_port_drops_the_token(server: Any) -> None:
    base, handler, _ = server
    other = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=other.serve_forever, args=(0.05,), daemon=True).start()
    try:
        handler.script["/away"] = {
            "status": 302,
            "headers": {"Location": f"http://127.0.0.1:{other.server_address[1]}/there"},
        }
        Transport(base, "SECRET").request("GET", "/away")
        assert handler.seen[-1]["path"] == "/there"
        assert "Authorization" not in handler.seen[-1]["headers"]
    finally:
        other.shutdown()
        other.server_close()


@pytest.mark.parametrize(
    ("url", "target"),
    [
        ("http://h/a", "http://h/b"),
        ("http://h/a", "http://h:80/b"),
        ("http://h/a", "https://h/b"),
        ("http://h:8080/a", "https://h/b"),
        ("https://h/a", "http://h/b"),
        ("http://h:8080/a", "http://h:9999/b"),
        ("https://h/a", "https://h:8443/b"),
        ("http://h/a", "http://g/b"),
        ("https://h:443/a", "https://h/b"),
    ],
)
def test_the_token_follows_a_redirect_where_requests_sends_it(url: str, target: str) -> None:
    import requests

    from mathable_client.senders import keeps_token

    assert keeps_token(url, target) is not requests.Session().should_strip_auth(url, target)


def test_threads_sharing_one_transport_each_have_a_connection(server: Any) -> None:
    base, handler, _ = server
    transport = Transport(base)
    failures: list[BaseException] = []

    def reads() -> None:
        for _ in range(50):
            try:
                transport.request("GET", "/v1/games/g1")
            except Exception as err:  # counted: none may fail
                failures.append(err)

    threads = [threading.Thread(target=reads) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [] and len(handler.seen) == 200
    assert len({r["connection"] for r in handler.seen}) == 4


def test_a_header_given_twice_is_joined_as_requests_joins_it(server: Any) -> None:
    base, _, _ = server

    class TwoLinks(Recorder):
        def _answer(self) -> None:
            self.send_response(200)
            self.send_header("Link", '</v1/x?before=1>; rel="next"')
            self.send_header("link", "</style.css>; rel=preload")
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        do_GET = _answer

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), TwoLinks)
    threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()
    try:
        reply = Transport(f"http://127.0.0.1:{httpd.server_address[1]}").request("GET", "/")
        assert reply.headers["Link"] == '</v1/x?before=1>; rel="next", </style.css>; rel=preload'
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_path_with_a_space_or_an_accent_is_quoted(server: Any) -> None:
    base, handler, _ = server
    Transport(base).request("GET", "/v1/games/a b/café", params={"q": "é"})
    assert handler.seen[-1]["path"] == "/v1/games/a%20b/caf%C3%A9?q=%C3%A9"


def test_a_slow_server_is_a_timeout(server: Any) -> None:
    base, handler, _ = server
    handler.script["/slow"] = {"sleep": 1.0}
    with pytest.raises(SendFailed) as caught:
        DirectSender().send("GET", f"{base}/slow", {}, None, None, 0.2)
    assert caught.value.kind == "timeout"
    with pytest.raises(Unreachable, match="did not answer in time"):
        Transport(base, retries=0).request("GET", "/slow", timeout=0.2)


def test_nobody_listening_is_unreachable_after_the_retries() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed when the block ends: nothing listens there
    slept: list[float] = []
    transport = Transport(f"http://127.0.0.1:{port}", retries=2, sleep=slept.append)
    with pytest.raises(Unreachable, match="cannot connect") as caught:
        transport.request("GET", "/v1/games/g1")
    assert caught.value.attempts == 3 and len(slept) == 2


@pytest.mark.parametrize("url", ["mathable.test", "ftp://127.0.0.1/x", "http://"])
def test_a_malformed_address_is_a_bad_request(url: str) -> None:
    with pytest.raises(BadRequest):
        Transport(url).request("GET", "/v1/games/g1")


def test_a_header_that_cannot_be_sent_is_a_bad_request(server: Any) -> None:
    base, _, _ = server
    with pytest.raises(BadRequest):
        Transport(base, "tok\r\nX-Evil: 1").request("GET", "/v1/games/g1")


def test_an_answer_that_is_not_json_says_so(server: Any) -> None:
    base, handler, _ = server

    class Html(Recorder):
        def _answer(self) -> None:
            self.send_response(200)
            self.send_header("Content-Length", "6")
            self.end_headers()
            self.wfile.write(b"<html>")

        do_GET = _answer

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Html)
    threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()
    try:
        from mathable_client.transport import NotJson

        with pytest.raises(NotJson):
            Transport(f"http://127.0.0.1:{httpd.server_address[1]}").request("GET", "/")
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the certificate")
def test_a_certificate_that_does_not_verify_is_not_retried(
    tmp_path: Path, server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, handler, _ = server
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()
    slept: list[float] = []
    base = f"https://127.0.0.1:{httpd.server_address[1]}"
    try:
        transport = Transport(base, sleep=slept.append)
        with pytest.raises(Unreachable, match="TLS with") as caught:
            transport.request("GET", "/v1/games/g1")
        assert caught.value.attempts == 1 and slept == []
        # Its authority named, as for requests: the same server answers.
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(cert))
        assert Transport(base).request("GET", "/v1/games/g1").status == 200
        # A folder of certificates (requests takes one), and a file that is not there.
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(tmp_path))
        with pytest.raises(Unreachable, match="TLS with"):
            Transport(base).request("GET", "/v1/games/g1")
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(tmp_path / "none.pem"))
        with pytest.raises(Unreachable, match="cannot read the certificates"):
            Transport(base).request("GET", "/v1/games/g1")
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_proxy_or_a_session_sends_through_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    import requests

    for name in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY",
                 "ALL_PROXY"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    assert isinstance(Transport("http://127.0.0.1:9").sender, DirectSender)
    session = requests.Session()
    given = Transport("http://127.0.0.1:9", session=session)
    assert isinstance(given.sender, RequestsSender) and given.sender.session is session
    assert given.session is session
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:3128")
    assert isinstance(Transport("https://mathable.test").sender, RequestsSender)


def test_the_session_for_streams_carries_the_transports_headers() -> None:
    transport = Transport("http://127.0.0.1:9", user_agent="mathable-cli/9")
    transport.headers["Accept-Language"] = "fr"
    assert transport.session.headers["User-Agent"] == "mathable-cli/9"
    assert transport.session.headers["Accept-Language"] == "fr"


def test_certificates_are_checked_against_what_requests_trusts() -> None:
    import requests.utils

    from mathable_client.senders import ca_bundle

    assert ca_bundle({}) == requests.utils.DEFAULT_CA_BUNDLE_PATH
    assert ca_bundle({"CURL_CA_BUNDLE": "/c.pem"}) == "/c.pem"
    assert ca_bundle({"REQUESTS_CA_BUNDLE": "/r.pem", "CURL_CA_BUNDLE": "/c.pem"}) == "/r.pem"


def test_a_server_that_never_answers_keeps_a_call_no_longer_than_its_give_up_time() -> None:
    """``wait --timeout 1`` against a server that takes the connection and says nothing."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        transport = Transport(f"http://127.0.0.1:{silent.getsockname()[1]}", retries=None)
        transport.give_up_at = time.monotonic() + 1.0
        started = time.monotonic()
        with pytest.raises(Unreachable, match="did not answer in time"):
            transport.request("GET", "/v1/games/g1", timeout=60)
        assert time.monotonic() - started < 1.0 + 2.0 + 1.0  # the grace, and a margin
