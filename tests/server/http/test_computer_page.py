"""``/computer``, "Play the computer" (issue 44), through the app: the page offers each
level of every game; a visitor becomes a guest signed in in the browser (the form's
CSRF token, counted against the address's sign-ups), then makes the game through the
JSON API with the session; the computer is seated at once. Refusals of ``POST
/v1/games {"computer"}`` change nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from mathable_server.http.limits import RateLimit
from tests.server.apps import close_app, make_app
from tests.server.helpers import register

pytestmark = pytest.mark.both_databases


@pytest.fixture
def limited(store_url: str) -> Iterator[Flask]:
    app = make_app(store_url, registration_limit=RateLimit(rate=1 / 3600, burst=2),
                   rate_limit=None)  # fmt: skip
    yield app
    close_app(app)


def _form_token(client: FlaskClient) -> str:
    page = client.get("/computer")
    assert page.status_code == 200
    found = re.search(r'name="csrf" value="([^"]+)"', page.get_data(as_text=True))
    assert found is not None
    return found[1]


def test_the_page_offers_every_level_of_every_game(limited: Flask) -> None:
    html = limited.test_client().get("/computer").get_data(as_text=True)
    assert "<h1>Play the computer</h1>" in html
    for level in ("easy", "medium", "hard", "expert"):
        assert f'value="{level}"' in html
    assert 'value="mathable"' in html and 'value="summy"' in html
    assert "Start the game" in html and "/static/computer.js" in html


def test_a_visitor_becomes_a_guest_and_plays_the_computer_through_the_api(
    limited: Flask,
) -> None:
    browser = limited.test_client()
    token = _form_token(browser)
    assert browser.post("/computer/guest", data={}).status_code == 403  # no CSRF token
    guest = browser.post("/computer/guest", data={"csrf": token})
    assert guest.status_code == 200
    body = guest.get_json()
    assert body["name"].startswith("guest-")
    made = browser.post("/v1/games", json={"ruleset": "summy", "computer": "medium"},
                        headers={"X-CSRF-Token": body["csrf"]})  # fmt: skip
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    assert game["status"] == "playing" and game["rated"] is False
    assert [s["name"] for s in game["seats"]] == [body["name"], "computer-medium"]
    # Asked again from the same browser, the guest it is already.
    again = browser.post("/computer/guest", data={"csrf": body["csrf"]})
    assert again.get_json()["name"] == body["name"]
    # Guests count against the address's sign-ups (a burst of 2 here).
    other = limited.test_client()
    assert other.post("/computer/guest", data={"csrf": _form_token(other)}).status_code == 200
    third = limited.test_client()
    refused = third.post("/computer/guest", data={"csrf": _form_token(third)})
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "too_many_registrations"


def test_the_computer_field_s_refusals(client: FlaskClient) -> None:
    ada = register(client, "ada")
    listed = client.get("/v1/computers").get_json()["computers"]
    assert {c["level"]: c["engine"] for c in listed} == {
        "easy": "casual", "medium": "greedy", "hard": "best", "expert": "strong"}
    cases = [
        ({"computer": "grandmaster"}, 422, "unknown_computer"),
        ({"computer": "Hard!"}, 400, "validation_error"),
        ({"computer": "hard", "rated": True}, 422, "computer_unrated"),
        ({"computer": "hard", "invite": ["computer-easy"], "players": 2}, 422,
         "no_seat_for_computer"),
    ]
    for body, status, code in cases:
        answer = client.post("/v1/games", json=body, headers=ada.auth)
        assert (answer.status_code, answer.get_json()["error"]["code"]) == (status, code), body
    assert client.get("/v1/me", headers=ada.auth).get_json()["games"] == []  # nothing made
    # Invited by name, the computer takes its seat at once too; three seats: one left.
    three = client.post("/v1/games", json={"players": 3, "invite": ["computer-hard"]},
                        headers=ada.auth).get_json()  # fmt: skip
    assert [s["name"] for s in three["seats"] if s["player"]] == ["ada", "computer-hard"]
    assert three["status"] == "waiting"


@pytest.fixture
def rated_hard(store_url: str) -> Iterator[Flask]:
    app = make_app(store_url, computer_rated=("hard",))
    yield app
    close_app(app)


def test_a_level_the_operator_lets_be_rated_plays_rated_games(rated_hard: Flask) -> None:
    from mathable_server.games import ratings

    if not ratings.available():
        pytest.skip(ratings.MISSING)
    client = rated_hard.test_client()
    ada = register(client, "ada")
    listed = {c["level"]: c["rated"] for c in client.get("/v1/computers").get_json()["computers"]}
    assert listed == {"easy": False, "medium": False, "hard": True, "expert": False}
    hard = client.post("/v1/games", json={"computer": "hard"}, headers=ada.auth).get_json()
    easy = client.post("/v1/games", json={"computer": "easy"}, headers=ada.auth).get_json()
    assert (hard["rated"], easy["rated"]) == (True, False)
