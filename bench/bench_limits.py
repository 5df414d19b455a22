"""How many requests get through a rate limit with 4 workers and a new connection per request.

    .venv/bin/python bench/bench_limits.py                  # SQLite, and Redis if it answers
    MATHABLE_TEST_POSTGRES_URL=postgresql://postgres@127.0.0.1:5432/test \\
        .venv/bin/python bench/bench_limits.py              # PostgreSQL too

Starts ``mathable-server serve --workers 4`` with ``MATHABLE_RATE_LIMIT=2/s burst 2``
(2 requests per window of 1 s), registers one player and sends 20 ``GET /v1/me``
as fast as it can, each on a new connection (the review's attack on per-process
counting: it got 15 of 20 through). Then 10 accounts from one address send 4
requests each with ``MATHABLE_ADDRESS_RATE_LIMIT=4/s burst 4`` (the review got 40
of 40). Prints what got through and the most the limit allows in that time.
"""

from __future__ import annotations

import math
import os
import secrets
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.live import live_server  # noqa: E402

REQUESTS = 20


def redis_answers(url: str = "redis://127.0.0.1:6379/0") -> bool:
    host, _, port = url.removeprefix("redis://").split("/")[0].partition(":")
    try:
        with socket.create_connection((host, int(port or 6379)), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def allowed(burst: int, window: float, elapsed: float) -> int:
    """The most a fixed window limit lets through in ``elapsed`` seconds."""
    return burst * (math.floor(elapsed / window) + 2)


def flood(url: str, tokens: list[str], per_token: int) -> tuple[int, int, float]:
    """(got through, sent, seconds): each request on a new connection, tokens in turn."""
    sent = through = 0
    started = time.monotonic()
    for _round in range(per_token):
        for token in tokens:
            answer = requests.get(
                f"{url}/v1/me", headers={"Authorization": f"Bearer {token}"}, timeout=30
            )
            sent += 1
            through += answer.status_code == 200
    return through, sent, time.monotonic() - started


def register(url: str, name: str) -> str:
    """A new player's token; registering counts against the address too: waits that out."""
    while True:
        answer = requests.post(f"{url}/v1/players", json={"name": name}, timeout=30)
        if answer.status_code != 429:
            answer.raise_for_status()
            token: str = answer.json()["token"]
            return token
        time.sleep(float(answer.headers.get("Retry-After", "1")))


@contextmanager
def four_workers(store: str, env: dict[str, str], workers: int = 4) -> Iterator[str]:
    """``serve --workers 4`` (or ``workers``) counting in ``store`` (sqlite, postgresql, redis)."""
    env = {"MATHABLE_REGISTRATION_LIMIT": "off", "MATHABLE_REGISTRATION_CEILING": "off", **env}
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'limits.db'}"
        drop = None
        if store == "postgresql":
            from tests.server.conftest import fresh_postgres_schema

            database, drop = fresh_postgres_schema(os.environ["MATHABLE_TEST_POSTGRES_URL"])
        if store == "redis":
            env["MATHABLE_REDIS_URL"] = "redis://127.0.0.1:6379/0"
            # Counts outlive the server in Redis: each run counts under keys of its own.
            env["MATHABLE_REDIS_PREFIX"] = f"mathable-bench-{secrets.token_hex(4)}"
        try:
            with live_server(database, workers=workers, env=env) as url:
                yield url
        finally:
            if drop is not None:
                drop()


def one_token(store: str) -> tuple[int, int, float]:
    env = {"MATHABLE_RATE_LIMIT": "2/s burst 2", "MATHABLE_ADDRESS_RATE_LIMIT": "off"}
    with four_workers(store, env) as url:
        token = register(url, "ada")
        time.sleep(1.1)  # the registration's window is over
        return flood(url, [token], REQUESTS)


def ten_accounts(store: str) -> tuple[int, int, float]:
    env = {"MATHABLE_RATE_LIMIT": "off", "MATHABLE_ADDRESS_RATE_LIMIT": "4/s burst 4"}
    with four_workers(store, env) as url:
        tokens = [register(url, f"u{n}x") for n in range(10)]
        time.sleep(1.1)
        return flood(url, tokens, 4)


def main() -> None:
    stores = ["sqlite"]
    if os.environ.get("MATHABLE_TEST_POSTGRES_URL"):
        stores.append("postgresql")
    if redis_answers():
        stores.append("redis")
    for store in stores:
        through, sent, seconds = one_token(store)
        print(
            f"{store:10} one token, 2/s burst 2, 4 workers, new connection per request: "
            f"{through} of {sent} through in {seconds:.2f} s "
            f"(the limit allows at most {allowed(2, 1.0, seconds)})"
        )
        through, sent, seconds = ten_accounts(store)
        print(
            f"{store:10} 10 accounts, one address, 4/s burst 4: {through} of {sent} through "
            f"in {seconds:.2f} s (at most {allowed(4, 1.0, seconds)})"
        )


if __name__ == "__main__":
    main()
