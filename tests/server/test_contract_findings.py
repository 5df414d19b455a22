"""What a bot author found in the contract (issue 26), each over HTTP through the
contract-checking client (every answer validated against openapi.yaml)."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.server.helpers import move, register
from tests.server.summy_games import summy_game


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


def test_a_single_summy_tile_right_of_the_equals_is_nothing_before_equals(
    client: FlaskClient,
) -> None:
    """Found (issue 41): a lone tile laid right of the table's ``=`` was refused
    ``leading_operator``, "an equation never begins with =": no documented code fit."""
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)  # ada holds 1 2 + 3 4 5 x =
    lone = [{"x": 1, "y": 0, "tile": "1"}]
    refused = move(client, ada, game["id"], game["version"], type="equation", placements=lone)
    assert refused.status_code == 422, refused.json
    error = refused.json["error"]
    assert error["code"] == "nothing_before_equals"
    assert error["details"] == {"equation": "=1", "side": "left", "part": ""}
    assert error["message"] == "=1: before the = come two numbers or more, with signs"


def test_every_code_naming_fields_at_fault_names_them_in_details_fields(
    client: FlaskClient,
) -> None:
    """Found (issue 41): ``validation_error`` gave its fields beside the message only,
    ``version_required`` under ``details``. Both name them in ``details.fields`` now; the
    validation error keeps what is wrong with each beside the message, where it was."""
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)
    invalid = client.post(
        f"/v1/games/{game['id']}/moves",
        json={"type": "pass", "expected_version": "3", "colour": 1},
        headers=ada.auth,
    )
    assert invalid.status_code == 400, invalid.json
    error = invalid.json["error"]
    assert error["code"] == "validation_error"
    assert sorted(error["details"]["fields"]) == ["colour", "expected_version"]
    assert set(error["fields"]) == {"colour", "expected_version"}
    unversioned = client.post(
        f"/v1/games/{game['id']}/moves", json={"type": "pass"}, headers=ada.auth
    )
    assert unversioned.status_code == 400, unversioned.json
    error = unversioned.json["error"]
    assert error["code"] == "version_required"
    assert error["details"] == {"fields": ["expected_version", "If-Match"]}
