"""A stolen browser session ends for good (docs/security.md, "Third review", finding 3):
"sign out everywhere" and a new or revoked token withdraw every sign-in link not used
yet; only a token mints links; a browser changes the account's address only soon after
signing in, and the address it had is told.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from mathable_server.http.sessions import COOKIE, csrf_token
from mathable_server.store.schema import browser_sessions
from tests.server.apps import close_app, make_app
from tests.server.helpers import Account, register

pytestmark = pytest.mark.both_databases

PUBLIC = "https://play.example"


@pytest.fixture
def app(store_url: str) -> Iterator[Flask]:
    app = make_app(store_url, smtp_url="smtp://127.0.0.1:9", public_url=PUBLIC)
    yield app
    close_app(app)


def _csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]{64})"', page)
    assert found is not None, page[:400]
    return found[1]


def _link(client: FlaskClient, who: Account) -> str:
    answer = client.post("/v1/me/signin-link", json={}, headers=who.auth)
    assert answer.status_code == 201, answer.json
    return str(answer.json["path"])


def _signed_in(app: Flask, path: str) -> FlaskClient:
    """A new browser that follows the sign-in link ``path``."""
    browser = app.test_client()
    page = browser.get(path)
    assert page.status_code == 200, page.get_data(as_text=True)
    done = browser.post(path, data={"csrf": _csrf_of(page.get_data(as_text=True))})
    assert done.status_code == 303
    return browser


def _session_headers(browser: FlaskClient) -> dict[str, str]:
    cookie = browser.get_cookie(COOKIE)
    assert cookie is not None
    secret = browser.application.extensions["mathable"].secret()
    return {"X-CSRF-Token": csrf_token(secret, cookie.value)}


def _withdrawn(app: Flask, path: str) -> None:
    page = app.test_client().get(path)
    assert page.status_code == 410, page.status_code
    assert "works no more" in page.get_data(as_text=True)


def test_a_spare_link_dies_when_the_thief_is_signed_out_everywhere(app: Flask) -> None:
    """The finding: with a session and a spare link, a thief signed in again after
    "sign out everywhere" and minted the next link."""
    client = app.test_client()
    ada = register(client, "ada")
    thief = _signed_in(app, _link(client, ada))
    spare = _link(client, ada)
    ended = thief.delete("/v1/me/sessions", headers=_session_headers(thief))
    assert ended.status_code == 204
    assert thief.get("/v1/me").status_code == 401
    _withdrawn(app, spare)
    # The same from the page's "Sign out everywhere" button.
    again = _signed_in(app, _link(client, ada))
    spare = _link(client, ada)
    csrf = _csrf_of(again.get("/me").get_data(as_text=True))
    assert again.post("/signout", data={"csrf": csrf, "everywhere": "1"}).status_code == 200
    _withdrawn(app, spare)
    # A link minted after it works as ever.
    _signed_in(app, _link(client, ada))


def test_a_spare_link_dies_with_a_new_or_revoked_token(app: Flask) -> None:
    client = app.test_client()
    ada = register(client, "ada")
    spare = _link(client, ada)
    rotated = client.post("/v1/me/token", headers=ada.auth)
    assert rotated.status_code == 201
    _withdrawn(app, spare)
    ada = Account(ada.id, ada.name, rotated.json["token"])
    spare = _link(client, ada)
    assert client.delete("/v1/me/token", headers=ada.auth).status_code == 204
    _withdrawn(app, spare)


def test_a_browser_session_mints_no_signin_link(app: Flask) -> None:
    client = app.test_client()
    ada = register(client, "ada")
    browser = _signed_in(app, _link(client, ada))
    refused = browser.post("/v1/me/signin-link", json={}, headers=_session_headers(browser))
    assert refused.status_code == 403 and refused.json["error"]["code"] == "token_required"


def _age_sessions(app: Flask, player_id: str, minutes: int) -> None:
    store = app.extensions["mathable"].store
    with store.engine.begin() as conn:
        conn.execute(
            update(browser_sessions)
            .where(browser_sessions.c.player_id == player_id)
            .values(created_at=browser_sessions.c.created_at - minutes * 60_000)
        )


def _outbox(app: Flask, kind: str) -> list[Any]:
    return [row for row in app.extensions["mathable_mail"].outbox.rows() if row.kind == kind]


def test_a_browser_changes_the_address_only_soon_after_signing_in(app: Flask) -> None:
    client = app.test_client()
    ada = register(client, "ada")
    room = app.extensions["mathable_mail"]
    room.email_addresses.set_address(ada.id, "ada@old.example", "123456", 0)
    assert room.email_addresses.verify(ada.id, "123456", 1) == "verified"
    browser = _signed_in(app, _link(client, ada))
    _age_sessions(app, ada.id, 11)
    body = {"address": "thief@new.example"}
    refused = browser.put("/v1/me/email", json=body, headers=_session_headers(browser))
    assert refused.status_code == 403 and refused.json["error"]["code"] == "signin_too_old"
    assert refused.json["error"]["details"] == {"within_minutes": 10, "signin": "/signin"}
    assert room.email_addresses.verified_address(ada.id) == "ada@old.example"  # nothing changed
    assert _outbox(app, "address_change") == []
    # Signed in again just now: allowed, and both addresses are mailed.
    fresh = _signed_in(app, _link(client, ada))
    done = fresh.put("/v1/me/email", json=body, headers=_session_headers(fresh))
    assert done.status_code == 202, done.json
    [told] = _outbox(app, "address_change")
    assert told.payload == {"to": "ada@old.example", "new": "thief@new.example"}
    assert [row.payload["to"] for row in _outbox(app, "verify")] == ["thief@new.example"]
    # A token needs no fresh sign-in (the terminal client).
    again = client.put("/v1/me/email", json={"address": "ada@old.example"}, headers=ada.auth)
    assert again.status_code == 202


def test_the_old_address_is_told_in_words(app: Flask) -> None:
    from mathable_server.notify.mail.outgoing import MailChannel

    client = app.test_client()
    ada = register(client, "ada")
    room = app.extensions["mathable_mail"]
    room.email_addresses.set_address(ada.id, "ada@old.example", "123456", 0)
    room.email_addresses.verify(ada.id, "123456", 1)
    client.put("/v1/me/email", json={"address": "ada@new.example"}, headers=ada.auth)
    [row] = _outbox(app, "address_change")
    mail = MailChannel(app.extensions["mathable"].store, room.context, print).compose(row)
    assert mail["To"] == "ada@old.example"
    text = mail.get_body(preferencelist=("plain",)).get_content()
    assert "account ada was changed to ada@new.example" in text
    assert "mathable-cli email set ada@old.example" in text


def test_an_invitation_followed_with_a_stolen_cookie_signs_nobody_in_afresh(app: Flask) -> None:
    """The third review's second look: a failed join ("Cannot join") opened a new session
    for the browser's own player, a fresh sign-in by the ten-minute test, so a stolen
    old cookie could change the address after all."""
    from mathable_server.notify.mail.codes import link_secret
    from tests.server.helpers import new_game

    client = app.test_client()
    ada, thief, accomplice = (register(client, name) for name in ("ada", "thief", "acc"))
    stolen = _signed_in(app, _link(client, ada))
    _age_sessions(app, ada.id, 11)
    game = new_game(client, thief)["id"]
    invited = client.post(f"/v1/games/{game}/invitations", json={"email": "drop@evil.example"},
                          headers=thief.auth)  # fmt: skip
    assert invited.status_code == 202
    assert client.post(f"/v1/games/{game}/join", headers=accomplice.auth).status_code == 200
    [row] = _outbox(app, "invite")
    secret = link_secret(app.extensions["mathable"].secret(), row.payload["nonce"])
    page = stolen.get(f"/join/{secret}").get_data(as_text=True)
    joined = stolen.post(f"/join/{secret}", data={"csrf": _csrf_of(page)})
    assert joined.status_code == 409
    assert COOKIE not in " ".join(joined.headers.getlist("Set-Cookie"))
    body = {"address": "thief@evil.example"}
    refused = stolen.put("/v1/me/email", json=body, headers=_session_headers(stolen))
    assert refused.status_code == 403 and refused.json["error"]["code"] == "signin_too_old"


def test_a_browser_deletes_the_account_only_soon_after_signing_in(app: Flask) -> None:
    """Fourth review, (d): a browser session opened over ten minutes ago (a stolen
    cookie, say) cannot delete the account; a fresh sign-in, or the token, can."""
    client = app.test_client()
    ada = register(client, "ada")
    browser = _signed_in(app, _link(client, ada))
    _age_sessions(app, ada.id, 11)
    refused = browser.delete("/v1/me", json={"confirm": "ada"}, headers=_session_headers(browser))
    assert refused.status_code == 403 and refused.json["error"]["code"] == "signin_too_old"
    assert client.get("/v1/me", headers=ada.auth).status_code == 200  # nothing changed
    fresh = _signed_in(app, _link(client, ada))
    done = fresh.delete("/v1/me", json={"confirm": "ada"}, headers=_session_headers(fresh))
    assert done.status_code == 200, done.json
    assert client.get("/v1/me", headers=ada.auth).status_code == 401
