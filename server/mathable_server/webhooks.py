"""Webhooks: a signed ``POST`` per notification, through the same outbox as mail.

The body is ``{"event", "game_id", "version", "your_turn", "deadline"}``;
``X-Mathable-Signature: sha256=<hex HMAC-SHA256 of the body with the player's
secret>`` and ``X-Mathable-Delivery: <the row's stable id>`` (the same on a
retry). No request forgery: a URL whose host resolves to a loopback, private,
link-local or otherwise non-public address is refused when it is set and again
at each delivery, unless ``MATHABLE_WEBHOOK_ALLOW_PRIVATE=1``; redirects are
not followed.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import socket
from urllib.parse import urlsplit

import requests

from mathable import replay_timed
from mathable_server.outbox import Entry, Undeliverable
from mathable_server.render import iso_ms
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


def check_url(url: str, allow_private: bool) -> None:
    """Refuse URLs that are not http(s) or whose host resolves to a non-public address.

    >>> check_url("ftp://example.com/x", True)
    Traceback (most recent call last):
    ...
    mathable_server.webhooks.WebhookRefused: a webhook URL starts with http:// or https://
    >>> check_url("http://127.0.0.1:9/hook", False)
    Traceback (most recent call last):
    ...
    mathable_server.webhooks.WebhookRefused: 127.0.0.1 is not a public address
    """
    try:
        parts = urlsplit(url)
        hostname, port = parts.hostname, parts.port
    except ValueError as err:  # "http://[", a port that is no number
        raise WebhookRefused(f"cannot read the URL: {err}") from None
    if parts.scheme not in ("http", "https") or not hostname:
        raise WebhookRefused("a webhook URL starts with http:// or https://")
    if allow_private:
        return
    try:
        port = port or (443 if parts.scheme == "https" else 80)
        found = socket.getaddrinfo(hostname, port, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError) as err:
        raise WebhookRefused(f"cannot resolve {hostname}: {err}") from None
    for _family, _type, _proto, _name, sockaddr in found:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
        if not address.is_global or address.is_multicast:
            raise WebhookRefused(f"{address} is not a public address")


class WebhookChannel:
    """Sends the ``webhook`` rows of the outbox."""

    def __init__(self, store: Store, book: AddressBook, allow_private: bool) -> None:
        self.store = store
        self.book = book
        self.allow_private = allow_private
        self.session = requests.Session()

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
            check_url(contact.webhook_url, self.allow_private)
        except WebhookRefused as err:
            raise Undeliverable(str(err)) from None
        body = self.body(entry)
        answer = self.session.post(
            contact.webhook_url,
            data=body,
            headers={
                "Content-Type": "application/json",
                "User-Agent": "mathable-server webhook",
                "X-Mathable-Signature": signature(contact.webhook_secret, body),
                "X-Mathable-Delivery": entry.message_id,
            },
            timeout=WEBHOOK_TIMEOUT,
            allow_redirects=False,
            # Only the status line and headers are read: a receiver that answers with an
            # endless body must not hold the delivery worker nor fill its memory.
            stream=True,
        )
        answer.close()
        if not 200 <= answer.status_code < 300:
            raise RuntimeError(f"the receiver answered {answer.status_code}")
