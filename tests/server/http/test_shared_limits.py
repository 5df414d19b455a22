"""Finding 4: limits hold across processes and new connections (SQLite, PostgreSQL, Redis).

Each test starts ``mathable-server serve --workers 4`` counting in one store and
sends every request on a new connection, which per-process counting let through
(the review: 15 of 20 through a 2/s limit, 40 of 40 from 10 new accounts).
"""

from __future__ import annotations

import os
import threading
import time

import pytest
import requests
from bench.bench_limits import allowed, four_workers, one_token, redis_answers, ten_accounts

from tests.server.conftest import POSTGRES_ENV


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param("postgresql", marks=pytest.mark.postgres),
        "redis",
    ]
)
def store(request: pytest.FixtureRequest) -> str:
    if request.param == "postgresql" and not os.environ.get(POSTGRES_ENV):
        pytest.skip(f"{POSTGRES_ENV} is not set: PostgreSQL tests skipped")
    if request.param == "redis" and not redis_answers():
        pytest.skip("Redis does not answer at 127.0.0.1:6379: Redis tests skipped")
    return str(request.param)


pytestmark = pytest.mark.e2e


def test_04_one_token_gets_its_limit_across_four_workers(store: str) -> None:
    through, sent, seconds = one_token(store)
    assert sent == 20
    assert 1 <= through <= allowed(2, 1.0, seconds), (through, seconds)


def test_04_new_accounts_from_one_address_share_its_limit(store: str) -> None:
    through, sent, seconds = ten_accounts(store)
    assert sent == 40
    assert 1 <= through <= allowed(4, 1.0, seconds), (through, seconds)


def test_04_registrations_games_and_held_polls_are_counted_across_workers(store: str) -> None:
    env = {
        "MATHABLE_REGISTRATION_LIMIT": "5/h burst 5",
        "MATHABLE_GAME_LIMIT": "3/h burst 3",
        "MATHABLE_MAX_POLLS_PER_CALLER": "1",
        "MATHABLE_RATE_LIMIT": "off",
        "MATHABLE_ADDRESS_RATE_LIMIT": "off",
    }
    with four_workers(store, env, workers=2) as url:
        answers = [requests.post(f"{url}/v1/players", json={"name": f"p{n}x"}, timeout=30)
                   for n in range(6)]  # fmt: skip
        assert [a.status_code for a in answers] == [201] * 5 + [429]
        assert answers[5].json()["error"]["code"] == "too_many_registrations"
        auth = {"Authorization": f"Bearer {answers[0].json()['token']}"}
        made = [requests.post(f"{url}/v1/games", json={}, headers=auth, timeout=30)
                for _ in range(4)]  # fmt: skip
        assert [m.status_code for m in made] == [201] * 3 + [429]
        assert made[3].json()["error"]["code"] == "too_many_games"
        # one held long-poll per caller, whichever worker holds it
        game = made[0].json()
        poll = f"{url}/v1/games/{game['id']}?wait=5&since={game['version']}"
        held = threading.Thread(target=requests.get, args=(poll,), kwargs={"timeout": 30})
        held.start()
        time.sleep(1.0)
        refused = [requests.get(poll, timeout=30).headers.get("X-Long-Poll") for _ in range(4)]
        assert refused == ["refused"] * 4
        held.join()
