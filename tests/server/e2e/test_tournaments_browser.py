"""Friends run a round robin from the browser: Debian's Chromium, driven by Playwright, on
a live server. A signed-in player opens ``/tournaments``, presses ``Join``, the page
(read again) says they are in; the organiser starts it from its page; the standings and
the games show."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.server.browser import auth, chromium, register
from tests.server.live import live_server

pytestmark = pytest.mark.e2e



@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    env = {"MATHABLE_PUBLIC_URL": "https://play.example", "MATHABLE_RATE_LIMIT": "off"}
    with live_server(env=env) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def _signed_in(browser: Any, base: str, player: dict[str, str]) -> Any:
    link = requests.post(f"{base}/v1/me/signin-link", json={}, headers=auth(player),
                         timeout=10).json()  # fmt: skip
    page = browser.new_context().new_page()
    page.goto(base + link["path"])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/")
    return page


def test_join_and_start_from_the_browser(base: str, browser: Any) -> None:
    ann, bob = register(base, "ann"), register(base, "bob")
    made = requests.post(f"{base}/v1/tournaments", json={"name": "Friends' cup",
                         "format": "round_robin"}, headers=auth(ann), timeout=10)  # fmt: skip
    tid = made.json()["id"]
    requests.post(f"{base}/v1/tournaments/{tid}/join", headers=auth(bob), timeout=10)
    page = _signed_in(browser, base, ann)
    page.goto(f"{base}/tournaments")
    page.get_by_role("button", name="Join Friends' cup").click()
    page.get_by_text("You are in").wait_for()
    page.get_by_role("link", name="Friends' cup").click()
    page.get_by_role("button", name="Start").click()
    page.get_by_role("heading", name="Round 1").wait_for()
    game = requests.get(f"{base}/v1/tournaments/{tid}", timeout=10).json()["rounds"][0][0]
    assert page.get_by_role("link", name=" – ".join(game["seats"])).count() == 1
    assert page.get_by_role("button", name="Leave").count() == 1
