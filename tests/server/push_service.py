"""A push service of our own on loopback, as a browser's push service takes a push: it
checks the VAPID token's signature against the server's public key (RFC 8292) and
decrypts the payload with the subscription's private keys (aes128gcm, RFC 8291), as the
browser would; it answers 201, 404, 410 or hangs, as a test asks, per path.

``Browser`` is a subscription's keys (the P-256 pair and auth secret a browser makes).
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """A subscription's keys, as a browser makes them."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def keys(self) -> dict[str, str]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64url(point), "auth": b64url(self.auth)}

    def decrypt(self, body: bytes) -> bytes:
        return bytes(
            http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                             version="aes128gcm")  # fmt: skip
        )


@dataclass
class Push:
    """One push taken: its path, headers, the VAPID claims and the decrypted document."""

    path: str
    headers: dict[str, str]
    claims: dict[str, Any]
    document: dict[str, Any]
    at: float


def check_vapid(authorization: str, server_key: str) -> dict[str, Any]:
    """The claims of ``Authorization: vapid t=<JWT>,k=<key>`` once its ES256 signature is
    checked against ``server_key`` (the server's published key); AssertionError if not."""
    scheme, _space, params = authorization.partition(" ")
    assert scheme == "vapid", authorization
    found = dict(part.strip().split("=", 1) for part in params.split(","))
    assert found["k"] == server_key, "signed with another key than the server's"
    head, claims, signature = found["t"].split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID signature does not verify") from None
    loaded: dict[str, Any] = json.loads(unb64url(claims))
    return loaded


@dataclass
class PushService:
    """The service's state: the server key to check against, the browsers by path, what
    each path answers (201 by default; ``"hang"`` holds the call until ``stop``)."""

    server_key: str = ""
    browsers: dict[str, Browser] = field(default_factory=dict)
    answers: dict[str, Any] = field(default_factory=dict)
    pushes: list[Push] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    released: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    port: int = 0
    _server: ThreadingHTTPServer | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def endpoint(self, path: str) -> str:
        return f"{self.origin}{path}"

    def subscribe(self, path: str) -> dict[str, Any]:
        """A new browser at ``path``: the body of ``POST /v1/me/push``."""
        browser = self.browsers[path] = Browser()
        return {"endpoint": self.endpoint(path), "expirationTime": None, "keys": browser.keys()}

    def start(self) -> None:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers["Content-Length"]))
                answer = service.answers.get(self.path, 201)
                if answer == "hang":
                    service.released.wait(30)
                    return
                try:
                    claims = check_vapid(self.headers["Authorization"], service.server_key)
                    assert claims["aud"] == service.origin, claims
                    assert self.headers["Content-Encoding"] == "aes128gcm"
                    document = json.loads(service.browsers[self.path].decrypt(body))
                except Exception as err:  # noqa: BLE001 - told to the test
                    service.errors.append(f"{type(err).__name__}: {err}")
                    self.send_response(400)
                    self.end_headers()
                    return
                with service.lock:
                    service.pushes.append(Push(self.path, dict(self.headers), claims, document,
                                               time.time()))  # fmt: skip
                self.send_response(int(answer))
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.released.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def wait(self, count: int, timeout: float = 15.0) -> list[Push]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                if len(self.pushes) >= count:
                    return list(self.pushes)
            time.sleep(0.01)
        raise AssertionError(f"{len(self.pushes)} pushes came, not {count}: {self.errors}")
