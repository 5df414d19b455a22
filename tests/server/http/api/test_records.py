"""Game records over HTTP: ``GET /v1/games/{id}/record`` and ``GET /v1/players/{name}/games``.

A running game's record hides the bag order and the exchanged tiles; a finished
game's holds its revealed order and replays through the rules to the same events;
a finished game whose order another unfinished game draws is written like a running
one.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from mathable.core.events import Event
from mathable.core.record import read_record, replay_record
from mathable_server.store.engine import outbox
from tests.server.helpers import Account, Table, example_tiles, move, register, started_game
from tests.server.mailing import room

PLAYER_1 = [("I8", 12), ("H6", 8), ("G9", 2), ("F7", 1), ("J8", 16)]


def _play(client: FlaskClient, who: Account, game_id: str, **command: Any) -> dict[str, Any]:
    view = client.get(f"/v1/games/{game_id}", headers=who.auth).json
    answer = move(client, who, game_id, view["version"], **command)  # type: ignore[index]
    assert answer.status_code == 200, answer.json
    body: dict[str, Any] = answer.json  # type: ignore[assignment]
    return body


def _record(client: FlaskClient, game_id: str, who: Account | None = None) -> str:
    response = client.get(f"/v1/games/{game_id}/record", headers=who.auth if who else {})
    assert response.status_code == 200, response.data
    assert response.mimetype == "text/plain"
    return response.get_data(as_text=True)


def _feed(client: FlaskClient, game_id: str) -> list[Event]:
    from mathable.core.audit import events_from_feed

    feed = client.get(f"/v1/games/{game_id}/events").json["events"]  # type: ignore[index]
    return events_from_feed(feed)


def test_a_running_games_record_hides_the_order_and_exchanged_tiles(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=example_tiles(5))
    for square, tile in PLAYER_1:
        _play(client, ada, game["id"], type="place", square=square, tile=tile)
    _play(client, ada, game["id"], type="draw_extra")
    _play(client, ada, game["id"], type="end_turn")
    rack = client.get(f"/v1/games/{game['id']}", headers=bob.auth).json["rack"]  # type: ignore[index]
    _play(client, bob, game["id"], type="exchange", tiles=rack[:3])
    for who in (ada, bob, None):
        text = _record(client, game["id"], who)
        record = read_record(text)
        assert record.names == ("ada", "bob")
        assert record.headers["Result"] == "*"
        assert "Order" not in record.headers and "Salt" not in record.headers
        assert len(record.headers["Commitment"]) == 64
        assert [t.text for t in record.turns] == [
            "I8=12 H6=8 G9=2 F7=1 J8=16+",
            "exchange ? ? ?",
        ]
        assert record.turns[0].points == 39
    # What bob gave back and drew is his: nobody reads it in the record.
    assert " ".join(map(str, rack[:3])) not in text.split("exchange")[1]


def test_a_finished_games_record_replays_to_its_events(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=example_tiles(6))
    for square, tile in PLAYER_1:
        _play(client, ada, game["id"], type="place", square=square, tile=tile)
    _play(client, ada, game["id"], type="end_turn")
    _play(client, bob, game["id"], type="resign")
    text = _record(client, game["id"])
    record = read_record(text)
    assert record.headers["Id"] == game["id"] and len(record.headers["Date"]) == 10
    assert record.headers["End"] == "resigned" and record.headers["Winners"] == "ada"
    replayed = replay_record(text)
    assert replayed.committed
    # The ids in the log are names in the record: otherwise the same events.
    logged = _feed(client, game["id"])
    assert [e.type for e in replayed.events] == [e.type for e in logged]
    assert replayed.state.result == _state_result(logged)
    assert replayed.events[-2:] == tuple(logged[-2:])  # the end and the revealed order


def _state_result(events: list[Event]) -> Any:
    from mathable.core.ruleset import replay_any

    return replay_any(events).result


def test_a_withheld_order_stays_out_of_the_record(client: FlaskClient) -> None:
    ada, bob, cy, dan = (register(client, n) for n in ("ada", "bob", "cy", "dan"))
    started_game(client, ada, bob, tiles=example_tiles(1))
    given = started_game(client, cy, dan, tiles=example_tiles(1))
    _play(client, cy, given["id"], type="resign")
    record = read_record(_record(client, given["id"]))
    assert record.headers["End"] == "resigned"
    assert "Order" not in record.headers and "Salt" not in record.headers
    assert record.headers["Result"] == "*" and "Winners" not in record.headers


def test_an_unknown_game_has_no_record(client: FlaskClient) -> None:
    response = client.get("/v1/games/g_nosuchgame/record")
    assert response.status_code == 404


def test_the_archive_streams_a_players_finished_games_with_their_records(
    client: FlaskClient,
) -> None:
    ada, bob, cy = (register(client, n) for n in ("ada", "bob", "cy"))
    first = started_game(client, ada, bob, tiles=example_tiles(2))
    second = started_game(client, cy, ada, tiles=example_tiles(3))
    running = started_game(client, ada, cy, tiles=example_tiles(4))
    _play(client, bob, first["id"], type="resign")
    _play(client, ada, second["id"], type="resign")
    response = client.get("/v1/players/ADA/games")
    assert response.status_code == 200
    assert response.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    assert sorted(line["id"] for line in lines) == sorted([first["id"], second["id"]])
    assert running["id"] not in {line["id"] for line in lines}
    for line in lines:
        assert line["ruleset"] == "mathable" and "ada" in line["players"]
        record = read_record(line["record"])
        assert record.headers["Id"] == line["id"] and record.headers["End"] == "resigned"
    missing = client.get("/v1/players/nobody/games")
    assert missing.status_code == 404 and missing.json["error"]["code"] == "unknown_player"  # type: ignore[index]


# --- POST /v1/games/import ----------------------------------------------------------------


def _selfplayed_record(seed: int) -> str:
    from mathable.core.record import write_record
    from tests.rules.record_helpers import mathable_selfplay

    return write_record(mathable_selfplay(seed)).text()


def test_a_complete_record_is_imported_as_a_finished_unrated_game(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    text = _selfplayed_record(1)
    answer = client.post("/v1/games/import", json={"record": text}, headers=bob.auth)
    assert answer.status_code == 201, answer.json
    body: dict[str, Any] = answer.json  # type: ignore[assignment]
    assert body["status"] == "ended" and body["you"] == 1
    assert [s["name"] for s in body["seats"]] == ["ada", "bob"]
    assert [s["player"] for s in body["seats"]] == [ada.id, bob.id]
    expected = replay_record(text).state
    assert body["result"]["scores"] == list(expected.result.scores)
    feed = client.get(f"/v1/games/{body['id']}/events").json["events"]  # type: ignore[index]
    assert feed[0]["type"] == "game_created" and feed[0]["imported"] is True
    # Its record reads as the imported one (its own id, and marked imported).
    again = read_record(_record(client, body["id"]))
    original = read_record(text)
    assert [t.written for t in again.turns] == [t.written for t in original.turns]
    assert (
        again.headers["Imported"] == "yes" and again.headers["Order"] == original.headers["Order"]
    )
    # It is one of bob's finished games (he imported it), marked imported; not ada's.
    lines = client.get("/v1/players/bob/games").get_data(as_text=True).splitlines()
    assert [json.loads(line)["id"] for line in lines] == [body["id"]]
    assert json.loads(lines[0])["imported"] is True
    assert client.get("/v1/players/ada/games").get_data(as_text=True) == ""


def test_a_broken_record_is_refused_with_its_line_and_nothing_is_made(
    client: FlaskClient,
) -> None:
    ada = register(client, "ada")
    register(client, "bob")
    lines = _selfplayed_record(1).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("6. "))
    lines[at] = lines[at].replace("(", "(1", 1)
    answer = client.post("/v1/games/import", json={"record": "\n".join(lines)}, headers=ada.auth)
    assert answer.status_code == 422
    error = answer.json["error"]  # type: ignore[index]
    assert error["code"] == "wrong_score" and error["details"]["line"] == at + 1
    assert error["message"].startswith(f"line {at + 1}: ")
    me = client.get("/v1/me", headers=ada.auth).json
    assert me["games"] == []  # type: ignore[index]


def test_an_import_needs_the_callers_seat_every_account_and_the_whole_game(
    client: FlaskClient,
) -> None:
    ada, cy = register(client, "ada"), register(client, "cy")
    text = _selfplayed_record(1)
    answer = client.post("/v1/games/import", json={"record": text}, headers=ada.auth)
    assert answer.status_code == 422 and answer.json["error"]["code"] == "unknown_player"  # type: ignore[index]
    register(client, "bob")
    answer = client.post("/v1/games/import", json={"record": text}, headers=cy.auth)
    assert answer.status_code == 403 and answer.json["error"]["code"] == "not_seated"  # type: ignore[index]
    kept = []
    for line in text.splitlines():
        number = line.split(".", 1)[0]
        if number.isdigit() and int(number) > 5:
            continue
        kept.append('[Result "*"]' if line.startswith("[Result ") else line)
    answer = client.post("/v1/games/import", json={"record": "\n".join(kept)}, headers=ada.auth)
    assert answer.status_code == 422, answer.json
    assert answer.json["error"]["code"] == "unfinished_record"  # type: ignore[index]


def test_an_imported_game_mails_nobody(mail_app: Flask, mail_table: Table) -> None:
    """Players with verified addresses get no game-over mail for a game played elsewhere
    (a finished game written whole would otherwise tell them it just ended)."""
    with room(mail_app).outbox.engine.connect() as conn:
        before = conn.execute(select(func.count()).select_from(outbox)).scalar()
    answer = mail_table.client.post(
        "/v1/games/import", json={"record": _selfplayed_record(1)}, headers=mail_table.ada.auth
    )
    assert answer.status_code == 201, answer.json
    with room(mail_app).outbox.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(outbox)).scalar() == before
    # The same game played here ends with a mail: the check above would see one.
    mail_table.ok(mail_table.bob, type="resign")
    with room(mail_app).outbox.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(outbox)).scalar() > before
