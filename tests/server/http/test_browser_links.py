"""One-time links and browser sessions (issue 28): invitations by address, sign-in links,
the session cookie and its CSRF token, on SQLite and PostgreSQL.

The secrets are read back the way the delivery worker makes them (from the outbox
row's nonce and the server's secret): the row itself never holds one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from mathable_server.http.sessions import COOKIE, PRE_COOKIE, csrf_token, secret_hash
from mathable_server.notify.mail.codes import link_secret
from mathable_server.notify.mail.outgoing import SIGNIN_REQUEST, MailChannel
from mathable_server.store.outbox import Obsolete
from tests.server.apps import close_app, make_app
from tests.server.helpers import EXAMPLE_TILES, Account, example_tiles, new_game, register

pytestmark = pytest.mark.both_databases

PUBLIC = "https://play.example"
BOB = "bob@example.org"


@pytest.fixture
def app(store_url: str) -> Iterator[Flask]:
    app = make_app(store_url, smtp_url="smtp://127.0.0.1:9", public_url=PUBLIC)
    yield app
    close_app(app)


def _services(client: FlaskClient) -> Any:
    return client.application.extensions["mathable"]


def _mail_rows(client: FlaskClient, kind: str) -> list[Any]:
    room = client.application.extensions["mathable_mail"]
    return [row for row in room.outbox.rows() if row.kind == kind]


def _secret_of(client: FlaskClient, row: Any) -> str:
    return link_secret(_services(client).secret(), row.payload["nonce"])


def _invite(client: FlaskClient, ada: Account, address: str = BOB,
            tiles: list[int] = EXAMPLE_TILES) -> tuple[str, str]:  # fmt: skip
    game = new_game(client, ada, tiles=tiles)["id"]
    answer = client.post(f"/v1/games/{game}/invitations", json={"email": address},
                         headers=ada.auth)  # fmt: skip
    assert answer.status_code == 202, answer.json
    row = next(r for r in _mail_rows(client, "invite") if r.payload["game_id"] == game)
    return game, _secret_of(client, row)


def _csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]{64})"', page)
    assert found is not None, page[:400]
    return found[1]


def _join(client: FlaskClient, secret: str, name: str | None = "bob") -> Any:
    page = client.get(f"/join/{secret}")
    form = {"csrf": _csrf_of(page.get_data(as_text=True))}
    if name is not None:
        form["name"] = name
    return client.post(f"/join/{secret}", data=form)


def _session_csrf(client: FlaskClient) -> str:
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None
    return csrf_token(_services(client).secret(), cookie.value)


def test_an_invitation_mails_a_one_time_link_that_seats_a_new_verified_player(
    client: FlaskClient,
) -> None:
    ada = register(client, "ada")
    game, secret = _invite(client, ada)
    row = _mail_rows(client, "invite")[0]
    # The row holds a nonce, never the link; the answer never shows it either.
    assert secret not in str(row.payload) and secret_hash(secret) not in str(row.payload)
    mail = MailChannel(_services(client).store, lambda: _ctx(client), print).compose(row)
    text = mail.get_body(preferencelist=("plain",)).get_content()
    assert f"{PUBLIC}/join/{secret}" in text and "ada invites you" in text
    page = client.get(f"/join/{secret}")
    assert page.status_code == 200 and "ada invites you to play Mathable" in page.get_data(True)
    assert page.headers["Cache-Control"] == "no-store"
    joined = _join(client, secret, "bob")
    assert joined.status_code == 303 and joined.headers["Location"] == f"/play/{game}"
    cookie = joined.headers.getlist("Set-Cookie")
    session = next(c for c in cookie if c.startswith(f"{COOKIE}="))
    assert "HttpOnly" in session and "SameSite=Lax" in session and "Secure" not in session
    me = client.get("/v1/me").json  # the cookie alone is who the caller is
    assert me["name"] == "bob" and me["games"][0]["id"] == game
    assert me["games"][0]["status"] == "playing"
    room = client.application.extensions["mathable_mail"]
    assert room.email_addresses.verified_address(me["id"]) == BOB
    assert client.get(f"/play/{game}").status_code == 200


def _ctx(client: FlaskClient) -> Any:
    return client.application.extensions["mathable_mail"].context()


def test_a_link_works_once(client: FlaskClient) -> None:
    ada = register(client, "ada")
    _game, secret = _invite(client, ada)
    assert _join(client, secret, "bob").status_code == 303
    client.delete_cookie(COOKIE)
    again = _join_with_fresh_csrf(client, secret)
    assert again.status_code == 410 and "used already" in again.get_data(as_text=True)
    assert client.get(f"/join/{secret}").status_code == 410


def test_a_refused_invitation_is_spent(client: FlaskClient) -> None:
    ada = register(client, "ada")
    game, secret = _invite(client, ada)
    csrf = _csrf_of(client.get(f"/join/{secret}").get_data(as_text=True))
    refused = client.post(f"/join/{secret}/refuse", data={"csrf": csrf})
    assert refused.status_code == 200 and "refused" in refused.get_data(as_text=True)
    assert _join_with_fresh_csrf(client, secret).status_code == 410
    seats = client.get(f"/v1/games/{game}").json["seats"]
    assert [s["player"] for s in seats] == [ada.id, None]


def test_an_expired_link_does_nothing(client: FlaskClient) -> None:
    ada = register(client, "ada")
    game = new_game(client, ada, tiles=EXAMPLE_TILES)["id"]
    svc = _services(client)
    now = svc.games.now()
    svc.store.add_link(secret_hash("old-secret"), "invite", ada.id, now=now - 10,
                       expires_at=now - 1, game_id=game, address=BOB)  # fmt: skip
    page = client.get("/join/old-secret")
    assert page.status_code == 410 and "expired" in page.get_data(as_text=True)
    assert client.get_cookie(PRE_COOKIE) is not None or True
    joined = _join_with_fresh_csrf(client, "old-secret")
    assert joined.status_code == 410
    assert client.get(f"/v1/games/{game}").json["seats"][1]["player"] is None


def _join_with_fresh_csrf(client: FlaskClient, secret: str) -> Any:
    csrf = _csrf_of(client.get("/signin").get_data(as_text=True))
    return client.post(f"/join/{secret}", data={"csrf": csrf, "name": "bob"})


def test_invitation_expiry_is_configured(store_url: str) -> None:
    app = make_app(store_url, smtp_url="smtp://127.0.0.1:9", public_url=PUBLIC,
                   invitation_hours=2)  # fmt: skip
    client = app.test_client()
    ada = register(client, "ada")
    game = new_game(client, ada, tiles=EXAMPLE_TILES)["id"]
    answer = client.post(f"/v1/games/{game}/invitations", json={"email": BOB}, headers=ada.auth)
    secret = _secret_of(client, _mail_rows(client, "invite")[0])
    link = _services(client).store.link(secret_hash(secret))
    assert link.expires_at - link.created_at == 2 * 3_600_000
    assert answer.json["expires_at"]


def test_only_the_creator_invites(client: FlaskClient) -> None:
    ada, eve = register(client, "ada"), register(client, "eve")
    game = new_game(client, ada, tiles=EXAMPLE_TILES)["id"]
    refused = client.post(f"/v1/games/{game}/invitations", json={"email": BOB}, headers=eve.auth)
    assert refused.status_code == 422 and refused.json["error"]["code"] == "not_creator"
    bad = client.post(f"/v1/games/{game}/invitations", json={"email": "nobody"}, headers=ada.auth)
    assert bad.status_code == 400 and bad.json["error"]["code"] == "bad_address"
    assert _mail_rows(client, "invite") == []


def test_another_kind_or_player_of_link_or_session_is_refused(client: FlaskClient) -> None:
    ada = register(client, "ada")
    _game, invitation = _invite(client, ada)
    # An invitation's secret is no sign-in link.
    assert client.get(f"/signin/{invitation}").status_code == 404
    # Bob, signed in, cannot end ada's browser session.
    _join(client, invitation, "bob")
    bob_csrf = _session_csrf(client)
    ada_link = client.post("/v1/me/signin-link", json={}, headers=ada.auth).json
    other = client.application.test_client()
    page = other.get(ada_link["path"])
    other.post(ada_link["path"], data={"csrf": _csrf_of(page.get_data(as_text=True))})
    ada_sessions = client.get("/v1/me/sessions", headers=ada.auth).json["sessions"]
    assert len(ada_sessions) == 1
    refused = client.delete(f"/v1/me/sessions/{ada_sessions[0]['id']}",
                            headers={"X-CSRF-Token": bob_csrf})  # fmt: skip
    assert refused.status_code == 404
    assert other.get("/v1/me").json["name"] == "ada"


def test_a_forged_cookie_is_nobody(client: FlaskClient) -> None:
    ada = register(client, "ada")
    game = new_game(client, ada, tiles=EXAMPLE_TILES)["id"]
    client.set_cookie(COOKIE, "forged-" + "x" * 40)
    assert client.get("/v1/me").status_code == 401
    assert client.get(f"/play/{game}").status_code == 401
    client.set_cookie(COOKIE, "y" * 500)  # longer than any cookie we make
    assert client.get("/v1/me").status_code == 401


def test_a_browser_command_needs_the_csrf_token(client: FlaskClient) -> None:
    ada = register(client, "ada")
    game, secret = _invite(client, ada)
    _join(client, secret, "bob")
    view = client.get(f"/v1/games/{game}", headers=ada.auth).json
    client.post(f"/v1/games/{game}/moves", headers=ada.auth,
                json={"type": "turn", "expected_version": view["version"],
                      "placements": [{"square": "I8", "tile": 12}]})  # fmt: skip
    before = client.get(f"/v1/games/{game}").json
    assert before["your_turn"] is True  # bob's, by his cookie
    command = {"type": "pass", "expected_version": before["version"]}
    missing = client.post(f"/v1/games/{game}/moves", json=command)
    assert missing.status_code == 403 and missing.json["error"]["code"] == "csrf_failed"
    wrong = client.post(f"/v1/games/{game}/moves", json=command,
                        headers={"X-CSRF-Token": "0" * 64})  # fmt: skip
    assert wrong.status_code == 403
    assert client.get(f"/v1/games/{game}").json["version"] == before["version"]
    done = client.post(f"/v1/games/{game}/moves", json=command,
                       headers={"X-CSRF-Token": _session_csrf(client)})  # fmt: skip
    assert done.status_code == 200 and done.json["version"] > before["version"]


def test_a_form_without_its_csrf_token_is_refused(client: FlaskClient) -> None:
    ada = register(client, "ada")
    game, secret = _invite(client, ada)
    refused = client.post(f"/join/{secret}", data={"name": "bob"})
    assert refused.status_code == 403 and refused.json["error"]["code"] == "csrf_failed"
    assert client.post(f"/join/{secret}/refuse", data={}).status_code == 403
    assert client.get(f"/v1/games/{game}").json["seats"][1]["player"] is None
    assert _join(client, secret).status_code == 303  # the link was not spent


def test_sessions_are_listed_and_end_with_the_token(client: FlaskClient) -> None:
    ada = register(client, "ada")
    link = client.post("/v1/me/signin-link", json={}, headers=ada.auth).json
    assert link["url"].startswith(f"{PUBLIC}/signin/") and link["then"] == "/"
    page = client.get(link["path"])
    assert "Sign in as ada" in page.get_data(as_text=True)
    # Fetching the link spends nothing: only the button does.
    signed = client.post(link["path"], data={"csrf": _csrf_of(page.get_data(as_text=True))})
    assert signed.status_code == 303 and signed.headers["Location"] == "/"
    listed = client.get("/v1/me/sessions").json["sessions"]
    assert len(listed) == 1 and listed[0]["current"] is True
    assert client.get("/me").status_code == 200
    assert client.delete("/v1/me/token", headers=ada.auth).status_code == 204
    assert client.get("/v1/me").status_code == 401  # the browser is signed out too
    assert client.get("/me").status_code == 303


def test_sign_out_everywhere(client: FlaskClient) -> None:
    ada = register(client, "ada")
    browsers = []
    for _ in range(2):
        other = client.application.test_client()
        link = client.post("/v1/me/signin-link", json={}, headers=ada.auth).json
        page = other.get(link["path"]).get_data(as_text=True)
        other.post(link["path"], data={"csrf": _csrf_of(page)})
        browsers.append(other)
    assert len(client.get("/v1/me/sessions", headers=ada.auth).json["sessions"]) == 2
    first = browsers[0]
    csrf = _csrf_of(first.get("/me").get_data(as_text=True))
    assert first.post("/signout", data={"csrf": csrf, "everywhere": "1"}).status_code == 200
    assert [b.get("/v1/me").status_code for b in browsers] == [401, 401]
    assert client.get("/v1/me", headers=ada.auth).status_code == 200  # the token stays


def _delivered_signins(client: FlaskClient) -> dict[str, Any]:
    """The sign-in requests of the outbox as the delivery worker sends them, by the
    address each names: its mail if it reached a player's verified address, else None."""
    channel = MailChannel(_services(client).store, lambda: _ctx(client), print)
    mails = {}
    for row in _mail_rows(client, SIGNIN_REQUEST):
        try:
            mails[row.payload["to"]] = channel.compose(row)
        except Obsolete:
            mails[row.payload["to"]] = None
    return mails


def test_signin_by_address_mails_a_link_only_to_a_verified_address(client: FlaskClient) -> None:
    ada = register(client, "ada")
    _game, secret = _invite(client, ada)
    _join(client, secret, "bob")  # bob's address is verified by the invitation
    stranger = client.application.test_client()
    page = stranger.get("/signin").get_data(as_text=True)
    for address in (BOB, "nobody@example.org"):
        sent = stranger.post("/signin", data={"csrf": _csrf_of(page), "email": address})
        assert sent.status_code == 200 and "is on its way" in sent.get_data(as_text=True)
    rows = _mail_rows(client, SIGNIN_REQUEST)
    # Both requests wrote the same row, whoever's the address: the worker tells them apart.
    assert [sorted(row.payload) for row in rows] == [["minutes", "nonce", "to"]] * 2
    delivered = _delivered_signins(client)
    assert delivered["nobody@example.org"] is None
    mail = delivered[BOB]
    assert mail["To"] == BOB
    text = mail.get_body(preferencelist=("plain",)).get_content()
    link = re.search(r"/signin/([A-Za-z0-9_-]+)", text)
    assert link is not None and link[1] not in str(rows[0].payload)
    page = stranger.get(f"/signin/{link[1]}").get_data(as_text=True)
    assert stranger.post(f"/signin/{link[1]}", data={"csrf": _csrf_of(page)}).status_code == 303
    assert stranger.get("/v1/me").json["name"] == "bob"


def test_the_trial_says_where_a_tile_fits_and_why_a_move_is_refused(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = new_game(client, ada, tiles=EXAMPLE_TILES)["id"]
    client.post(f"/v1/games/{game}/join", headers=bob.auth)
    tried = client.post(f"/v1/games/{game}/trial", json={}, headers=ada.auth).json
    assert tried["ok"] and {"type": "place", "square": "I8", "tile": 12, "points": 12} in tried[
        "legal"
    ]
    placed = client.post(f"/v1/games/{game}/trial", headers=ada.auth,
                         json={"commands": [{"type": "place", "square": "I8", "tile": 12}]}).json
    assert placed["ok"] and placed["view"]["turn"]["points"] == 12
    assert placed["view"]["rack"].count(12) == 0
    refused = client.post(f"/v1/games/{game}/trial", headers=ada.auth,
                          json={"commands": [{"type": "place", "square": "A1", "tile": 12}]}).json
    assert refused["ok"] is False and refused["at"] == 0 and refused["refused"]["message"]
    # Bob may try nothing on ada's seat: his own view only (it is not his turn).
    his = client.post(f"/v1/games/{game}/trial", headers=bob.auth,
                      json={"commands": [{"type": "place", "square": "I8", "tile": 12}]}).json
    assert his["ok"] is False and "rack" not in str(his)


def test_the_link_secrets_are_kept_out_of_access_logs(client: FlaskClient) -> None:
    from mathable_server.run.access_log import redact

    ada = register(client, "ada")
    _game, secret = _invite(client, ada)
    link = client.post("/v1/me/signin-link", json={}, headers=ada.auth).json["path"]
    for line in (f"GET /join/{secret} HTTP/1.1", f"POST /join/{secret}/refuse HTTP/1.1",
                 f"POST {link} HTTP/1.1", f"GET /join%2F{secret[:3]}%{ord(secret[3]):02X}"
                 f"{secret[4:]} HTTP/1.1"):  # fmt: skip
        logged = redact(line)
        assert "[redacted]" in logged and secret not in logged and link[8:] not in logged


def test_turn_mail_links_to_the_play_page_and_the_page_shows_only_the_seat(
    client: FlaskClient,
) -> None:
    ada = register(client, "ada")
    game, secret = _invite(client, ada)
    _join(client, secret, "bob")  # bob: verified by the link, mail on his turns
    view = client.get(f"/v1/games/{game}", headers=ada.auth).json
    client.post(f"/v1/games/{game}/moves", headers=ada.auth,
                json={"type": "turn", "expected_version": view["version"],
                      "placements": [{"square": "I8", "tile": 12}]})  # fmt: skip
    rows = [row for row in _mail_rows(client, "turn") if row.payload["game_id"] == game]
    assert rows, "no turn mail for bob"
    channel = MailChannel(_services(client).store, lambda: _ctx(client), print)
    text = channel.compose(rows[0]).get_body(preferencelist=("plain",)).get_content()
    assert f"Play in your browser:\n    {PUBLIC}/play/{game}" in text
    # Bob's browser sees his rack and no other: the API's own answer for his seat.
    seen = client.get(f"/v1/games/{game}").json
    assert seen["you"] == 1 and len(seen["rack"]) == 7
    assert all("rack" not in seat for seat in seen["seats"])
    page = client.get(f"/play/{game}").get_data(as_text=True)
    ada_rack = client.get(f"/v1/games/{game}", headers=ada.auth).json["rack"]
    assert '"rack":' not in page and str(ada_rack) not in page  # the page holds no rack
    hint = client.post(f"/v1/games/{game}/trial", json={"hint": True},
                       headers={"X-CSRF-Token": _session_csrf(client)}).json  # fmt: skip
    assert hint["ok"] and hint["hint"]["words"]


def test_the_store_spends_a_link_once_and_an_expired_session_is_nobody(
    client: FlaskClient,
) -> None:
    svc = _services(client)
    ada = register(client, "ada")
    now = svc.games.now()
    svc.store.add_link(secret_hash("s1"), "signin", ada.id, now=now, expires_at=now + 60_000)
    # Two clicks racing: the store lets one of them spend it.
    assert svc.store.spend_link(secret_hash("s1"), "signin", now) is True
    assert svc.store.spend_link(secret_hash("s1"), "signin", now) is False
    svc.store.add_link(secret_hash("s2"), "signin", ada.id, now=now, expires_at=now + 60_000)
    assert svc.store.spend_link(secret_hash("s2"), "invite", now) is False  # another kind
    assert svc.store.spend_link(secret_hash("s2"), "signin", now + 60_000) is False  # expired
    svc.store.open_session("old", secret_hash("old-cookie"), ada.id, now=now - 10,
                           expires_at=now - 1, user_agent=None)  # fmt: skip
    client.set_cookie(COOKIE, "old-cookie")
    assert client.get("/v1/me").status_code == 401


def test_a_trial_tells_nothing_of_the_bag(client: FlaskClient) -> None:
    """After a command that draws (the extra tile), nothing is tried: whether a tile then
    fits would tell which tile was drawn."""
    ada, bob = register(client, "ada"), register(client, "bob")
    game = new_game(client, ada, tiles=EXAMPLE_TILES)["id"]
    client.post(f"/v1/games/{game}/join", headers=bob.auth)
    # I8=12 then J8=16 on J8, an operation square (+): an extra tile may be drawn.
    commands = [{"type": "place", "square": "I8", "tile": 12},
                {"type": "place", "square": "J8", "tile": 16},
                {"type": "draw_extra"},
                {"type": "place", "square": "K8", "tile": 3}]  # fmt: skip
    tried = client.post(f"/v1/games/{game}/trial", json={"commands": commands},
                        headers=ada.auth).json  # fmt: skip
    assert tried == {"ok": False, "at": 3, "refused": {
        "code": "drew_a_tile", "message": "a trial stops at a command that draws a tile"}}
    drawn = client.post(f"/v1/games/{game}/trial", json={"commands": commands[:3]},
                        headers=ada.auth).json  # fmt: skip
    assert drawn["ok"] and "view" not in drawn and "legal" not in drawn
    assert client.get(f"/v1/games/{game}", headers=ada.auth).json["turn"]["placements"] == []


def test_a_trial_of_an_exchange_tells_nothing_of_the_tiles_it_would_draw(
    client: FlaskClient,
) -> None:
    """An exchange gives back as many tiles as it draws (the bag's size stays): its trial
    answers no view, no legal moves and no hint (they would show the tiles to come), and
    nothing after it is tried. A placement's trial still shows them."""
    ada, bob = register(client, "ada"), register(client, "bob")
    game = new_game(client, ada, tiles=EXAMPLE_TILES)["id"]
    client.post(f"/v1/games/{game}/join", headers=bob.auth)
    rack = client.get(f"/v1/games/{game}", headers=ada.auth).json["rack"]
    exchange = {"type": "exchange", "tiles": rack}
    tried = client.post(f"/v1/games/{game}/trial", json={"commands": [exchange], "hint": True},
                        headers=ada.auth).json  # fmt: skip
    assert tried["ok"] and not {"view", "legal", "hint"} & set(tried), tried
    then = client.post(f"/v1/games/{game}/trial",
                       json={"commands": [exchange, {"type": "pass"}]}, headers=ada.auth).json
    assert then["ok"] is False and then["refused"]["code"] == "drew_a_tile"
    placed = client.post(f"/v1/games/{game}/trial",
                         json={"commands": [{"type": "place", "square": "I8", "tile": 12}]},
                         headers=ada.auth).json  # fmt: skip
    assert placed["ok"] and "view" in placed and "legal" in placed


def test_signin_requests_are_counted_per_client_address(store_url: str) -> None:
    """The requester's own budget (``MATHABLE_CODE_MAIL_LIMIT``): requests from one client
    address, whichever addresses they name; over it, a page saying when to try again."""
    from mathable_server.http.limits import RateLimit

    app = make_app(store_url, smtp_url="smtp://127.0.0.1:9", public_url=PUBLIC,
                   code_mail_limit=RateLimit(1 / 3600, 2))  # fmt: skip
    client = app.test_client()
    page = client.get("/signin").get_data(as_text=True)
    answers = [
        client.post("/signin", data={"csrf": _csrf_of(page), "email": f"n{i}@example.org"})
        for i in range(3)
    ]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert "Too many sign-in requests from your network" in answers[2].get_data(as_text=True)
    assert int(answers[2].headers["Retry-After"]) > 0
    assert len(_mail_rows(client, SIGNIN_REQUEST)) == 2
    close_app(app)


def test_the_player_whose_address_it_is_joins_as_themselves(client: FlaskClient) -> None:
    ada = register(client, "ada")
    _first, secret = _invite(client, ada)
    _join(client, secret, "bob")  # bob@ is now bob's verified address
    bob_id = client.get("/v1/me").json["id"]
    game, second = _invite(client, ada, tiles=example_tiles(2))
    # Another browser, nobody signed in (the invitation forwarded, say): the link seats
    # bob, but signs nobody in as him: it asks to sign in first, and spends nothing.
    fresh = client.application.test_client()
    page = fresh.get(f"/join/{second}").get_data(as_text=True)
    assert "sign in</a> as bob first" in page and 'name="name"' not in page
    refused = fresh.post(f"/join/{second}", data={"csrf": _csrf_of(page)})
    assert refused.status_code == 403 and "Sign in first" in refused.get_data(as_text=True)
    assert fresh.get("/v1/me").status_code == 401
    assert client.get(f"/v1/games/{game}", headers=ada.auth).json["seats"][1]["player"] is None
    # bob's own browser (signed in as bob) takes the seat with the same link.
    page = client.get(f"/join/{second}").get_data(as_text=True)
    assert "Join as bob" in page
    joined = client.post(f"/join/{second}", data={"csrf": _csrf_of(page)})
    assert joined.status_code == 303 and joined.headers["Location"] == f"/play/{game}"
    assert client.get(f"/v1/games/{game}", headers=ada.auth).json["seats"][1]["player"] == bob_id


def test_an_invitation_by_address_respects_blocks(client: FlaskClient) -> None:
    """A player who blocked the inviter gets no invitation mail at their address (403
    ``blocked``, as an invitation by name), and a link cannot seat a blocked player."""
    ada = register(client, "ada")
    _first, secret = _invite(client, ada)
    _join(client, secret, "bob")  # bob@ is bob's verified address; this browser is bob's
    csrf = _csrf_of(client.get("/me").get_data(as_text=True))
    blocked = client.put("/v1/me/blocks/ada", headers={"X-CSRF-Token": csrf})
    assert blocked.status_code in (200, 201, 204), blocked.get_data(as_text=True)
    game = new_game(client, ada, tiles=example_tiles(3))["id"]
    answer = client.post(f"/v1/games/{game}/invitations", json={"email": "bob@example.org"},
                         headers=ada.auth)  # fmt: skip
    assert answer.status_code == 403 and answer.json["error"]["code"] == "blocked"
