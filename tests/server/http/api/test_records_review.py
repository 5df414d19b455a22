"""Game records after review (issue #32): what an import may claim, and the archive's bounds.

An imported game is listed as a game of its importer only (the other players it
names never said it was theirs), marked ``imported`` wherever it appears; an import
naming a player who blocked the importer, seating one account twice, or repeating
the importer's earlier import of the same game is refused; the creation goes through
the server's own refusals. The archive is paged (``max``, ``before``), counted per
address, and a game without a record notation never cuts it. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.server.apps import make_app
from tests.server.helpers import Account, register

pytestmark = pytest.mark.both_databases


def _selfplayed(seed: int = 1) -> str:
    from mathable.core.record import write_record
    from tests.rules.record_helpers import mathable_selfplay

    return write_record(mathable_selfplay(seed)).text()


def _given_order_record() -> str:
    """A finished game made with a given bag order (``OrderGiven``): ada resigns at once."""
    from mathable.core.lifecycle import Create, Join, Resign
    from mathable.core.record import write_record
    from mathable.core.ruleset import ruleset

    rules = ruleset("mathable")
    state = rules.new_state()
    events = []
    order = tuple(reversed(sorted(rules.tile_set)))
    for command in (Create("ada", tiles=order, salt="0" * 32), Join("bob"), Resign(0)):
        for event in rules.check(state, command):
            events.append(event)
            state = rules.apply(state, event)
    text = write_record(events).text()
    assert '[OrderGiven "yes"]' in text
    return text


def _import(client: FlaskClient, who: Account, text: str, **headers: str) -> Any:
    return client.post("/v1/games/import", json={"record": text}, headers={**who.auth, **headers})


def _archive(client: FlaskClient, name: str, query: str = "") -> list[dict[str, Any]]:
    answer = client.get(f"/v1/players/{name}/games{query}")
    assert answer.status_code == 200, answer.data
    return [json.loads(line) for line in answer.get_data(as_text=True).splitlines()]


def _listed(client: FlaskClient, who: Account, details: bool = False) -> list[dict[str, Any]]:
    query = "?details=true" if details else ""
    games: list[dict[str, Any]] = client.get(f"/v1/me{query}", headers=who.auth).json["games"]  # type: ignore[index]
    return games


def test_an_imported_game_is_listed_for_its_importer_only_and_marked_imported(
    client: FlaskClient,
) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    made = _import(client, bob, _selfplayed())
    assert made.status_code == 201, made.json
    game = made.json["id"]
    assert made.json["imported"] is True
    # ada never said this game was hers: not in her list, nor her archive.
    assert _listed(client, ada) == []
    assert _archive(client, "ada") == []
    # bob's list and archive have it, marked imported, with both seats named.
    for details in (False, True):
        (line,) = _listed(client, bob, details)
        assert line["id"] == game and line["imported"] is True
        assert [s["name"] for s in line["seats"]] == ["ada", "bob"]
    (archived,) = _archive(client, "bob")
    assert archived["id"] == game and archived["imported"] is True
    # The game's own view says so to anyone.
    assert client.get(f"/v1/games/{game}").json["imported"] is True  # type: ignore[index]


def test_a_game_played_here_is_not_marked_imported(client: FlaskClient) -> None:
    from tests.server.helpers import example_tiles, started_game

    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=example_tiles(2))
    assert "imported" not in client.get(f"/v1/games/{game['id']}").json  # type: ignore[operator]
    (line,) = _listed(client, ada)
    assert line["imported"] is False


def test_an_import_naming_a_player_who_blocked_the_importer_is_refused(
    client: FlaskClient,
) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    assert client.put("/v1/me/blocks/bob", headers=ada.auth).status_code in (200, 201, 204)
    answer = _import(client, bob, _selfplayed())
    assert answer.status_code == 403, answer.json
    assert answer.json["error"]["code"] == "blocked"
    assert _listed(client, bob) == []


def test_the_same_game_is_imported_once_per_importer(client: FlaskClient) -> None:
    register(client, "ada")
    bob = register(client, "bob")
    text = _selfplayed()
    first = _import(client, bob, text)
    assert first.status_code == 201, first.json
    # The same game again, even with another id, date and a comment: 409 and its id.
    again = text.replace("[Game ", '[Id "elsewhere"]\n[Game ').replace("\n1. ", "\n# hi\n1. ", 1)
    for copy in (text, again):
        answer = _import(client, bob, copy)
        assert answer.status_code == 409, answer.json
        error = answer.json["error"]
        assert error["code"] == "already_imported"
        assert error["details"]["game_id"] == first.json["id"]
    assert len(_listed(client, bob)) == 1


def test_a_keyed_import_retried_gets_its_first_answer(client: FlaskClient) -> None:
    register(client, "ada")
    bob = register(client, "bob")
    text = _selfplayed()
    key = {"Idempotency-Key": "import-0123456789abcdef"}
    first = _import(client, bob, text, **key)
    retry = _import(client, bob, text, **key)
    assert first.status_code == retry.status_code == 201
    assert retry.json["id"] == first.json["id"]


def test_names_differing_only_in_case_cannot_seat_one_account_twice(
    client: FlaskClient,
) -> None:
    ada = register(client, "ada")
    register(client, "bob")
    text = _selfplayed().replace('"bob"', '"ADA"').replace(" bob:", " ADA:")
    answer = _import(client, ada, text)
    assert answer.status_code == 422, answer.json
    assert answer.json["error"]["code"] == "same_player"
    assert _listed(client, ada) == []


def test_an_import_with_a_given_order_is_refused_where_given_orders_are(
    store_url: str,
) -> None:
    client = make_app(store_url, allow_given_tiles=False).test_client()
    register(client, "ada")
    bob = register(client, "bob")
    answer = _import(client, bob, _given_order_record())
    assert answer.status_code == 422, answer.json
    assert answer.json["error"]["code"] == "given_tiles_disabled"


def test_a_record_with_a_given_order_imports_where_given_orders_are_taken(
    client: FlaskClient,
) -> None:
    register(client, "ada")
    bob = register(client, "bob")
    answer = _import(client, bob, _given_order_record())
    assert answer.status_code == 201, answer.json


def test_an_import_goes_through_the_creation_checks(client: FlaskClient) -> None:
    register(client, "ada")
    bob = register(client, "bob")
    text = _selfplayed()
    for header, code in (
        ('[Referee "nobody"]', "bad_referee"),
        ('[Clock "per_move=-5 foo=bar"]', None),
    ):
        key = header.split()[0][1:]
        lines = [line for line in text.splitlines() if not line.startswith(f"[{key} ")]
        lines.insert(1, header)
        answer = _import(client, bob, "\n".join(lines))
        assert answer.status_code == 422, (header, answer.json)
        error = answer.json["error"]
        if code is not None:
            assert error["code"] == code
        assert error["details"]["line"] == 2
    assert _listed(client, bob) == []


def test_the_archive_pages_with_max_and_before(client: FlaskClient) -> None:
    register(client, "ada")
    bob = register(client, "bob")
    made = [_import(client, bob, _selfplayed(seed)).json["id"] for seed in (1, 3, 5)]
    everything = [line["id"] for line in _archive(client, "bob")]
    assert sorted(everything) == sorted(made)
    first = client.get("/v1/players/bob/games?max=2")
    ids = [json.loads(line)["id"] for line in first.get_data(as_text=True).splitlines()]
    assert ids == everything[:2]
    assert f"before={ids[-1]}" in first.headers["Link"]
    rest = [line["id"] for line in _archive(client, "bob", f"?max=2&before={ids[-1]}")]
    assert rest == everything[2:]
    last = client.get(f"/v1/players/bob/games?max=2&before={ids[-1]}")
    assert "Link" not in last.headers
    for bad in ("?max=0", "?max=1001", "?before=a%20b"):
        answer = client.get(f"/v1/players/bob/games{bad}")
        assert answer.status_code == 400, bad


def test_the_archive_is_counted_per_address(store_url: str) -> None:
    from mathable_server.http.limits import RateLimit

    client = make_app(store_url, archive_limit=RateLimit(rate=1 / 3600, burst=2)).test_client()
    register(client, "ada")
    for _ in range(2):
        assert client.get("/v1/players/ada/games").status_code == 200
    answer = client.get("/v1/players/ada/games")
    assert answer.status_code == 429
    assert answer.json["error"]["code"] == "too_many_archive_reads"
    assert int(answer.headers["Retry-After"]) > 0
