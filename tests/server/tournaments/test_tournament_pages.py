"""The pages ``/tournaments`` and ``/tournaments/{id}``: what a browser sees, and its
``Join`` as the page's script sends it (the JSON API, the session's CSRF token)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.server.apps import close_app, make_app
from tests.server.helpers import register

pytestmark = pytest.mark.both_databases


@pytest.fixture
def app(store_url: str) -> Iterator[Flask]:
    app = make_app(store_url, smtp_url="smtp://127.0.0.1:9", public_url="https://play.example")
    yield app
    close_app(app)


def _signed_in(app: Flask, token_client: FlaskClient, auth: dict[str, str]) -> FlaskClient:
    browser = app.test_client()
    link = token_client.post("/v1/me/signin-link", json={}, headers=auth).json
    page = browser.get(link["path"]).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([0-9a-f]{64})"', page)
    assert csrf is not None
    assert browser.post(link["path"], data={"csrf": csrf[1]}).status_code == 303
    return browser


def test_the_list_the_join_and_the_tournament_page(app: Flask) -> None:
    client = app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    tid = client.post("/v1/tournaments", json={"name": "Friday <friends>", "format": "round_robin"},
                      headers=ada.auth).json["id"]  # fmt: skip
    client.post(f"/v1/tournaments/{tid}/join", headers=ada.auth)
    anyone = client.get("/tournaments").get_data(as_text=True)
    assert "Friday &lt;friends&gt;" in anyone and "<friends>" not in anyone
    assert 'data-join="' not in anyone  # nobody signed in: no Join
    browser = _signed_in(app, client, bob.auth)
    page = browser.get("/tournaments").get_data(as_text=True)
    assert f'data-join="{tid}"' in page and ">Join<" in page
    csrf = re.search(r'data-csrf="([0-9a-f]{64})"', page)
    assert csrf is not None
    joined = browser.post(f"/v1/tournaments/{tid}/join", json={},
                          headers={"X-CSRF-Token": csrf[1]})  # fmt: skip
    assert joined.status_code == 200 and joined.json["players"] == ["ada", "bob"]
    refused = browser.post(f"/v1/tournaments/{tid}/leave", json={})
    assert refused.status_code == 403  # no CSRF token: nothing changes
    client.post(f"/v1/tournaments/{tid}/start", headers=ada.auth)
    game_id = client.get(f"/v1/tournaments/{tid}").json["rounds"][0][0]["game_id"]
    shown = browser.get(f"/tournaments/{tid}")
    text = shown.get_data(as_text=True)
    assert shown.status_code == 200
    for words in ("Rules of the event", "Standings", "Crosstable", "Games", "Every player "
                  "meets every other once", f'href="/games/{game_id}"', ">Leave<"):  # fmt: skip
        assert words in text, words
    assert client.get("/tournaments/tnothere").status_code == 404
    french = client.get(f"/tournaments/{tid}?lang=fr").get_data(as_text=True)
    assert "Classement" in french
