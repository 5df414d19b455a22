"""Security, second review (issue 27): invitations from one account, and seeds."""

from __future__ import annotations

from flask.testing import FlaskClient

from mathable_server.http.settings import Settings
from tests.server.conftest import close_app, make_app
from tests.server.helpers import register


def test_r2_one_account_cannot_fill_a_player_s_invitations(client: FlaskClient) -> None:
    """Found: one account with 20 invitations filled a player's invitation cap, so a
    friend's invitation got too_many_invitations. One player may now send another at
    most max_invitations_per_inviter (3) open invitations; the friend's still goes."""
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


def test_r2_a_player_cannot_give_a_seed_unless_the_operator_allows_it(sqlite_url: str) -> None:
    """Found: a game's order is HMAC(secret, seed), so a second game of a running game's
    seed, resigned at once, revealed that game's racks and every future draw. A server
    now takes a seed only with MATHABLE_ALLOW_SEEDS (its default is off)."""
    assert Settings.from_env({}).allow_seeds is False
    assert Settings.from_env({"MATHABLE_ALLOW_SEEDS": "1"}).allow_seeds is True
    app = make_app(sqlite_url, allow_seeds=False)
    client = app.test_client()
    ada = register(client, "ada")
    refused = client.post("/v1/games", json={"seed": 30}, headers=ada.auth)
    assert refused.status_code == 422
    assert refused.json["error"]["code"] == "seeds_disabled"  # type: ignore[index]
    plain = client.post("/v1/games", json={}, headers=ada.auth)
    assert plain.status_code == 201 and plain.json["seeded"] is False  # type: ignore[index]
    close_app(app)
