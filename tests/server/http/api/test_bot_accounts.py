"""Bot accounts (issue 29): an account says it is a bot's (``bot`` at registration or
``PATCH /v1/me``, for good); a game is rated by default only when every seat known at
its making is a person, and a bot's account takes no open seat of a rated game unless
invited. SQLite and PostgreSQL."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.server.helpers import Account, register


def _bot(client: FlaskClient, name: str) -> Account:
    made = client.post("/v1/players", json={"name": name, "bot": True})
    assert made.status_code == 201, made.json
    return Account(made.json["id"], made.json["name"], made.json["token"])


def _new(client: FlaskClient, who: Account, **body: object) -> dict[str, object]:
    made = client.post("/v1/games", json=body, headers=who.auth)
    assert made.status_code == 201, made.json
    found: dict[str, object] = made.json
    return found


def test_a_bot_account_says_so_and_the_profile_shows_it(client: FlaskClient) -> None:
    ada, botty = register(client, "ada"), _bot(client, "botty")
    assert client.get("/v1/players/botty").json["bot"] is True
    assert client.get("/v1/players/ada").json["bot"] is False
    assert client.get("/v1/me", headers=botty.auth).json["bot"] is True
    assert client.get("/v1/me", headers=ada.auth).json["bot"] is False
    bad = client.post("/v1/players", json={"name": "other", "bot": "yes"})
    assert bad.status_code == 400 and bad.json["error"]["code"] == "validation_error"
    assert client.get("/v1/players/other").status_code == 404  # nothing made


def test_a_game_with_a_bot_invited_is_unrated_by_default_and_among_people_rated(
    client: FlaskClient,
) -> None:
    ada, bob, botty = register(client, "ada"), register(client, "bob"), _bot(client, "botty")
    assert _new(client, ada, invite=["bob"])["rated"] is True
    assert _new(client, ada, invite=["botty"])["rated"] is False
    assert _new(client, botty, invite=["bob"])["rated"] is False  # a bot creating it
    assert _new(client, ada, players=3, invite=["bob", "botty"])["rated"] is False
    # Asked for, a rated game with a bot it is: the bot's own ratings move.
    asked = _new(client, ada, invite=["botty"], rated=True)
    assert asked["rated"] is True
    joined = client.post(f"/v1/games/{asked['id']}/join", headers=botty.auth)
    assert joined.status_code == 200 and joined.json["rated"] is True
    assert client.get("/v1/players/bob", headers=bob.auth).json["bot"] is False


def test_a_bot_takes_no_open_seat_of_a_rated_game_and_nothing_changes(
    client: FlaskClient,
) -> None:
    ada, bob, botty = register(client, "ada"), register(client, "bob"), _bot(client, "botty")
    rated = _new(client, ada)  # an open seat, rated by default
    assert rated["rated"] is True
    refused = client.post(f"/v1/games/{rated['id']}/join", headers=botty.auth)
    assert refused.status_code == 422 and refused.json["error"]["code"] == "rated_game_bot"
    view = client.get(f"/v1/games/{rated['id']}").json
    assert view["status"] == "waiting" and view["version"] == rated["version"]
    assert client.post(f"/v1/games/{rated['id']}/join", headers=bob.auth).status_code == 200
    unrated = _new(client, ada, rated=False)
    assert client.post(f"/v1/games/{unrated['id']}/join", headers=botty.auth).status_code == 200


def test_a_person_says_later_that_the_account_is_a_bot_for_good(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    said = client.patch("/v1/me", json={"bot": True}, headers=bob.auth)
    assert said.status_code == 200 and said.json["bot"] is True
    assert client.patch("/v1/me", json={"bot": True}, headers=bob.auth).status_code == 200
    back = client.patch("/v1/me", json={"bot": False}, headers=bob.auth)
    assert back.status_code == 400 and back.json["error"]["code"] == "validation_error"
    assert client.get("/v1/players/bob").json["bot"] is True
    assert _new(client, ada, invite=["bob"])["rated"] is False
