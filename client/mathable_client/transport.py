"""HTTP for the Mathable API v1: JSON, bearer token, retries with backoff, idempotent writes.

Connection failures and 429/502/503/504 answers are retried with exponential
backoff (a ``Retry-After`` header is obeyed); a process that runs until it is
stopped (a bot, ``wait``) retries without end (``ENDLESS``), so a server restart
only pauses it. Every write carries an
``Idempotency-Key`` that stays the same across the retries of one call, so a
retried command is never played twice. Error answers raise ``ApiError`` with
the server's stable ``code``; a server that cannot be reached raises
``Unreachable``. ``mathable-cli`` talks to the server through this module.

The bytes go through a sender (``mathable_client.senders``): the standard
library's ``http.client`` when the server is reached directly, a
``requests.Session`` through a proxy or when the caller hands one in.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import mathable_client.senders as senders
from mathable_client.senders import Answer, Sender, SendFailed
from mathable_i18n import _

if TYPE_CHECKING:
    import requests

RETRY_STATUSES = frozenset({429, 502, 503, 504})
MAX_DELAY = 30.0
#: Retries and first pause: a call someone waits for (at most 0.375 + 0.75 + 1.5 s of
#: pauses), and one that waits anyway (about half a minute).
QUICK = (3, 0.25)
PATIENT = (6, 0.5)
#: How long past ``give_up_at`` a call may still take: a long-poll asked to wait until
#: then is answered then, give or take the trip.
GIVE_UP_GRACE = 2.0
#: For as long as the process runs (the pauses grow to ``MAX_DELAY``): bots and waits.
ENDLESS: tuple[int | None, float] = (None, 0.5)

Json = dict[str, Any]


def new_idempotency_key() -> str:
    """A fresh key for one logical write (32 hex digits: the server wants 16 or more).

    A random UUID's hex (``uuid.uuid4().hex``), made without ``uuid``, whose import
    (``platform``...) costs a command more than its write does.
    """
    raw = bytearray(os.urandom(16))
    raw[6] = raw[6] & 0x0F | 0x40  # version 4
    raw[8] = raw[8] & 0x3F | 0x80  # the RFC 4122 variant
    return raw.hex()


@dataclass
class Reply:
    """A successful answer: status, JSON body and headers."""

    status: int
    data: Any
    headers: Mapping[str, str] = field(default_factory=dict)


class ClientError(Exception):
    """Anything that kept a call from getting a successful answer."""


class ApiError(ClientError):
    """The server answered with an error: its HTTP status, stable ``code``, message and body.

    ``details`` is the error object (``{"code", "message", "details"?, ...}``);
    ``refusal`` is a rule's refusal as data, ``details["details"]`` (the square,
    the tile, the pairs...).
    """

    def __init__(self, status: int, code: str, message: str, body: Any = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body

    @property
    def details(self) -> Json:
        """The error object of the body (``{"code", "message", ...}``), or an empty dict."""
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            return dict(self.body["error"])
        return {}

    @property
    def refusal(self) -> Json:
        """A rule's refusal as data (the error's ``details``: ``square``, ``tile``,
        ``operation``, ``pairs``, ``placement``...), or an empty dict."""
        data = self.details.get("details")
        return dict(data) if isinstance(data, dict) else {}


class Unreachable(ClientError):
    """No answer after every retry (connection refused, timeouts, 429/5xx); ``method`` says
    whether it was a write (retrying it later is safe: it is never played twice)."""

    def __init__(self, problem: str, method: str, attempts: int) -> None:
        super().__init__(_("{problem} (tried {n} times)", problem=problem, n=attempts))
        self.problem = problem
        self.method = method
        self.attempts = attempts


class BadRequest(ClientError):
    """The request could not be sent at all (a malformed URL, for one)."""


class NotJson(ClientError):
    """The server's answer is not JSON: probably not a Mathable server."""


def _json_of(answer: Answer) -> Any:
    """The answer's body as JSON (ValueError if it is not)."""
    return json.loads(answer.body.decode("utf-8")) if answer.body else None


def error_from(answer: Answer) -> ApiError:
    """The ApiError of an error answer (the JSON error shape, or whatever came)."""
    body: Any = None
    try:
        body = _json_of(answer)
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        code = str(error.get("code") or f"http_{answer.status}")
        message = str(error.get("message") or answer.reason or "error")
    else:
        code = f"http_{answer.status}"
        message = _(
            "the server answered {status} {reason}",
            status=answer.status,
            reason=answer.reason or "",
        ).strip()
    return ApiError(answer.status, code, message, body)


class Transport:
    """Sends API calls to one server as one identity (or anonymously).

    ``sleep`` is how retries pause (tests pass one that does not wait);
    ``report`` is told of each retry. ``session`` is a ``requests.Session`` to send
    through (its adapters, certificates and proxies); without one the transport picks
    its sender (``senders.sender_for``). ``headers`` go with every call.
    """

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        retries: int | None = QUICK[0],
        backoff: float = QUICK[1],
        timeout: float = 30.0,
        session: requests.Session | None = None,
        report: Callable[[str], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        user_agent: str = "mathable-client",
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.retries = retries
        self.backoff = backoff
        self.timeout = timeout
        self.report = report
        self.sleep = sleep
        #: When retrying ends for good (``time.monotonic``), whatever ``retries`` says: a
        #: ``wait --timeout`` gives up at its time even while the server is away.
        self.give_up_at: float | None = None
        self.headers: dict[str, str] = {"User-Agent": user_agent, "Accept": "application/json"}
        self.sender: Sender = senders.sender_for(self.base_url, session)
        self._session = session

    def close(self) -> None:
        """Close the kept-alive connections (a later call opens a new one)."""
        self.sender.close()
        if self._session is not None:
            self._session.close()

    def __enter__(self) -> Transport:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def session(self) -> requests.Session:
        """A ``requests.Session`` with this transport's headers, for what the API calls do
        not cover (a stream read line by line, a picture's bytes)."""
        if self._session is None:
            import requests  # deferred: start-up time of a call that needs no session

            self._session = requests.Session()
        self._session.headers.update(self.headers)
        return self._session

    def _delay(self, attempt: int, answer: Answer | None) -> float:
        if answer is not None:
            after = answer.header("Retry-After") or ""
            if after.isdigit():
                # A little spread: every client told "1" by a stopping server does not come
                # back in the same millisecond.
                return min(float(after), MAX_DELAY) + random.uniform(0, 0.5)
        base = min(self.backoff * (2.0 ** min(attempt, 30)), MAX_DELAY)
        return base + random.uniform(0, base / 2)

    def request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        params: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        timeout: float | None = None,
        text: bool = False,
    ) -> Reply:
        """One API call with retries; ApiError for an error answer, Unreachable without one.

        A write (any method but GET) carries ``idempotency_key`` (a fresh one if
        None), the same on every retry. With ``text`` a successful answer's ``data`` is
        its body as text (a game record), not JSON.
        """
        url = f"{self.base_url}{path}"
        headers = dict(self.headers)
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if method != "GET":
            headers["Idempotency-Key"] = idempotency_key or new_idempotency_key()
        payload = None
        if body is not None:
            payload = json.dumps(body, allow_nan=False).encode("utf-8")
            headers["Content-Type"] = "application/json"
        problem = ""
        attempt = -1
        while True:
            attempt += 1
            answer: Answer | None = None
            limit = timeout or self.timeout
            if self.give_up_at is not None:  # a server that never answers keeps no one longer
                limit = min(limit, max(self.give_up_at - time.monotonic(), 0.0) + GIVE_UP_GRACE)
            try:
                answer = self.sender.send(method, url, headers, payload, params, limit)
            except SendFailed as failed:
                if failed.kind == "timeout":
                    problem = _("the server did not answer in time")
                elif failed.kind == "tls":
                    # A certificate that does not verify will not verify on the next try.
                    said = _(
                        "TLS with {server} failed: {error}",
                        server=self.base_url,
                        error=failed.detail,
                    )
                    raise Unreachable(said, method, 1) from None
                elif failed.kind == "connection":
                    problem = _("cannot connect to {server}", server=self.base_url)
                else:
                    said = _("bad request to {url}: {error}", url=url, error=failed.detail)
                    raise BadRequest(said) from None
            else:
                if answer.status not in RETRY_STATUSES:
                    break
                problem = _(
                    "the server answered {status} {reason}",
                    status=answer.status,
                    reason=answer.reason or "",
                )
            if self.retries is not None and attempt >= self.retries:
                raise Unreachable(problem.strip(), method, self.retries + 1)
            pause = self._delay(attempt, answer)
            if self.give_up_at is not None:
                left = self.give_up_at - time.monotonic()
                if left <= 0:
                    raise Unreachable(problem.strip(), method, attempt + 1)
                pause = min(pause, left)
            if self.report is not None:
                values = {
                    "problem": problem.strip(),
                    "seconds": format(pause, ".1f"),
                    "attempt": attempt + 2,
                }
                if self.retries is None:
                    said = _(
                        "{problem}; trying again in {seconds} s (attempt {attempt}; trying for "
                        "as long as this runs (Ctrl-C stops it))",
                        **values,
                    )
                else:
                    said = _(
                        "{problem}; trying again in {seconds} s (attempt {attempt} of {attempts})",
                        attempts=self.retries + 1,
                        **values,
                    )
                self.report(said)
            self.sleep(pause)
        assert answer is not None
        if answer.status >= 300:  # a redirect not followed (a write's, or to elsewhere) too
            raise error_from(answer)
        if text:
            return Reply(answer.status, answer.body.decode("utf-8", "replace"), answer.headers)
        try:
            data = _json_of(answer)
        except ValueError:
            raise NotJson(
                _("the server's answer to {method} {path} is not JSON", method=method, path=path)
            ) from None
        return Reply(answer.status, data, answer.headers)


__all__ = [
    "ENDLESS",
    "PATIENT",
    "QUICK",
    "ApiError",
    "BadRequest",
    "ClientError",
    "Json",
    "NotJson",
    "Reply",
    "Transport",
    "Unreachable",
    "error_from",
    "new_idempotency_key",
]
