"""Invitations, and who may sit down (``http/api/games.py``; blocks: ``players.py``): a
creator's waiting games and a player's invitations are capped, per inviter too; an
invitee may decline and a creator call a game off; a blocked player neither invites nor
joins; a declined private game stays closed until its creator opens it; a game called
off answers ``game_cancelled``. On SQLite and PostgreSQL.

Findings of the security reviews (issue 10, finding 2; issue 27) and of a bot author
(issue 26) are pinned here; each such test says which.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.server.apps import make_app
from tests.server.helpers import EXAMPLE_TILES, register, started_game

pytestmark = pytest.mark.both_databases


def test_one_account_cannot_fill_a_player_s_invitations(client: FlaskClient) -> None:
    """Found: one account with 20 invitations filled a player's invitation cap, so a
    friend's invitation got too_many_invitations. One player may now send another at
    most max_invitations_per_inviter (3) open invitations; the friend's still goes.

    From the second security review (issue 27)."""
    bob, spammer, friend = register(client, "bob"), register(client, "spam"), register(client, "cy")
    sent = [
        client.post("/v1/games", json={"invite": ["bob"]}, headers=spammer.auth)
        for _ in range(5)
    ]
    assert [answer.status_code for answer in sent] == [201, 201, 201, 422, 422]
    refused = sent[3].json["error"]  # type: ignore[index]
    assert refused["code"] == "too_many_invitations"
    assert refused["message"] == "you have invited bob to 3 games still waiting already"
    ok = client.post("/v1/games", json={"invite": ["bob"]}, headers=friend.auth)
    assert ok.status_code == 201
    # Declining one frees a place for the same inviter again.
    first = sent[0].json["id"]  # type: ignore[index]
    assert client.post(f"/v1/games/{first}/decline", headers=bob.auth).status_code == 200
    again = client.post("/v1/games", json={"invite": ["bob"]}, headers=spammer.auth)
    assert again.status_code == 201
    limits = client.get("/v1/limits").json
    assert limits["open_invitations_per_inviter_and_invitee"] == 3  # type: ignore[index]


def _client(tmp_path: Path, **settings: Any) -> FlaskClient:
    return make_app(f"sqlite:///{tmp_path / 'findings.db'}", **settings).test_client()


def test_invitations_are_capped_declinable_and_come_after_games_waiting_on_a_move(
    tmp_path: Path,
) -> None:
    """First security review (issue 10), finding 2: invitation spam that could not be
    declined."""
    client = _client(tmp_path, max_open_invitations=5)
    bob, ada = register(client, "bob"), register(client, "ada")
    real = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    assert client.post(
        f"/v1/games/{real['id']}/moves", json={"type": "pass", "expected_version": 3},
        headers=ada.auth,
    ).status_code == 200  # fmt: skip
    spammers = [register(client, f"spam{n}") for n in range(3)]
    sent = []
    for number in range(7):
        spammer = spammers[number % 3]
        answer = client.post("/v1/games", json={"invite": ["bob"]}, headers=spammer.auth)
        sent.append(answer.status_code)
        if answer.status_code == 422:
            assert answer.json["error"]["code"] == "too_many_invitations"  # type: ignore[index]
    assert sent == [201] * 5 + [422] * 2
    games = client.get("/v1/me?limit=100", headers=bob.auth).json["games"]  # type: ignore[index]
    assert games[0]["id"] == real["id"] and games[0]["your_turn"] is True
    invitation = games[1]["id"]
    declined = client.post(f"/v1/games/{invitation}/decline", headers=bob.auth)
    assert declined.status_code == 200 and declined.json["invited"] == []  # type: ignore[index]
    left = client.get("/v1/me?limit=100", headers=bob.auth).json["games"]  # type: ignore[index]
    assert invitation not in [g["id"] for g in left] and len(left) == 5
    again = client.post("/v1/games", json={"invite": ["bob"]}, headers=spammers[0].auth)
    assert again.status_code == 201


def test_a_creator_has_a_capped_number_of_waiting_games_and_may_cancel_one(
    tmp_path: Path,
) -> None:
    """First security review (issue 10), finding 2."""
    client = _client(tmp_path, max_open_invitations=3)
    ada = register(client, "ada")
    made = [client.post("/v1/games", json={}, headers=ada.auth) for _ in range(4)]
    assert [r.status_code for r in made] == [201, 201, 201, 422]
    assert made[3].json["error"]["code"] == "too_many_open_games"  # type: ignore[index]
    first = made[0].json["id"]  # type: ignore[index]
    cancelled = client.post(f"/v1/games/{first}/decline", headers=ada.auth)
    assert cancelled.status_code == 200 and cancelled.json["status"] == "cancelled"  # type: ignore[index]
    assert client.post("/v1/games", json={}, headers=ada.auth).status_code == 201
    eve = register(client, "eve")
    assert client.post(f"/v1/games/{first}/join", headers=eve.auth).status_code == 422


def test_a_player_can_block_another(client: FlaskClient) -> None:
    """Found: nothing let a player stop one account's invitations. A player now blocks
    another (PUT /v1/me/blocks/<name>): that player's invitations to them are 403
    blocked, and they cannot join a game the blocker sits in; unblocking lifts both.

    From the second security review (issue 27)."""
    bob, spam, cy = register(client, "bob"), register(client, "spam"), register(client, "cy")
    assert client.put("/v1/me/blocks/SPAM", headers=bob.auth).status_code == 204
    assert client.put("/v1/me/blocks/spam", headers=bob.auth).status_code == 204  # once
    listed = client.get("/v1/me/blocks", headers=bob.auth).json["blocks"]  # type: ignore[index]
    assert [(b["id"], b["name"]) for b in listed] == [(spam.id, "spam")]
    refused = client.post("/v1/games", json={"invite": ["bob"]}, headers=spam.auth)
    assert refused.status_code == 403
    assert refused.json["error"] == {  # type: ignore[index]
        "code": "blocked",
        "message": "bob does not take your invitations",
    }
    assert client.post("/v1/games", json={"invite": ["bob"]}, headers=cy.auth).status_code == 201
    # Nor may spam sit down at bob's table, open or invited to.
    table = client.post("/v1/games", json={}, headers=bob.auth).json
    joined = client.post(f"/v1/games/{table['id']}/join", headers=spam.auth)  # type: ignore[index]
    assert joined.status_code == 403 and joined.json["error"]["code"] == "blocked"  # type: ignore[index]
    invited = client.post("/v1/games", json={"invite": ["spam"]}, headers=bob.auth).json
    joined = client.post(f"/v1/games/{invited['id']}/join", headers=spam.auth)  # type: ignore[index]
    assert joined.status_code == 403
    # The others are not blocked, and spam learns nothing else.
    assert client.get("/v1/me/blocks", headers=spam.auth).json == {"blocks": []}
    for nobody in ("nobody", "a%00b", "x" * 150):
        bad = client.put(f"/v1/me/blocks/{nobody}", headers=bob.auth)
        assert bad.status_code == 422 and bad.json["error"]["code"] == "unknown_player"  # type: ignore[index]
    own = client.put("/v1/me/blocks/bob", headers=bob.auth)
    assert own.status_code == 422 and own.json["error"]["code"] == "self_block"  # type: ignore[index]
    assert client.delete("/v1/me/blocks/spam", headers=bob.auth).status_code == 204
    assert client.get("/v1/me/blocks", headers=bob.auth).json == {"blocks": []}
    again = client.post("/v1/games", json={"invite": ["bob"]}, headers=spam.auth)
    assert again.status_code == 201
    joined = client.post(f"/v1/games/{table['id']}/join", headers=spam.auth)  # type: ignore[index]
    assert joined.status_code == 200


def test_a_declined_private_game_stays_closed_until_its_creator_opens_it(
    client: FlaskClient,
) -> None:
    """Found: a private game whose invitee declined was open to anyone with its id. It now
    stays closed (422 game_closed) until its creator opens it (POST .../open,
    game_opened); an invitee left may still join, and only the creator may open it.

    From the second security review (issue 27)."""
    ada, bob, cy, eve = (register(client, n) for n in ("ada", "bob", "cy", "eve"))
    game = client.post(
        "/v1/games", json={"invite": ["bob", "cy"], "players": 3}, headers=ada.auth
    ).json
    game_id = game["id"]  # type: ignore[index]
    assert client.post(f"/v1/games/{game_id}/decline", headers=bob.auth).status_code == 200
    closed = client.post(f"/v1/games/{game_id}/join", headers=eve.auth)
    assert closed.status_code == 422
    assert closed.json["error"]["code"] == "game_closed"  # type: ignore[index]
    assert client.post(f"/v1/games/{game_id}/join", headers=cy.auth).status_code == 200
    assert client.post(f"/v1/games/{game_id}/join", headers=bob.auth).status_code == 422
    not_yours = client.post(f"/v1/games/{game_id}/open", headers=cy.auth)
    assert not_yours.json["error"]["code"] == "not_creator"  # type: ignore[index]
    opened = client.post(f"/v1/games/{game_id}/open", headers=ada.auth)
    assert opened.status_code == 200
    assert opened.json["events"][-1]["type"] == "game_opened"  # type: ignore[index]
    twice = client.post(f"/v1/games/{game_id}/open", headers=ada.auth)
    assert twice.json["error"]["code"] == "not_closed"  # type: ignore[index]
    started = client.post(f"/v1/games/{game_id}/join", headers=eve.auth)
    assert started.status_code == 200 and started.json["status"] == "playing"  # type: ignore[index]
    assert client.get(f"/games/{game_id}").status_code == 200  # the page reads game_opened
    # A game no invitee declined is as open as it was.
    plain = client.post("/v1/games", json={}, headers=ada.auth).json
    assert client.post(f"/v1/games/{plain['id']}/join", headers=eve.auth).status_code == 200  # type: ignore[index]


def test_a_decline_or_a_join_of_a_cancelled_game_answers_game_cancelled(
    client: FlaskClient,
) -> None:
    """Found: POST /decline on a cancelled game answered game_started (a join, game_full).

    Found by a bot author in the contract (issue 26), over the contract-checking client."""
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
