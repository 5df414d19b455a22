"""Summy over HTTP: create with ``ruleset``, join, views, every command, redaction."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.server.helpers import Account, move, register
from tests.server.summy_games import ONE_TWO_THREE, summy_game

pytestmark = pytest.mark.both_databases


SVG = "{http://www.w3.org/2000/svg}"


def test_created_summy_game_shows_the_first_equals_and_own_hand(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)
    assert game["ruleset"] == "summy"
    assert game["table"] == [{"x": 0, "y": 0, "tile": "="}]
    assert game["hand"] == list("6789-:=0")
    assert [s["hand_size"] for s in game["seats"]] == [8, 8]
    assert game["supply"] == 93 - 16
    assert game["turn"]["seat"] == 0  # a given order: seat 0 begins


def test_equation_scores_and_hides_the_draw_from_the_opponent(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)
    placements = [
        {"x": -3, "y": 0, "tile": "1"},
        {"x": -2, "y": 0, "tile": "+"},
        {"x": -1, "y": 0, "tile": "2"},
        {"x": 1, "y": 0, "tile": "3"},
    ]
    played = move(client, ada, game["id"], game["version"], type="equation", placements=placements)
    assert played.status_code == 200, played.json
    body = played.json
    assert body["seats"][0]["score"] == 6
    assert body["last_play"]["equation"] == "1+2=3"
    assert sorted(body["hand"]) == sorted(list("45x=") + list("1231"))
    events = client.get(f"/v1/games/{game['id']}/events", headers=bob.auth).json["events"]
    last = events[-1]
    assert last["type"] == "equation_played" and last["drawn"] is None
    assert last["drawn_count"] == 4
    started = next(e for e in events if e["type"] == "summy_started")
    assert started["hands"][0] is None and started["hands"][1] == list("6789-:=0")


def test_bad_equations_are_refused_with_a_code_and_change_nothing(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)
    version = game["version"]
    cases = {
        "wrong_result": [(-3, "1"), (-2, "+"), (-1, "2"), (1, "4")],
        "gap": [(-4, "1"), (-2, "+"), (-1, "2"), (1, "3")],
        "tile_not_in_hand": [(-3, "9"), (-2, "+"), (-1, "2"), (1, "3")],
        "square_taken": [(0, "1")],
        "off_table": [(10**9, "1")],
        "bad_tile": [(-1, "?")],
    }
    for code, tiles in cases.items():
        placements = [{"x": x, "y": 0, "tile": t} for x, t in tiles]
        refused = move(client, ada, game["id"], version, type="equation", placements=placements)
        assert refused.status_code == 422, (code, refused.json)
        assert refused.json["error"]["code"] == code
    assert client.get(f"/v1/games/{game['id']}", headers=ada.auth).json["version"] == version


def test_mathable_moves_are_refused_in_a_summy_game(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)
    refused = move(client, ada, game["id"], game["version"], type="place", square="H7", tile=1)
    assert refused.status_code == 422
    assert refused.json["error"]["code"] == "wrong_game"


def test_discard_an_early_pass_refused_and_resign(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)
    gid = game["id"]
    discarded = move(client, ada, gid, game["version"], type="discard", tiles=["x", "="])
    assert discarded.status_code == 200, discarded.json
    assert discarded.json["supply"] == 93 - 16 - 2
    early = move(client, bob, gid, discarded.json["version"], type="pass")
    assert early.status_code == 422  # passing waits for an empty supply
    assert early.json["error"]["code"] == "supply_not_empty"
    assert early.json["error"]["details"] == {"supply": 75}
    passed = move(client, bob, gid, discarded.json["version"], type="discard", tiles=["9"])
    assert passed.status_code == 200, passed.json
    resigned = move(client, ada, gid, passed.json["version"], type="resign")
    assert resigned.status_code == 200
    assert resigned.json["status"] == "ended"
    assert resigned.json["result"]["winners"] == [1]


def test_unknown_ruleset_is_refused(client: FlaskClient) -> None:
    ada = register(client, "ada")
    created = client.post("/v1/games", json={"ruleset": "chess"}, headers=ada.auth)
    assert created.status_code == 422
    assert created.json["error"]["code"] == "unknown_ruleset"


def test_spectators_see_the_table_but_no_hand_and_pages_answer(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)
    seen = client.get(f"/v1/games/{game['id']}").json
    assert seen["hand"] is None and seen["you"] is None
    assert seen["table"] == [{"x": 0, "y": 0, "tile": "="}]
    events = client.get(f"/v1/games/{game['id']}/events").json["events"]
    started = next(e for e in events if e["type"] == "summy_started")
    assert started["hands"] == [None, None] and started["hand_sizes"] == [8, 8]
    assert client.get(f"/games/{game['id']}").status_code == 200
    assert client.get(f"/v1/games/{game['id']}/board.svg").status_code == 200
    listed = client.get("/v1/me?details=1", headers=ada.auth)
    assert listed.status_code == 200, listed.json


def test_a_summy_game_has_a_clock_like_mathable(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob, clock={"per_move": 3600})
    assert game["clock"]["deadline"] is not None
    assert game["clock"]["remaining"] == [3600, 3600]
    given = move(client, bob, game["id"], game["version"], type="give_time", seat=0, seconds=60)
    assert given.status_code == 200, given.json
    assert given.json["clock"]["remaining"][0] > 3600


def test_a_summy_game_survives_a_dump_and_load(sqlite_url: str, tmp_path: Path) -> None:
    import io

    from mathable_server.store.dumps import dump, load
    from mathable_server.store.engine import make_engine
    from tests.server.apps import make_app

    app = make_app(sqlite_url)
    client = app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)
    before = client.get(f"/v1/games/{game['id']}", headers=bob.auth).json
    app.extensions["mathable"].store.engine.dispose()
    source = make_engine(sqlite_url, 1)
    out = io.StringIO()
    dump(source, out)
    source.dispose()
    target_url = f"sqlite:///{tmp_path / 'target.db'}"
    target_app = make_app(target_url)
    target = target_app.extensions["mathable"].store.engine
    load(target, out.getvalue().splitlines(keepends=True))
    after = target_app.test_client().get(f"/v1/games/{game['id']}", headers=bob.auth).json
    assert after["table"] == before["table"] and after["hand"] == before["hand"]
    target.dispose()


def _played_and_discarded(client: FlaskClient) -> tuple[Account, Account, str]:
    """Ada plays 1+2=3 (6 points), Bob discards 6 and 7, Ada discards a 5 (no pass: the
    supply still holds tiles)."""
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)
    gid = game["id"]
    played = move(client, ada, gid, game["version"], type="equation", placements=ONE_TWO_THREE)
    assert played.status_code == 200, played.json
    discarded = move(client, bob, gid, played.json["version"], type="discard", tiles=["6", "7"])
    assert discarded.status_code == 200, discarded.json
    again = move(client, ada, gid, discarded.json["version"], type="discard", tiles=["5"])
    assert again.status_code == 200, again.json
    return ada, bob, gid


def test_the_web_page_of_a_summy_game_shows_its_table_and_its_turns(client: FlaskClient) -> None:
    from tests.server.page_reader import page

    _ada, _bob, gid = _played_and_discarded(client)
    reader = page(client, gid)
    words = reader.words
    assert f"Summy game {gid}" in words and "Mathable" not in words
    # The table as a picture (the text grid only in "the table as text", folded away).
    assert reader.svg is not None
    root = ET.fromstring(reader.svg)
    tiles = {
        (g.get("data-x"), g.get("data-y")): g.get("class")
        for g in root.iter(f"{SVG}g")
        if g.get("data-tile") is not None
    }
    assert tiles == {
        ("-3", "0"): "tile last", ("-2", "0"): "tile last", ("-1", "0"): "tile last",
        ("0", "0"): "tile", ("1", "0"): "tile last",
    }  # fmt: skip
    assert 'class="hand"' not in reader.svg  # the spectator's picture: no hand
    assert f"Table at version {reader_version(client, gid)}" in words
    assert "The table as text" in words and "*1 *+ *2 = *3" in words
    assert "ada : 1+2=3 (4 tiles laid across) — 6 points" in words
    assert "bob : discarded 2 tiles" in words and "ada : discarded 1 tile" in words
    assert "Tiles in the supply: 70." in words  # 93 - 16 dealt - 4, 2 and 1 drawn
    assert "discarded 6" not in words and "(6 7)" not in words  # which tiles: bob's secret


def reader_version(client: FlaskClient, gid: str) -> int:
    version: int = client.get(f"/v1/games/{gid}").json["version"]
    return version


def test_the_picture_of_a_summy_game_is_its_table_as_each_viewer_may_see_it(
    client: FlaskClient,
) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)
    gid = game["id"]
    played = move(client, ada, gid, game["version"], type="equation", placements=ONE_TWO_THREE)
    assert played.status_code == 200, played.json
    seen = {}
    for who, headers in (("ada", ada.auth), ("bob", bob.auth), ("nobody", {})):
        answer = client.get(f"/v1/games/{gid}/board.svg", headers=headers)  # checked: openapi
        assert answer.status_code == 200, answer.get_data(as_text=True)
        assert answer.mimetype == "image/svg+xml"
        assert answer.headers["ETag"] == f'"{played.json["version"]}"'
        seen[who] = ET.fromstring(answer.get_data(as_text=True))
    for root in seen.values():
        tiles = {
            (int(g.get("data-x", "")), int(g.get("data-y", ""))): g.get("data-tile")
            for g in root.iter(f"{SVG}g")
            if g.get("data-x") is not None and g.get("data-tile") is not None
        }
        assert tiles == {(-3, 0): "1", (-2, 0): "+", (-1, 0): "2", (0, 0): "=", (1, 0): "3"}
        marked = [g for g in root.iter(f"{SVG}g") if g.get("class") == "tile last"]
        assert len(marked) == 4  # the last equation's new tiles
        title = root.find(f"{SVG}title")
        assert title is not None and title.text == f"Summy table, version {played.json['version']}"

    def hand(root: ET.Element) -> list[str] | None:
        band = next((g for g in root.iter(f"{SVG}g") if g.get("class") == "hand"), None)
        return None if band is None else [g.get("data-tile") or "" for g in band.findall(f"{SVG}g")]

    assert hand(seen["ada"]) == sorted(played.json["hand"])
    assert hand(seen["bob"]) == sorted("6789-:=0") and hand(seen["nobody"]) is None
    again = client.get(
        f"/v1/games/{gid}/board.svg", headers={"If-None-Match": f'"{played.json["version"]}"'}
    )
    assert again.status_code == 304


def test_my_game_list_names_each_games_ruleset_and_summys_last_turn(client: FlaskClient) -> None:
    ada, bob, gid = _played_and_discarded(client)
    listed = client.get("/v1/me?details=1", headers=bob.auth)  # validated against openapi
    assert listed.status_code == 200, listed.json
    entry = next(g for g in listed.json["games"] if g["id"] == gid)
    assert entry["ruleset"] == "summy"
    assert entry["last_turn"] == {"seat": 0, "ended_by": "discarded", "discarded": 1}
    plain = client.get("/v1/me", headers=ada.auth).json["games"]
    assert [g["ruleset"] for g in plain if g["id"] == gid] == ["summy"]
    view = client.get(f"/v1/games/{gid}", headers=ada.auth).json
    assert view["last_turn"] == {"seat": 0, "ended_by": "discarded", "discarded": 1}
    events = client.get(f"/v1/games/{gid}/events", headers=ada.auth).json["events"]
    types = [e["type"] for e in events[-3:]]
    assert types == ["equation_played", "tiles_discarded", "tiles_discarded"]


def test_a_summy_view_says_what_the_last_turn_did(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)
    gid = game["id"]
    played = move(client, ada, gid, game["version"], type="equation", placements=ONE_TWO_THREE)
    assert played.json["last_turn"] == {
        "seat": 0, "ended_by": "played", "equation": "1+2=3", "points": 6,
    }  # fmt: skip
    discarded = move(client, bob, game["id"], played.json["version"], type="discard", tiles=["6"])
    assert discarded.json["last_turn"] == {"seat": 1, "ended_by": "discarded", "discarded": 1}
    listed = client.get("/v1/me?details=1", headers=ada.auth).json["games"]
    assert listed[0]["last_turn"] == discarded.json["last_turn"]


def test_my_game_list_tells_who_won_a_finished_game(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)
    gid = game["id"]
    before = client.get("/v1/me?details=1", headers=ada.auth).json["games"]
    assert [g["result"] for g in before if g["id"] == gid] == [None]  # still in play
    resigned = move(client, bob, gid, game["version"], type="resign")
    assert resigned.status_code == 200, resigned.json
    listed = client.get("/v1/me?details=1", headers=ada.auth)  # validated against openapi
    entry = next(g for g in listed.json["games"] if g["id"] == gid)
    assert entry["status"] == "ended" and entry["ruleset"] == "summy"
    assert entry["result"] == resigned.json["result"] and entry["result"]["winners"] == [0]
    plain = client.get("/v1/me", headers=ada.auth).json["games"]
    assert all("result" not in g for g in plain)  # only with details


def test_summy_tiles_that_stop_short_of_the_table_are_refused_as_a_gap(
    client: FlaskClient,
) -> None:
    """Found: tiles laid with a gap before the table got no_table_tile, never gap.

    Found by a bot author in the contract (issue 26), over the contract-checking client."""
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
    ``leading_operator``, "an equation never begins with =": no documented code fit.

    Found by a bot author in the contract, over the contract-checking client."""
    ada, bob = register(client, "ada"), register(client, "bob")
    game = summy_game(client, ada, bob)  # ada holds 1 2 + 3 4 5 x =
    lone = [{"x": 1, "y": 0, "tile": "1"}]
    refused = move(client, ada, game["id"], game["version"], type="equation", placements=lone)
    assert refused.status_code == 422, refused.json
    error = refused.json["error"]
    assert error["code"] == "nothing_before_equals"
    assert error["details"] == {"equation": "=1", "side": "left", "part": ""}
    assert error["message"] == "=1: before the = come two numbers or more, with signs"
