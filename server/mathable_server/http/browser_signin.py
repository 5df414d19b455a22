"""Signing a browser in, shared by the browser's pages (``http.browser``) and the link
routes (``api/links``): one-time links made, a session opened (its cookie), the CSRF
token of a page's forms (``http.sessions`` reads the cookie and checks the tokens)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from flask import Response, request

from mathable_i18n import _
from mathable_server.http import sessions
from mathable_server.http.errors import ErrorAnswer
from mathable_server.http.web import services
from mathable_server.notify.mail.codes import link_secret, new_nonce


@dataclass(frozen=True, slots=True)
class NewLink:
    """A one-time link just made: its nonce (an outbox row keeps it) and its secret."""

    nonce: str
    secret: str


def make_link(
    kind: str,
    player_id: str,
    *,
    lifetime_ms: int,
    game_id: str | None = None,
    address: str | None = None,
) -> NewLink:
    """Store a new one-time link (its hash); its secret is made from a fresh nonce."""
    svc = services()
    nonce = new_nonce()
    secret = link_secret(svc.secret(), nonce)
    now = svc.games.now()
    svc.store.add_link(
        sessions.secret_hash(secret),
        kind,
        player_id,
        now=now,
        expires_at=now + lifetime_ms,
        game_id=game_id,
        address=address,
    )
    return NewLink(nonce, secret)


def _cookie(response: Response, name: str, value: str, max_age: int | None = None) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
        path="/",
    )


def open_session(response: Response, player_id: str) -> str:
    """Open a browser session for ``player_id`` and set its cookie on ``response``; the
    cookie's value (a page made with it gives its CSRF token)."""
    svc = services()
    now = svc.games.now()
    cookie = secrets.token_urlsafe(32)
    days = svc.settings.session_days
    svc.store.open_session(
        secrets.token_hex(8),
        sessions.secret_hash(cookie),
        player_id,
        now=now,
        expires_at=now + days * 86_400_000,
        user_agent=request.headers.get("User-Agent"),
    )
    _cookie(response, sessions.COOKIE, cookie, days * 86_400)
    response.delete_cookie(sessions.PRE_COOKIE, path="/")
    return cookie


class FormCsrf:
    """The CSRF token of the forms of one page: the session's, or (nobody signed in)
    that of a ``mathable_pre`` cookie made now if the browser has none (``set_on``)."""

    def __init__(self) -> None:
        self._new: str | None = None
        cookie = sessions.cookie_value() or sessions.cookie_value(sessions.PRE_COOKIE)
        if cookie is None:
            cookie = self._new = secrets.token_urlsafe(24)
        self.token = sessions.csrf_token(services().secret(), cookie)

    def set_on(self, response: Response) -> Response:
        if self._new is not None:
            _cookie(response, sessions.PRE_COOKIE, self._new)
        return response


def check_form_csrf() -> None:
    """403 ``csrf_failed`` unless the posted form's ``csrf`` is the token of this
    browser's session or ``mathable_pre`` cookie."""
    given = request.form.get("csrf")
    key = services().secret()
    for name in (sessions.COOKIE, sessions.PRE_COOKIE):
        value = sessions.cookie_value(name)
        if value is not None and sessions.csrf_matches(key, value, given):
            return
    raise ErrorAnswer(
        403, "csrf_failed", _("this form is stale or came from another site: reload it")
    )


def play_path(game_id: str) -> str:
    return f"/play/{game_id}"
