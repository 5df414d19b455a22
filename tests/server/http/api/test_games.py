"""Games: creating with every option, joining, the per-viewer view, ETags, long-polls, events."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from flask import Flask, request_finished
from flask.testing import FlaskClient
from sqlalchemy.exc import OperationalError
from werkzeug.test import EnvironBuilder

from tests.server.apps import close_app, make_app
from tests.server.helpers import (
    EXAMPLE_TILES,
    bag_order,
    move,
    new_game,
    register,
    snapshot,
    started_game,
)

pytestmark = pytest.mark.both_databases


def test_creator_takes_seat_zero_and_the_game_waits_for_players(client: FlaskClient) -> None:
    ada = register(client, "ada")
    response = client.post("/v1/games", json={"players": 3}, headers=ada.auth)
    assert response.status_code == 201
    game = response.json
    assert game is not None
    assert response.headers["Location"] == f"/v1/games/{game['id']}"
    assert response.headers["ETag"] == '"1"'
    assert game["status"] == "waiting" and game["players"] == 3 and game["you"] == 0
    assert [s["player"] for s in game["seats"]] == [ada.id, None, None]
    assert [e["type"] for e in game["events"]] == ["game_created"]


def test_create_without_body_makes_a_two_player_server_refereed_game(client: FlaskClient) -> None:
    ada = register(client, "ada")
    response = client.post("/v1/games", headers=ada.auth)
    assert response.status_code == 201
    assert response.json is not None
    assert (response.json["players"], response.json["referee"]) == (2, "server")


def test_create_with_tiles_deals_from_the_front_and_seat_zero_begins(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    assert game["status"] == "playing" and game["turn"]["seat"] == 0
    assert game["rack"] == [3, 4, 6, 7, 7, 8, 21]
    ada_view = client.get(f"/v1/games/{game['id']}", headers=ada.auth).json
    assert ada_view is not None and ada_view["rack"] == [1, 2, 8, 12, 16, 17, 42]


def test_the_same_seed_deals_the_same_racks(client: FlaskClient) -> None:
    # (bob may not sit in two unfinished games of one order: cy takes the other seat.)
    ada, bob, cy = register(client, "ada"), register(client, "bob"), register(client, "cy")
    one = started_game(client, ada, bob, seed=42)
    two = started_game(client, ada, cy, seed=42)
    assert one["rack"] == two["rack"] and one["turn"] == two["turn"]


def test_seed_and_tiles_never_appear_to_players(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, seed=987654321)
    for who in (ada, bob, None):
        view, feed = snapshot(client, game["id"], who)
        created = feed["events"][0]
        assert created["type"] == "game_created"
        assert "seed" not in created and "tiles" not in created and created["seeded"] is True
        assert "987654321" not in str(view) + str(feed)


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"players": 5}, "bad_players"),
        ({"players": 1}, "bad_players"),
        ({"referee": "nobody"}, "bad_referee"),
        ({"tiles": [1, 2, 3]}, "bad_tiles"),
        ({"tiles": bag_order()[:-1] + [1]}, "bad_tiles"),
        ({"seed": 1, "tiles": bag_order()}, "bad_options"),
        ({"players": 2, "invite": ["bob", "cy"]}, "bad_invite"),
        ({"invite": ["ada"]}, "bad_invite"),
        ({"invite": ["nobody-here"]}, "unknown_player"),
    ],
)
def test_options_the_rules_refuse_get_422_with_their_code(
    client: FlaskClient, options: dict[str, object], code: str
) -> None:
    ada = register(client, "ada")
    register(client, "bob")
    register(client, "cy")
    response = client.post("/v1/games", json=options, headers=ada.auth)
    assert response.status_code == 422
    assert response.json is not None and response.json["error"]["code"] == code
    assert client.get("/v1/me", headers=ada.auth).json["games"] == []  # type: ignore[index]


@pytest.mark.parametrize(
    "body",
    [
        {"players": "2"},
        {"players": 2.5},
        {"players": True},
        {"seed": "7"},
        {"tiles": "all"},
        {"tiles": [1, "2"]},
        {"invite": "bob"},
        {"colour": "red"},
    ],
)
def test_malformed_creation_is_400(client: FlaskClient, body: dict[str, object]) -> None:
    ada = register(client, "ada")
    response = client.post("/v1/games", json=body, headers=ada.auth)
    assert response.status_code == 400
    assert response.json is not None and response.json["error"]["code"] == "validation_error"


def test_creating_or_joining_needs_a_token(client: FlaskClient) -> None:
    ada = register(client, "ada")
    game = new_game(client, ada)
    assert client.post("/v1/games").status_code == 401
    assert client.post(f"/v1/games/{game['id']}/join").status_code == 401


def test_join_fills_seats_then_starts_the_game(client: FlaskClient) -> None:
    ada, bob, cy, dan = (register(client, n) for n in ("ada", "bob", "cy", "dan"))
    game = new_game(client, ada, players=3)
    joined = client.post(f"/v1/games/{game['id']}/join", headers=bob.auth)
    assert joined.status_code == 200 and joined.json["status"] == "waiting"  # type: ignore[index]
    again = client.post(f"/v1/games/{game['id']}/join", headers=bob.auth)
    assert again.status_code == 422 and again.json["error"]["code"] == "already_seated"  # type: ignore[index]
    last = client.post(f"/v1/games/{game['id']}/join", headers=cy.auth)
    assert last.json is not None and last.json["status"] == "playing" and last.json["you"] == 2
    full = client.post(f"/v1/games/{game['id']}/join", headers=dan.auth)
    assert full.status_code == 422 and full.json["error"]["code"] == "game_full"  # type: ignore[index]
    missing = client.post("/v1/games/nosuchgame/join", headers=dan.auth)
    assert missing.status_code == 404 and missing.json["error"]["code"] == "game_not_found"  # type: ignore[index]
    body = client.post(f"/v1/games/{game['id']}/join", json={"seat": 1}, headers=dan.auth)
    assert body.status_code == 400


def test_invited_seats_are_kept_for_the_invitees(client: FlaskClient) -> None:
    ada, bob, eve = register(client, "ada"), register(client, "bob"), register(client, "eve")
    game = new_game(client, ada, invite=["bob"])
    assert game["invited"] == [{"id": bob.id, "name": "bob"}]
    refused = client.post(f"/v1/games/{game['id']}/join", headers=eve.auth)
    assert refused.status_code == 422 and refused.json["error"]["code"] == "seat_reserved"  # type: ignore[index]
    accepted = client.post(f"/v1/games/{game['id']}/join", headers=bob.auth)
    assert accepted.status_code == 200 and accepted.json["status"] == "playing"  # type: ignore[index]


def test_players_see_their_own_rack_and_spectators_see_none(client: FlaskClient) -> None:
    ada, bob, eve = register(client, "ada"), register(client, "bob"), register(client, "eve")
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    views = {
        name: client.get(f"/v1/games/{game['id']}", headers=who.auth if who else {}).json
        for name, who in (("ada", ada), ("bob", bob), ("eve", eve), ("anon", None))
    }
    assert views["ada"]["rack"] == [1, 2, 8, 12, 16, 17, 42]  # type: ignore[index]
    assert views["bob"]["rack"] == [3, 4, 6, 7, 7, 8, 21]  # type: ignore[index]
    for outsider in ("eve", "anon"):
        view = views[outsider]
        assert view is not None and view["rack"] is None and view["you"] is None
        assert [s["rack_size"] for s in view["seats"]] == [7, 7]
        assert view["board"] == views["ada"]["board"]  # type: ignore[index]
    assert [s["name"] for s in views["anon"]["seats"]] == ["ada", "bob"]  # type: ignore[index]


def test_view_carries_the_version_as_etag_and_answers_304_when_unchanged(
    client: FlaskClient,
) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob)
    response = client.get(f"/v1/games/{game['id']}")
    assert response.headers["ETag"] == '"3"' and response.json["version"] == 3  # type: ignore[index]
    cached = client.get(f"/v1/games/{game['id']}", headers={"If-None-Match": '"3"'})
    assert cached.status_code == 304 and cached.get_data() == b""
    stale = client.get(f"/v1/games/{game['id']}", headers={"If-None-Match": '"2"'})
    assert stale.status_code == 200


def test_unknown_game_is_404(client: FlaskClient) -> None:
    for path in ("/v1/games/nope", "/v1/games/nope/events"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.json is not None and response.json["error"]["code"] == "game_not_found"


def test_long_poll_returns_as_soon_as_the_game_changes(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    mover = client.application.test_client()

    def pass_soon() -> None:
        time.sleep(0.3)
        move(mover, ada, game["id"], 3, type="pass")

    thread = threading.Thread(target=pass_soon)
    started = time.monotonic()
    thread.start()
    response = client.get(f"/v1/games/{game['id']}?wait=10&since=3", headers=bob.auth)
    waited = time.monotonic() - started
    thread.join()
    assert response.status_code == 200 and response.json["version"] == 4  # type: ignore[index]
    assert 0.2 < waited < 5


def test_a_held_long_poll_leaves_flask_before_it_waits_and_answers_as_a_view(
    client: FlaskClient,
) -> None:
    """A long-poll that holds is done with Flask's request machinery before it waits (its
    WSGI body waits, then starts the answer), and is answered exactly as a view is."""
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    finished: list[int] = []

    def note(_sender: Any, response: Any, **_extra: Any) -> None:
        finished.append(response.status_code)

    request_finished.connect(note, client.application)
    answers: list[Any] = []
    poll = threading.Thread(
        target=lambda: answers.append(
            client.application.test_client().get(
                f"/v1/games/{game['id']}?wait=10&since=3", headers=bob.auth
            )
        )
    )
    try:
        poll.start()
        deadline = time.monotonic() + 5
        while not finished and time.monotonic() < deadline:
            time.sleep(0.01)
        assert finished and poll.is_alive()  # Flask finished it; it still waits
        move(client, ada, game["id"], 3, type="pass")
        poll.join(10)
    finally:
        request_finished.disconnect(note, client.application)
    woken = answers[0]
    now = client.get(f"/v1/games/{game['id']}", headers=bob.auth)
    assert woken.status_code == now.status_code == 200
    assert woken.json == now.json and woken.json["version"] == 4
    assert woken.headers.to_wsgi_list() == now.headers.to_wsgi_list()  # ETag "4", Vary...


def test_a_woken_long_poll_answers_before_its_wind_up(client: FlaskClient) -> None:
    """Its WSGI body yields the answer first; only when the server asks for more (after
    sending it, and under gevent after the others woken with it sent theirs) does it give
    back its holds and end."""
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    app = client.application
    svc = app.extensions["mathable"]
    environ = EnvironBuilder(
        path=f"/v1/games/{game['id']}", query_string="wait=10&since=3", headers=bob.auth
    ).get_environ()
    started: list[str] = []
    body = app(environ, lambda status, headers: started.append(status))
    assert started == [] and svc.long_polls._held == 1  # Flask is done; it holds
    threading.Timer(0.2, lambda: move(app.test_client(), ada, game["id"], 3, type="pass")).start()
    parts = iter(body)
    answer = json.loads(next(parts))
    assert started == ["200 OK"] and answer["version"] == 4
    assert svc.long_polls._held == 1  # answered; its wind-up comes after
    assert list(parts) == [] and svc.long_polls._held == 0


def test_a_woken_long_poll_reads_no_names(app: Flask, store_url: str) -> None:
    """The players' names are read before a long-poll waits: thousands woken at once by a
    move made through another process must not each read them."""
    client = app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    svc = app.extensions["mathable"]
    svc.names._names.clear()  # a process that has not seen these players yet
    other = make_app(store_url)  # another process on the same database
    reads: list[list[str]] = []
    names = svc.store.names

    def counted(ids: list[str]) -> Any:
        reads.append(ids)
        return names(ids)

    answers: list[Any] = []
    poll = threading.Thread(
        target=lambda: answers.append(
            client.get(f"/v1/games/{game['id']}?wait=10&since=3", headers=bob.auth)
        )
    )
    poll.start()
    deadline = time.monotonic() + 10
    while len(svc.names._names) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)  # until the poll is held with the names known (not a guessed pause)
    assert len(svc.names._names) == 2
    svc.store.names = counted
    try:
        move(other.test_client(), ada, game["id"], 3, type="pass")
        poll.join(10)
    finally:
        svc.store.names = names
        close_app(other)
    assert answers[0].status_code == 200 and answers[0].json["version"] == 4
    assert [s["name"] for s in answers[0].json["seats"]] == ["ada", "bob"]
    assert reads == []


def test_a_held_head_long_poll_answers_a_head_as_a_view_does(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    mover = client.application.test_client()

    def pass_soon() -> None:
        time.sleep(0.3)
        move(mover, ada, game["id"], 3, type="pass")

    plain = FlaskClient(client.application)  # HEAD is not in the spec the test client checks
    thread = threading.Thread(target=pass_soon)
    thread.start()
    woken = plain.head(f"/v1/games/{game['id']}?wait=10&since=3", headers=bob.auth)
    thread.join()
    now = plain.head(f"/v1/games/{game['id']}", headers=bob.auth)
    assert woken.status_code == now.status_code == 200 and woken.data == now.data == b""
    assert woken.headers.to_wsgi_list() == now.headers.to_wsgi_list()  # its length included


def test_a_held_long_poll_answers_503_when_the_database_fails_while_it_waits(
    client: FlaskClient,
) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    svc = client.application.extensions["mathable"]

    def away(_game_id: str) -> Any:
        raise OperationalError("SELECT version FROM games", {}, ConnectionError("gone"))

    svc.store.head = away  # the database goes away once the poll holds
    response = client.get(f"/v1/games/{game['id']}?wait=10&since=3", headers=bob.auth)
    assert response.status_code == 503 and response.headers["Retry-After"] == "1"
    assert response.json["error"]["code"] == "database_unavailable"  # type: ignore[index]
    assert svc.long_polls._held == 0  # its slot was given back


def test_long_poll_gives_up_after_wait_seconds_with_the_game_as_it_is(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob)
    started = time.monotonic()
    response = client.get(f"/v1/games/{game['id']}?wait=0.5")
    assert 0.45 < time.monotonic() - started < 3
    assert response.status_code == 200 and response.json["version"] == 3  # type: ignore[index]
    behind = client.get(f"/v1/games/{game['id']}?wait=30&since=1")
    assert behind.status_code == 200 and behind.json["version"] == 3  # type: ignore[index]


@pytest.mark.parametrize("query", ["wait=61", "wait=-1", "wait=soon", "since=-2", "since=x"])
def test_bad_long_poll_parameters_are_400(client: FlaskClient, query: str) -> None:
    ada = register(client, "ada")
    game = new_game(client, ada)
    response = client.get(f"/v1/games/{game['id']}?{query}")
    assert response.status_code == 400
    assert response.json is not None and response.json["error"]["code"] == "validation_error"


def test_event_feed_numbers_events_and_pages_with_after(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    feed = client.get(f"/v1/games/{game['id']}/events", headers=ada.auth).json
    assert feed is not None and feed["version"] == 3
    assert [(e["version"], e["type"]) for e in feed["events"]] == [
        (1, "game_created"),
        (2, "player_joined"),
        (3, "game_started"),
    ]
    started = feed["events"][2]
    assert started["racks"] == [[1, 2, 8, 12, 16, 17, 42], None]
    later = client.get(f"/v1/games/{game['id']}/events?after=2&limit=5").json
    assert later is not None and [e["version"] for e in later["events"]] == [3]
    assert later["events"][0]["racks"] == [None, None]
    assert client.get(f"/v1/games/{game['id']}/events?after=-1").status_code == 400
    assert client.get(f"/v1/games/{game['id']}/events?limit=0").status_code == 400
