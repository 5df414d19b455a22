"""Accounts: registering, tokens stored as hashes, invitation-only servers, GET /v1/me."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from mathable_server.store.engine import players
from tests.server.apps import make_app
from tests.server.helpers import Account, bag_order, move, new_game, register, started_game

pytestmark = pytest.mark.both_databases


def test_register_returns_a_token_that_authenticates_the_player(client: FlaskClient) -> None:
    response = client.post("/v1/players", json={"name": "ada", "email": "ada@example.org"})
    assert response.status_code == 201
    body = response.json
    assert body is not None and body["name"] == "ada" and body["token"].startswith(body["id"])
    assert response.headers["Cache-Control"] == "no-store"
    me = client.get("/v1/me", headers={"Authorization": f"Bearer {body['token']}"})
    assert me.status_code == 200
    assert me.json == {
        "id": body["id"], "name": "ada", "time_zone": None, "language": None, "bot": False,
        "games": [], "next_offset": None,
    }  # fmt: skip


def test_token_is_stored_only_as_a_hash(client: FlaskClient) -> None:
    account = register(client, "ada")
    engine = client.application.extensions["mathable"].store.engine
    with engine.connect() as conn:
        # ada's row (the computer's accounts, issue 44, are the server's own).
        rows = conn.execute(select(players).where(players.c.id == account.id)).mappings().all()
    assert len(rows) == 1
    stored = " ".join(str(v) for v in rows[0].values())
    assert account.token not in stored
    assert account.token.split(".", 1)[1] not in stored


def test_names_are_unique_regardless_of_case(client: FlaskClient) -> None:
    register(client, "Ada")
    response = client.post("/v1/players", json={"name": "ada"})
    assert response.status_code == 409
    assert response.json is not None and response.json["error"]["code"] == "name_taken"


def test_the_server_s_own_names_cannot_be_registered(client: FlaskClient) -> None:
    """Fourth review, (i): names the server gives deleted players, guests and computers
    are refused (409 ``name_reserved``), whatever their case; nobody is made."""
    for name in ("anonymous-1a2b3c4d", "Guest-cafe", "computer-hard", "COMPUTER-easy-2"):
        answer = client.post("/v1/players", json={"name": name})
        assert answer.status_code == 409, (name, answer.json)
        assert answer.json["error"]["code"] == "name_reserved"
        if not name.casefold().startswith("computer-"):  # the computer's own accounts exist
            assert client.get(f"/v1/players/{name}").status_code == 404
    assert client.post("/v1/players", json={"name": "computerfan"}).status_code == 201


def test_bad_registrations_are_400_with_the_fields_at_fault(client: FlaskClient) -> None:
    for body in (
        {},
        {"name": ""},
        {"name": "has space"},
        {"name": "x" * 33},
        {"name": 12},
        {"name": "ada", "email": "not-an-email"},
        {"name": "ada", "admin": True},
    ):
        response = client.post("/v1/players", json=body)
        assert response.status_code == 400, body
        assert response.json is not None
        assert response.json["error"]["code"] == "validation_error"
    assert client.post("/v1/players", data="{nope").json["error"]["code"] == "bad_json"  # type: ignore[index]
    assert client.post("/v1/players", data="[1]").status_code == 400


def test_registration_can_be_restricted_to_holders_of_the_invitation(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'x.db'}", registration_secret="open sesame")
    client = app.test_client()
    refused = client.post("/v1/players", json={"name": "eve"})
    assert refused.status_code == 403
    assert refused.json is not None and refused.json["error"]["code"] == "registration_closed"
    wrong = client.post("/v1/players", json={"name": "eve", "invitation": "open"})
    assert wrong.status_code == 403
    right = client.post("/v1/players", json={"name": "eve", "invitation": "open sesame"})
    assert right.status_code == 201


def test_me_needs_a_valid_token(client: FlaskClient) -> None:
    account = register(client, "ada")
    missing = client.get("/v1/me")
    assert missing.status_code == 401 and missing.json["error"]["code"] == "unauthorized"  # type: ignore[index]
    assert missing.headers["WWW-Authenticate"].startswith("Bearer")
    for header in (
        "Bearer nonsense",
        f"Bearer {account.token}x",
        f"Bearer {account.id}.wrong-secret",
        f"Basic {account.token}",
        "Bearer ",
    ):
        response = client.get("/v1/me", headers={"Authorization": header})
        assert response.status_code == 401, header
        assert response.json["error"]["code"] == "bad_token"  # type: ignore[index]


def test_me_lists_games_waiting_on_the_caller_first(client: FlaskClient) -> None:
    ada, bob, cy = register(client, "ada"), register(client, "bob"), register(client, "cy")
    # Game 1: started, ada's turn (tiles put seat 0 first). Game 2: started, bob's turn
    # after ada passes. Game 3: waiting for a player. Game 4: cy invites ada.
    first = started_game(client, ada, bob, seed=1)
    second = started_game(client, bob, ada, seed=2)
    waiting = new_game(client, ada)
    invite = new_game(client, cy, invite=["ADA"])
    ids = {g["id"] for g in (first, second, waiting, invite)}
    assert len(ids) == 4
    listed = client.get("/v1/me", headers=ada.auth).json
    assert listed is not None
    by_id = {g["id"]: g for g in listed["games"]}
    assert set(by_id) == ids
    waiting_ids = [g["id"] for g in listed["games"] if g["waiting_on_you"]]
    assert listed["games"][: len(waiting_ids)] == [by_id[i] for i in waiting_ids]
    assert invite["id"] in waiting_ids and waiting["id"] not in waiting_ids
    assert by_id[invite["id"]]["your_seat"] is None
    assert by_id[invite["id"]]["invited"] == [{"id": ada.id, "name": "ada"}]
    assert by_id[waiting["id"]]["seats"] == [{"seat": 0, "player": ada.id, "name": "ada"}]
    assert "last_turn" not in by_id[waiting["id"]]  # only with details
    for game in (first, second):
        summary = by_id[game["id"]]
        turn_player = game["seats"][game["turn"]["seat"]]["player"]
        assert summary["your_turn"] == (turn_player == ada.id)
        assert summary["waiting_on_you"] == summary["your_turn"]


def test_me_pages_with_limit_and_offset(client: FlaskClient) -> None:
    ada = register(client, "ada")
    created = {new_game(client, ada)["id"] for _ in range(5)}
    seen: list[str] = []
    offset: int | None = 0
    while offset is not None:
        page = client.get(f"/v1/me?limit=2&offset={offset}", headers=ada.auth).json
        assert page is not None and len(page["games"]) <= 2
        seen += [g["id"] for g in page["games"]]
        offset = page["next_offset"]
    assert len(seen) == 5 and set(seen) == created
    assert client.get("/v1/me?limit=0", headers=ada.auth).status_code == 400
    assert client.get("/v1/me?limit=abc", headers=ada.auth).status_code == 400
    assert client.get("/v1/me?offset=-1", headers=ada.auth).status_code == 400


def test_me_with_details_gives_scores_and_last_turn_as_anyone_sees_them(
    client: FlaskClient,
) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    tiles = bag_order(12, 16, 3, 7, 40, 9, 5, 2, 8, 6, 1, 4, 10, 11)
    game = started_game(client, ada, bob, tiles=tiles)
    gid, version = game["id"], game["version"]
    turn = [{"square": "I8", "tile": 12}, {"square": "J8", "tile": 16}]
    played = move(client, ada, gid, version, type="turn", placements=turn)
    assert played.status_code == 200, played.json
    plain = client.get("/v1/me", headers=ada.auth).json
    assert plain is not None  # a bot's poll: no game state read, none of these
    assert "last_turn" not in plain["games"][0] and "score" not in plain["games"][0]["seats"][0]
    for who in (ada, bob):
        listed = client.get("/v1/me?details=true", headers=who.auth).json
        assert listed is not None
        (summary,) = listed["games"]
        public = client.get(f"/v1/games/{gid}").json  # a spectator's view
        assert public is not None
        assert [s["score"] for s in summary["seats"]] == [28, 0]
        assert summary["last_turn"] == public["last_turn"]
        assert [p["square"] for p in summary["last_turn"]["placements"]] == ["I8", "J8"]
        assert "rack" not in summary and "drawn" not in str(summary["last_turn"])
    # After an exchange the listing tells how many tiles, never which.
    bob_view = client.get(f"/v1/games/{gid}", headers=bob.auth).json
    assert bob_view is not None
    swapped = move(client, bob, gid, bob_view["version"], type="exchange", tiles=[10, 11])
    assert swapped.status_code == 200, swapped.json
    listed = client.get("/v1/me?details=1", headers=ada.auth).json
    assert listed is not None
    last = listed["games"][0]["last_turn"]
    assert last["ended_by"] == "exchanged" and last["exchanged"] == 2
    assert "10" not in str(last) and "11" not in str(last)


def test_a_rotated_token_stops_working_and_the_new_one_works(client: FlaskClient) -> None:
    """First security review (issue 10), finding 5: tokens could not be rotated, revoked or
    expired."""
    ada = register(client, "ada")
    rotated = client.post("/v1/me/token", headers=ada.auth)
    assert rotated.status_code == 201
    new = {"Authorization": f"Bearer {rotated.json['token']}"}  # type: ignore[index]
    assert client.get("/v1/me", headers=ada.auth).status_code == 401
    assert client.get("/v1/me", headers=new).json["id"] == ada.id  # type: ignore[index]
    assert client.post("/v1/me/token", headers=ada.auth).status_code == 401


def test_a_revoked_token_stops_working_everywhere(client: FlaskClient) -> None:
    """First security review (issue 10), finding 5."""
    ada = register(client, "ada")
    assert client.delete("/v1/me/token", headers=ada.auth).status_code == 204
    refused = client.get("/v1/me", headers=ada.auth)
    assert refused.status_code == 401 and refused.json["error"]["code"] == "bad_token"  # type: ignore[index]


def test_a_token_expires_after_its_days(tmp_path: Path) -> None:
    """First security review (issue 10), finding 5."""
    app = make_app(f"sqlite:///{tmp_path / 'old.db'}", token_days=30)
    client = app.test_client()
    ada = register(client, "ada")
    assert client.get("/v1/me", headers=ada.auth).status_code == 200
    from sqlalchemy import update

    from mathable_server.store.engine import players

    month_ago = int(time.time() * 1000) - 31 * 86_400_000
    with app.extensions["mathable"].store.engine.begin() as conn:
        conn.execute(update(players).values(token_issued_at=month_ago))
    app.extensions["mathable"].auth.forget(ada.id)
    expired = client.get("/v1/me", headers=ada.auth)
    assert expired.status_code == 401 and expired.json["error"]["code"] == "token_expired"  # type: ignore[index]


@pytest.mark.parametrize("name", ["bob\n", "bob\r\n", "b", "bob.", "bo b", "bob\u00a0"])
def test_names_outside_the_pattern_are_refused(client: FlaskClient, name: str) -> None:
    """First security review (issue 10), finding 6: names ending in a newline were taken."""
    register(client, "bob")
    refused = client.post("/v1/players", json={"name": name})
    assert refused.status_code == 400, refused.json
    ada = register(client, "ada")
    invite = client.post("/v1/games", json={"invite": [name]}, headers=ada.auth)
    assert invite.status_code == 400


def test_the_registration_location_is_the_account(client: FlaskClient) -> None:
    """First security review (issue 10), finding 11: the Location of a registration pointed
    at a 404."""
    answer = client.post("/v1/players", json={"name": "ada"})
    account = Account(answer.json["id"], "ada", answer.json["token"])  # type: ignore[index]
    where = client.get(answer.headers["Location"], headers=account.auth)
    assert where.status_code == 200 and where.json["id"] == account.id  # type: ignore[index]


def test_a_name_that_looks_like_a_player_s_name_is_refused(client: FlaskClient) -> None:
    """Found: Olliee50f, 0lliee50f and OIIiee50f could all be registered. A name whose
    TR39 skeleton (case folded) is a player's is now 409 name_confusable, naming that
    player; a different name still goes.

    From the second security review (issue 27)."""
    register(client, "Olliee50f")
    for alike in ("0lliee50f", "OIIiee50f", "oiiiee5of", "OLLIEE5OF"):
        answer = client.post("/v1/players", json={"name": alike})
        assert answer.status_code == 409, alike
        error = answer.json["error"]  # type: ignore[index]
        assert error["code"] == "name_confusable", alike
        assert "Olliee50f" in error["message"]
    taken = client.post("/v1/players", json={"name": "olliee50f"})
    assert taken.json["error"]["code"] == "name_taken"  # type: ignore[index]
    register(client, "rnike")
    assert client.post("/v1/players", json={"name": "Mike"}).status_code == 409
    register(client, "Olliee51f")
    assert client.get("/v1/me", headers=register(client, "ann").auth).status_code == 200


def test_the_look_alike_table_covers_every_character_a_name_may_hold(
    client: FlaskClient, monkeypatch: Any
) -> None:
    """Each look-alike the table claims is refused at registration, and without its row
    it would go through: the table is what refuses it. (A name holds only characters the
    table covers: were names to take more, this fails until it is regenerated.)

    From the second security review (issue 27)."""
    import re

    from mathable_server.http.schemas import NAME_PATTERN
    from mathable_server.store.names import CONFUSABLES, COVERED

    allowed = {chr(c) for c in range(0x110000) if re.fullmatch(NAME_PATTERN, "a" + chr(c) + "a")}
    assert allowed <= COVERED and set(CONFUSABLES) <= allowed
    # One name per row, spelt with the prototype, then the look-alike spelt with the row's
    # character (between letters no row maps, so the pairs do not meet each other).
    rows = sorted(CONFUSABLES.items())
    pairs = {char: (f"x{prototype}{tag}", f"x{char}{tag}")
             for (char, prototype), tag in zip(rows, "vwyz", strict=True)}  # fmt: skip
    assert set(pairs) == {"0", "1", "I", "m"}
    for original, _ in pairs.values():
        register(client, original)
    for char, (original, alike) in pairs.items():
        refused = client.post("/v1/players", json={"name": alike})
        assert refused.status_code == 409, (char, refused.json)
        error = refused.json["error"]  # type: ignore[index]
        assert error["code"] == "name_confusable" and original in error["message"], char
    for char, (_, alike) in pairs.items():
        with monkeypatch.context() as patched:
            patched.delitem(CONFUSABLES, char)
            answer = client.post("/v1/players", json={"name": alike})
        if char == "I":
            # I -> l is also what the case fold does (I is i, and i counts as l): the
            # row and the fold each refuse it.
            assert answer.status_code == 409, answer.json
        else:
            assert answer.status_code == 201, (char, answer.json)
