"""Player tokens: random, shown once, stored only as a SHA-256 hash, compared in constant time.

A token reads ``<player id>.<secret>``: the id finds the account, the hash of
the whole token must match. Tokens carry 256 random bits, so a fast hash is
enough (a slow password hash protects guessable secrets, not random ones).

>>> token = new_token("pabc")
>>> token.startswith("pabc.") and len(token) > 40
True
>>> player_id_of(token), player_id_of("no-dot-here")
('pabc', None)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable

from mathable_server.store import PlayerRecord, Store, now_ms

#: How long a process trusts what it read about a player (name, token hash). A token
#: replaced or revoked through another process is forgotten here at once when the
#: feed's ``revocation`` row is read (``follow``); without a follower, after this long.
CACHE_SECONDS = 5.0
CACHE_SIZE = 10_000
#: No token is longer (a 32-character id, a dot, 43 characters of secret): longer ones
#: are refused without hashing or a database read.
MAX_TOKEN_LENGTH = 128


def new_token(player_id: str) -> str:
    return f"{player_id}.{secrets.token_urlsafe(32)}"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def player_id_of(token: str) -> str | None:
    player_id, dot, secret = token.partition(".")
    if not dot or not secret or len(player_id) > 32:
        return None
    if not (player_id.isascii() and player_id.isalnum()):
        return None  # ids are letters and digits: anything else (a NUL, say) is no token
    return player_id


def same_secret(given: str, expected: str) -> bool:
    """Constant-time comparison of two secrets (for the invitation secret, say)."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


class TokenExpired(Exception):
    """The token was right but is older than the server lets tokens live."""


class Authenticator:
    """Finds the player a bearer token belongs to, with a small per-process cache."""

    def __init__(
        self,
        store: Store,
        token_days: int = 0,
        follow: Callable[[], None] | None = None,
    ) -> None:
        """``follow``: start reading the feed (``FeedFollower.ensure_started``), called
        before a token is first cached, so that a ``revocation`` written by any process
        reaches this one at once (it calls ``forget``). None: one process alone."""
        self._store = store
        #: 0: tokens never expire.
        self._lifetime_ms = token_days * 86_400_000
        self._cache: dict[str, tuple[float, PlayerRecord]] = {}
        self._lock = threading.Lock()
        self._follow = follow
        #: Counts ``forget`` calls: a record read while one came is not cached.
        self._forgotten = 0
        #: The count at each player's last ``forget`` (``forgotten_since``); marks at or
        #: below ``_floor`` are not told apart once the table was cleared.
        self._forgot_at: dict[str, int] = {}
        self._floor = 0

    def player_for(self, token: str) -> PlayerRecord | None:
        """The player holding ``token``, or None when it is no valid token.

        A token that does not match the cached hash is checked against the database
        once more: the token may have been replaced (a retried registration, a
        rotation) by another process. A replaced or revoked token keeps working where
        it is cached, for at most ``CACHE_SECONDS``. TokenExpired when the token is
        right but too old.
        """
        player_id = player_id_of(token) if len(token) <= MAX_TOKEN_LENGTH else None
        if player_id is None:
            return None
        digest = hash_token(token)
        record = self._cached(player_id)
        if record is not None and hmac.compare_digest(digest, record.token_hash):
            return self._unexpired(record)
        if self._follow is not None:
            self._follow()  # from now on a revocation anywhere is heard here
        forgotten = self._forgotten
        record = self._store.player(player_id)
        if record is None:
            return None
        with self._lock:
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()
            if forgotten == self._forgotten:  # else it may be older than a revocation
                self._cache[player_id] = (time.monotonic() + CACHE_SECONDS, record)
        if not hmac.compare_digest(digest, record.token_hash):
            return None
        return self._unexpired(record)

    def _unexpired(self, record: PlayerRecord) -> PlayerRecord:
        if self._lifetime_ms and record.token_issued_at + self._lifetime_ms < now_ms():
            raise TokenExpired(record.id)
        return record

    def forget(self, player_id: str) -> None:
        """Drop what this process cached about a player (their token was replaced)."""
        with self._lock:
            self._forgotten += 1
            self._cache.pop(player_id, None)
            if len(self._forgot_at) >= CACHE_SIZE:
                self._forgot_at.clear()
                self._floor = self._forgotten
            self._forgot_at[player_id] = self._forgotten

    def mark(self) -> int:
        """Where ``forget`` has got to: taken before a waiting request authenticates."""
        with self._lock:
            return self._forgotten

    def forgotten_since(self, player_id: str, mark: int) -> bool:
        """Whether the player's token may have been replaced since ``mark``: only then
        must a request that waited ask the database again (thousands woken by one move
        read nothing)."""
        with self._lock:
            return mark < self._floor or self._forgot_at.get(player_id, 0) > mark

    def _cached(self, player_id: str) -> PlayerRecord | None:
        with self._lock:
            entry = self._cache.get(player_id)
        if entry is None or entry[0] < time.monotonic():
            return None
        return entry[1]
