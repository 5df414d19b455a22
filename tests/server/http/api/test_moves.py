"""Commands: every type, every refusal, versions, idempotency; a refused request changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.server.helpers import Table, move, new_game, register

pytestmark = pytest.mark.both_databases

ADA_RACK = [1, 2, 8, 12, 16, 17, 42]
BOB_RACK = [3, 4, 6, 7, 7, 8, 21]
X_12 = {"near": "H8", "far": "G8", "op": "x"}  # 4 x 3 = 12, the claim for 12 on I8


def error_code(response: Any) -> str:
    code: str = response.json["error"]["code"]
    return code


# --- every command type ------------------------------------------------------------


def test_place_puts_a_tile_scores_it_and_takes_it_from_the_rack(table: Table) -> None:
    body = table.ok(table.ada, type="place", square="I8", tile=12)
    assert body["version"] == 4 and body["board"]["I8"] == 12
    assert body["rack"] == [1, 2, 8, 16, 17, 42]
    assert body["turn"]["placements"][0]["points"] == 12
    (event,) = body["events"]
    assert event == {
        "type": "tile_placed",
        "v": 1,
        "version": 4,
        "seat": 0,
        "square": "I8",
        "tile": 12,
        "equations": [{"near": "H8", "far": "G8", "op": "x"}],
        "points": 12,
    }


def test_draw_extra_after_an_operation_square_then_end_turn_refills(table: Table) -> None:
    table.ok(table.ada, type="place", square="I8", tile=12)
    placed = table.ok(table.ada, type="place", square="J8", tile=16)
    assert placed["turn"]["extra_available"] is True
    drawn = table.ok(table.ada, type="draw_extra")
    assert drawn["events"][0]["tile"] == 11 and 11 in drawn["rack"]
    bob_sees = table.client.get(f"/v1/games/{table.id}/events?after=5", headers=table.bob.auth)
    assert bob_sees.json["events"][0]["tile"] is None  # type: ignore[index]
    ended = table.ok(table.ada, type="end_turn")
    assert ended["events"][0]["type"] == "turn_ended" and ended["events"][0]["points"] == 28
    assert len(ended["rack"]) == 7 and ended["turn"]["seat"] == 1
    assert ended["seats"][0]["score"] == 28


def test_turn_plays_a_whole_turn_at_once(table: Table) -> None:
    body = table.ok(
        table.ada,
        type="turn",
        placements=[
            {"square": "I8", "tile": 12},
            {"square": "H6", "tile": 8},
            {"square": "G9", "tile": 2},
            {"square": "F7", "tile": 1},
            {"square": "J8", "tile": 16, "draw_extra": True},
        ],
    )
    assert body["seats"][0]["score"] == 39 and body["turn"]["seat"] == 1
    assert [e["type"] for e in body["events"]] == ["tile_placed"] * 5 + [
        "extra_tile_drawn",
        "turn_ended",
    ]
    assert body["version"] == 3 + 7


def test_a_turn_with_one_bad_placement_changes_nothing(table: Table, unchanged: None) -> None:
    response = table.send(
        table.ada,
        type="turn",
        placements=[{"square": "I8", "tile": 12}, {"square": "A1", "tile": 8}],
    )
    assert response.status_code == 422 and error_code(response) == "no_pair"
    assert "placement 2" in response.json["error"]["message"]


def test_exchange_gives_tiles_back_and_ends_the_turn(table: Table) -> None:
    body = table.ok(table.ada, type="exchange", tiles=[42, 17])
    assert 42 not in body["rack"] and 17 not in body["rack"] and len(body["rack"]) == 7
    assert body["turn"]["seat"] == 1 and body["events"][0]["returned"] == [42, 17]
    spectator = table.client.get(f"/v1/games/{table.id}/events?after=3").json
    event = spectator["events"][0]  # type: ignore[index]
    assert event["returned"] is None and event["drawn"] is None and event["count"] == 2


def test_pass_ends_the_turn_without_placing(table: Table) -> None:
    body = table.ok(table.ada, type="pass")
    assert body["turn"]["seat"] == 1 and body["idle_turns"] == 1
    assert body["events"][0]["type"] == "passed"


def test_resign_ends_a_two_player_game(table: Table) -> None:
    body = table.ok(table.ada, type="resign")
    assert body["status"] == "ended" and body["result"]["reason"] == "resigned"
    assert body["result"]["winners"] == [1]
    after = table.send(table.bob, type="pass")
    assert after.status_code == 422 and error_code(after) == "game_over"


def test_correct_takes_back_a_wrong_claim_in_players_mode(client: FlaskClient) -> None:
    table = Table(client, referee="players")
    wrong = [{"near": "H8", "far": "G8", "op": "+"}]  # 4 + 3 is 7, not 17
    placed = table.ok(table.ada, type="place", square="I8", tile=17, equations=wrong)
    assert placed["board"]["I8"] == 17
    table.ok(table.ada, type="end_turn")
    corrected = table.ok(table.bob, type="correct")
    assert corrected["events"][0]["type"] == "corrected"
    assert "I8" not in corrected["board"] and corrected["seats"][0]["score"] == 0
    again = table.send(table.bob, type="correct")
    assert again.status_code == 422 and error_code(again) == "nothing_to_correct"


def test_correct_puts_an_unearned_extra_tile_back_and_only_its_drawer_sees_which(
    client: FlaskClient,
) -> None:
    table = Table(client, referee="players")
    table.ok(table.ada, type="place", square="I8", tile=12, equations=[X_12])
    wrong = [{"near": "I8", "far": "H8", "op": "+"}]  # 12 + 4 is 16, not 17
    table.ok(table.ada, type="place", square="J8", tile=17, equations=wrong)
    assert table.ok(table.ada, type="draw_extra")["events"][0]["tile"] == 11
    version = table.ok(table.ada, type="end_turn")["version"]
    corrected = table.ok(table.bob, type="correct")
    (event,) = corrected["events"]
    assert event["type"] == "corrected" and event["removed"] == [["J8", 17]]
    assert event["to_bag"] is None and event["to_bag_count"] == 1
    assert corrected["bag_size"] == 106 - 14 - 2 + 1  # the 11 is back in the bag
    feed = client.get(f"/v1/games/{table.id}/events?after={version}", headers=table.ada.auth)
    assert feed.json["events"][0]["to_bag"] == [11]  # type: ignore[index]
    ada = client.get(f"/v1/games/{table.id}", headers=table.ada.auth).json
    assert 11 not in ada["rack"] and 17 in ada["rack"] and len(ada["rack"]) == 7  # type: ignore[index]
    assert ada["seats"][0]["score"] == 12  # type: ignore[index]


def test_correct_of_a_wrong_claim_on_a_legal_tile_leaves_it_and_fixes_the_points(
    client: FlaskClient,
) -> None:
    table = Table(client, referee="players")
    wrong = [{"near": "H8", "far": "G8", "op": "+"}]  # 12 is 4 x 3, not 4 + 3
    table.ok(table.ada, type="place", square="I8", tile=12, equations=wrong)
    table.ok(table.ada, type="end_turn")
    corrected = table.ok(table.bob, type="correct")
    (event,) = corrected["events"]
    assert event["removed"] == [] and event["points_lost"] == 12
    assert event["rescored"] == [{"square": "I8", "tile": 12, "equations": [], "points": 0}]
    assert corrected["board"]["I8"] == 12 and corrected["seats"][0]["score"] == 0
    assert corrected["last_turn"]["placements"][0]["points"] == 0
    assert corrected["turn"]["seat"] == 1


def test_players_mode_needs_claims_and_refuses_corrections_of_right_turns(
    client: FlaskClient,
) -> None:
    table = Table(client, referee="players")
    missing = table.send(table.ada, type="place", square="I8", tile=12)
    assert missing.status_code == 422 and error_code(missing) == "claims_required"
    right = [{"near": "H8", "far": "G8", "op": "x"}]
    table.ok(table.ada, type="place", square="I8", tile=12, equations=right)
    table.ok(table.ada, type="end_turn")
    refused = table.send(table.bob, type="correct")
    assert refused.status_code == 422 and error_code(refused) == "no_mistake"


# --- refusals: nothing changes ------------------------------------------------------


I8 = {"square": "I8", "tile": 12}
OFF_BOARD_CLAIM = [{"near": "Q1", "far": "H8", "op": "+"}]
STAR_CLAIM = [{"near": "G8", "far": "H8", "op": "*"}]


@pytest.mark.parametrize(
    ("command", "status", "code"),
    [
        ({"type": "place", "square": "I8", "tile": 90}, 422, "tile_not_in_rack"),
        ({"type": "place", "square": "G7", "tile": 12}, 422, "square_taken"),
        ({"type": "place", "square": "A1", "tile": 12}, 422, "no_pair"),
        ({"type": "place", "square": "I8", "tile": 17}, 422, "no_equation"),
        ({"type": "place", "square": "O3", "tile": 12}, 400, "bad_square"),
        ({"type": "place", "square": "A15", "tile": 12}, 400, "bad_square"),
        ({"type": "place", "square": "I8", "tile": 12, "colour": 1}, 400, "validation_error"),
        ({"type": "place", "square": "I8", "tile": "12"}, 400, "validation_error"),
        ({"type": "place", "square": 108, "tile": 12}, 400, "validation_error"),
        ({"type": "place", "square": "I8"}, 400, "validation_error"),
        ({"type": "place", "square": "I8", "tile": 12.0}, 400, "validation_error"),
        ({"type": "draw_extra"}, 422, "no_extra_tile"),
        ({"type": "turn", "placements": []}, 422, "empty_turn"),
        ({"type": "turn", "placements": [I8] * 17}, 422, "too_many_placements"),
        ({"type": "turn", "placements": [{**I8, "draw_extra": 1}]}, 400, "validation_error"),
        ({"type": "turn", "placements": "I8=12"}, 400, "validation_error"),
        ({"type": "exchange", "tiles": []}, 422, "bad_exchange"),
        ({"type": "exchange", "tiles": [1, 2, 8, 12, 16, 17, 42, 1]}, 422, "bad_exchange"),
        ({"type": "exchange", "tiles": [90]}, 422, "tile_not_in_rack"),
        ({"type": "exchange", "tiles": [3]}, 422, "tile_not_in_rack"),
        ({"type": "correct"}, 422, "corrections_off"),
        ({"type": "fly"}, 400, "validation_error"),
        ({"kind": "pass"}, 400, "validation_error"),
        ({"type": "pass", "expected_version": "3"}, 400, "validation_error"),
        ({"type": "pass", "expected_version": True}, 400, "validation_error"),
        ({"type": "place", **I8, "equations": OFF_BOARD_CLAIM}, 400, "bad_square"),
        ({"type": "place", **I8, "equations": STAR_CLAIM}, 400, "validation_error"),
    ],
)  # fmt: skip
def test_refused_commands_get_their_code_and_change_nothing(
    table: Table, unchanged: None, command: dict[str, Any], status: int, code: str
) -> None:
    response = table.send(table.ada, **command)
    assert response.status_code == status, response.json
    assert error_code(response) == code


def test_wrong_operation_and_turn_in_progress(table: Table) -> None:
    table.ok(table.ada, type="place", square="I8", tile=12)
    before = table.observed()
    wrong = table.send(table.ada, type="place", square="J8", tile=8)  # 12 - 4 on a + square
    assert wrong.status_code == 422 and error_code(wrong) == "wrong_operation"
    busy = table.send(table.ada, type="pass")
    assert busy.status_code == 422 and error_code(busy) == "turn_in_progress"
    assert table.observed() == before


def test_other_seats_and_outsiders_are_403(table: Table, unchanged: None) -> None:
    not_turn = table.send(table.bob, type="place", square="F8", tile=7)
    assert not_turn.status_code == 403 and error_code(not_turn) == "not_your_turn"
    outsider = table.send(table.eve, type="pass")
    assert outsider.status_code == 403 and error_code(outsider) == "not_seated"
    # eve's own game does not make her token good for this one
    new_game(table.client, table.eve)
    again = table.send(table.eve, type="resign")
    assert again.status_code == 403 and error_code(again) == "not_seated"


def test_commands_need_a_token(table: Table, unchanged: None) -> None:
    response = table.client.post(
        f"/v1/games/{table.id}/moves", json={"type": "pass", "expected_version": 3}
    )
    assert response.status_code == 401


def test_malformed_bodies_are_400_and_huge_ones_413(table: Table, unchanged: None) -> None:
    url = f"/v1/games/{table.id}/moves"
    for data in ("", "{", "[]", '"pass"', "null", '{"type": NaN}', "\xff"):
        response = table.client.post(
            url, data=data, headers={**table.ada.auth, "Content-Type": "application/json"}
        )
        assert response.status_code == 400, data
        assert error_code(response) == "bad_json"
    huge = '{"type": "pass", "expected_version": 3, "x": "' + "a" * 70_000 + '"}'
    response = table.client.post(url, data=huge, headers=table.ada.auth)
    assert response.status_code == 413 and error_code(response) == "body_too_large"


def test_unknown_game_is_404_for_commands(table: Table) -> None:
    response = move(table.client, table.ada, "nosuchgame", 3, type="pass")
    assert response.status_code == 404 and error_code(response) == "game_not_found"


def test_commands_before_the_game_starts_are_refused(client: FlaskClient) -> None:
    ada = register(client, "ada")
    game = new_game(client, ada)
    response = move(client, ada, game["id"], 1, type="pass")
    assert response.status_code == 422 and error_code(response) == "game_not_started"


# --- versions -------------------------------------------------------------------------


def test_a_command_without_a_version_is_400(table: Table, unchanged: None) -> None:
    response = table.send(table.ada, version=None, type="pass")
    assert response.status_code == 400 and error_code(response) == "version_required"


def test_a_stale_version_is_409_with_the_current_version(table: Table, unchanged: None) -> None:
    for stale in (2, 4, 100):
        response = table.send(table.ada, version=stale, type="pass")
        assert response.status_code == 409
        assert error_code(response) == "version_conflict"
        assert response.json["error"]["current_version"] == 3


def test_if_match_may_carry_the_version(table: Table) -> None:
    url = f"/v1/games/{table.id}/moves"
    stale = table.client.post(
        url, json={"type": "pass"}, headers={**table.ada.auth, "If-Match": '"2"'}
    )
    assert stale.status_code == 409
    unreadable = table.client.post(
        url, json={"type": "pass"}, headers={**table.ada.auth, "If-Match": "yesterday"}
    )
    assert unreadable.status_code == 400 and error_code(unreadable) == "bad_if_match"
    disagree = table.client.post(
        url,
        json={"type": "pass", "expected_version": 3},
        headers={**table.ada.auth, "If-Match": '"2"'},
    )
    assert disagree.status_code == 400 and error_code(disagree) == "version_mismatch"
    ok = table.client.post(
        url, json={"type": "pass"}, headers={**table.ada.auth, "If-Match": '"3"'}
    )
    assert ok.status_code == 200 and ok.headers["ETag"] == '"4"'


# --- idempotency ------------------------------------------------------------------------


def test_a_retry_with_the_same_key_returns_the_first_answer_and_appends_nothing(
    table: Table,
) -> None:
    url = f"/v1/games/{table.id}/moves"
    headers = {**table.ada.auth, "Idempotency-Key": "try-1-0123456789ab"}
    command = {"type": "place", "square": "I8", "tile": 12, "expected_version": 3}
    first = table.client.post(url, json=command, headers=headers)
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    observed = table.observed()
    for _ in range(3):
        again = table.client.post(url, json=command, headers=headers)
        assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
        assert again.get_data() == first.get_data()
    assert table.observed() == observed
    other = table.client.post(url, json={**command, "tile": 8}, headers=headers)
    assert other.status_code == 422 and error_code(other) == "idempotency_key_reused"
    assert table.observed() == observed


def test_a_retry_after_the_game_moved_on_gets_the_first_answer(table: Table) -> None:
    """The key is not looked up before a move (issue 47: one read less per move): a retry
    of a move played since (its version is stale now) is answered from its key."""
    url = f"/v1/games/{table.id}/moves"
    headers = {**table.ada.auth, "Idempotency-Key": "late-retry-0123456789"}
    command = {"type": "place", "square": "I8", "tile": 12, "expected_version": 3}
    first = table.client.post(url, json=command, headers=headers)
    assert first.status_code == 200
    table.version = 4
    table.ok(table.ada, type="place", square="H6", tile=8)
    observed = table.observed()
    again = table.client.post(url, json=command, headers=headers)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()
    assert table.observed() == observed
    other = table.client.post(url, json={**command, "tile": 8}, headers=headers)
    assert other.status_code == 422 and error_code(other) == "idempotency_key_reused"
    assert table.observed() == observed


def test_idempotency_keys_belong_to_one_player(table: Table) -> None:
    url = f"/v1/games/{table.id}/moves"
    ada = table.client.post(
        url,
        json={"type": "pass", "expected_version": 3},
        headers={**table.ada.auth, "Idempotency-Key": "k-0123456789abcdef"},
    )
    bob = table.client.post(
        url,
        json={"type": "pass", "expected_version": 4},
        headers={**table.bob.auth, "Idempotency-Key": "k-0123456789abcdef"},
    )
    assert ada.status_code == bob.status_code == 200
    assert bob.json["version"] == 5  # type: ignore[index]


def test_bad_idempotency_keys_are_400(table: Table, unchanged: None) -> None:
    for key in ("", "x" * 15, "x" * 201, "has space", "ключ"):
        response = table.client.post(
            f"/v1/games/{table.id}/moves",
            json={"type": "pass", "expected_version": 3},
            headers={**table.ada.auth, "Idempotency-Key": key},
        )
        assert response.status_code == 400, key
        assert error_code(response) == "bad_idempotency_key"


def test_creating_a_game_twice_with_one_key_makes_one_game(client: FlaskClient) -> None:
    ada = register(client, "ada")
    headers = {**ada.auth, "Idempotency-Key": "new-game-1-0123456789"}
    first = client.post("/v1/games", json={"players": 3}, headers=headers)
    second = client.post("/v1/games", json={"players": 3}, headers=headers)
    assert first.status_code == second.status_code == 201
    assert first.json["id"] == second.json["id"]  # type: ignore[index]
    assert len(client.get("/v1/me", headers=ada.auth).json["games"]) == 1  # type: ignore[index]
