"""Registrations retried with their Idempotency-Key: same player, fresh token, old one dead.

Only a hash of a token is stored, so the token of a lost answer can never be
sent again; the retry rotates it instead.
"""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests
from flask.testing import FlaskClient
from sqlalchemy import select

from mathable_server.store.engine import players, registration_keys
from mathable_server.store.players import PlayerRecorder
from mathable_server.store.schema import computer_players
from tests.server.apps import make_app
from tests.server.live import live_server

pytestmark = pytest.mark.both_databases


def register(client: FlaskClient, body: dict[str, Any], key: str | None = None) -> Any:
    headers = {"Idempotency-Key": key} if key is not None else {}
    return client.post("/v1/players", json=body, headers=headers)


def me(client: FlaskClient, token: str) -> int:
    return client.get("/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code


def rows(client: FlaskClient, table: Any) -> list[dict[str, Any]]:
    """The table's rows; of ``players``, the people's (not the computer's, issue 44)."""
    engine = client.application.extensions["mathable"].store.engine
    query = select(table)
    if table is players:
        query = query.where(players.c.id.not_in(select(computer_players.c.player_id)))
    with engine.connect() as conn:
        return [dict(r) for r in conn.execute(query).mappings()]


def test_a_retry_with_the_same_key_gets_the_same_player_and_a_fresh_token(
    client: FlaskClient,
) -> None:
    body = {"name": "ada", "email": "ada@example.org"}
    first = register(client, body, key="reg-7f3a-0123456789")
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    again = register(client, body, key="reg-7f3a-0123456789")
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Cache-Control"] == "no-store"
    assert again.json["id"] == first.json["id"] and again.json["name"] == "ada"  # type: ignore[index]
    assert again.json["token"] != first.json["token"]  # type: ignore[index]
    assert me(client, again.json["token"]) == 200  # type: ignore[index]
    assert me(client, first.json["token"]) == 401  # type: ignore[index]
    assert len(rows(client, players)) == 1


def test_the_replaced_token_stops_working_at_once_where_it_was_cached(
    client: FlaskClient,
) -> None:
    first = register(client, {"name": "ada"}, key="k1-0123456789abcdef").json
    assert first is not None and me(client, first["token"]) == 200  # now cached
    again = register(client, {"name": "ada"}, key="k1-0123456789abcdef").json
    assert again is not None
    assert me(client, first["token"]) == 401 and me(client, again["token"]) == 200


def test_only_a_hash_of_the_key_is_stored(client: FlaskClient) -> None:
    key = "a-secret-registration-key"
    created = register(client, {"name": "ada"}, key=key).json
    assert created is not None
    (stored,) = rows(client, registration_keys)
    assert stored["key_hash"] == hashlib.sha256(key.encode()).hexdigest()
    assert stored["player_id"] == created["id"]
    assert key not in " ".join(str(v) for v in stored.values())


@pytest.mark.parametrize(
    "other", [{"name": "bob"}, {"name": "ada", "email": "ada@example.org"}, {"name": "ADA"}]
)
def test_a_key_used_again_for_another_registration_is_422(
    client: FlaskClient, other: dict[str, Any]
) -> None:
    first = register(client, {"name": "ada"}, key="k1-0123456789abcdef").json
    assert first is not None
    response = register(client, other, key="k1-0123456789abcdef")
    assert response.status_code == 422
    assert response.json["error"]["code"] == "idempotency_key_reused"  # type: ignore[index]
    assert me(client, first["token"]) == 200  # nothing rotated
    assert [r["name"] for r in rows(client, players)] == ["ada"]


def test_a_retry_without_the_key_or_with_another_is_still_name_taken(
    client: FlaskClient,
) -> None:
    first = register(client, {"name": "ada"}, key="k1-0123456789abcdef").json
    assert first is not None
    for key in (None, "k2-0123456789abcdef"):
        response = register(client, {"name": "ada"}, key=key)
        assert response.status_code == 409
        assert response.json["error"]["code"] == "name_taken"  # type: ignore[index]
    assert me(client, first["token"]) == 200


def test_a_retry_after_the_window_is_name_taken(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'x.db'}", registration_retry_seconds=0)
    client = app.test_client()
    first = register(client, {"name": "ada"}, key="k1-0123456789abcdef").json
    assert first is not None
    late = register(client, {"name": "ada"}, key="k1-0123456789abcdef")
    assert late.status_code == 409 and late.json["error"]["code"] == "name_taken"  # type: ignore[index]
    assert me(client, first["token"]) == 200
    # a key is never good for another registration
    reused = register(client, {"name": "bob"}, key="k1-0123456789abcdef")
    assert reused.status_code == 422


def test_an_invitation_only_server_wants_the_invitation_on_the_retry_too(
    tmp_path: Path,
) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'x.db'}", registration_secret="open sesame")
    client = app.test_client()
    body = {"name": "eve", "invitation": "open sesame"}
    first = register(client, body, key="k1-0123456789abcdef").json
    assert first is not None
    refused = register(client, {"name": "eve"}, key="k1-0123456789abcdef")
    assert refused.status_code == 403
    assert me(client, first["token"]) == 200
    again = register(client, body, key="k1-0123456789abcdef")
    assert again.status_code == 201 and again.json["id"] == first["id"]  # type: ignore[index]


def test_a_registration_key_over_200_characters_is_400(client: FlaskClient) -> None:
    response = register(client, {"name": "ada"}, key="k" * 201)
    assert response.status_code == 400
    assert response.json["error"]["code"] == "bad_idempotency_key"  # type: ignore[index]
    assert register(client, {"name": "ada"}).status_code == 201  # nothing was stored


def _status(base_url: str, token: str) -> int:
    headers = {"Authorization": f"Bearer {token}"}
    return requests.get(f"{base_url}/v1/me", headers=headers, timeout=10).status_code


@pytest.mark.e2e
def test_a_retry_on_another_server_process_rotates_the_token(database_url: str) -> None:
    with live_server(database_url) as one, live_server(database_url) as two:
        body = {"name": "ada"}
        key = {"Idempotency-Key": "9b1c6e0e-lost-answer"}
        lost = requests.post(f"{one}/v1/players", json=body, headers=key, timeout=10)
        assert lost.status_code == 201
        retry = requests.post(f"{two}/v1/players", json=body, headers=key, timeout=10)
        assert retry.status_code == 201 and retry.headers["Idempotent-Replayed"] == "true"
        assert retry.json()["id"] == lost.json()["id"]
        fresh, dead = retry.json()["token"], lost.json()["token"]
        assert [_status(url, fresh) for url in (one, two)] == [200, 200]
        assert [_status(url, dead) for url in (one, two)] == [401, 401]

        # Two attempts at once on two processes: one player; the token of one answer works.
        racing = {"name": "bob"}
        race_key = {"Idempotency-Key": "5d2e-raced-0123456789"}
        with ThreadPoolExecutor(2) as pool:
            answers = list(
                pool.map(
                    lambda url: requests.post(
                        f"{url}/v1/players", json=racing, headers=race_key, timeout=30
                    ),
                    (one, two),
                )
            )
        assert [a.status_code for a in answers] == [201, 201]
        assert len({a.json()["id"] for a in answers}) == 1
        working = [_status(one, a.json()["token"]) for a in answers]
        assert sorted(working) == [200, 401]


def test_the_same_keyed_registration_committed_meanwhile_is_a_retry_not_a_look_alike(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two attempts of one keyed registration at once (PostgreSQL: not one writer at a
    time). The other committed between the store's look for the name and its look for a
    name like it: the name was then found as a look-alike of itself, 409 name_confusable
    (CI saw it on two processes). It is the retry it is."""
    # Two apps on one database: two server processes.
    client, other = make_app(postgres_url).test_client(), make_app(postgres_url).test_client()
    body, key = {"name": "bob"}, "5d2e-raced-0123456789"
    look = PlayerRecorder._refuse_look_alike
    answers: list[Any] = []
    started: list[bool] = []

    def meanwhile(conn: Any, name: str, skeleton: str) -> None:
        if not started:  # the other attempt, once: it commits before this one looks on
            started.append(True)
            answers.append(register(other, body, key))
        look(conn, name, skeleton)

    monkeypatch.setattr(PlayerRecorder, "_refuse_look_alike", staticmethod(meanwhile))
    retried = register(client, body, key)
    assert [answers[0].status_code, retried.status_code] == [201, 201], retried.json
    assert retried.headers["Idempotent-Replayed"] == "true"
    assert retried.json["id"] == answers[0].json["id"]


@pytest.mark.parametrize("key", ["a", "x" * 15])
def test_short_idempotency_keys_are_refused(client: FlaskClient, key: str) -> None:
    """First security review (issue 10), finding 8: a one-character Idempotency-Key was
    taken on a registration."""
    answer = client.post("/v1/players", json={"name": "ada"}, headers={"Idempotency-Key": key})
    assert answer.status_code == 400
    assert answer.json["error"]["code"] == "bad_idempotency_key"  # type: ignore[index]
    assert client.post(
        "/v1/players", json={"name": "ada"}, headers={"Idempotency-Key": "k" * 16}
    ).status_code == 201  # fmt: skip
