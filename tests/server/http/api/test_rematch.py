"""``POST /v1/games/{id}/rematch`` on SQLite and PostgreSQL: a finished game's seat asks,
a new game of the same ruleset, options and clock invites the same players with the
seats rotated, and asking again (any seat) answers the same game. A running game, a
spectator or a blocked player gets a clear refusal and nothing is made."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.server.apps import close_app, make_app
from tests.server.helpers import Account, Table, new_game, register

pytestmark = pytest.mark.both_databases

CLOCK = {"per_move": 259200}


def rematch(client: FlaskClient, game_id: str, who: Account) -> Any:
    return client.post(f"/v1/games/{game_id}/rematch", headers=who.auth)


def seats(client: FlaskClient, game_id: str, who: Account) -> list[str | None]:
    view = client.get(f"/v1/games/{game_id}", headers=who.auth).json
    return [s["name"] for s in view["seats"]]


def games_of(client: FlaskClient, who: Account) -> list[str]:
    return [g["id"] for g in client.get("/v1/me", headers=who.auth).json["games"]]


def test_a_rematch_rotates_the_seats_and_keeps_ruleset_options_and_clock(
    client: FlaskClient,
) -> None:
    table = Table(client, clock=CLOCK)
    table.ok(table.ada, type="resign")
    made = rematch(client, table.id, table.ada)
    assert made.status_code == 201, made.json
    new = made.json["id"]
    assert made.json["rematch_of"] == table.id and made.headers["Location"] == f"/v1/games/{new}"
    waiting = client.get(f"/v1/games/{new}", headers=table.bob.auth).json
    assert waiting["status"] == "waiting"
    assert [i["name"] for i in waiting["invited"]] == ["bob"]
    old = client.get(f"/v1/games/{table.id}", headers=table.ada.auth).json
    for key in ("ruleset", "players", "referee"):
        assert waiting[key] == old[key]
    assert client.post(f"/v1/games/{new}/join", headers=table.bob.auth).status_code == 200
    assert seats(client, table.id, table.ada) == ["ada", "bob"]
    assert seats(client, new, table.ada) == ["bob", "ada"]  # rotated
    created = client.get(f"/v1/games/{new}/events", headers=table.ada.auth).json["events"][0]
    assert created["clock"] == old_clock(client, table)
    assert created["ordered"] is False and created["seeded"] is False  # dealt anew


def old_clock(client: FlaskClient, table: Table) -> Any:
    return client.get(f"/v1/games/{table.id}/events", headers=table.ada.auth).json["events"][0][
        "clock"
    ]


def test_a_second_request_by_any_seat_answers_the_first_rematch(client: FlaskClient) -> None:
    table = Table(client)
    table.ok(table.ada, type="resign")
    first = rematch(client, table.id, table.bob)
    again = rematch(client, table.id, table.bob)
    other = rematch(client, table.id, table.ada)
    assert first.status_code == 201
    assert again.status_code == other.status_code == 200
    assert first.json["id"] == again.json["id"] == other.json["id"]
    shown = client.get(f"/v1/games/{table.id}/rematch")
    assert shown.status_code == 200 and shown.json["id"] == first.json["id"]
    # bob asked from seat 1: he takes seat 0 and is the creator; ada is invited.
    assert seats(client, first.json["id"], table.bob) == ["bob", None]


def test_three_seats_rotate_by_one(client: FlaskClient) -> None:
    ada, bob, cat = (register(client, n) for n in ("ada", "bob", "cat"))
    game = new_game(client, ada, players=3, invite=["bob", "cat"])["id"]
    for who in (cat, bob):  # out of order: cat sits in seat 1
        assert client.post(f"/v1/games/{game}/join", headers=who.auth).status_code == 200
    before = seats(client, game, ada)
    assert before == ["ada", "cat", "bob"]
    for who in (ada, cat, bob):
        view = client.get(f"/v1/games/{game}", headers=who.auth).json
        if view["status"] == "playing":
            client.post(f"/v1/games/{game}/moves", headers=who.auth,
                        json={"type": "resign", "expected_version": view["version"]})  # fmt: skip
    assert client.get(f"/v1/games/{game}").json["status"] == "ended"
    new = rematch(client, game, cat).json["id"]
    for who in (ada, bob):  # in any order: each takes the seat kept for them
        assert client.post(f"/v1/games/{new}/join", headers=who.auth).status_code == 200
    assert seats(client, new, ada) == ["cat", "bob", "ada"]


def test_a_running_game_has_no_rematch_and_nothing_is_made(client: FlaskClient) -> None:
    table = Table(client)
    before = games_of(client, table.bob)
    refused = rematch(client, table.id, table.ada)
    assert refused.status_code == 422 and refused.json["error"]["code"] == "game_not_over"
    assert refused.json["error"]["details"]["status"] == "playing"
    assert client.get(f"/v1/games/{table.id}/rematch").json["error"]["code"] == "no_rematch"
    assert games_of(client, table.bob) == before


def test_a_spectator_or_a_blocked_player_makes_no_rematch(client: FlaskClient) -> None:
    table = Table(client)
    table.ok(table.ada, type="resign")
    spectator = rematch(client, table.id, table.eve)
    assert spectator.status_code == 403 and spectator.json["error"]["code"] == "not_seated"
    assert client.put("/v1/me/blocks/ada", headers=table.bob.auth).status_code == 204
    blocked = rematch(client, table.id, table.ada)
    assert blocked.status_code == 403 and blocked.json["error"]["code"] == "blocked"
    assert client.get(f"/v1/games/{table.id}/rematch").status_code == 404
    assert len(games_of(client, table.ada)) == 1
    # Lifted, the rematch is made: the refused request left no claim behind.
    client.delete("/v1/me/blocks/ada", headers=table.bob.auth)
    assert rematch(client, table.id, table.ada).status_code == 201


def test_a_summy_rematch_is_summy(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = new_game(client, ada, ruleset="summy", invite=["bob"])["id"]
    client.post(f"/v1/games/{game}/join", headers=bob.auth)
    view = client.get(f"/v1/games/{game}", headers=ada.auth).json
    mover = ada if view["turn"]["seat"] == 0 else bob
    client.post(f"/v1/games/{game}/moves", headers=mover.auth,
                json={"type": "resign", "expected_version": view["version"]})  # fmt: skip
    new = rematch(client, game, ada).json["id"]
    assert client.get(f"/v1/games/{new}").json["ruleset"] == "summy"


def test_a_rematch_is_stored_as_an_event_older_readers_refuse(client: FlaskClient) -> None:
    """Its ``game_created`` holds ``seating``: written ``v: 2`` (column and JSON), which a
    reader of ``v: 1`` refuses rather than misread the seats; a first game stays ``v: 1``."""
    from sqlalchemy import select

    from mathable_server.store.schema import events

    table = Table(client)
    table.ok(table.ada, type="resign")
    new = rematch(client, table.id, table.bob).json["id"]
    engine = client.application.extensions["mathable"].store.engine
    with engine.connect() as conn:
        rows = {
            r.game_id: (r.schema_version, json.loads(r.data)["v"])
            for r in conn.execute(
                select(events.c.game_id, events.c.schema_version, events.c.data).where(
                    events.c.version == 1
                )
            )
        }
    assert rows[table.id] == (1, 1)
    assert rows[new] == (2, 2)


@pytest.mark.parametrize(
    ("caps", "code"),
    [
        ({"max_open_invitations": 1}, "too_many_open_games"),
        ({"max_invitations_per_inviter": 1}, "too_many_invitations"),
    ],
)
def test_a_rematch_creator_outside_seat_0_is_held_to_the_invitation_caps(
    database_url: str, caps: dict[str, int], code: str
) -> None:
    app = make_app(database_url, game_limit=None, **caps)
    try:
        client = app.test_client()
        table = Table(client)
        table.ok(table.bob, type="resign")
        made = rematch(client, table.id, table.ada)  # seats rotated: ada in seat 1
        assert made.status_code == 201, made.json
        assert seats(client, made.json["id"], table.ada) == [None, "ada"]
        more = client.post("/v1/games", json={"invite": ["bob"]}, headers=table.ada.auth)
        assert more.status_code == 422 and more.json["error"]["code"] == code
    finally:
        close_app(app)


def test_a_rematch_counts_against_the_game_limit(
    database_url: str,
) -> None:
    from mathable_server.http.limits import RateLimit

    app = make_app(database_url, game_limit=RateLimit(rate=1 / 3600, burst=1))
    try:
        client = app.test_client()
        table = Table(client)  # ada's one new game of the hour
        table.ok(table.bob, type="resign")
        limited = rematch(client, table.id, table.ada)
        assert limited.status_code == 429 and limited.json["error"]["code"] == "too_many_games"
        odd = client.post(f"/v1/games/{table.id}/rematch", json={"seat": 1},
                          headers=table.bob.auth)  # fmt: skip
        assert odd.status_code == 400 and odd.json["error"]["code"] == "validation_error"
        assert rematch(client, table.id, table.bob).status_code == 201  # bob's first
    finally:
        close_app(app)
