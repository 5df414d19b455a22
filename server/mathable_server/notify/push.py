"""Web Push (RFC 8030), signed with the server's VAPID key (RFC 8292) and encrypted for
each subscription (aes128gcm, RFC 8291): the ``push`` rows of the one outbox.

The keys: one P-256 key pair per deployment, made the first time it is needed and kept
with the server's secrets (``vapid_private_key``: the private scalar, base64url; a dump
carries it, so subscriptions survive a move). ``GET /v1/push/key`` gives its public
half, the application server key browsers subscribe with.

A row is one push to one subscription. At sending, the payload (JSON ``{"type",
"game_id", "title", "body", "url"}``, in the recipient's language) is composed from the
game as it is, encrypted for the subscription's keys and POSTed to its endpoint with
``TTL``, ``Topic`` (one a game: a newer push replaces an older one not yet delivered)
and ``Urgency`` (``high`` when time is running out). The push service sees the endpoint,
those headers, the signed VAPID token and a ciphertext, nothing else. Nothing is pushed
of a game whose play page the player has open and visible (``store.push.page_views``).
A 404 or 410 removes the subscription. Each push service (an endpoint's origin) has a
circuit breaker as webhooks do; the endpoint's host is resolved once and checked as a
webhook's (a public address, unless ``MATHABLE_PUSH_ALLOW_PRIVATE=1``), and the call has
the webhook's whole deadline.

The encryption and the signature are http-ece and py-vapid (with cryptography): the
``push`` extra. Without them the server pushes nothing and says so (``MISSING``).
"""

from __future__ import annotations

import base64
import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from mathable import replay_timed
from mathable.core.ruleset import ruleset_of
from mathable_i18n import _, speaking
from mathable_server.notify.webhooks import (
    DeliveryFailed,
    LookupFailed,
    WebhookRefused,
    _parts,
    checked,
    lookup,
    post,
)
from mathable_server.notify.worker import Entry, Later, Undeliverable, reminder_due
from mathable_server.store import Store
from mathable_server.store.notification_settings import Breaker
from mathable_server.store.outbox import Obsolete
from mathable_server.store.push import PushRecorder, Subscription, service_origin

log = logging.getLogger("mathable_server.push")

#: The secret's name among the server's secrets.
VAPID_SECRET = "vapid_private_key"
#: Seconds a push service keeps a push for a browser that is away (12 hours).
TTL = 12 * 3600
#: Calls at once to one push service from one process: a service that hangs holds this
#: many push threads at most; its other rows wait (``Later``).
CALLS_PER_SERVICE = 1
BUSY_RETRY_MS = 1000

try:  # the push extra
    import http_ece
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from py_vapid import Vapid02

    MISSING: str | None = None
except ImportError as err:  # pragma: no cover - the extra is in dev
    MISSING = (
        f"Web Push is off: {err.name} is not installed (pip install 'mathable[push]': "
        "http-ece, py-vapid, cryptography)"
    )


def available() -> bool:
    return MISSING is None


def b64url(data: bytes) -> str:
    """``data`` in base64url without padding, as Web Push writes keys.

    >>> b64url(bytes([255, 254]))
    '__4'
    """
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_private_key() -> str:
    """A new VAPID private key: the P-256 scalar, 32 bytes, base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def vapid_secret(store: Any) -> str:
    """The deployment's VAPID private key, made (and kept) the first time."""
    return str(store.secret(VAPID_SECRET, new_private_key))


def public_key(private: str) -> str:
    """The application server key of ``private``: the uncompressed point, base64url."""
    key = Vapid02.from_raw(private.encode())
    raw = key.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(raw)


def vapid_headers(private: str, endpoint: str, subject: str, now_s: int) -> dict[str, str]:
    """``Authorization: vapid t=<JWT>,k=<public key>`` for ``endpoint``'s push service."""
    claims = {"aud": service_origin(endpoint), "exp": now_s + TTL, "sub": subject}
    return {str(k): str(v) for k, v in Vapid02.from_raw(private.encode()).sign(claims).items()}


def encrypt(subscription: Subscription, plain: bytes) -> bytes:
    """``plain`` encrypted for the subscription's keys (aes128gcm, a new key each time)."""
    server_key = ec.generate_private_key(ec.SECP256R1())
    return bytes(
        http_ece.encrypt(
            plain,
            salt=os.urandom(16),
            private_key=server_key,
            dh=unb64url(subscription.p256dh),
            auth_secret=unb64url(subscription.auth),
            version="aes128gcm",
        )
    )


_TOPIC = re.compile(r"[^A-Za-z0-9_-]")


def topic(game_id: str) -> str:
    """The ``Topic`` of a game's pushes (at most 32 base64url characters).

    >>> topic("g_1234.x")
    'game-g_1234x'
    """
    return ("game-" + _TOPIC.sub("", game_id))[:32]


def check_endpoint(endpoint: str, allow_private: bool) -> None:
    """Refuse an endpoint that is not ``https://`` on a public address (the webhook
    rules); ``allow_private`` allows anything http(s), with no lookup."""
    scheme, hostname, port, path = _parts(endpoint)
    if allow_private:
        return
    if scheme != "https":
        raise WebhookRefused("a push endpoint starts with https://")
    try:
        addresses = lookup(hostname, port, 5.0)
    except LookupFailed as err:
        raise WebhookRefused(str(err)) from None
    checked(scheme, hostname, port, path, addresses, allow_private)


# --- what is pushed ------------------------------------------------------------------

def _others(names: Mapping[str, str], players: list[str | None], me: str) -> str:
    others = [names.get(p, "?") for p in players if p is not None and p != me]
    return ", ".join(others) or "?"


def compose(kind: str, game: str, game_id: str, opponent: str, text: str = "") -> tuple[str, str]:
    """The title and body of a push of ``kind``, in the language spoken now.

    >>> compose("your_turn", "Mathable", "g1", "ann")
    ('Your turn against ann', 'Mathable g1: it is your turn.')
    """
    if kind == "your_turn":
        return (_("Your turn against {opponent}", opponent=opponent),
                _("{game} {game_id}: it is your turn.", game=game, game_id=game_id))
    if kind == "time_running_out":
        return (_("Time is running out against {opponent}", opponent=opponent),
                _("{game} {game_id}: your time is nearly up; move soon.", game=game,
                  game_id=game_id))
    if kind == "message":
        return (_("{opponent} wrote in {game} {game_id}", opponent=opponent, game=game,
                  game_id=game_id), text)
    if kind == "invitation":
        return (_("{opponent} invites you to {game}", opponent=opponent, game=game),
                _("Game {game_id}: join it or decline.", game_id=game_id))
    if kind == "game_over":
        return (_("{game} {game_id} is over", game=game, game_id=game_id),
                _("Your game against {opponent} has ended: see the result.", opponent=opponent))
    if kind == "nudge":
        return (_("{opponent} is waiting for you", opponent=opponent),
                _("{game} {game_id}: it has been your turn for over a day.", game=game,
                  game_id=game_id))
    raise Undeliverable(f"unknown push kind {kind}")  # fmt: skip


class PushChannel:
    """Sends the ``push`` rows of the outbox."""

    def __init__(
        self,
        store: Store,
        private_key: Callable[[], str],
        *,
        allow_private: bool,
        public_url: str | None,
        subject: str,
        timeout: float = 10.0,
        breaker: Breaker | None = None,
        now: Callable[[], int] | None = None,
    ) -> None:
        self.store = store
        self.push = PushRecorder(store.engine)
        self.private_key = private_key
        self.allow_private = allow_private
        self.public_url = public_url or ""
        self.subject = subject
        self.timeout = timeout
        self.breaker = breaker or Breaker()
        self.now = now or (lambda: int(time.time() * 1000))
        self._busy: dict[str, int] = {}
        self._lock = threading.Lock()

    def document(self, entry: Entry) -> dict[str, str]:
        """The payload of ``entry`` in its recipient's language; Obsolete if no longer true."""
        payload = entry.payload
        game_id = str(payload["game_id"])
        now = self.now()
        if self.push.watching(entry.recipient, game_id, now):
            raise Obsolete("the player has the game's page open")
        stored = self.store.events_after(game_id, 0)
        state, _clock = replay_timed((s.at, s.event) for s in stored)
        me = entry.recipient
        if entry.kind == "time_running_out":
            reminder_due(self.store, entry, now)
        if entry.kind in ("your_turn", "nudge"):
            seat = state.seat_of(me)
            if state.status != "playing" or state.turn is None or state.turn.seat != seat:
                raise Obsolete("the player moved (or the game ended) since")
        players = [s.player for s in state.seats]
        writer = payload.get("from")
        names = self.store.names([p for p in [*players, writer] if isinstance(p, str)])
        opponent = names.get(str(writer), "?") if writer else _others(names, players, me)
        game = ruleset_of(state).display_name
        with speaking(self.store.language(me)):
            title, body = compose(entry.kind, game, game_id, opponent, str(payload.get("text", "")))
        return {"type": entry.kind, "game_id": game_id, "title": title, "body": body,
                "url": f"{self.public_url}/play/{game_id}"}  # fmt: skip

    def __call__(self, entry: Entry) -> None:
        if MISSING is not None:
            raise Undeliverable(MISSING)
        sub = self.push.subscription(str(entry.payload.get("subscription", "")))
        if sub is None:
            raise Undeliverable("the subscription was removed")
        now = self.now()
        if now - entry.created_at > TTL * 1000:
            raise Undeliverable("older than its time to live")
        origin = service_origin(sub.endpoint)
        service = self.push.service(origin)
        if service.paused_until is not None and service.paused_until > now:
            raise Later(service.paused_until, "its push service is paused (circuit breaker)")
        document = self.document(entry)
        if not self._enter(origin):
            raise Later(now + BUSY_RETRY_MS, "a call to this push service is under way")
        try:
            self._send(sub, entry, document, origin, now)
        finally:
            self._leave(origin)

    def _enter(self, origin: str) -> bool:
        with self._lock:
            if self._busy.get(origin, 0) >= CALLS_PER_SERVICE:
                return False
            self._busy[origin] = self._busy.get(origin, 0) + 1
            return True

    def _leave(self, origin: str) -> None:
        with self._lock:
            self._busy[origin] = self._busy.get(origin, 1) - 1

    def _send(
        self, sub: Subscription, entry: Entry, document: Mapping[str, str], origin: str, now: int
    ) -> None:
        started = time.monotonic()
        try:
            scheme, hostname, port, path = _parts(sub.endpoint)
            addresses = lookup(hostname, port, self.timeout)
            try:
                target = checked(scheme, hostname, port, path, addresses, self.allow_private)
            except WebhookRefused as err:
                raise Undeliverable(str(err)) from None
            body = encrypt(sub, json.dumps(document, ensure_ascii=False).encode())
            headers = {
                "Content-Type": "application/octet-stream",
                "Content-Encoding": "aes128gcm",
                "TTL": str(TTL),
                "Topic": topic(str(entry.payload["game_id"])),
                "Urgency": "high" if entry.kind == "time_running_out" else "normal",
                **vapid_headers(self.private_key(), sub.endpoint, self.subject, now // 1000),
            }
            left = self.timeout - (time.monotonic() - started)
            if left <= 0:
                raise DeliveryFailed(f"no answer within {self.timeout:g} s")
            status = post(target, body, headers, left, stated=self.timeout)
        except (Undeliverable, WebhookRefused):
            raise
        except Exception as err:
            error = str(err) if isinstance(err, DeliveryFailed | LookupFailed) else \
                f"{type(err).__name__}: {err}"  # fmt: skip
            self._failed(origin, error)
            raise
        if status in (404, 410):  # the browser unsubscribed: forget it
            self.push.remove_subscription(sub.id)
            self.push.service_succeeded(origin)
            raise Undeliverable(f"the push service answered {status}: subscription removed")
        if status == 413 or 400 <= status < 404:
            self.push.service_succeeded(origin)
            raise Undeliverable(f"the push service refused it ({status})")
        if not 200 <= status < 300:
            self._failed(origin, f"the push service answered {status}")
            raise DeliveryFailed(f"the push service answered {status}")
        self.push.service_succeeded(origin)

    def _failed(self, origin: str, error: str) -> None:
        state = self.push.service_failed(origin, self.now(), error, self.breaker)
        if state.failures == self.breaker.failures:
            log.warning("push service %s paused after %d failures in a row: %s",
                        origin, state.failures, error)  # fmt: skip
