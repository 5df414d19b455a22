"""What a bot author found in the contract (issue 26), each over HTTP through the
contract-checking client (every answer validated against openapi.yaml)."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.server.helpers import move, register
from tests.server.test_summy import summy_game


def test_a_decline_or_a_join_of_a_cancelled_game_answers_game_cancelled(
    client: FlaskClient,
) -> None:
    """Found: POST /decline on a cancelled game answered game_started (a join, game_full)."""
    ada, bob, cy = register(client, "ada"), register(client, "bob"), register(client, "cy")
    created = client.post("/v1/games", json={"invite": ["bob"]}, headers=ada.auth)
    assert created.status_code == 201, created.json
    gid = created.json["id"]
    cancelled = client.post(f"/v1/games/{gid}/decline", headers=ada.auth)
    assert cancelled.status_code == 200 and cancelled.json["status"] == "cancelled"
    for who, what in ((bob, "decline"), (bob, "join"), (cy, "join"), (ada, "decline")):
        answer = client.post(f"/v1/games/{gid}/{what}", headers=who.auth)
        assert answer.status_code == 422, (what, answer.json)
        assert answer.json["error"]["code"] == "game_cancelled", (what, answer.json)
        assert answer.json["error"]["details"] == {"status": "cancelled"}
    assert client.get(f"/v1/games/{gid}", headers=ada.auth).json["status"] == "cancelled"


def test_summy_tiles_that_stop_short_of_the_table_are_refused_as_a_gap(
    client: FlaskClient,
) -> None:
    """Found: tiles laid with a gap before the table got no_table_tile, never gap."""
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)  # ada holds 1 2 + 3 4 5 x =
    short = [{"x": -4, "y": 0, "tile": "1"}, {"x": -3, "y": 0, "tile": "+"},
             {"x": -2, "y": 0, "tile": "2"}]  # fmt: skip
    refused = move(client, ada, game["id"], game["version"], type="equation", placements=short)
    assert refused.status_code == 422, refused.json
    error = refused.json["error"]
    assert error["code"] == "gap"
    assert error["details"]["empty"] == {"x": -1, "y": 0}
    assert error["details"]["table_tile"] == {"x": 0, "y": 0, "tile": "="}
