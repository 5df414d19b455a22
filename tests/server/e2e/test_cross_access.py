"""Every request of one player, sent with the wrong credentials, is refused and changes nothing.

ada (seat 0, to move) sends each request of the API, every command type
included, as she would to her game; it is replayed (a) with the token of eve,
a player not seated in it, (b) with ada's token against another game's id,
(c) without a token, (d) with malformed tokens. Games are public to read:
reads without a valid seat get the spectator's view. Everything else is 401
(no or bad token), 403 (no seat), 404 (no game) or the rules' 422 (no free
seat), always in the JSON error shape, and no game changes.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from mathable_server.store.engine import games
from tests.server.helpers import Account, Table, register, snapshot, started_game

pytestmark = pytest.mark.both_databases

#: A command of every type, as ada could send it at version 3.
COMMANDS: dict[str, dict[str, Any]] = {
    "place": {"type": "place", "square": "I8", "tile": 12},
    "draw_extra": {"type": "draw_extra"},
    "end_turn": {"type": "end_turn"},
    "turn": {"type": "turn", "placements": [{"square": "I8", "tile": 12}]},
    "exchange": {"type": "exchange", "tiles": [1]},
    "pass": {"type": "pass"},
    "correct": {"type": "correct"},
    "resign": {"type": "resign"},
}
GAME_REQUESTS = ["view", "events", "join", "decline", *(f"move {t}" for t in COMMANDS)]
ACCOUNT_REQUESTS = ["me", "create", "rotate token", "revoke token"]

Request = tuple[str, str, Any]


def game_requests(game_id: str) -> dict[str, Request]:
    requests: dict[str, Request] = {
        "view": ("GET", f"/v1/games/{game_id}", None),
        "events": ("GET", f"/v1/games/{game_id}/events", None),
        "join": ("POST", f"/v1/games/{game_id}/join", {}),
        "decline": ("POST", f"/v1/games/{game_id}/decline", {}),
    }
    for kind, command in COMMANDS.items():
        body = {**command, "expected_version": 3}
        requests[f"move {kind}"] = ("POST", f"/v1/games/{game_id}/moves", body)
    return requests


ACCOUNT: dict[str, Request] = {
    "me": ("GET", "/v1/me", None),
    "create": ("POST", "/v1/games", {"players": 2}),
    "rotate token": ("POST", "/v1/me/token", None),
    "revoke token": ("DELETE", "/v1/me/token", None),
}


def send(client: FlaskClient, request: Request, headers: dict[str, str]) -> Any:
    method, path, body = request
    return client.open(path, method=method, json=body, headers=headers)


def outcome(response: Any) -> tuple[int, str | None]:
    """The status and, for an error, its code; the error shape is checked on the way."""
    body = response.json
    if response.status_code < 400:
        return response.status_code, None
    assert set(body) == {"error"}, body
    assert isinstance(body["error"]["code"], str) and isinstance(body["error"]["message"], str)
    if response.status_code == 401:
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
    return response.status_code, body["error"]["code"]


@pytest.fixture
def other_game(table: Table) -> dict[str, Any]:
    """A started game of eve and cy, which ada and bob are not in."""
    cy = register(table.client, "cy")
    game = started_game(table.client, table.eve, cy)
    return {"id": game["id"], "players": [table.eve, cy]}


def stored_games(client: FlaskClient) -> int:
    engine = client.application.extensions["mathable"].store.engine
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(games)).scalar_one())


def observed(client: FlaskClient, game_id: str, players: list[Account]) -> Any:
    return [snapshot(client, game_id, who) for who in (*players, None)]


def spectator(client: FlaskClient, game_id: str, name: str) -> Any:
    return send(client, game_requests(game_id)[name], {}).json


def test_an_outsiders_token_reads_as_a_spectator_and_is_refused_the_rest(
    table: Table, unchanged: None
) -> None:
    answers = {
        name: send(table.client, request, table.eve.auth)
        for name, request in game_requests(table.id).items()
    }
    assert {n: outcome(r) for n, r in answers.items()} == {
        "view": (200, None),
        "events": (200, None),
        "join": (422, "game_full"),
        "decline": (422, "game_started"),
        **{f"move {t}": (403, "not_seated") for t in COMMANDS},
    }
    for name in ("view", "events"):
        assert answers[name].json == spectator(table.client, table.id, name)
    assert answers["view"].json["rack"] is None and answers["view"].json["you"] is None


def test_a_players_token_on_another_game_is_refused_like_an_outsiders(
    table: Table, unchanged: None, other_game: dict[str, Any]
) -> None:
    before = observed(table.client, other_game["id"], other_game["players"])
    answers = {
        name: send(table.client, request, table.ada.auth)
        for name, request in game_requests(other_game["id"]).items()
    }
    assert {n: outcome(r) for n, r in answers.items()} == {
        "view": (200, None),
        "events": (200, None),
        "join": (422, "game_full"),
        "decline": (422, "game_started"),
        **{f"move {t}": (403, "not_seated") for t in COMMANDS},
    }
    for name in ("view", "events"):
        assert answers[name].json == spectator(table.client, other_game["id"], name)
    missing = {
        name: outcome(send(table.client, request, table.ada.auth))
        for name, request in game_requests("gnosuchgame").items()
    }
    assert missing == {name: (404, "game_not_found") for name in GAME_REQUESTS}
    assert observed(table.client, other_game["id"], other_game["players"]) == before


def test_without_a_token_only_reads_are_answered(table: Table, unchanged: None) -> None:
    requests = {**game_requests(table.id), **ACCOUNT}
    assert stored_games(table.client) == 1
    answers = {name: outcome(send(table.client, r, {})) for name, r in requests.items()}
    assert answers == {
        "view": (200, None),
        "events": (200, None),
        **{name: (401, "unauthorized") for name in [*GAME_REQUESTS[2:], *ACCOUNT_REQUESTS]},
    }
    assert stored_games(table.client) == 1  # the refused create made none


@pytest.mark.parametrize(
    "header",
    [
        "Bearer not-a-token",
        "Bearer {id}.{secret}x",
        "Bearer {id}.wrong-secret",
        "Bearer {bob_id}.{secret}",
        "Basic {token}",
        "Bearer",
        "{token}",
    ],
)
def test_a_malformed_token_is_401_bad_token_for_every_request(
    table: Table, unchanged: None, header: str
) -> None:
    ada = table.ada
    secret = ada.token.split(".", 1)[1]
    value = header.format(id=ada.id, secret=secret, bob_id=table.bob.id, token=ada.token)
    requests = {**game_requests(table.id), **ACCOUNT}
    answers = {
        name: outcome(send(table.client, r, {"Authorization": value}))
        for name, r in requests.items()
    }
    assert answers == {name: (401, "bad_token") for name in [*GAME_REQUESTS, *ACCOUNT_REQUESTS]}
    assert stored_games(table.client) == 1


def test_an_invitation_is_declined_only_by_its_invitee_or_the_creator(client: FlaskClient) -> None:
    ada, bob, eve = (register(client, n) for n in ("ada", "bob", "eve"))
    made = client.post("/v1/games", json={"players": 3, "invite": ["bob"]}, headers=ada.auth)
    game_id = made.json["id"]  # type: ignore[index]
    before = observed(client, game_id, [ada])
    refused = client.post(f"/v1/games/{game_id}/decline", headers=eve.auth)
    assert outcome(refused) == (422, "not_invited")
    assert observed(client, game_id, [ada]) == before
    declined = client.post(f"/v1/games/{game_id}/decline", headers=bob.auth)
    assert declined.status_code == 200 and declined.json["status"] == "waiting"  # type: ignore[index]
    again = client.post(f"/v1/games/{game_id}/decline", headers=bob.auth)
    assert outcome(again) == (422, "not_invited")


def test_a_rotated_or_revoked_token_is_401_bad_token_for_every_request(table: Table) -> None:
    old = table.ada.auth
    rotated = table.client.post("/v1/me/token", headers=old)
    assert rotated.status_code == 201
    new = {"Authorization": f"Bearer {rotated.json['token']}"}  # type: ignore[index]
    before = observed(table.client, table.id, [table.bob])
    every = {**game_requests(table.id), **ACCOUNT}
    assert {n: outcome(send(table.client, r, old)) for n, r in every.items()} == {
        n: (401, "bad_token") for n in [*GAME_REQUESTS, *ACCOUNT_REQUESTS]
    }
    assert observed(table.client, table.id, [table.bob]) == before
    assert table.client.delete("/v1/me/token", headers=new).status_code == 204
    assert outcome(table.client.get("/v1/me", headers=new)) == (401, "bad_token")
