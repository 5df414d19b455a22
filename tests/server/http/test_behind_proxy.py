"""Behind a reverse proxy: limits count the real client's address, and nobody can forge it.

The nginx test runs Debian's nginx with the configuration shipped in
``docs/nginx/mathable.conf`` (the one ``docs/server.md`` shows), in front of a
live server; clients come from different loopback addresses (127.0.0.2,
127.0.0.3). It is skipped, saying why, where nginx is not installed
(``.ci/run`` installs it where it can).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from mathable_server import Settings, create_app
from mathable_server.http.proxies import TrustedProxies
from mathable_server.http.settings import MAX_WAIT_SECONDS
from tests.server.live import REPO, live_server
from tests.server.nginx import CONF, call_from, nginx_binary, nginx_in_front, status_from

LIMIT = "1/min burst 3"


def _client(database_url: str, trusted: str) -> FlaskClient:
    settings = Settings(
        database_url=database_url,
        trusted_proxies=TrustedProxies.parse(trusted),
        rate_limit=None,
    )
    from mathable_server.http.limits import RateLimit

    settings = settings.with_changes(rate_limit=RateLimit.parse(LIMIT))
    return create_app(settings).test_client()


def _statuses(client: FlaskClient, remote: str, forwarded: str | None, times: int) -> list[int]:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return [
        client.get("/v1/health", headers=headers, environ_base={"REMOTE_ADDR": remote}).status_code
        for _ in range(times)
    ]


def test_without_trusted_proxies_a_forwarded_header_changes_nothing(sqlite_url: str) -> None:
    client = _client(sqlite_url, "")
    # A client that names a new address in each request is still counted as itself.
    headers = [f"10.0.0.{n}" for n in range(5)]
    codes = [
        client.get(
            "/v1/health", headers={"X-Forwarded-For": h}, environ_base={"REMOTE_ADDR": "1.2.3.4"}
        ).status_code
        for h in headers
    ]
    assert codes == [200, 200, 200, 429, 429]


def test_one_trusted_proxy_counts_the_address_it_appended(sqlite_url: str) -> None:
    client = _client(sqlite_url, "1")
    # The proxy at 127.0.0.1 appends the real client; a forged first entry is ignored.
    assert _statuses(client, "127.0.0.1", "6.6.6.6, 10.0.0.1", 4) == [200, 200, 200, 429]
    assert _statuses(client, "127.0.0.1", "7.7.7.7, 10.0.0.1", 1) == [429]
    assert _statuses(client, "127.0.0.1", "10.0.0.2", 1) == [200]


def test_trusted_addresses_are_skipped_from_the_right(sqlite_url: str) -> None:
    client = _client(sqlite_url, "127.0.0.1, 10.9.0.0/16")
    # Two proxies of ours (10.9.x then 127.0.0.1): the client is the entry before them.
    assert _statuses(client, "127.0.0.1", "5.5.5.5, 10.0.0.7, 10.9.3.3", 4) == [200, 200, 200, 429]
    assert _statuses(client, "127.0.0.1", "10.0.0.8, 10.9.3.3", 1) == [200]
    # A request that does not come from a trusted proxy is taken as it came.
    assert _statuses(client, "192.0.2.1", "10.0.0.9", 4) == [200, 200, 200, 429]
    assert _statuses(client, "192.0.2.1", "10.0.0.10", 1) == [429]


@pytest.mark.parametrize("text", ["abc", "1.2.3.4, nonsense", "99", "²", "0.0.0.0/0", "::/0"])
def test_unreadable_trusted_proxies_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="MATHABLE_TRUSTED_PROXIES"):
        TrustedProxies.parse(text)


@pytest.mark.parametrize("text", ["", "0", "00", "off"])
def test_no_trusted_proxies_is_the_default_and_zero(text: str) -> None:
    assert TrustedProxies.parse(text) is None


def test_the_documented_configuration_is_the_tested_one() -> None:
    guide = (REPO / "docs" / "server.md").read_text()
    shown = re.search(r"```nginx\n(.*?)```", guide, re.S)
    assert shown is not None, "docs/server.md shows no nginx configuration"
    assert shown.group(1) == CONF.read_text()


def test_the_documented_proxy_waits_longer_than_the_longest_long_poll() -> None:
    # The live test below holds a 2 s long-poll; this pins the margin for the longest one
    # the server allows (a minute of holding through nginx would slow every test run).
    timeout = re.search(r"proxy_read_timeout (\d+)s;", CONF.read_text())
    assert timeout is not None and int(timeout.group(1)) > MAX_WAIT_SECONDS


# --- a real nginx -----------------------------------------------------------------------


@pytest.fixture
def nginx_front(tmp_path: Path) -> Iterator[str]:
    """nginx with the documented configuration in front of a live server; its base URL."""
    if nginx_binary() is None:
        pytest.skip("nginx is not installed (apt-get install nginx-light): proxy test skipped")
    env = {"MATHABLE_TRUSTED_PROXIES": "1", "MATHABLE_RATE_LIMIT": LIMIT}
    with live_server(env=env) as upstream, nginx_in_front(upstream, tmp_path) as front:
        yield front


@pytest.mark.e2e
def test_behind_nginx_each_client_address_has_its_own_limit(nginx_front: str) -> None:
    port = int(nginx_front.rsplit(":", 1)[1])
    # 127.0.0.9 took one request while nginx started.
    first = [status_from(port, "127.0.0.2") for _ in range(4)]
    assert first == [200, 200, 200, 429]
    # Forging the header from the same client does not help: nginx appends the truth.
    assert status_from(port, "127.0.0.2", **{"X-Forwarded-For": "203.0.113.5"}) == 429
    # Another client behind the same proxy is not held back by the first.
    assert status_from(port, "127.0.0.3") == 200


@pytest.mark.e2e
def test_behind_nginx_a_long_poll_is_held_then_answered(nginx_front: str) -> None:
    port = int(nginx_front.rsplit(":", 1)[1])
    status, player = call_from(port, "127.0.0.4", "POST", "/v1/players", {"name": "ann"})
    assert status == 201, player
    auth = {"Authorization": f"Bearer {player['token']}"}
    status, game = call_from(port, "127.0.0.4", "POST", "/v1/games", {}, **auth)
    assert status == 201, game
    started = time.monotonic()
    path = f"/v1/games/{game['id']}?wait=2&since={game['version']}"
    status, view = call_from(port, "127.0.0.4", "GET", path, **auth)
    held = time.monotonic() - started
    assert status == 200 and view["version"] == game["version"]
    assert 1.8 <= held < 10, held
