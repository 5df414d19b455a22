"""Webhooks: a signed ``POST`` per notification, through the same outbox as mail.

The body is ``{"event", "game_id", "version", "your_turn", "deadline"}``;
``X-Mathable-Signature: sha256=<hex HMAC-SHA256 of the body with the player's
secret>`` and ``X-Mathable-Delivery: <the row's stable id>`` (the same on a
retry). No request forgery: a URL whose host resolves to a loopback, private,
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
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import certifi
import urllib3

from mathable import replay_timed
from mathable_server.games.timesource import iso_ms
from mathable_server.notify.worker import Entry, Undeliverable
from mathable_server.store import Store
from mathable_server.store.addresses import AddressBook

#: Seconds a receiver has to answer.
WEBHOOK_TIMEOUT = 10.0
EVENTS = {"turn": "your_turn", "moved": "moved", "finished": "game_finished"}


class WebhookRefused(ValueError):
    """A URL the server will not call."""


def signature(secret: str, body: bytes) -> str:
    """The ``X-Mathable-Signature`` of ``body``.

    >>> signature("s", b"{}")
    'sha256=143ca8d517ba1b181025d732b1cf275d90104fca57bb02a565542978aa18c4b6'
    """
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


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
        raise WebhookRefused("a webhook URL starts with http:// or https://")
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


def resolve(url: str, allow_private: bool) -> Target:
    """Read ``url``, resolve its host once and check every address it has; the first one.

    WebhookRefused for a URL that is not http(s), a host that does not resolve,
    or (unless ``allow_private``) any address that is not public.
    """
    scheme, hostname, port, path = _parts(url)
    try:
        found = socket.getaddrinfo(hostname, port, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError) as err:
        raise WebhookRefused(f"cannot resolve {hostname}: {err}") from None
    addresses = [str(info[4][0]).split("%")[0] for info in found]
    if not addresses:
        raise WebhookRefused(f"cannot resolve {hostname}")
    for text in addresses:
        address = ipaddress.ip_address(text)
        if not allow_private and not is_public(address):
            raise WebhookRefused(f"{address} is not a public address")
    return Target(scheme, hostname, port, path, addresses[0])


def check_url(url: str, allow_private: bool) -> None:
    """Refuse URLs that are not http(s) or whose host resolves to a non-public address.

    >>> check_url("ftp://example.com/x", True)
    Traceback (most recent call last):
    ...
    mathable_server.notify.webhooks.WebhookRefused: a webhook URL starts with http:// or https://
    >>> check_url("http://127.0.0.1:9/hook", False)
    Traceback (most recent call last):
    ...
    mathable_server.notify.webhooks.WebhookRefused: 127.0.0.1 is not a public address
    """
    if allow_private:  # any address will do: no lookup (the name may not resolve yet)
        _parts(url)
        return
    resolve(url, allow_private)


def post(target: Target, body: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST ``body`` to ``target``'s address; the answer's status (its body is not read)."""
    pool: urllib3.HTTPConnectionPool
    limits = urllib3.Timeout(connect=timeout, read=timeout)
    if target.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(
            target.address,
            target.port,
            timeout=limits,
            retries=False,
            cert_reqs="CERT_REQUIRED",
            ca_certs=certifi.where(),
            server_hostname=target.hostname,
            assert_hostname=target.hostname,
        )
    else:
        pool = urllib3.HTTPConnectionPool(
            target.address, target.port, timeout=limits, retries=False
        )
    try:
        answer = pool.urlopen(
            "POST",
            target.path,
            body=body,
            headers={"Host": target.host_header, **headers},
            redirect=False,
            # Only the status line and headers are read: a receiver that answers with an
            # endless body must not hold the delivery worker nor fill its memory.
            preload_content=False,
            assert_same_host=False,
        )
        status = int(answer.status)
        answer.close()
        return status
    finally:
        pool.close()


class WebhookChannel:
    """Sends the ``webhook`` rows of the outbox."""

    def __init__(
        self,
        store: Store,
        book: AddressBook,
        allow_private: bool,
        timeout: float = WEBHOOK_TIMEOUT,
    ) -> None:
        self.store = store
        self.book = book
        self.allow_private = allow_private
        self.timeout = timeout

    def body(self, entry: Entry) -> bytes:
        payload = entry.payload
        game_id, version = payload["game_id"], int(payload["version"])
        stored = self.store.events_after(game_id, 0, limit=version)
        _state, clock = replay_timed((s.at, s.event) for s in stored)
        deadline = iso_ms(clock.deadline) if clock is not None and entry.kind == "turn" else None
        document = {
            "event": EVENTS.get(entry.kind, entry.kind),
            "game_id": game_id,
            "version": version,
            "your_turn": entry.kind == "turn",
            "deadline": deadline,
        }
        return json.dumps(document, separators=(",", ":")).encode()

    def __call__(self, entry: Entry) -> None:
        contact = self.book.contact(entry.recipient)
        if contact.webhook_url is None or contact.webhook_secret is None:
            raise Undeliverable("the webhook was removed")
        try:
            target = resolve(contact.webhook_url, self.allow_private)
        except WebhookRefused as err:
            raise Undeliverable(str(err)) from None
        body = self.body(entry)
        status = post(
            target,
            body,
            {
                "Content-Type": "application/json",
                "User-Agent": "mathable-server webhook",
                "X-Mathable-Signature": signature(contact.webhook_secret, body),
                "X-Mathable-Delivery": entry.message_id,
            },
            self.timeout,
        )
        if not 200 <= status < 300:
            raise RuntimeError(f"the receiver answered {status}")
