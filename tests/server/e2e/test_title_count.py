"""The signed-in pages' title count ("(1) Home") stays current though the server ends
the player's stream again and again (``MATHABLE_STREAM_SECONDS=1``): Debian's Chromium
driven by Playwright against a live server.

A stream ends after ``stream_seconds``, at a restart, or when the player signs out
elsewhere; the page's script (static/site.js) opens another. It used to open it
without ``since``: a stream opened so tells the present only of games that wait on the
player, so a game that stopped waiting while no stream was open (the player moved from
another tab, the CLI, a bot) kept its "(1)" until the next change. Now the script resumes
after the last line it read and counts again whenever a stream opens. The test holds the
page's next stream back (``page.route``) while the player passes from another client.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.server.browser import auth, chromium, register
from tests.server.live import live_server

pytestmark = pytest.mark.e2e

#: Games started and passed at, each pass while the page has no stream open.
ROUNDS = 3


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    env = {
        "MATHABLE_STREAM_SECONDS": "1",
        "MATHABLE_STREAM_HEARTBEAT": "1",
        "MATHABLE_RATE_LIMIT": "off",
        "MATHABLE_ADDRESS_RATE_LIMIT": "off",
    }
    with live_server(env=env) as url:
        yield url


def _count_is(page: Any, expected: int) -> None:
    page.wait_for_function(
        "n => n ? document.title.startsWith('(' + n + ') ') : !/^\\(\\d+\\) /.test(document.title)",
        arg=expected, timeout=15_000,
    )  # fmt: skip


def test_the_title_follows_games_that_stop_waiting_while_no_stream_is_open(base: str) -> None:
    ada, bob = register(base, "ada"), register(base, "bob")
    link = requests.post(f"{base}/v1/me/signin-link", json={}, headers=auth(ada), timeout=10)
    assert link.status_code == 201, link.text
    with chromium() as browser:
        page = browser.new_context().new_page()
        streams = _Streams()
        page.route("**/v1/me/stream*", streams.route)
        page.goto(base + link.json()["path"])
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{base}/")
        _count_is(page, 0)
        for _ in range(ROUNDS):
            created = requests.post(f"{base}/v1/games", json={}, headers=auth(ada), timeout=10)
            game = created.json()["id"]
            joined = requests.post(f"{base}/v1/games/{game}/join", headers=auth(bob),
                                   timeout=10)  # fmt: skip
            assert joined.status_code == 200, joined.text
            view = joined.json()
            if view["seats"][view["turn"]["seat"]]["name"] != ada["name"]:
                view = _pass(base, game, bob, view["version"])  # bob drew the first turn
            _count_is(page, 1)
            # Between two streams: the page's next stream is held back until ada has passed.
            streams.hold = True
            while not streams.held:
                page.wait_for_timeout(20)
            _pass(base, game, ada, view["version"])
            streams.release()
            _count_is(page, 0)  # ada passed from another client: the page must hear of it


class _Streams:
    """The page's requests for its stream, let through at once or, while ``hold``, kept
    (``held``) until ``release``."""

    def __init__(self) -> None:
        self.hold = False
        self.held: list[Any] = []

    def route(self, route: Any) -> None:
        if self.hold:
            self.held.append(route)
        else:
            route.continue_()

    def release(self) -> None:
        self.hold = False
        while self.held:
            self.held.pop().continue_()


def _pass(base: str, game: str, who: dict[str, str], version: int) -> dict[str, Any]:
    passed = requests.post(f"{base}/v1/games/{game}/moves",
                           json={"type": "pass", "expected_version": version},
                           headers=auth(who), timeout=10)  # fmt: skip
    assert passed.status_code == 200, passed.text
    body: dict[str, Any] = passed.json()
    return body
