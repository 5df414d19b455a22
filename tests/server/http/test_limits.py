"""Limits: requests per token and per address, and long-polls held per process.

The counts shared by several processes and hosts are pinned in test_shared_limits.py.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests
from flask.testing import FlaskClient
from limits.storage import MemoryStorage

from mathable_cli.api import ApiClient
from mathable_server.http.limits import Limiter, RateLimit
from mathable_server.http.settings import DEFAULT_MAX_LONG_POLLS, Settings
from mathable_server.run.cli import main as server_main
from mathable_server.run.gunicorn_app import worker_settings
from tests.server.apps import close_app, make_app
from tests.server.helpers import EXAMPLE_TILES, register, started_game
from tests.server.live import live_server


def limited_client(tmp_path: Path, limit: str) -> FlaskClient:
    app = make_app(f"sqlite:///{tmp_path / 'limits.db'}", rate_limit=RateLimit.parse(limit))
    return app.test_client()


def assert_rate_limited(response: Any) -> int:
    """The 429 answer: JSON error ``rate_limited``, ``Retry-After`` in whole seconds."""
    assert response.status_code == 429, response.get_data()
    assert response.json["error"]["code"] == "rate_limited"
    seconds = response.headers["Retry-After"]
    assert seconds.isdigit() and int(seconds) >= 1
    assert response.json["error"]["retry_after"] == int(seconds)
    return int(seconds)


# --- rate limit ------------------------------------------------------------------------


def test_a_flood_from_one_token_gets_429_with_retry_after(tmp_path: Path) -> None:
    client = limited_client(tmp_path, "30/min burst 5")
    ada = register(client, "ada")
    statuses = [client.get("/v1/me", headers=ada.auth).status_code for _ in range(5)]
    assert statuses == [200] * 5
    flood = [client.get("/v1/me", headers=ada.auth) for _ in range(20)]
    # 5 requests per window of 10 s: the rest of the window is the wait
    assert {assert_rate_limited(r) for r in flood} <= set(range(1, 11))


def test_one_token_over_its_limit_does_not_limit_others(tmp_path: Path) -> None:
    client = limited_client(tmp_path, "1/min burst 4")
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    while client.get("/v1/me", headers=ada.auth).status_code == 200:
        pass
    assert_rate_limited(client.get(f"/v1/games/{game['id']}", headers=ada.auth))
    assert client.get(f"/v1/games/{game['id']}", headers=bob.auth).status_code == 200
    # ada's requests counted against ada, not against the address she shares with the rest
    assert client.get(f"/v1/games/{game['id']}").status_code == 200


def test_every_request_from_an_address_counts_whatever_its_token(tmp_path: Path) -> None:
    app = make_app(
        f"sqlite:///{tmp_path / 'limits.db'}",
        rate_limit=None,
        address_rate_limit=RateLimit.parse("1/min burst 7"),
    )
    client = app.test_client()
    ada = register(client, "ada")  # one from the address
    assert client.get("/v1/health").status_code == 200
    fake = {"Authorization": f"Bearer {ada.id}.not-her-secret"}
    assert client.get("/v1/me", headers=fake).status_code == 401
    assert client.get("/v1/me", headers={"Authorization": "Bearer garbage"}).status_code == 401
    assert client.get("/v1/me", headers={"Authorization": "Basic abc"}).status_code == 401
    assert client.post("/v1/players", json={"name": "x" * 50}).status_code == 400
    assert client.get("/v1/me", headers=ada.auth).status_code == 200
    # seven spent: anonymous requests, changing bad tokens and good ones are refused alike
    assert_rate_limited(client.get("/v1/health"))
    assert_rate_limited(client.get("/v1/me", headers={"Authorization": "Bearer other"}))
    assert_rate_limited(client.post("/v1/players", json={"name": "bob"}))
    assert_rate_limited(client.get("/v1/me", headers=ada.auth))


def test_the_limit_refills_at_its_rate(tmp_path: Path) -> None:
    client = limited_client(tmp_path, "2/s burst 1")
    ada = register(client, "ada")
    assert client.get("/v1/me", headers=ada.auth).status_code == 200
    assert_rate_limited(client.get("/v1/me", headers=ada.auth))
    time.sleep(1.05)  # the window of 1 s has passed
    assert client.get("/v1/me", headers=ada.auth).status_code == 200


def test_rate_limit_off_never_refuses(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'x.db'}", rate_limit=None)
    client = app.test_client()
    ada = register(client, "ada")
    assert {client.get("/v1/me", headers=ada.auth).status_code for _ in range(300)} == {200}


def test_a_limit_allows_its_burst_per_window_and_says_how_long_to_wait() -> None:
    limiter = Limiter(MemoryStorage())
    limit = RateLimit(rate=2.0, burst=4)  # 4 per window of 2 s
    assert [limiter.take(limit, "a") for _ in range(4)] == [0.0] * 4
    wait = limiter.take(limit, "a")
    assert 0 < wait <= 2.0
    assert limiter.take(limit, "b") == 0.0  # another key counts alone


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("20/s burst 40", RateLimit(20.0, 40)),
        ("20/s", RateLimit(20.0, 40)),
        ("20", RateLimit(20.0, 40)),
        ("120/min burst 5", RateLimit(2.0, 5)),
        ("3600/h", RateLimit(1.0, 2)),
        ("0.5/s", RateLimit(0.5, 1)),
        (" OFF ", None),
        ("0", None),
        ("0/s burst 9", None),
    ],
)
def test_rate_limits_read_like_requests_per_second_with_a_burst(
    text: str, expected: RateLimit | None
) -> None:
    assert RateLimit.parse(text) == expected
    environ = {"MATHABLE_DATABASE_URL": "sqlite:///x.db", "MATHABLE_RATE_LIMIT": text}
    assert Settings.from_env(environ).rate_limit == expected


def test_the_default_rate_limit_is_on_and_generous() -> None:
    limit = Settings.from_env({"MATHABLE_DATABASE_URL": "sqlite:///x.db"}).rate_limit
    assert limit is not None and limit.rate >= 50 and limit.burst >= 200


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("MATHABLE_RATE_LIMIT", "fast"),
        ("MATHABLE_RATE_LIMIT", "5/fortnight"),
        ("MATHABLE_RATE_LIMIT", "5/s burst 0"),
        ("MATHABLE_MAX_LONG_POLLS", "many"),
        ("MATHABLE_MAX_LONG_POLLS", "-1"),
    ],
)
def test_the_server_will_not_start_on_an_unreadable_limit(
    name: str, value: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as stopped:
        server_main(["init-db", "--database-url", f"sqlite:///{tmp_path / 'x.db'}"])
    assert name in str(stopped.value) or "rate limit" in str(stopped.value)
    assert not (tmp_path / "x.db").exists()


@pytest.mark.e2e
def test_a_real_server_limits_a_flood_and_the_cli_client_waits_it_out(tmp_path: Path) -> None:
    env = {"MATHABLE_RATE_LIMIT": "2/s burst 4"}
    with live_server(f"sqlite:///{tmp_path / 'x.db'}", env=env) as url:
        token = requests.post(f"{url}/v1/players", json={"name": "ada"}, timeout=10).json()
        auth = {"Authorization": f"Bearer {token['token']}"}
        with requests.Session() as session:
            flood = [session.get(f"{url}/v1/me", headers=auth, timeout=10) for _ in range(30)]
        statuses = [r.status_code for r in flood]
        assert statuses[:4] == [200] * 4 and statuses.count(429) >= 20
        for response in flood:
            if response.status_code == 429:
                assert response.headers["Retry-After"] in ("1", "2")  # windows of 2 s
                assert response.json()["error"]["code"] == "rate_limited"
        # mathable-cli's client retries a 429 after Retry-After: it gets through.
        started = time.monotonic()
        api = ApiClient(url, token["token"], retries=4)
        names = [api.me()["name"] for _ in range(3)]
        assert names == ["ada"] * 3 and time.monotonic() - started >= 0.9


# --- long-polls --------------------------------------------------------------------------


def test_long_polls_default_to_half_the_threads_of_a_gunicorn_worker() -> None:
    settings = Settings(database_url="sqlite:///x.db")
    assert settings.long_poll_limit == DEFAULT_MAX_LONG_POLLS
    assert [worker_settings(settings, t).long_poll_limit for t in (1, 2, 8, 33)] == [0, 1, 4, 16]
    chosen = settings.with_changes(max_long_polls=3)
    assert worker_settings(chosen, 8).long_poll_limit == 3
    environ = {"MATHABLE_DATABASE_URL": "sqlite:///x.db", "MATHABLE_MAX_LONG_POLLS": "5"}
    assert worker_settings(Settings.from_env(environ), 8).long_poll_limit == 5


def test_a_long_poll_beyond_the_cap_answers_at_once_with_the_view(tmp_path: Path) -> None:
    client = make_app(f"sqlite:///{tmp_path / 'x.db'}", max_long_polls=0).test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    started = time.monotonic()
    response = client.get(f"/v1/games/{game['id']}?wait=20&since=3", headers=bob.auth)
    assert time.monotonic() - started < 2
    assert response.status_code == 200 and response.headers["X-Long-Poll"] == "refused"
    assert response.json is not None and response.json["version"] == 3
    assert response.json["rack"] == game["rack"]
    # a wait with news already is answered as always, without the header
    news = client.get(f"/v1/games/{game['id']}?wait=20&since=2", headers=bob.auth)
    assert news.status_code == 200 and "X-Long-Poll" not in news.headers


@pytest.mark.e2e
def test_a_worker_holds_long_polls_in_half_its_threads_and_serves_with_the_rest(
    tmp_path: Path,
) -> None:
    # gunicorn, one worker of 4 threads: 2 long-polls are held at once.
    with live_server(f"sqlite:///{tmp_path / 'x.db'}", threads=4) as url:
        accounts = [requests.post(f"{url}/v1/players", json={"name": n}, timeout=10).json()
                    for n in ("ada", "bob")]  # fmt: skip
        ada, bob = ({"Authorization": f"Bearer {a['token']}"} for a in accounts)
        game = requests.post(
            f"{url}/v1/games", json={"tiles": EXAMPLE_TILES}, headers=ada, timeout=10
        ).json()["id"]
        assert requests.post(f"{url}/v1/games/{game}/join", headers=bob, timeout=10).ok
        poll = f"{url}/v1/games/{game}?wait=30&since=3"
        done: list[requests.Response] = []
        held = [
            threading.Thread(target=lambda: done.append(requests.get(poll, timeout=60)))
            for _ in range(2)
        ]
        for thread in held:
            thread.start()
        time.sleep(1.0)  # both waiters are in
        assert not done

        started = time.monotonic()
        refused = requests.get(poll, headers=bob, timeout=10)
        assert time.monotonic() - started < 2
        assert refused.status_code == 200 and refused.headers["X-Long-Poll"] == "refused"
        assert refused.json()["version"] == 3 and refused.json()["you"] == 1

        # the other threads still serve: views, the game list, and a move in parallel
        def ordinary(n: int) -> int:
            if n == 0:
                return requests.get(f"{url}/v1/me", headers=ada, timeout=5).status_code
            return requests.get(f"{url}/v1/games/{game}", headers=bob, timeout=5).status_code

        started = time.monotonic()
        with ThreadPoolExecutor(4) as pool:
            assert list(pool.map(ordinary, range(8))) == [200] * 8
        moved = requests.post(
            f"{url}/v1/games/{game}/moves",
            json={"type": "pass", "expected_version": 3},
            headers=ada,
            timeout=5,
        )
        assert moved.status_code == 200 and time.monotonic() - started < 3
        for thread in held:
            thread.join(timeout=10)
        assert [r.json()["version"] for r in done] == [4, 4]
        assert all("X-Long-Poll" not in r.headers for r in done)


def test_the_limits_are_served_as_the_operator_set_them(sqlite_url: str) -> None:
    """Found by a bot author: the limits a client must size itself by were in
    docs/security.md only. GET /v1/limits serves them (and openapi.yaml describes it)."""
    app = make_app(
        sqlite_url,
        game_limit=None,
        registration_limit=RateLimit(rate=2 / 3600, burst=2),
        max_open_invitations=3,
        max_polls_per_caller=2,
    )
    try:
        body = app.test_client().get("/v1/limits").json
    finally:
        close_app(app)
    assert body["games_per_player"] is None
    assert body["code_mails_per_domain"] == {"per_second": 30 / 3600, "per_hour": 30.0, "burst": 30}
    assert body["registrations_per_address"] == {
        "per_second": 2 / 3600,
        "per_hour": 2.0,
        "burst": 2,
    }
    assert body["open_games_per_creator"] == body["open_invitations_per_invitee"] == 3
    assert body["waits_per_caller"] == 2
    assert body["requests_per_token"] == {"per_second": 100.0, "per_hour": 360000.0, "burst": 500}


# --- addresses and the server's ceiling -------------------------------------------------


def _register_from(client: FlaskClient, name: str, address: str) -> int:
    answer = client.post(
        "/v1/players", json={"name": name}, environ_base={"REMOTE_ADDR": address}
    )
    return answer.status_code


def test_ipv6_callers_are_counted_by_their_64_and_registrations_have_a_ceiling(
    sqlite_url: str,
) -> None:
    """Found: twenty loopback addresses x 5 gave 100 of 100 registrations, and over IPv6
    one /64 gave unlimited ones. An IPv6 caller is now counted by its /64
    (MATHABLE_IPV6_PREFIX), and the whole server by MATHABLE_REGISTRATION_CEILING.

    From the second security review (issue 27)."""
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


# --- what a caller may hold, and what a refusal costs -----------------------------------


@pytest.mark.e2e
def test_one_caller_cannot_take_every_long_poll_slot(tmp_path: Path) -> None:
    """First security review (issue 10), finding 7: one caller without a token could take
    every long-poll slot."""
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


def test_a_throttled_request_costs_no_token_lookup(tmp_path: Path) -> None:
    """First security review (issue 10), finding 11: throttling cost a token lookup."""
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
