"""Refusals over HTTP carry their reasons as ``details`` (docs/errors.md), 400s included."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.server.helpers import Table, move, register
from tests.server.summy_games import summy_game

ADA_RACK = [1, 2, 8, 12, 16, 17, 42]


def _error(response: Any) -> dict[str, Any]:
    error: dict[str, Any] = response.json["error"]
    return error


def test_a_square_off_the_board_is_400_naming_the_field_the_value_and_what_is_accepted(
    table: Table, unchanged: None
) -> None:
    place = table.send(table.ada, type="place", square="O3", tile=12)
    assert place.status_code == 400
    assert _error(place)["details"] == {
        "field": "square",
        "value": "O3",
        "accepted": "A1 to N14: a column A-N, then a row 1-14",
    }
    turn = table.send(
        table.ada,
        type="turn",
        placements=[
            {"square": "I8", "tile": 12},
            {"square": "J8", "tile": 16, "equations": [{"near": "I8", "far": "Z9", "op": "+"}]},
        ],
    )
    assert turn.status_code == 400 and _error(turn)["code"] == "bad_square"
    assert _error(turn)["details"]["field"] == "placements[1].equations[0].far"
    assert _error(turn)["details"]["value"] == "Z9"


def test_mathable_refusals_without_a_square_carry_details_too(
    table: Table, unchanged: None
) -> None:
    empty = table.send(table.ada, type="exchange", tiles=[])
    assert (empty.status_code, _error(empty)["code"]) == (422, "bad_exchange")
    assert _error(empty)["details"] == {"field": "tiles", "count": 0, "min": 1, "max": 7}
    turn = table.send(table.ada, type="turn", placements=[])
    assert _error(turn)["details"] == {"placements": 0, "min": 1, "max": 16}
    extra = table.send(table.ada, type="draw_extra")
    assert (_error(extra)["code"], _error(extra)["details"]) == ("no_extra_tile", {"placed": 0})
    lacking = table.send(table.ada, type="exchange", tiles=[90])
    assert _error(lacking)["details"] == {"tiles": [90], "rack": ADA_RACK}


def test_the_server_s_own_400s_carry_details(table: Table, unchanged: None) -> None:
    url = f"/v1/games/{table.id}/moves"
    headers = {**table.ada.auth, "Content-Type": "application/json"}
    not_an_object = table.client.post(url, data="[]", headers=headers)
    assert _error(not_an_object)["details"] == {
        "reason": "not_an_object",
        "got": "array",
        "accepted": "a JSON object",
    }
    broken = table.client.post(url, data="{", headers=headers)
    assert _error(broken)["details"]["reason"] == "not_json"
    disagree = table.client.post(
        url,
        json={"type": "pass", "expected_version": 3},
        headers={**table.ada.auth, "If-Match": '"2"'},
    )
    assert _error(disagree)["details"] == {"expected_version": 3, "if_match": 2}
    unversioned = table.send(table.ada, version=None, type="pass")
    assert _error(unversioned)["details"] == {"fields": ["expected_version", "If-Match"]}


def test_summy_refusals_over_http_carry_the_equation_the_tiles_and_the_hand(
    client: FlaskClient,
) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)  # ada holds 1 2 + 3 4 5 x =
    placements = [
        {"x": -3, "y": 0, "tile": "1"},
        {"x": -2, "y": 0, "tile": "+"},
        {"x": -1, "y": 0, "tile": "2"},
        {"x": 1, "y": 0, "tile": "4"},
    ]
    wrong = move(client, ada, game["id"], game["version"], type="equation", placements=placements)
    assert wrong.status_code == 422
    assert _error(wrong) == {
        "code": "wrong_result",
        "message": "1+2=4: the left side makes 3, not 4",
        "details": {"equation": "1+2=4", "left": 3, "right": 4},
    }
    lacking = move(client, ada, game["id"], game["version"], type="discard", tiles=["9"])
    assert _error(lacking) == {
        "code": "tile_not_in_hand",
        "message": "you have no 9 in your hand",
        "details": {"tiles": ["9"], "hand": ["1", "2", "+", "3", "4", "5", "x", "="]},
    }
    taken = move(
        client, ada, game["id"], game["version"], type="equation",
        placements=[{"x": 0, "y": 0, "tile": "1"}],
    )  # fmt: skip
    assert _error(taken)["details"] == {"square": {"x": 0, "y": 0}, "holds": "="}


def test_every_code_naming_fields_at_fault_names_them_in_details_fields(
    client: FlaskClient,
) -> None:
    """Found (issue 41): ``validation_error`` gave its fields beside the message only,
    ``version_required`` under ``details``. Both name them in ``details.fields`` now; the
    validation error keeps what is wrong with each beside the message, where it was.

    Found by a bot author in the contract, over the contract-checking client."""
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
