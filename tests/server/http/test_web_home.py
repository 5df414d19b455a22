"""The web as a home (issue 42), by HTTP: the lobby (``GET /v1/lobby``), the account's
data and its deletion (``GET /v1/me/data``, ``DELETE /v1/me``), signing up by mail
(``/signup``), the confirmation of an address given at registration (``/confirm``), a
token made from the settings page, and the pages; each with its refusals, on SQLite and
PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from mathable_server.http.sessions import COOKIE, csrf_token
from mathable_server.notify.mail.codes import link_secret
from mathable_server.notify.mail.outgoing import SIGNUP_REQUEST, MailChannel
from tests.server.apps import close_app, make_app
from tests.server.helpers import Account, move, new_game, register, started_game

pytestmark = pytest.mark.both_databases

PUBLIC = "https://play.example"


@pytest.fixture
def app(store_url: str) -> Iterator[Flask]:
    app = make_app(store_url, smtp_url="smtp://127.0.0.1:9", public_url=PUBLIC)
    yield app
    close_app(app)


def _services(client: FlaskClient) -> Any:
    return client.application.extensions["mathable"]


def _room(client: FlaskClient) -> Any:
    return client.application.extensions["mathable_mail"]


def _rows(client: FlaskClient, kind: str) -> list[Any]:
    return [row for row in _room(client).outbox.rows() if row.kind == kind]


def _csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]{64})"', page)
    assert found is not None, page[:400]
    return found[1]


def _compose(client: FlaskClient, row: Any) -> Any:
    return MailChannel(_services(client).store, _room(client).context, print).compose(row)


def _text(mail: Any) -> str:
    return str(mail.get_body(preferencelist=("plain",)).get_content())


def _ask_signup(client: FlaskClient, address: str) -> Any:
    page = client.get("/signup").get_data(as_text=True)
    return client.post("/signup", data={"csrf": _csrf_of(page), "email": address})


def _signed_up(client: FlaskClient, address: str, name: str) -> Any:
    """Sign up by mail in ``client``; the answer of the name's form."""
    assert _ask_signup(client, address).status_code == 200
    row = next(r for r in _rows(client, SIGNUP_REQUEST) if r.payload["to"] == address)
    link = re.search(r"/signup/([A-Za-z0-9_-]+)", _text(_compose(client, row)))
    assert link is not None
    page = client.get(f"/signup/{link[1]}").get_data(as_text=True)
    return client.post(f"/signup/{link[1]}", data={"csrf": _csrf_of(page), "name": name})


def _session_csrf(client: FlaskClient) -> dict[str, str]:
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None
    return {"X-CSRF-Token": csrf_token(_services(client).secret(), cookie.value)}


# --- the lobby ----------------------------------------------------------------------------


def test_the_lobby_lists_seats_open_to_anyone_newest_first(client: FlaskClient) -> None:
    ada, bob, cy = register(client, "ada"), register(client, "bob"), register(client, "cy")
    old = new_game(client, ada, clock={"per_move": 86_400}, rated=False)["id"]
    reserved = new_game(client, ada, invite=["bob"])["id"]  # its one free seat is bob's
    three = new_game(client, bob, players=3, invite=["ada"])["id"]  # one seat open
    mailed = new_game(client, cy)["id"]
    sent = client.post(f"/v1/games/{mailed}/invitations", json={"email": "dan@example.org"},
                       headers=cy.auth)  # fmt: skip
    assert sent.status_code == 202  # its one free seat is promised to the mailed link
    listed = client.get("/v1/lobby").json
    assert [g["id"] for g in listed["games"]] == [three, old]
    assert listed["next_before"] is None
    first = listed["games"][0]
    assert first["players"] == 3 and first["seated"] == 1 and first["creator"]["name"] == "bob"
    assert first["creator"]["rating"] is None and first["clock"] is None
    assert listed["games"][1]["clock"]["per_move"] == 86_400
    assert listed["games"][1]["rated"] is False and reserved not in str(listed)
    # Filters, paging, and the caller's own games.
    assert [g["id"] for g in client.get("/v1/lobby?clock=per_move").json["games"]] == [old]
    assert [g["id"] for g in client.get("/v1/lobby?clock=none").json["games"]] == [three]
    assert [g["id"] for g in client.get("/v1/lobby?rated=false").json["games"]] == [old]
    assert client.get("/v1/lobby?ruleset=summy").json["games"] == []
    page = client.get("/v1/lobby?limit=1").json
    assert [g["id"] for g in page["games"]] == [three] and page["next_before"] == three
    rest = client.get(f"/v1/lobby?limit=1&before={three}").json
    assert [g["id"] for g in rest["games"]] == [old]
    mine = client.get("/v1/lobby", headers=bob.auth).json["games"]
    assert [g["yours"] for g in mine] == [True, False]
    # A game full, or called off by its creator, leaves the lobby.
    assert client.post(f"/v1/games/{old}/join", json={}, headers=cy.auth).status_code == 200
    assert client.post(f"/v1/games/{three}/decline", json={}, headers=bob.auth).status_code == 200
    assert client.get("/v1/lobby").json["games"] == []


def test_the_lobby_refuses_filters_it_does_not_know(client: FlaskClient) -> None:
    for bad in ("clock=fast", "limit=0", "limit=101", "rated=perhaps", "colour=red"):
        answer = client.get(f"/v1/lobby?{bad}")
        assert answer.status_code == 400 and answer.json["error"]["code"] == "validation_error"


def test_the_lobby_page_offers_join_and_cancel(client: FlaskClient) -> None:
    ada = register(client, "ada")
    game = new_game(client, ada)["id"]
    anyone = client.get("/lobby").get_data(as_text=True)
    assert game in anyone and "/signup" in anyone and 'data-action="join"' not in anyone
    assert _signed_up(client, "eve@example.org", "eve").status_code == 303
    eve = client.get("/lobby").get_data(as_text=True)
    assert f'data-action="join" data-game="{game}"' in eve
    joined = client.post(f"/v1/games/{game}/join", json={}, headers=_session_csrf(client))
    assert joined.status_code == 200
    assert game not in client.get("/lobby").get_data(as_text=True)


# --- signing up -----------------------------------------------------------------------------


def test_signing_up_mails_a_link_that_makes_a_verified_player(client: FlaskClient) -> None:
    made = _signed_up(client, "cea@example.org", "cea")
    assert made.status_code == 303 and made.headers["Location"] == "/"
    me = client.get("/v1/me").json  # the session cookie is who the caller is
    assert me["name"] == "cea"
    assert _room(client).email_addresses.verified_address(me["id"]) == "cea@example.org"
    home = client.get("/").get_data(as_text=True)
    assert "Hello, cea" in home and 'href="/new"' in home
    # The link works once.
    row = _rows(client, SIGNUP_REQUEST)[0]
    secret = link_secret(_services(client).secret(), row.payload["nonce"])
    assert client.get(f"/signup/{secret}").status_code == 410


def test_an_address_with_an_account_gets_a_sign_in_link_and_the_same_page(
    client: FlaskClient,
) -> None:
    _signed_up(client.application.test_client(), "cea@example.org", "cea")
    pages = set()
    for address in ("cea@example.org", "nobody@example.org"):
        stranger = client.application.test_client()
        answer = _ask_signup(stranger, address)
        assert answer.status_code == 200
        pages.add(re.sub(r'value="[0-9a-f]{64}"', "", answer.get_data(as_text=True))
                  .replace(address, "ADDRESS"))  # fmt: skip
    assert len(pages) == 1  # nobody learns which addresses have accounts
    rows = [r for r in _rows(client, SIGNUP_REQUEST) if r.payload["to"] == "cea@example.org"]
    mail = _compose(client, rows[-1])
    assert "/signin/" in _text(mail) and "/signup/" not in _text(mail)


def test_signing_up_counts_against_the_registration_limits(store_url: str) -> None:
    """Fourth review, finding 4: an account made by signing up by mail spends the
    caller's registrations as ``POST /v1/players`` does; over them the name's form says
    so (429) and makes nobody."""
    from mathable_server.http.limits import RateLimit

    app = make_app(store_url, smtp_url="smtp://127.0.0.1:9", public_url=PUBLIC,
                   registration_limit=RateLimit(rate=1 / 3600, burst=2))  # fmt: skip
    try:
        client = app.test_client()
        assert _signed_up(client, "eve@example.org", "eve").status_code == 303
        register(client, "fay")
        over = _signed_up(app.test_client(), "gil@example.org", "gil")
        assert over.status_code == 429 and "Retry-After" in over.headers
        assert client.get("/v1/players/gil").status_code == 404
        assert client.post("/v1/players", json={"name": "hal"}).status_code == 429
    finally:
        close_app(app)


def test_signing_up_refuses_what_it_cannot_use(client: FlaskClient) -> None:
    page = client.get("/signup").get_data(as_text=True)
    assert client.post("/signup", data={"email": "a@example.org"}).status_code == 403
    bad = client.post("/signup", data={"csrf": _csrf_of(page), "email": "not an address"})
    assert bad.status_code == 400 and "not an email address" in bad.get_data(as_text=True)
    assert client.get("/signup/no-such-link").status_code == 404
    register(client, "taken")
    taken = _signed_up(client, "new@example.org", "taken")
    assert taken.status_code == 409 and "is taken" in taken.get_data(as_text=True)
    unnamed = _signed_up(client.application.test_client(), "x@example.org", "a b")
    assert unnamed.status_code == 400 and "will not do" in unnamed.get_data(as_text=True)


def test_a_player_registered_with_an_address_is_mailed_a_confirmation_link(
    client: FlaskClient,
) -> None:
    made = client.post("/v1/players", json={"name": "ann", "email": "ann@example.org"})
    assert made.status_code == 201
    player = made.json["id"]
    (row,) = _rows(client, "confirm")
    mail = _compose(client, row)
    assert mail["To"] == "ann@example.org" and "ann" in _text(mail)
    link = re.search(r"/confirm/([A-Za-z0-9_-]+)", _text(mail))
    assert link is not None and link[1] not in str(row.payload)
    assert _room(client).email_addresses.verified_address(player) is None
    page = client.get(f"/confirm/{link[1]}").get_data(as_text=True)
    done = client.post(f"/confirm/{link[1]}", data={"csrf": _csrf_of(page)})
    assert done.status_code == 200 and "is confirmed" in done.get_data(as_text=True)
    assert _room(client).email_addresses.verified_address(player) == "ann@example.org"
    again = client.post(f"/confirm/{link[1]}", data={"csrf": _csrf_of(page)})
    assert again.status_code == 410


def _confirm_link(client: FlaskClient, address: str) -> str:
    row = next(r for r in _rows(client, "confirm") if r.payload["to"] == address)
    link = re.search(r"/confirm/([A-Za-z0-9_-]+)", _text(_compose(client, row)))
    assert link is not None
    return f"/confirm/{link[1]}"


def test_an_old_confirmation_link_replaces_no_newer_address(client: FlaskClient) -> None:
    """Fourth review, finding 3: a link mailed to the address given at registration
    (a typo, say) proves nothing once the player has changed their address, proved or
    not, or replaced their token: its holder cannot take the account's mail."""
    made = client.post("/v1/players", json={"name": "ann", "email": "ann@typo.example"})
    ann = Account(made.json["id"], "ann", made.json["token"])
    old = _confirm_link(client, "ann@typo.example")
    csrf = _csrf_of(client.get("/signup").get_data(as_text=True))
    changed = client.put("/v1/me/email", json={"address": "ann@example.org"}, headers=ann.auth)
    assert changed.status_code == 202, changed.json
    addresses = _room(client).email_addresses
    for proved in (False, True):
        if proved:
            addresses.set_verified(ann.id, "ann@example.org", _services(client).games.now())
        page = client.get(old)
        assert page.status_code == 410 and "works no more" in page.get_data(as_text=True)
        done = client.post(old, data={"csrf": csrf})
        assert done.status_code == 410 and "works no more" in done.get_data(as_text=True)
        status = addresses.email_status(ann.id)
        assert (status.address, status.verified) == ("ann@example.org", proved)

    made = client.post("/v1/players", json={"name": "bea", "email": "bea@example.org"})
    bea = Account(made.json["id"], "bea", made.json["token"])
    link = _confirm_link(client, "bea@example.org")
    assert client.post("/v1/me/token", json={}, headers=bea.auth).status_code == 201
    done = client.post(link, data={"csrf": csrf})
    assert done.status_code == 410 and "works no more" in done.get_data(as_text=True)
    assert addresses.verified_address(bea.id) is None


# --- the account: its data, a token, its deletion -------------------------------------------


def test_a_player_downloads_everything_kept_about_them_and_no_secret(
    client: FlaskClient,
) -> None:
    assert client.get("/v1/me/data").status_code == 401
    _signed_up(client, "cea@example.org", "cea")
    client.patch("/v1/me", json={"time_zone": "Asia/Tokyo"}, headers=_session_csrf(client))
    answer = client.get("/v1/me/data")
    assert answer.status_code == 200 and "attachment" in answer.headers["Content-Disposition"]
    data = answer.json
    assert data["player"]["name"] == "cea"
    assert data["email_addresses"][0]["address"] == "cea@example.org"
    assert data["player_settings"][0]["time_zone"] == "Asia/Tokyo"
    assert len(data["browser_sessions"]) == 1
    text = answer.get_data(as_text=True)
    assert "token_hash" not in text and "secret_hash" not in text and "code_hash" not in text


def test_a_token_from_the_settings_page(client: FlaskClient) -> None:
    _signed_up(client, "cea@example.org", "cea")
    made = client.post("/v1/me/token", headers=_session_csrf(client))
    assert made.status_code == 201 and made.json["name"] == "cea"
    token = {"Authorization": f"Bearer {made.json['token']}"}
    assert client.get("/v1/me", headers=token).json["name"] == "cea"
    # Without the page's CSRF token a browser makes none.
    assert client.post("/v1/me/token").status_code == 403


def test_a_deleted_account_leaves_no_subscription_entry_or_name_behind(
    client: FlaskClient,
) -> None:
    """Fourth review, finding 2: the push subscription, the pages seen, the tournament
    entry and the tournament made go with the account, and a newcomer taking the freed
    name does not show as the player of the deleted account's finished games."""
    from sqlalchemy import select

    from mathable_server.store.schema import page_views, push_subscriptions

    ali, bob = register(client, "alice1"), register(client, "bobby1")
    store = _services(client).store
    now = _services(client).games.now()
    store.add_subscription(ali.id, "https://push.example/ali", "k" * 87, "a" * 22, now)
    over = started_game(client, ali, bob)["id"]
    version = client.get(f"/v1/games/{over}", headers=ali.auth).json["version"]
    assert move(client, ali, over, version, type="resign").status_code == 200
    assert "alice1" in client.get("/v1/players/bobby1/games").get_data(as_text=True)
    made = client.post("/v1/tournaments", json={"name": "Ali's cup", "format": "round_robin"},
                       headers=ali.auth)  # fmt: skip
    assert made.status_code == 201, made.json
    other = client.post("/v1/tournaments", json={"name": "Bob's cup", "format": "round_robin"},
                        headers=bob.auth).json["id"]  # fmt: skip
    assert client.post(f"/v1/tournaments/{other}/join", headers=ali.auth).status_code == 200
    with store.engine.begin() as conn:
        conn.execute(page_views.insert().values(player_id=ali.id, game_id=over, seen_at=now))
    assert client.delete("/v1/me", json={"confirm": "alice1"}, headers=ali.auth).status_code == 200
    with store.engine.connect() as conn:
        for table in (push_subscriptions, page_views):
            assert conn.execute(select(table).where(table.c.player_id == ali.id)).all() == []
    assert client.get(f"/v1/tournaments/{made.json['id']}").status_code == 404
    assert "alice1" not in str(client.get(f"/v1/tournaments/{other}").json["players"])
    assert register(client, "alice1").id != ali.id  # the name is free again
    archive = client.get("/v1/players/bobby1/games").get_data(as_text=True)
    assert "alice1" not in archive and "anonymous-" in archive


def test_deleting_an_account_leaves_only_an_anonymous_seat(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    over = new_game(client, ada)["id"]
    client.post(f"/v1/games/{over}/join", json={}, headers=bob.auth)
    client.post(f"/v1/games/{over}/moves", json={"type": "resign", "expected_version": 0},
                headers=ada.auth)  # fmt: skip
    running = new_game(client, ada)["id"]
    client.post(f"/v1/games/{running}/join", json={}, headers=bob.auth)
    waiting = new_game(client, ada)["id"]
    client.put("/v1/me/blocks/bob", headers=ada.auth)
    assert "ada" in client.get(f"/games/{over}").get_data(as_text=True)  # kept in a cache
    assert "ada" in str(client.get(f"/v1/games/{over}").json["seats"])
    # Refused: no body, or another name.
    assert client.delete("/v1/me", headers=ada.auth).status_code == 400
    wrong = client.delete("/v1/me", json={"confirm": "bob"}, headers=ada.auth)
    assert wrong.status_code == 422 and wrong.json["error"]["code"] == "confirm_mismatch"
    assert client.get("/v1/me", headers=ada.auth).status_code == 200  # nothing changed
    done = client.delete("/v1/me", json={"confirm": "ADA"}, headers=ada.auth)
    assert done.status_code == 200 and done.json["anonymous"].startswith("anonymous-")
    anonymous = done.json["anonymous"]
    assert client.get("/v1/me", headers=ada.auth).status_code == 401
    views = {g: client.get(f"/v1/games/{g}").json for g in (over, running, waiting)}
    assert views[running]["status"] == "ended"  # resigned: bob alone is left
    assert views[waiting]["status"] != "waiting" or views[waiting].get("cancelled")
    names = [s.get("name") for s in views[over]["seats"]]
    assert anonymous in names and "ada" not in names
    page = client.get(f"/games/{over}").get_data(as_text=True)
    assert anonymous in page and ">ada<" not in page and "ada " not in page
    assert client.get("/v1/players/ada").status_code == 404
    # The name is free again.
    assert client.post("/v1/players", json={"name": "ada"}).status_code == 201
    assert client.get("/v1/me/blocks", headers=bob.auth).json["blocks"] == []


# --- the pages ------------------------------------------------------------------------------


def test_the_pages_of_a_signed_in_player(client: FlaskClient) -> None:
    for path in ("/new", "/settings"):
        away = client.get(path)
        assert away.status_code == 303 and away.headers["Location"] == "/signin"
    front = client.get("/").get_data(as_text=True)
    for link in ('href="/signup"', 'href="/signin"', 'href="/computer"', 'href="/rules"'):
        assert link in front
    _signed_up(client, "cea@example.org", "cea")
    me = client.get("/v1/me").json["id"]
    bob = register(client, "bob")
    game = new_game(client, bob, invite=["cea"])["id"]
    client.post(f"/v1/games/{game}/join", json={}, headers=_session_csrf(client))
    view = client.get(f"/v1/games/{game}").json
    home = client.get("/").get_data(as_text=True)
    mine = view["turn"]["seat"] == view["you"]
    assert ("<title>(1) " in home) == mine
    assert (f'data-waiting="{game}"' in home) == mine
    assert f"/v1/games/{game}/board.svg" in home and "With bob" in home
    new = client.get("/new").get_data(as_text=True)
    assert 'id="new-game"' in new and '<option value="bob">' in new  # a past opponent
    settings = client.get("/settings").get_data(as_text=True)
    for label in ("Time zone", "Language of pages and mail", "Turn mail", "Vacation",
                  "Blocked players", "Browsers signed in", "(this browser)",
                  "Download my data (JSON)", "Delete my account", "Make a new token"):
        assert label in settings, label
    # A tournament's game is marked with the tournament's name, linked to its page.
    tid = client.post("/v1/tournaments", json={"name": "Friday <club>", "format": "round_robin"},
                      headers=bob.auth).json["id"]  # fmt: skip
    client.post(f"/v1/tournaments/{tid}/join", headers=bob.auth)
    client.post(f"/v1/tournaments/{tid}/join", json={}, headers=_session_csrf(client))
    assert client.post(f"/v1/tournaments/{tid}/start", headers=bob.auth).status_code == 200
    event_game = client.get(f"/v1/tournaments/{tid}").json["rounds"][0][0]["game_id"]
    home = client.get("/").get_data(as_text=True)
    card = home[home.index(f'data-game="{event_game}"'):]
    card = card[: card.index("</li>")]
    assert f'<a href="/tournaments/{tid}">Friday &lt;club&gt;</a>' in card
    plain = home[home.index(f'data-game="{game}"'):]
    assert "/tournaments/" not in plain[: plain.index("</li>")]  # a game of no tournament
    play = client.get(f"/play/{event_game}").get_data(as_text=True)
    assert f'<a href="/tournaments/{tid}">Friday &lt;club&gt;</a>' in play
    assert client.get("/players/bob").status_code == 200
    assert client.get("/players/nobody").status_code == 404
    assert client.get("/leaderboard?ruleset=mathable").status_code == 200
    assert client.get("/leaderboard?ruleset=chess").status_code == 404
    assert client.get("/terminal").status_code == 200 and client.get("/rules").status_code == 200
    assert me


def test_an_account_of_the_new_pages_in_french(client: FlaskClient) -> None:
    _signed_up(client, "cea@example.org", "cea")
    client.patch("/v1/me", json={"language": "fr"}, headers=_session_csrf(client))
    home = client.get("/").get_data(as_text=True)
    assert "Bonjour, cea" in home and "Nouvelle partie" in home
    assert "Fuseau horaire" in client.get("/settings").get_data(as_text=True)


def test_the_language_chosen_stays_after_signing_out(client: FlaskClient) -> None:
    """The trial's finding: ``/signin`` went back to English after a player chose French."""
    _signed_up(client, "cea@example.org", "cea")
    csrf = _csrf_of(client.get("/settings").get_data(as_text=True))
    switched = client.post("/language", data={"csrf": csrf, "lang": "fr", "back": "/"})
    assert switched.status_code == 303
    assert client.post("/signout", data={"csrf": csrf}).status_code == 200
    assert client.get("/v1/me").status_code == 401  # signed out
    page = client.get("/signin", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="fr">' in page and "Se connecter" in page


def test_an_invitation_mailed_to_a_players_address_is_on_their_home(client: FlaskClient) -> None:
    _signed_up(client, "cea@example.org", "cea")
    ada = register(client, "ada")
    game = new_game(client, ada)["id"]
    sent = client.post(f"/v1/games/{game}/invitations", json={"email": "CEA@example.org"},
                       headers=ada.auth)  # fmt: skip
    assert sent.status_code == 202
    home = client.get("/").get_data(as_text=True)
    invitations = home.split('id="invitations"')[1].split("</ul>")[0]
    assert game in invitations and "With ada" in invitations
    assert f'data-action="join" data-game="{game}"' in invitations
    joined = client.post(f"/v1/games/{game}/join", json={}, headers=_session_csrf(client))
    assert joined.status_code == 200
    assert 'id="invitations"' not in client.get("/").get_data(as_text=True)


# --- a finished game whose bag order is withheld (fourth review, finding 1) --------------


def _browser_of(client: FlaskClient, who: Account) -> FlaskClient:
    browser = client.application.test_client()
    link = browser.post("/v1/me/signin-link", json={}, headers=who.auth).json
    page = browser.get(link["path"]).get_data(as_text=True)
    assert browser.post(link["path"], data={"csrf": _csrf_of(page)}).status_code == 303
    return browser


def test_no_page_shows_the_end_of_a_game_whose_bag_order_is_withheld(
    client: FlaskClient,
) -> None:
    """Two games of seed 42; the first ends at once by a resignation: its final scores
    (minus the scores before the end: the running game's start racks) show nowhere
    while the other game draws the order, and everywhere once it has ended."""
    annaa, bertt, carla, danny = (register(client, n) for n in ("annaa", "bertt", "carla", "danny"))
    first = started_game(client, annaa, bertt, seed=42)["id"]
    other = started_game(client, carla, danny, seed=42)["id"]
    version = client.get(f"/v1/games/{first}", headers=annaa.auth).json["version"]
    assert move(client, annaa, first, version, type="resign").status_code == 200
    result = _services(client).games.state(first).result
    final = list(result.scores)
    before = [s + d for s, d in zip(result.scores, result.deductions, strict=True)]
    assert final != before  # the end took the racks' tiles off
    browser = _browser_of(client, annaa)

    def pages() -> dict[str, str]:
        return {
            "player": client.get("/players/annaa").get_data(as_text=True),
            "other player": client.get("/players/bertt").get_data(as_text=True),
            "home": browser.get("/").get_data(as_text=True),
        }

    for where, page in pages().items():
        assert f"annaa {final[0]}" not in page and f"bertt {final[1]}" not in page, where
        assert "bertt won" not in page and "You won" not in page, where
        assert "who won shows once the other games of its bag order have ended" in page, where
    assert f"annaa {before[0]}, bertt {before[1]}" in pages()["player"]
    assert f"bertt {before[1]}" in pages()["home"]

    version = client.get(f"/v1/games/{other}", headers=danny.auth).json["version"]
    assert move(client, danny, other, version, type="resign").status_code == 200
    shown = pages()
    assert f"annaa {final[0]}, bertt {final[1]}" in shown["player"]
    assert "bertt won" in shown["player"] and f"bertt {final[1]}" in shown["home"]
