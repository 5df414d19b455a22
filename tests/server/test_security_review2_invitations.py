"""Security, second review (issue 27): one account cannot fill a player's invitations."""

from __future__ import annotations

from flask.testing import FlaskClient

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
