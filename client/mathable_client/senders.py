"""How a call's bytes reach the server: one request in, one whole answer out.

``DirectSender`` speaks HTTP/1.1 over one kept-alive connection per server:
``mathable_client.plainhttp`` for ``http://`` (a socket: neither ``http.client``
nor ``ssl`` is imported), the standard library's ``http.client`` for
``https://``, so a command that makes one or two calls (``mathable-cli show``)
starts quickly. ``RequestsSender`` goes through a ``requests.Session``: when
the caller hands one in (its adapters, certificates, mocks) or when the
environment names a proxy (``requests`` reads ``HTTPS_PROXY``, ``NO_PROXY``
and the rest). ``sender_for`` picks one of them; the transport above retries,
so a sender sends once and says what went wrong (``SendFailed``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol
from urllib.parse import quote, urlencode, urlsplit

if TYPE_CHECKING:
    import requests

#: Why a request got no answer: ``timeout``, ``connection`` (refused, reset, no such
#: host), ``tls`` (a certificate that does not verify: trying again will not help), or
#: ``bad_request`` (it could not be sent at all: a malformed URL).
Failure = Literal["timeout", "connection", "tls", "bad_request"]

#: Redirects followed in a row (more is a loop: ``requests`` stops at 30).
MAX_REDIRECTS = 10
#: The statuses that redirect, and the ports a scheme means when it names none.
REDIRECTS = frozenset({301, 302, 303, 307, 308})
DEFAULT_PORTS = {"http": 80, "https": 443}
#: What a path keeps as it is when it is quoted (``requests.utils.requote_uri``).
URL_SAFE = "!#$%&'()*+,/:;=?@[]~"
#: The environment variables that name a proxy (in either case), as ``requests`` reads them.
PROXY_VARIABLES = frozenset({"http_proxy", "https_proxy", "all_proxy"})


class SendFailed(Exception):
    """No answer: ``kind`` says why (``Failure``), ``detail`` in the library's words."""

    def __init__(self, kind: Failure, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind: Failure = kind
        self.detail = detail


@dataclass
class Answer:
    """A whole answer: status, reason, headers (as the server spelled them) and body."""

    status: int
    reason: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""

    def header(self, name: str) -> str | None:
        """A header's value, whatever the case of its name."""
        wanted = name.lower()
        return next((v for k, v in self.headers.items() if k.lower() == wanted), None)


class Sender(Protocol):
    """Sends one request and reads its whole answer (SendFailed if none came)."""

    def send(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        body: bytes | None,
        params: Mapping[str, Any] | None,
        timeout: float,
    ) -> Answer: ...

    def close(self) -> None: ...


def with_query(url: str, params: Mapping[str, Any] | None) -> str:
    """``url`` with ``params`` as its query, as ``requests`` writes them: a None value is
    left out, a list or tuple is the name repeated."""
    if not params:
        return url
    pairs = [(k, v) for k, v in params.items() if v is not None]
    if not pairs:
        return url
    return url + ("&" if "?" in url else "?") + urlencode(pairs, doseq=True)


def uses_proxy(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether the environment names a proxy (``HTTPS_PROXY`` and the like)."""
    return any(k.lower() in PROXY_VARIABLES and v for k, v in environ.items())


def ca_bundle(environ: Mapping[str, str] = os.environ) -> str:
    """The certificates a server's is checked against, as ``requests`` picks them:
    ``REQUESTS_CA_BUNDLE``, else ``CURL_CA_BUNDLE``, else certifi's bundle."""
    named = environ.get("REQUESTS_CA_BUNDLE") or environ.get("CURL_CA_BUNDLE")
    if named:
        return named
    import certifi  # a dependency of requests: the same authorities as before

    return str(certifi.where())


def sender_for(base_url: str, session: requests.Session | None = None) -> Sender:
    """The sender for a server: the caller's session, ``requests`` through a proxy, else
    straight to the server (``DirectSender``)."""
    if session is not None:
        return RequestsSender(session)
    if uses_proxy():
        return RequestsSender()
    return DirectSender()


class DirectSender:
    """Straight to the server (``plainhttp`` for http, ``http.client`` for https), one
    kept-alive connection per origin and thread (a bot's threads may share one
    transport).

    A connection the server closed while it idled (it fails before any answer comes)
    is replaced and the request sent once more at once: every write carries its
    ``Idempotency-Key``, so the server never plays it twice. A read follows redirects,
    its token only where ``requests`` would send it (``keeps_token``); a write follows a
    307 or 308 to the same origin only, resent as it was, key and all.
    """

    def __init__(self) -> None:
        import threading

        self._connections: dict[tuple[int, str, str], Any] = {}
        self._lock = threading.Lock()
        self._tls: Any = None

    def send(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        body: bytes | None,
        params: Mapping[str, Any] | None,
        timeout: float,
    ) -> Answer:
        from urllib.parse import urljoin

        url = with_query(url, params)
        for _ in range(MAX_REDIRECTS + 1):
            answer = self._send_once(method, url, headers, body, timeout)
            location = answer.header("Location")
            if answer.status not in REDIRECTS or not location:
                return answer
            target = urljoin(url, location)
            if method != "GET":
                if answer.status not in (307, 308) or not same_origin(url, target):
                    return answer  # the transport says what came: a write is not moved
            elif not keeps_token(url, target):
                headers = {k: v for k, v in headers.items() if k.lower() != "authorization"}
            url = target
        raise SendFailed("bad_request", f"more than {MAX_REDIRECTS} redirects, the last to {url}")

    def _context(self) -> Any:
        """The TLS context, made once: the certificates ``ca_bundle`` names."""
        if self._tls is None:
            import ssl

            bundle = ca_bundle()
            try:
                if os.path.isdir(bundle):
                    self._tls = ssl.create_default_context(capath=bundle)
                else:
                    self._tls = ssl.create_default_context(cafile=bundle)
            except (OSError, ssl.SSLError) as err:
                raise SendFailed("tls", f"cannot read the certificates {bundle}: {err}") from None
        return self._tls

    def _connection(self, scheme: str, netloc: str, timeout: float) -> Any:
        """The kept-alive connection of this thread to ``netloc``: an ``http.client``
        connection for https, a ``plainhttp`` one for http."""
        import threading

        key = (threading.get_ident(), scheme, netloc)
        with self._lock:
            connection = self._connections.get(key)
        if connection is None:
            if scheme == "https":
                import http.client

                connection = http.client.HTTPSConnection(
                    netloc, timeout=timeout, context=self._context()
                )
            else:
                from mathable_client.plainhttp import PlainConnection

                connection = PlainConnection(netloc, timeout=timeout)
            with self._lock:
                self._connections[key] = connection
        connection.timeout = timeout
        if connection.sock is not None:
            connection.sock.settimeout(timeout)
        return connection

    def _send_once(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        body: bytes | None,
        timeout: float,
    ) -> Answer:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SendFailed("bad_request", f"not an http:// or https:// URL: {url!r}")
        target = parts.path or "/"
        if parts.query:
            target += "?" + parts.query
        target = quote(target, safe=URL_SAFE)  # a space or an accent in a path, as requests
        for again in (True, False):
            connection = self._connection(parts.scheme, parts.netloc, timeout)
            # After the connection is made: an https one has imported http.client.
            errors: tuple[type[Exception], ...] = (OSError, ValueError, *_http_errors())
            reused = connection.sock is not None
            try:
                connection.request(method, target, body=body, headers=dict(headers))
                response = connection.getresponse()
                data = response.read()
            except errors as err:
                connection.close()
                # http.client's RemoteDisconnected is a ConnectionResetError, as plainhttp's.
                stale = isinstance(err, (ConnectionResetError, BrokenPipeError))
                if reused and stale and again:
                    continue  # the server closed it while it idled: a new connection
                raise _failure(err) from None
            if response.will_close:
                connection.close()
            return Answer(response.status, response.reason, joined_headers(response), data)
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        with self._lock:
            connections = list(self._connections.values())
            self._connections.clear()
        for connection in connections:
            connection.close()

    def __del__(self) -> None:
        # A transport dropped without ``close``: its kept-alive sockets go with it.
        self.close()


def joined_headers(response: Any) -> dict[str, str]:
    """An answer's headers, a name given twice (``Link``) joined with ", " as requests joins
    them; each name as the server first spelled it."""
    found: dict[str, str] = {}
    spelled: dict[str, str] = {}
    for name, value in response.getheaders():
        first = spelled.setdefault(name.lower(), name)
        found[first] = f"{found[first]}, {value}" if first in found else value
    return found


def _origin(url: str) -> tuple[str, str | None, int | None]:
    parts = urlsplit(url)
    return parts.scheme, parts.hostname, parts.port or DEFAULT_PORTS.get(parts.scheme)


def same_origin(url: str, other: str) -> bool:
    """Whether two URLs are of one scheme, host and port."""
    return _origin(url) == _origin(other)


def keeps_token(url: str, target: str) -> bool:
    """Whether a redirect from ``url`` to ``target`` keeps the token, as ``requests`` decides
    (``Session.should_strip_auth``): the same host, scheme and port, or from http to https
    on the default ports."""
    old, new = urlsplit(url), urlsplit(target)
    if old.hostname != new.hostname:
        return False
    if (
        old.scheme == "http"
        and old.port in (80, None)
        and new.scheme == "https"
        and new.port in (443, None)
    ):
        return True
    return same_origin(url, target)


def _http_errors() -> tuple[type[Exception], ...]:
    """``http.client``'s own errors, once it is imported (an https call imported it)."""
    module = sys.modules.get("http.client")
    return (module.HTTPException,) if module is not None else ()


def _failure(err: BaseException) -> SendFailed:
    """What a failed request was, as the transport tells it (``ssl`` is looked at only
    if an https call imported it: else no error can be a TLS one)."""
    ssl = sys.modules.get("ssl")
    if ssl is not None and isinstance(err, ssl.SSLError):  # before ValueError: a failed
        return SendFailed("tls", str(err))  # verification is both
    client = sys.modules.get("http.client")
    if isinstance(err, ValueError) or (client is not None and isinstance(err, client.InvalidURL)):
        return SendFailed("bad_request", str(err))
    if isinstance(err, TimeoutError):
        return SendFailed("timeout", str(err) or "timed out")
    return SendFailed("connection", str(err) or type(err).__name__)


def answer_of(response: requests.Response) -> Answer:
    """A ``requests`` response, read whole, as an ``Answer``."""
    return Answer(
        response.status_code, response.reason or "", dict(response.headers), response.content
    )


class RequestsSender:
    """A ``requests.Session``: the caller's, or a new one (which reads proxies from the
    environment, as ``requests`` does)."""

    def __init__(self, session: requests.Session | None = None) -> None:
        import requests

        self.session = session or requests.Session()

    def send(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        body: bytes | None,
        params: Mapping[str, Any] | None,
        timeout: float,
    ) -> Answer:
        import requests

        try:
            response = self.session.request(
                method, url, data=body, params=params, headers=dict(headers), timeout=timeout
            )
        except requests.Timeout as err:
            raise SendFailed("timeout", str(err)) from None
        except requests.exceptions.SSLError as err:
            raise SendFailed("tls", str(err)) from None
        except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError) as err:
            raise SendFailed("connection", str(err)) from None
        except requests.RequestException as err:
            raise SendFailed("bad_request", str(err)) from None
        return answer_of(response)

    def close(self) -> None:
        self.session.close()


__all__ = [
    "Answer",
    "DirectSender",
    "RequestsSender",
    "SendFailed",
    "Sender",
    "answer_of",
    "ca_bundle",
    "joined_headers",
    "keeps_token",
    "same_origin",
    "sender_for",
    "uses_proxy",
    "with_query",
]
