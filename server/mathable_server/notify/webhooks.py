"""Webhooks: a signed ``POST`` per notification, through the same outbox as mail.

The body is ``{"event", "game_id", "version", "your_turn", "deadline"}``;
``X-Mathable-Delivery: <the row's stable id>`` (the same on a retry);
``X-Mathable-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
"<t>.<delivery id>.<body>">`` with the player's secret, which a receiver checks
with the time (``REPLAY_WINDOW``) and the delivery id (``verify``); and, unless
the operator turned it off, the old ``X-Mathable-Signature: sha256=<hex
HMAC-SHA256 of the body>`` that receivers written before it check (it can be
replayed: docs/mail.md). New webhooks must be ``https://`` (``http://`` only
where private addresses are allowed); one set before stays called, with a
warning to its owner.

Each delivery has a total deadline (``post``), not one per read: a receiver
trickling its answer is cut off. Each webhook has a circuit breaker
(``store.notification_settings.Breaker``): from 5 failures in a row it is paused, its rows
wait (a row a day old is dropped), and its owner is told once by mail and in
``GET /v1/me/notifications``. No request forgery: a URL whose host resolves to a loopback, private,
link-local or otherwise non-public address is refused when it is set and again
at each delivery, unless ``MATHABLE_WEBHOOK_ALLOW_PRIVATE=1``; redirects are
not followed. A delivery resolves the host once, checks the address and
connects to that very address (the ``Host`` header and TLS's server name and
certificate check stay the URL's name), so a name that answers a public
address to the check and a private one to the connection (DNS rebinding)
reaches nothing private.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import logging
import re
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import certifi

from mathable import replay_timed
from mathable_server.games.timesource import iso_ms
from mathable_server.notify.worker import (
    Entry,
    Later,
    Notification,
    Undeliverable,
    new_message_id,
    reminder_due,
)
from mathable_server.store import Store
from mathable_server.store.notification_settings import (
    Breaker,
    Contact,
    NotificationSettingsRecorder,
)

log = logging.getLogger("mathable_server.webhooks")

#: Seconds a delivery may take in all (the name lookup, connecting, TLS, sending, the status line).
WEBHOOK_TIMEOUT = 10.0
#: Seconds either side of a signature's time within which a receiver accepts it.
REPLAY_WINDOW = 300
#: A row whose webhook is paused waits; once it is this old (ms), it is dropped.
PAUSED_ROW_MAX_AGE_MS = 24 * 3600 * 1000
EVENTS = {"turn": "your_turn", "moved": "moved", "finished": "game_finished"}


class WebhookRefused(ValueError):
    """A URL the server will not call."""


def signature(secret: str, body: bytes) -> str:
    """The old ``X-Mathable-Signature`` of ``body`` (no time, no delivery id: replayable).

    >>> signature("s", b"{}")
    'sha256=143ca8d517ba1b181025d732b1cf275d90104fca57bb02a565542978aa18c4b6'
    """
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def _v1(secret: str, timestamp: int, delivery: str, body: bytes) -> str:
    signed = f"{timestamp}.{delivery}.".encode() + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def signed_header(secret: str, timestamp: int, delivery: str, body: bytes) -> str:
    """The ``X-Mathable-Webhook-Signature`` of one call: its time and delivery id signed
    with the body.

    >>> signed_header("s", 1764646800, "turn.g1.v3.s0.00ff", b"{}")[:13]
    't=1764646800,'
    """
    return f"t={timestamp},v1={_v1(secret, timestamp, delivery, body)}"


_SIGNED = re.compile(r"\At=(\d{1,12}),v1=([0-9a-f]{64})\Z")


def verify(
    secret: str, header: str, delivery: str, body: bytes, now: float, window: int = REPLAY_WINDOW
) -> bool:
    """What a receiver checks: the signature over time, delivery id and body, compared in
    constant time, and the time within ``window`` seconds of ``now``. (A receiver also
    drops a delivery id it has seen: that stops a replay within the window.)

    >>> body, header = b"{}", signed_header("s", 1000, "d1", b"{}")
    >>> verify("s", header, "d1", body, 1100), verify("s", header, "d2", body, 1100)
    (True, False)
    >>> verify("s", header, "d1", body, 1000 + REPLAY_WINDOW + 1)
    False
    """
    found = _SIGNED.match(header.strip())
    if found is None:
        return False
    timestamp = int(found.group(1))
    good = hmac.compare_digest(_v1(secret, timestamp, delivery, body), found.group(2))
    return good and abs(now - timestamp) <= window


@dataclass(frozen=True, slots=True)
class Target:
    """Where one delivery goes: the URL's parts and the address checked for its host."""

    scheme: str
    hostname: str
    port: int
    #: ``path?query`` to request.
    path: str
    #: The IP address the delivery connects to, as resolved (and checked) once.
    address: str

    @property
    def host_header(self) -> str:
        name = f"[{self.hostname}]" if ":" in self.hostname else self.hostname
        default = 443 if self.scheme == "https" else 80
        return name if self.port == default else f"{name}:{self.port}"


def _parts(url: str) -> tuple[str, str, int, str]:
    """Scheme, host name, port and ``path?query`` of an http(s) URL; WebhookRefused if not."""
    try:
        parts = urlsplit(url)
        hostname, port = parts.hostname, parts.port
    except ValueError as err:  # "http://[", a port that is no number
        raise WebhookRefused(f"cannot read the URL: {err}") from None
    if parts.scheme not in ("http", "https") or not hostname:
        raise WebhookRefused("a webhook URL starts with https://")
    port = port or (443 if parts.scheme == "https" else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, hostname, port, path


#: IPv6 prefixes that carry an IPv4 address in their last 32 bits: NAT64 (RFC 6052, 8215),
#: IPv4-mapped (``::ffff:a.b.c.d``), IPv4-translated (``::ffff:0:a.b.c.d``, RFC 2765 SIIT)
#: and IPv4-compatible (``::a.b.c.d``, deprecated).
_CARRIERS = tuple(
    ipaddress.ip_network(net)
    for net in ("64:ff9b::/96", "64:ff9b:1::/48", "::ffff:0:0/96", "::ffff:0:0:0/96", "::/96")
)
#: IPv6 global unicast (RFC 4291, IANA): outside it and the carriers above, nothing is public.
_GLOBAL_UNICAST = ipaddress.ip_network("2000::/3")


def is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """A global unicast address, and so is any IPv4 address an IPv6 one carries (mapped,
    6to4, Teredo, NAT64: on such networks ``64:ff9b::a9fe:a9fe`` reaches 169.254.169.254).

    >>> [is_public(ipaddress.ip_address(a)) for a in ("93.184.216.34", "10.0.0.1",
    ...     "64:ff9b::a9fe:a9fe", "2002:a9fe:a9fe::1", "::ffff:127.0.0.1", "2606:4700::1",
    ...     "::ffff:0:7f00:1", "::ffff:0:808:808", "100::1")]
    [True, False, False, False, False, True, False, True, False]
    """
    if isinstance(address, ipaddress.IPv6Address):
        carrier = any(address in net for net in _CARRIERS)
        if carrier:  # judged as the IPv4 address it carries (Python calls some of them global)
            return is_public(ipaddress.IPv4Address(address.packed[-4:]))
        if address not in _GLOBAL_UNICAST or not address.is_global:
            return False
        carried = [address.sixtofour]
        carried += [address.teredo[1]] if address.teredo else []
        return all(is_public(inner) for inner in carried if inner is not None)
    return address.is_global and not address.is_multicast


class LookupFailed(RuntimeError):
    """A host name that did not resolve (in time): a failed delivery like any other."""

    def __init__(self, message: str, *, pending: bool = False) -> None:
        super().__init__(message)
        #: The lookup was given up on while still under way.
        self.pending = pending


class _Lookup(threading.Thread):
    """``getaddrinfo`` in a thread of its own, so that whoever waits for it can stop
    waiting: a name server that never answers holds this thread (until the system's
    resolver gives up), not the delivery. ``then`` runs once the lookup has ended."""

    def __init__(self, hostname: str, port: int) -> None:
        super().__init__(name=f"mathable-lookup-{hostname}"[:60], daemon=True)
        self.hostname, self.port = hostname, port
        self.found: list[str] = []
        self.error: Exception | None = None
        self._lock = threading.Lock()
        self._ended = False
        self._then: Callable[[], None] | None = None

    def run(self) -> None:
        try:
            found = socket.getaddrinfo(self.hostname, self.port, proto=socket.IPPROTO_TCP)
            self.found = [str(info[4][0]).split("%")[0] for info in found]
        except Exception as err:  # handed to the waiting delivery
            self.error = err
        with self._lock:
            self._ended = True
            then = self._then
        if then is not None:
            then()

    def then(self, action: Callable[[], None]) -> None:
        """Run ``action`` when the lookup ends (now, if it has)."""
        with self._lock:
            if not self._ended:
                self._then = action
                return
        action()


def lookup(
    hostname: str, port: int, seconds: float, abandoned: Callable[[], None] | None = None
) -> list[str]:
    """The addresses of ``hostname``, waiting at most ``seconds`` for them.

    LookupFailed if it does not resolve or takes longer; in that case (``pending``)
    ``abandoned`` runs once the lookup given up on ends.
    """
    try:
        ipaddress.ip_address(hostname)
    except ValueError:
        pass
    else:  # a literal address: nothing to look up
        return [hostname]
    finder = _Lookup(hostname, port)
    finder.start()
    finder.join(max(0.0, seconds))
    if finder.is_alive():
        if abandoned is not None:
            finder.then(abandoned)
        raise LookupFailed(
            f"cannot resolve {hostname}: no answer within {seconds:g} s", pending=True
        )
    if finder.error is not None:
        raise LookupFailed(f"cannot resolve {hostname}: {finder.error}")
    if not finder.found:
        raise LookupFailed(f"cannot resolve {hostname}")
    return finder.found


def checked(
    scheme: str, hostname: str, port: int, path: str, addresses: list[str], allow_private: bool
) -> Target:
    """The target of a looked-up URL; WebhookRefused (unless ``allow_private``) if any of
    its addresses is not public."""
    for text in addresses:
        address = ipaddress.ip_address(text)
        if not allow_private and not is_public(address):
            raise WebhookRefused(f"{address} is not a public address")
    return Target(scheme, hostname, port, path, addresses[0])


def resolve(url: str, allow_private: bool, seconds: float = WEBHOOK_TIMEOUT) -> Target:
    """Read ``url``, resolve its host once (waiting ``seconds`` at most) and check every
    address it has; the first one.

    WebhookRefused for a URL that is not http(s), a host that does not resolve (in
    time), or (unless ``allow_private``) any address that is not public.
    """
    scheme, hostname, port, path = _parts(url)
    try:
        addresses = lookup(hostname, port, seconds)
    except LookupFailed as err:
        raise WebhookRefused(str(err)) from None
    return checked(scheme, hostname, port, path, addresses, allow_private)


def check_url(url: str, allow_private: bool) -> None:
    """Refuse URLs that are not http(s) or whose host resolves to a non-public address.

    >>> check_url("ftp://example.com/x", True)
    Traceback (most recent call last):
    ...
    mathable_server.notify.webhooks.WebhookRefused: a webhook URL starts with https://
    >>> check_url("https://127.0.0.1:9/hook", False)
    Traceback (most recent call last):
    ...
    mathable_server.notify.webhooks.WebhookRefused: 127.0.0.1 is not a public address
    >>> check_url("http://bot.example.org/hook", False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathable_server.notify.webhooks.WebhookRefused: a webhook URL must start with https://...
    """
    scheme = _parts(url)[0]
    if allow_private:  # any address will do: no lookup (the name may not resolve yet)
        return
    if scheme != "https":
        raise WebhookRefused(
            "a webhook URL must start with https:// (http:// goes in the clear: anyone "
            "on the way could read the calls and replay them)"
        )
    resolve(url, allow_private)


def insecure(url: str | None) -> str | None:
    """The warning its owner sees for a webhook over ``http://`` (set before they were
    refused, or where private addresses are allowed); None for ``https://``.

    >>> insecure("https://bot.example.org/hook") is None
    True
    """
    if url is None or not url.lower().startswith("http://"):
        return None
    return (
        "this webhook is called over http://, in the clear: anyone on the way can read the "
        "calls and replay them; set an https:// URL"
    )


#: The receivers this process is calling now, as ``name:<host name>`` (the URL's, without
#: scheme or port) and ``address:<IPv4 address or IPv6 /64>``, and how many calls each.
#: A host name takes one call at a time, an address ``ADDRESS_CALLS``: a row for a
#: receiver that is full waits rather than hold another webhook thread, so receivers on
#: one name (however many ports and accounts point at it) hold one thread of a process
#: at most, and those on one address (however many names) ``ADDRESS_CALLS``.
_busy: dict[str, int] = {}
#: The recipients (player ids) whose rows wait for a full receiver, and its key: their
#: rows are left out of the webhook threads' claims until it is free (``busy_recipients``).
_waiting: dict[str, str] = {}
_busy_lock = threading.Lock()
ADDRESS_CALLS = 2
#: How long a row put off because its receiver is being called waits (ms).
BUSY_RETRY_MS = 1000


def _limit(key: str) -> int:
    return 1 if key.startswith("name:") else ADDRESS_CALLS


def _name_key(hostname: str) -> str:
    return "name:" + hostname.lower().rstrip(".")


def _address_key(text: str) -> str:
    address = ipaddress.ip_address(text)
    if isinstance(address, ipaddress.IPv6Address) and not any(
        address in net for net in _CARRIERS
    ):  # one site has a /64 of addresses: they count as one
        return f"address:{ipaddress.ip_network(f'{address}/64', strict=False)}"
    return f"address:{address}"


def _enter(key: str, recipient: str) -> bool:
    """Take a call on ``key``; False (and ``recipient`` noted as waiting) if it is full."""
    with _busy_lock:
        calls = _busy.get(key, 0)
        if calls >= _limit(key):
            _waiting[recipient] = key
            return False
        _busy[key] = calls + 1
        return True


def _leave(key: str) -> None:
    with _busy_lock:
        calls = _busy.pop(key, 0) - 1
        if calls > 0:
            _busy[key] = calls
        for recipient in [r for r, waited in _waiting.items() if waited == key]:
            del _waiting[recipient]


def busy_recipients() -> frozenset[str]:
    """The recipients whose webhook rows wait for a receiver this process is calling
    now: a claim leaves their rows out, so they cost nothing until it is free."""
    with _busy_lock:
        return frozenset(r for r, key in _waiting.items() if _busy.get(key, 0) >= _limit(key))


class DeliveryFailed(RuntimeError):
    """A call that did not end in a status line within the deadline, or was refused."""


_STATUS = re.compile(rb"\AHTTP/1\.[01] ([1-5]\d\d)[ \r]")


def post(
    target: Target,
    body: bytes,
    headers: dict[str, str],
    deadline: float,
    *,
    stated: float | None = None,
) -> int:
    """POST ``body`` to ``target``'s address; the answer's status (nothing more is read).

    ``deadline`` is the whole call's time, from connecting to the status line: each
    step (connect, TLS handshake, send, every read) gets what is left of it, so a
    receiver that trickles its answer a byte at a time is cut off at the deadline.
    (``stated``: the deadline errors name, the delivery's own if part of it went on
    looking the name up.)
    """
    end = time.monotonic() + deadline
    deadline = deadline if stated is None else stated

    def left() -> float:
        remaining = end - time.monotonic()
        if remaining <= 0:
            raise DeliveryFailed(f"no answer within {deadline:g} s")
        return remaining

    head = [f"POST {target.path} HTTP/1.1", f"Host: {target.host_header}"]
    head += [f"{name}: {value}" for name, value in headers.items()]
    head += [f"Content-Length: {len(body)}", "Connection: close"]
    request = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body
    try:
        sock = socket.create_connection((target.address, target.port), timeout=left())
    except TimeoutError:
        raise DeliveryFailed(f"no connection within {deadline:g} s") from None
    try:
        if target.scheme == "https":
            context = ssl.create_default_context(cafile=certifi.where())
            sock.settimeout(left())  # the handshake as a whole gets what is left
            sock = context.wrap_socket(sock, server_hostname=target.hostname)
        sock.settimeout(left())
        sock.sendall(request)
        answer = b""
        while b"\n" not in answer:
            sock.settimeout(left())
            chunk = sock.recv(1024)
            if not chunk:
                raise DeliveryFailed("the receiver closed the connection without an answer")
            answer += chunk
            if len(answer) > 8192:
                raise DeliveryFailed("the receiver's status line is too long")
        status = _STATUS.match(answer)
        if status is None:
            raise DeliveryFailed("the receiver's answer is not HTTP")
        return int(status.group(1))
    except TimeoutError:
        raise DeliveryFailed(f"no answer within {deadline:g} s") from None
    finally:
        sock.close()


class WebhookChannel:
    """Sends the ``webhook`` rows of the outbox, through each webhook's circuit breaker."""

    def __init__(
        self,
        store: Store,
        allow_private: bool,
        timeout: float = WEBHOOK_TIMEOUT,
        *,
        breaker: Breaker | None = None,
        now: Callable[[], int] | None = None,
        legacy_signature: bool = True,
    ) -> None:
        self.store = store
        #: Where each player's webhook and its breaker are kept.
        self.notification_settings = NotificationSettingsRecorder(store.engine)
        self.allow_private = allow_private
        #: The whole delivery's deadline, seconds.
        self.timeout = timeout
        self.breaker = breaker or Breaker()
        self.now = now or (lambda: int(time.time() * 1000))
        #: Whether the old, replayable ``X-Mathable-Signature: sha256=`` is sent too.
        self.legacy_signature = legacy_signature

    def body(self, entry: Entry) -> bytes:
        payload = entry.payload
        game_id, version = payload["game_id"], int(payload["version"])
        if entry.kind == "reminder":
            reminder_due(self.store, entry, self.now())  # Obsolete: moved, or too late
        stored = self.store.events_after(game_id, 0, limit=version)
        _state, clock = replay_timed((s.at, s.event) for s in stored)
        mine = entry.kind in ("turn", "reminder")  # a reminder: still your turn, due soon
        deadline = iso_ms(clock.deadline) if clock is not None and mine else None
        document = {
            "event": EVENTS.get(entry.kind, entry.kind),
            "game_id": game_id,
            "version": version,
            "your_turn": mine,
            "deadline": deadline,
        }
        return json.dumps(document, separators=(",", ":")).encode()

    def headers(self, secret: str, entry: Entry, body: bytes, now_ms: int) -> dict[str, str]:
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "mathable-server webhook",
            "X-Mathable-Delivery": entry.message_id,
            "X-Mathable-Webhook-Signature": signed_header(
                secret, now_ms // 1000, entry.message_id, body
            ),
        }
        if self.legacy_signature:
            headers["X-Mathable-Signature"] = signature(secret, body)
        return headers

    def __call__(self, entry: Entry) -> None:
        contact = self.notification_settings.contact(entry.recipient)
        if contact.webhook_url is None or contact.webhook_secret is None:
            raise Undeliverable("the webhook was removed")
        now = self.now()
        paused = contact.webhook_paused_until
        if paused is not None and paused > now:
            if now - entry.created_at >= PAUSED_ROW_MAX_AGE_MS:
                raise Undeliverable("its webhook has been paused for a day: dropped")
            raise Later(paused, "its webhook is paused (circuit breaker)")
        try:
            scheme, hostname, port, path = _parts(contact.webhook_url)
        except WebhookRefused as err:
            raise Undeliverable(str(err)) from None
        # One call at a time to a host name, taken before its lookup: a name whose name
        # server is slow holds one thread of this process, not one per row.
        name = _name_key(hostname)
        if not _enter(name, entry.recipient):
            raise Later(now + BUSY_RETRY_MS, "a call to this receiver is under way")
        started = time.monotonic()
        # A lookup given up on ends the name's call itself, once it is over: a name
        # server that never answers holds one lookup thread per name, not one per row.
        handed_over = False
        try:
            try:
                addresses = lookup(hostname, port, self.timeout, lambda: _leave(name))
            except LookupFailed as err:
                handed_over = err.pending
                self._failed(contact, str(err))
                raise
            try:
                target = checked(scheme, hostname, port, path, addresses, self.allow_private)
            except WebhookRefused as err:
                raise Undeliverable(str(err)) from None
            address = _address_key(target.address)
            if not _enter(address, entry.recipient):
                raise Later(now + BUSY_RETRY_MS, "calls to this address are under way")
            try:
                self._call(contact, target, entry, now, self.timeout - (time.monotonic() - started))
            finally:
                _leave(address)
        finally:
            if not handed_over:
                _leave(name)

    def _call(
        self, contact: Contact, target: Target, entry: Entry, now: int, seconds: float
    ) -> None:
        assert contact.webhook_url is not None and contact.webhook_secret is not None
        body = self.body(entry)
        try:
            if seconds <= 0:
                raise DeliveryFailed(f"no answer within {self.timeout:g} s")
            headers = self.headers(contact.webhook_secret, entry, body, now)
            status = post(target, body, headers, seconds, stated=self.timeout)
            if not 200 <= status < 300:
                raise DeliveryFailed(f"the receiver answered {status}")
        except Exception as err:
            self._failed(contact, f"{err}" if isinstance(err, DeliveryFailed) else
                         f"{type(err).__name__}: {err}")  # fmt: skip
            raise
        if contact.webhook_failures:
            self.notification_settings.webhook_succeeded(contact.player_id, contact.webhook_url)

    def _failed(self, contact: Contact, error: str) -> None:
        """Count the failure; the one that pauses the webhook tells its owner."""
        assert contact.webhook_url is not None
        now = self.now()
        told = contact.address is not None and contact.email != "off"
        tell = self._notice(contact, error) if told else None
        after = self.notification_settings.webhook_failed(
            contact.player_id, contact.webhook_url, now, error, self.breaker, tell
        )
        if after is not None and after.webhook_paused_until is not None:
            if after.webhook_failures == self.breaker.failures:
                log.warning("webhook of %s paused after %d failures in a row: %s",
                            contact.player_id, after.webhook_failures, error)  # fmt: skip

    def _notice(self, contact: Contact, error: str) -> Notification:
        minutes = max(1, round(self.breaker.pause_ms(self.breaker.failures) / 60000))
        text = (
            f"Your webhook {contact.webhook_url} failed {self.breaker.failures} times in a row "
            f"(the last time: {error}).\n\n"
            f"The server has stopped calling it for {minutes} minutes; then it tries once "
            "more, and each further failure pauses it for twice as long (at most 6 hours). "
            "While it is paused, its notifications wait; one a day old is dropped. Your "
            "games go on as usual, and mail about them still comes.\n\n"
            "Once your receiver answers again, set the webhook again (mathable-cli notify "
            "--webhook URL, or PUT /v1/me/notifications): that resumes it at once (once "
            "an hour at most). "
            "GET /v1/me/notifications shows its state.\n"
        )
        return Notification(
            "email",
            "answer",
            contact.player_id,
            {"subject": "[mathable] Your webhook is paused", "text": text},
            new_message_id(f"webhook-paused.{contact.player_id}"),
        )
