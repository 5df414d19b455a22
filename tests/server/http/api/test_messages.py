"""Messages between the seats of a game, through the API, on SQLite and PostgreSQL.

Seats write and read them in order; a spectator does neither; bad text is refused
with a stable code and nothing stored; a message never enters the game's log (its
version and events stay as they were); mutes and blocks keep a player's messages
away from who does not want them.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from mathable_server.games import messages as message_rules
from tests.server.helpers import Account, Table

pytestmark = pytest.mark.both_databases


def say(table: Table, who: Account, text: Any, **headers: str) -> Any:
    return table.client.post(
        f"/v1/games/{table.id}/messages", json={"text": text}, headers=who.auth | headers
    )


def listed(table: Table, who: Account, since: int | None = None) -> list[dict[str, Any]]:
    query = "" if since is None else f"?since={since}"
    response = table.client.get(f"/v1/games/{table.id}/messages{query}", headers=who.auth)
    assert response.status_code == 200, response.json
    found: list[dict[str, Any]] = response.json["messages"]
    return found


def test_seats_write_and_read_in_order_with_seat_text_and_time(table: Table) -> None:
    first = say(table, table.ada, "  Good luck Bob!  ")
    assert first.status_code == 201, first.json
    assert first.json["text"] == "Good luck Bob!" and first.json["seat"] == 0
    assert say(table, table.bob, "Thanks,\nyou too").status_code == 201
    for reader in (table.ada, table.bob):
        got = listed(table, reader)
        assert [(m["seat"], m["text"]) for m in got] == [
            (0, "Good luck Bob!"),
            (1, "Thanks,\nyou too"),
        ]
        assert got[0]["id"] < got[1]["id"] and got[0]["at"].endswith("Z")
    assert [m["text"] for m in listed(table, table.bob, since=first.json["id"])] == [
        "Thanks,\nyou too"
    ]


def test_a_message_is_no_part_of_the_game_log(table: Table) -> None:
    before = table.observed()
    assert say(table, table.ada, "Hello").status_code == 201
    assert table.observed() == before  # the views, versions and event feeds of all


def test_a_spectator_neither_writes_nor_reads(table: Table) -> None:
    say(table, table.ada, "for bob only")
    wrote = say(table, table.eve, "hi all")
    assert wrote.status_code == 403 and wrote.json["error"]["code"] == "not_seated"
    read = table.client.get(f"/v1/games/{table.id}/messages", headers=table.eve.auth)
    assert read.status_code == 403 and read.json["error"]["code"] == "not_seated"
    anonymous = table.client.get(f"/v1/games/{table.id}/messages")
    assert anonymous.status_code == 401
    assert [m["text"] for m in listed(table, table.bob)] == ["for bob only"]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty_message"),
        ("   \n  ", "empty_message"),
        ("x" * 501, "message_too_long"),
        ("ring\x07", "control_characters"),
        ("evil\u202eright to left", "control_characters"),
        ("x" * 4001, "message_too_long"),  # long as it is: the same code
        ("line\u2028separator", "control_characters"),
        ("para\u2029separator", "control_characters"),
        ("\u200b\u200e\u200f \u2060", "empty_message"),  # only invisible characters
    ],
)
def test_bad_text_is_refused_with_its_code_and_nothing_is_stored(
    table: Table, unchanged: None, text: str, code: str
) -> None:
    response = say(table, table.ada, text)
    assert response.status_code == 422, response.json
    assert response.json["error"]["code"] == code
    assert listed(table, table.bob) == []


def test_a_message_of_500_characters_is_taken(table: Table) -> None:
    assert say(table, table.ada, "  " + "y" * 500 + " ").status_code == 201


@pytest.mark.parametrize("body", [{"text": 12}, {"text": "hi", "to": "bob"}, {}])
def test_a_body_of_the_wrong_shape_is_a_validation_error(table: Table, body: Any) -> None:
    response = table.client.post(
        f"/v1/games/{table.id}/messages", json=body, headers=table.ada.auth
    )
    assert response.status_code == 400 and response.json["error"]["code"] == "validation_error"
    assert listed(table, table.bob) == []


def test_no_game_is_404(client: FlaskClient, table: Table) -> None:
    response = client.post(
        "/v1/games/gnone/messages", json={"text": "hi"}, headers=table.ada.auth
    )
    assert response.status_code == 404


def test_a_seat_writes_at_most_its_share(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(message_rules, "MESSAGES_PER_SEAT", 2)
    assert say(table, table.ada, "one").status_code == 201
    assert say(table, table.ada, "two").status_code == 201
    third = say(table, table.ada, "three")
    assert third.status_code == 422 and third.json["error"]["code"] == "too_many_messages"
    assert say(table, table.bob, "bob has his own share").status_code == 201
    assert [m["text"] for m in listed(table, table.bob)] == ["one", "two", "bob has his own share"]


def test_the_same_idempotency_key_writes_once(table: Table) -> None:
    key = {"Idempotency-Key": "message-key-0123456789"}
    first = say(table, table.ada, "once", **key)
    again = say(table, table.ada, "once", **key)
    assert first.status_code == again.status_code == 201
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.json == first.json
    assert [m["text"] for m in listed(table, table.bob)] == ["once"]


def test_a_muted_game_shows_its_muter_only_their_own(table: Table) -> None:
    client, mute = table.client, f"/v1/games/{table.id}/messages/mute"
    assert client.put(mute, headers=table.bob.auth).status_code == 204
    say(table, table.ada, "unheard")
    say(table, table.bob, "bob still speaks")
    assert [m["text"] for m in listed(table, table.bob)] == ["bob still speaks"]
    assert [m["text"] for m in listed(table, table.ada)] == ["unheard", "bob still speaks"]
    mutes = client.get("/v1/me/mutes", headers=table.bob.auth).json["mutes"]
    assert mutes[0]["game_id"] == table.id and mutes[0]["player"] is None
    assert client.delete(mute, headers=table.bob.auth).status_code == 204
    assert [m["text"] for m in listed(table, table.bob)] == ["unheard", "bob still speaks"]


def test_a_spectator_cannot_mute_a_game(table: Table) -> None:
    response = table.client.put(f"/v1/games/{table.id}/messages/mute", headers=table.eve.auth)
    assert response.status_code == 403


def test_a_muted_or_blocked_player_is_not_heard(table: Table) -> None:
    client = table.client
    assert client.put("/v1/me/mutes/ADA", headers=table.bob.auth).status_code == 204
    say(table, table.ada, "muted")
    assert listed(table, table.bob) == []
    client.delete("/v1/me/mutes/ada", headers=table.bob.auth)
    assert [m["text"] for m in listed(table, table.bob)] == ["muted"]
    assert client.put("/v1/me/blocks/ada", headers=table.bob.auth).status_code == 204
    assert listed(table, table.bob) == []


def test_muting_oneself_or_nobody_is_refused(table: Table) -> None:
    me = table.client.put("/v1/me/mutes/ada", headers=table.ada.auth)
    assert me.status_code == 422 and me.json["error"]["code"] == "self_mute"
    nobody = table.client.put("/v1/me/mutes/zed", headers=table.ada.auth)
    assert nobody.status_code == 422 and nobody.json["error"]["code"] == "unknown_player"
