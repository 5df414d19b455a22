"""The example game in the browser (issue 43): Fifteen registers no board script, so its
play page is the generic board (its text board, its legal moves as buttons, a field for
its notation); two players play it to its end there, in Debian's Chromium, with no
change outside the example's folder."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import requests

from tests.server.live import live_server

pytestmark = pytest.mark.e2e
from tests.server.browser import CHROMIUM, auth, register, sync_api  # noqa: E402  (skips first)
from tests.server.e2e.test_play_browser import (  # noqa: E402
    _signed_in,
    _view,
    _wait_status,
)


@pytest.fixture(scope="module")
def server(fifteen_installed: str) -> Iterator[str]:
    env = {"PYTHONPATH": fifteen_installed, "MATHABLE_RATE_LIMIT": "off"}
    with live_server(env=env) as url:
        yield url


def test_fifteen_played_to_its_end_on_the_generic_board(server: str) -> None:
    base = server
    ann, bob = register(base, "ann"), register(base, "bob")
    game = requests.post(f"{base}/v1/games", json={"ruleset": "fifteen"},
                         headers=auth(ann), timeout=10).json()["id"]  # fmt: skip
    assert requests.post(f"{base}/v1/games/{game}/join", headers=auth(bob),
                         timeout=10).status_code == 200  # fmt: skip
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        pages = {0: _signed_in(browser, base, ann, game), 1: _signed_in(browser, base, bob, game)}
        assert pages[0].locator("#play").get_attribute("data-board") == "generic"
        # Messages between the seats work on the generic board too, each with its time.
        pages[0].get_by_label("Write to the other players").fill("good luck")
        pages[0].get_by_role("button", name="Send message").click()
        pages[1].reload()
        pages[1].locator("#messages li", has_text="good luck").wait_for(timeout=20_000)
        assert pages[1].locator("#messages li time").count() == 1
        # Ann claims 5 by its notation (b2); then each claims the lowest digit left, by
        # its button, until the game ends.
        seen_ended = False
        for turn in range(12):
            view = _view(pages[0], base, game)
            if view["status"] != "playing":
                seen_ended = True
                break
            page = pages[view["turn"]["seat"]]
            _wait_status(page, "Your turn.")
            page.wait_for_function(
                "v => Number(document.getElementById('play').dataset.version) >= v",
                arg=view["version"], timeout=20_000,
            )  # fmt: skip
            if turn == 0:
                page.get_by_label("Your move, as written").fill("b2")
                page.get_by_role("button", name="Send move").click()
            else:
                page.locator("#legal button").first.wait_for(timeout=20_000)
                assert page.locator("#legal button").first.inner_text().startswith("claim ")
                page.locator("#legal button").first.click()
            deadline = time.monotonic() + 20
            while _view(page, base, game)["version"] == view["version"]:
                assert time.monotonic() < deadline, page.locator("#error").inner_text()
                time.sleep(0.05)
        assert seen_ended or _view(pages[0], base, game)["status"] == "ended"
        for page in pages.values():
            _wait_status(page, "Game over")
            page.wait_for_function("() => document.getElementById('reason').textContent !== ''")
            assert "X5" in page.locator("#text-board").inner_text()  # Ann's 5, marked
            assert page.locator("#actions").is_hidden()
        browser.close()
