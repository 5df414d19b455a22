"""Browser sessions and their CSRF tokens, and the one-time links that open them.

A browser session is a cookie (``mathable_session``: HttpOnly, SameSite=Lax, Secure over
HTTPS) holding 256 random bits; the store keeps only its SHA-256
(``store.browser_sessions``). A request carrying the cookie and no bearer token is the
session's player's, for every route of the API: the play page's script sends its
commands through the same routes as the CLI. Every state-changing request so
authenticated (any method but GET, HEAD, OPTIONS) must carry the session's CSRF token
in ``X-CSRF-Token`` (a form: the ``csrf`` field): an HMAC of the cookie under the
deployment's secret, which a page of this server shows and another site cannot read.
Forms shown before anyone is signed in (a join page, the sign-in page) carry the CSRF
token of a ``mathable_pre`` cookie the same way.

One-time links (``/join/{secret}``, ``/signin/{secret}``): the secret is an HMAC of a
random nonce (``notify.mail.codes.link_secret``): the outbox row of its mail keeps the
nonce; the store keeps the secret's SHA-256, its expiry and when it was spent.
"""

from __future__ import annotations

import hashlib
import hmac

from flask import request

from mathable_server.store import PlayerRecord, Store

COOKIE = "mathable_session"
PRE_COOKIE = "mathable_pre"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: How often a session's "last used" time is written at most (ms).
TOUCH_MS = 300_000
#: No cookie secret is longer: longer ones are refused without hashing or a read.
MAX_SECRET = 100


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def csrf_token(key: str, cookie: str) -> str:
    """The CSRF token of a cookie's value under the deployment's secret ``key``."""
    message = f"csrf:{cookie}".encode("utf-8", "replace")
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()


def csrf_matches(key: str, cookie: str, given: str | None) -> bool:
    return bool(given) and hmac.compare_digest(csrf_token(key, cookie), str(given))


def cookie_value(name: str = COOKIE) -> str | None:
    """The request's cookie ``name``, unless missing or longer than any we make."""
    value = request.cookies.get(name)
    if not value or len(value) > MAX_SECRET:
        return None
    return value


def session_player(store: Store, cookie: str, now: int) -> PlayerRecord | None:
    """The player whose unexpired session the cookie is, or None."""
    return hashed_session_player(store, secret_hash(cookie), now)


def hashed_session_player(store: Store, hashed: str, now: int) -> PlayerRecord | None:
    """``session_player`` of the cookie whose hash is ``hashed`` (a waiting request keeps
    the hash, not the cookie)."""
    found = store.session(hashed)
    if found is None or found.expires_at <= now:
        return None
    if found.last_used_at is None or found.last_used_at < now - TOUCH_MS:
        store.touch_session(found.id, now, TOUCH_MS)  # "last used", for the settings page
    return store.player(found.player_id)


def carried_csrf() -> str | None:
    """The CSRF token a request carries: the ``X-CSRF-Token`` header or a form's ``csrf``."""
    given = request.headers.get(CSRF_HEADER)
    if given is None and request.mimetype == "application/x-www-form-urlencoded":
        given = request.form.get("csrf")
    return given
