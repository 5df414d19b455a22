"""Security, second review (issue 27): invitations from one account, seeds, registrations."""

from __future__ import annotations

from flask.testing import FlaskClient

from mathable_server.http.limits import RateLimit
from mathable_server.http.settings import Settings
from tests.server.apps import close_app, make_app
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


def _register_from(client: FlaskClient, name: str, address: str) -> int:
    answer = client.post(
        "/v1/players", json={"name": name}, environ_base={"REMOTE_ADDR": address}
    )
    return answer.status_code


def test_r2_ipv6_callers_are_counted_by_their_64_and_registrations_have_a_ceiling(
    sqlite_url: str,
) -> None:
    """Found: twenty loopback addresses x 5 gave 100 of 100 registrations, and over IPv6
    one /64 gave unlimited ones. An IPv6 caller is now counted by its /64
    (MATHABLE_IPV6_PREFIX), and the whole server by MATHABLE_REGISTRATION_CEILING."""
    per_address = RateLimit(rate=2 / 3600, burst=2)
    app = make_app(sqlite_url, registration_limit=per_address, registration_ceiling=None)
    client = app.test_client()
    same_64 = [f"2001:db8:1:2::{n}" for n in range(1, 4)]
    assert [_register_from(client, f"a{n}", a) for n, a in enumerate(same_64)] == [201, 201, 429]
    assert _register_from(client, "b0", "2001:db8:1:3::1") == 201  # another /64
    assert _register_from(client, "c0", "::ffff:192.0.2.9") == 201
    assert _register_from(client, "c1", "192.0.2.9") == 201
    assert _register_from(client, "c2", "192.0.2.9") == 429  # the mapped one counted too
    close_app(app)
    capped = make_app(
        f"{sqlite_url}-ceiling",
        registration_limit=None,
        registration_ceiling=RateLimit(rate=3 / 3600, burst=3),
    )
    client = capped.test_client()
    codes = [_register_from(client, f"d{n}", f"127.0.0.{n + 1}") for n in range(5)]
    assert codes == [201, 201, 201, 429, 429]
    body = client.get("/v1/limits").json
    assert body["ipv6_prefix"] == 64  # type: ignore[index]
    assert body["registrations_per_server"]["burst"] == 3  # type: ignore[index]
    close_app(capped)
