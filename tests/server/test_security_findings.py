"""One test per finding of the security review (issue 10), each failing on the code before it.

The number in each test's name is the finding's: docs/security.md has the threat model and
the limits. Limits shared across processes are pinned in test_shared_limits.py (finding 4).
"""

from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from flask.testing import FlaskClient

from mathable import Create, GameState, Join, SeededBag, apply, check
from mathable.games.mathable.events import GameStarted
from tests.server.apps import make_app
from tests.server.helpers import EXAMPLE_TILES, Account, register, started_game
from tests.server.live import live_server

pytestmark = pytest.mark.both_databases


def _client(tmp_path: Path, **settings: Any) -> FlaskClient:
    return make_app(f"sqlite:///{tmp_path / 'findings.db'}", **settings).test_client()


# --- 1. seeded games revealed every rack ------------------------------------------------


def _racks_from_seed(seed: int, creator: str, joiner: str) -> tuple[tuple[int, ...], ...]:
    """What the reviewer computed: the start of a seeded game from the public rules package."""
    state = GameState()
    for command in (Create(creator, seed=seed), Join(joiner)):
        for event in check(state, command):
            state = apply(state, event)
            if isinstance(event, GameStarted):
                return event.racks
    raise AssertionError("the game did not start")


def test_01_knowing_the_seed_does_not_tell_the_racks(tmp_path: Path) -> None:
    client = _client(tmp_path, secret_key="k" * 32)
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, seed=5)
    assert game["seeded"] is True
    computed = _racks_from_seed(5, ada.id, bob.id)
    assert tuple(game["rack"]) != computed[1]
    # every seed the reviewer tried gives other racks than the real ones
    tried = {_racks_from_seed(seed, ada.id, bob.id)[1] for seed in range(50)}
    assert tuple(game["rack"]) not in tried


def test_01_a_seed_still_replays_on_the_same_server_and_differs_on_another(
    tmp_path: Path,
) -> None:
    racks = []
    for secret in ("a" * 32, "a" * 32, "b" * 32):
        client = make_app(f"sqlite:///{tmp_path / secret[0]}{len(racks)}.db", secret_key=secret)
        client = client.test_client()
        ada, bob = register(client, "ada"), register(client, "bob")
        racks.append(started_game(client, ada, bob, seed=77, players=2)["rack"])
    # the join order of seats decides only who starts; the bag order is the seed's
    assert sorted(racks[0]) == sorted(racks[1])
    assert sorted(racks[0]) != sorted(racks[2])


def test_01_the_secret_is_made_once_and_kept_in_the_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'kept.db'}"
    first = make_app(url).extensions["mathable"].secret()
    again = make_app(url).extensions["mathable"].secret()
    assert first == again and len(first) == 64


def test_01_old_seeded_games_draw_as_before() -> None:
    # A game created before this change has no bag order: its seed draws as it always did.
    state = GameState()
    for event in check(state, Create("ada", seed=9)):
        state = apply(state, event)
    started = check(state, Join("bob"))[-1]
    again = check(state, Join("bob"), SeededBag(9, salt=state.version))[-1]
    assert started == again


def test_01_given_tiles_only_where_the_server_allows_and_every_player_is_told(
    tmp_path: Path,
) -> None:
    closed = _client(tmp_path, allow_given_tiles=False)
    ada = register(closed, "ada")
    refused = closed.post("/v1/games", json={"tiles": EXAMPLE_TILES}, headers=ada.auth)
    assert refused.status_code == 422
    assert refused.json["error"]["code"] == "given_tiles_disabled"  # type: ignore[index]
    opened = make_app(f"sqlite:///{tmp_path / 'open.db'}", allow_given_tiles=True).test_client()
    ada, bob = register(opened, "ada"), register(opened, "bob")
    game = started_game(opened, ada, bob, tiles=EXAMPLE_TILES)
    assert game["ordered"] is True
    assert opened.get(f"/v1/games/{game['id']}").json["ordered"] is True  # type: ignore[index]


# --- 2. invitation spam that could not be declined --------------------------------------


def test_02_invitations_are_capped_declinable_and_come_after_games_waiting_on_a_move(
    tmp_path: Path,
) -> None:
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


def test_02_a_creator_has_a_capped_number_of_waiting_games_and_may_cancel_one(
    tmp_path: Path,
) -> None:
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


# --- 3 and 9. slow clients ---------------------------------------------------------------


def _tricklers(url: str, count: int, stop: threading.Event) -> list[threading.Thread]:
    host, port = url.removeprefix("http://").split(":")

    def trickle() -> None:
        with socket.create_connection((host, int(port)), timeout=30) as sock:
            for byte in b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000:
                if stop.is_set():
                    return
                try:
                    sock.sendall(bytes([byte]))
                except OSError:
                    return  # the server gave up on us: what it should do
                time.sleep(0.5)

    threads = [threading.Thread(target=trickle, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads


@pytest.mark.e2e
def test_03_serve_is_not_starved_by_clients_trickling_their_headers(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'slow.db'}", threads=4) as url:
        stop = threading.Event()
        _tricklers(url, 4, stop)
        try:
            time.sleep(1.0)  # every thread has a trickler
            started = time.monotonic()
            health = requests.get(f"{url}/v1/health", timeout=12)
            assert health.status_code == 200 and time.monotonic() - started < 12
        finally:
            stop.set()


def _health_until(url: str, status: int, within: float) -> requests.Response:
    """GET /v1/health until it answers ``status`` or ``within`` seconds pass; the last answer."""
    deadline = time.monotonic() + within
    while True:
        answer = requests.get(f"{url}/v1/health", timeout=5)
        if answer.status_code == status or time.monotonic() > deadline:
            return answer
        time.sleep(0.2)


def _refused(sock: socket.socket) -> bool:
    """Whether the server answered this silent connection at once (503 busy) and closed it."""
    readable, _, _ = select.select([sock], [], [], 0)
    return bool(readable)


@pytest.mark.e2e
def test_09_run_caps_connections_and_times_out_idle_ones(tmp_path: Path) -> None:
    env = {"MATHABLE_MAX_CONNECTIONS": "3"}
    with live_server(f"sqlite:///{tmp_path / 'run.db'}", env=env) as url:
        host, port = url.removeprefix("http://").split(":")
        # A connection keeps its slot a few milliseconds after its answer has left (the
        # server drains and closes it): a silent connection opened meanwhile, right after
        # the start-up probe, is answered busy and closed, and then only two hold slots.
        # Such a one is seen (it has its answer) and replaced; any other 200 is a failure.
        idle = [socket.create_connection((host, int(port))) for _ in range(3)]
        try:
            for _attempt in range(10):
                busy = requests.get(f"{url}/v1/health", timeout=5)
                refused = [sock for sock in idle if _refused(sock)]
                if busy.status_code == 503 or not refused:
                    break
                for sock in refused:
                    sock.close()
                    idle[idle.index(sock)] = socket.create_connection((host, int(port)))
            assert busy.status_code == 503 and busy.json()["error"]["code"] == "server_busy"
            time.sleep(10)  # the read timeout (10 s) closes the silent connections
            assert _health_until(url, 200, within=10).status_code == 200
        finally:
            for sock in idle:
                sock.close()


# --- 5. tokens could not be rotated, revoked or expired ----------------------------------


def test_05_a_rotated_token_stops_working_and_the_new_one_works(client: FlaskClient) -> None:
    ada = register(client, "ada")
    rotated = client.post("/v1/me/token", headers=ada.auth)
    assert rotated.status_code == 201
    new = {"Authorization": f"Bearer {rotated.json['token']}"}  # type: ignore[index]
    assert client.get("/v1/me", headers=ada.auth).status_code == 401
    assert client.get("/v1/me", headers=new).json["id"] == ada.id  # type: ignore[index]
    assert client.post("/v1/me/token", headers=ada.auth).status_code == 401


def test_05_a_revoked_token_stops_working_everywhere(client: FlaskClient) -> None:
    ada = register(client, "ada")
    assert client.delete("/v1/me/token", headers=ada.auth).status_code == 204
    refused = client.get("/v1/me", headers=ada.auth)
    assert refused.status_code == 401 and refused.json["error"]["code"] == "bad_token"  # type: ignore[index]


def test_05_a_token_expires_after_its_days(tmp_path: Path) -> None:
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


# --- 6. names ending in a newline ----------------------------------------------------------


@pytest.mark.parametrize("name", ["bob\n", "bob\r\n", "b", "bob.", "bo b", "bob\u00a0"])
def test_06_names_outside_the_pattern_are_refused(client: FlaskClient, name: str) -> None:
    register(client, "bob")
    refused = client.post("/v1/players", json={"name": name})
    assert refused.status_code == 400, refused.json
    ada = register(client, "ada")
    invite = client.post("/v1/games", json={"invite": [name]}, headers=ada.auth)
    assert invite.status_code == 400


# --- 7. long-poll slots without a token ------------------------------------------------------


@pytest.mark.e2e
def test_07_one_caller_cannot_take_every_long_poll_slot(tmp_path: Path) -> None:
    env = {"MATHABLE_MAX_POLLS_PER_CALLER": "2", "MATHABLE_MAX_LONG_POLLS": "16"}
    with live_server(f"sqlite:///{tmp_path / 'polls.db'}", env=env) as url:
        ada, bob = (
            requests.post(f"{url}/v1/players", json={"name": n}, timeout=10).json()
            for n in ("ada", "bob")
        )
        auth = {"Authorization": f"Bearer {ada['token']}"}
        game = requests.post(
            f"{url}/v1/games", json={"tiles": EXAMPLE_TILES}, headers=auth, timeout=10
        ).json()["id"]
        requests.post(
            f"{url}/v1/games/{game}/join",
            headers={"Authorization": f"Bearer {bob['token']}"},
            timeout=10,
        )
        poll = f"{url}/v1/games/{game}?wait=6&since=3"
        held = [threading.Thread(target=requests.get, args=(poll,), kwargs={"timeout": 30})
                for _ in range(2)]  # fmt: skip
        for thread in held:
            thread.start()
        time.sleep(1.0)
        started = time.monotonic()
        third = requests.get(poll, timeout=30)
        assert third.headers.get("X-Long-Poll") == "refused" and time.monotonic() - started < 2
        # a player's long-poll counts against the player, not the address
        mine = requests.get(poll.replace("wait=6", "wait=1"), headers=auth, timeout=30)
        assert "X-Long-Poll" not in mine.headers
        for thread in held:
            thread.join()


# --- 8. a one-character Idempotency-Key on a registration ----------------------------------


@pytest.mark.parametrize("key", ["a", "x" * 15])
def test_08_short_idempotency_keys_are_refused(client: FlaskClient, key: str) -> None:
    answer = client.post("/v1/players", json={"name": "ada"}, headers={"Idempotency-Key": key})
    assert answer.status_code == 400
    assert answer.json["error"]["code"] == "bad_idempotency_key"  # type: ignore[index]
    assert client.post(
        "/v1/players", json={"name": "ada"}, headers={"Idempotency-Key": "k" * 16}
    ).status_code == 201  # fmt: skip


# --- 10. chunked bodies skipped the 413 check ------------------------------------------------


def _chunked(size: int) -> Iterator[bytes]:
    yield b'{"name": "'
    for _ in range(size // 1024):
        yield b"a" * 1024
    yield b'"}'


@pytest.mark.e2e
@pytest.mark.parametrize("threads", [None, 2], ids=["run", "serve"])
def test_10_a_chunked_body_over_the_limit_gets_413(tmp_path: Path, threads: int | None) -> None:
    with live_server(f"sqlite:///{tmp_path / 'chunks.db'}", threads=threads) as url:
        big = requests.post(f"{url}/v1/players", data=_chunked(1 << 20), timeout=30,
                            headers={"Content-Type": "application/json"})  # fmt: skip
        assert big.status_code == 413 and big.json()["error"]["code"] == "body_too_large"
        small = requests.post(
            f"{url}/v1/players",
            data=iter([b'{"name": ', b'"ada"}']),
            headers={"Content-Type": "application/json"},
            timeout=30,
        )
        assert small.status_code == 201, small.text


# --- 11. throttling cost a token lookup; Location pointed at a 404 ---------------------------


def test_11_a_throttled_request_costs_no_token_lookup(tmp_path: Path) -> None:
    from mathable_server.http.limits import RateLimit

    app = make_app(f"sqlite:///{tmp_path / 't.db'}", rate_limit=RateLimit.parse("1/min burst 1"))
    client = app.test_client()
    ada = register(client, "ada")
    assert client.get("/v1/me", headers=ada.auth).status_code == 200
    services = app.extensions["mathable"]
    looked_up: list[str] = []
    real = services.store.player

    def counted(player_id: str) -> Any:
        looked_up.append(player_id)
        return real(player_id)

    services.store.player = counted
    services.auth.forget(ada.id)
    assert client.get("/v1/me", headers=ada.auth).status_code == 429
    assert looked_up == []


def test_11_the_registration_location_is_the_account(client: FlaskClient) -> None:
    answer = client.post("/v1/players", json={"name": "ada"})
    account = Account(answer.json["id"], "ada", answer.json["token"])  # type: ignore[index]
    where = client.get(answer.headers["Location"], headers=account.auth)
    assert where.status_code == 200 and where.json["id"] == account.id  # type: ignore[index]
