"""The board for everyone (issue 43), end to end in Debian's Chromium: a whole Mathable
game played by the keyboard alone (skip links, arrow keys, Enter; the key presses of each
turn printed), the board as a screen reader reads it (Playwright's accessibility
snapshot), the review stepped from the first position to the last against the replay of
the game's record, the tutorial played through by clicking, in four languages, and axe-core
on every page, issue 42's included (front door, sign-up, signed-in home, new game, lobby,
settings, player, leaderboard, tournaments, the computer): 0 serious or critical
violations on each (the counts printed).

``MATHABLE_PLAY_SCREENSHOTS=dir`` keeps the phone-size screenshots (docs/screenshots/).
"""

from __future__ import annotations

import os
import re
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from mathable import legal_placements
from mathable.core.record import replay_record
from tests.server.e2e import axe
from tests.server.helpers import EXAMPLE_TILES, example_tiles
from tests.server.live import live_server

pytestmark = pytest.mark.e2e

from tests.server.browser import PHONE, auth, chromium, register  # noqa: E402  (skips first)
from tests.server.e2e.test_play_browser import (  # noqa: E402
    _signed_in,
    _view,
    _wait_status,
)

COLUMNS = "ABCDEFGHIJKLMN"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    env = {"MATHABLE_RATE_LIMIT": "off", "MATHABLE_ADDRESS_RATE_LIMIT": "off",
           "MATHABLE_STREAM_HEARTBEAT": "1"}  # fmt: skip
    with live_server(env=env) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def finished(server: str, browser: Any) -> dict[str, Any]:
    """A whole Mathable game played by the keyboard alone; the key presses of each turn."""
    base = server
    ann, bob = register(base, "ann"), register(base, "bob")
    game = requests.post(f"{base}/v1/games", json={"tiles": EXAMPLE_TILES},
                         headers=auth(ann), timeout=10).json()["id"]  # fmt: skip
    joined = requests.post(f"{base}/v1/games/{game}/join", headers=auth(bob), timeout=10)
    assert joined.status_code == 200, joined.text
    # Another game waiting on Ann: after her first turn here, `Next game` leads to it.
    waiting = requests.post(f"{base}/v1/games", json={"tiles": example_tiles(3)},
                            headers=auth(ann), timeout=10).json()["id"]  # fmt: skip
    requests.post(f"{base}/v1/games/{waiting}/join", headers=auth(bob), timeout=10)
    pages = {0: _signed_in(browser, base, ann, game), 1: _signed_in(browser, base, bob, game)}
    presses: list[int] = []
    snapshot_checked = False
    for _ in range(200):
        view = _view(pages[0], base, game)
        if view["status"] != "playing":
            break
        seat = view["turn"]["seat"]
        page = pages[seat]
        page.bring_to_front()
        _wait_status(page, "Your turn.")
        page.wait_for_function("v => Number(document.getElementById('play').dataset.version) >= v",
                               arg=view["version"], timeout=20_000)  # fmt: skip
        if not snapshot_checked and view["board"]:
            _check_snapshot(page, view)
            snapshot_checked = True
        presses.append(_keyboard_turn(page, base, game))
        if len(presses) == 1:
            page.locator("#next-game-link").wait_for(timeout=20_000)
            assert page.locator("#next-game-link").get_attribute("href") == f"/play/{waiting}"
    view = _view(pages[0], base, game)
    assert view["status"] == "ended", "the game never ended"
    assert snapshot_checked
    for page in pages.values():
        _wait_status(page, "Game over")
    return {"game": game, "pages": pages, "presses": presses, "ann": ann}


class Keys:
    """The keyboard of a page, counting its presses."""

    def __init__(self, page: Any) -> None:
        self.page, self.count = page, 0

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.count += 1

    def active(self) -> str:
        name: str = self.page.evaluate(
            "(e => e.getAttribute('aria-label') || e.textContent.trim())(document.activeElement)"
        )
        return name

    def to(self, label: str, key: str, limit: int = 60) -> None:
        for _ in range(limit):
            name = self.active()
            if name == label or name.startswith(label + ","):
                return
            self.press(key)
        raise AssertionError(f"{label!r} was never reached by {key}")

    def square(self, target: str) -> None:
        at = self.page.evaluate("document.activeElement.dataset.square")
        dx = COLUMNS.index(target[0]) - COLUMNS.index(at[0])
        dy = int(target[1:]) - int(at[1:])
        for _ in range(abs(dx)):
            self.press("ArrowRight" if dx > 0 else "ArrowLeft")
        for _ in range(abs(dy) // 5):
            self.press("PageDown" if dy > 0 else "PageUp")
        for _ in range(abs(dy) % 5):
            self.press("ArrowDown" if dy > 0 else "ArrowUp")
        assert self.page.evaluate("document.activeElement.dataset.square") == target


def _keyboard_turn(page: Any, base: str, game: str) -> int:
    """One turn of the seat to move by the keyboard alone: the skip link to the rack (Tab
    from wherever the focus is), arrows to the tile, Enter (on to the board), arrows to the
    square, Enter; then Tab to Send turn, Enter; or Pass, confirmed. Its key presses."""
    keys = Keys(page)
    view = _view(page, base, game)
    board, rack = dict(view["board"]), list(view["rack"])
    placed = 0
    while placed < 3:
        options = legal_placements(board, rack)
        if not options:
            break
        best = options[0]
        in_rack = page.evaluate("document.getElementById('rack').contains(document.activeElement)")
        if placed == 0 and not in_rack:
            keys.to("Skip to your tiles", "Tab", 200)
            keys.press("Enter")
        elif placed == 0:
            pass  # the focus waited on the rack since the seat's last turn
        else:
            keys.press("Tab")  # from the board, the rack is the next Tab stop
        keys.to(f"tile {best.tile}", "ArrowRight", 10)
        keys.press("Enter")  # chosen: the focus goes on to the board
        keys.square(best.square)
        keys.press("Enter")
        page.wait_for_function("s => document.querySelector(`[data-square='${s}']`)"
                               ".className.includes('pending')", arg=best.square)  # fmt: skip
        board[best.square] = best.tile
        rack.remove(best.tile)
        placed += 1
        page.wait_for_function("() => !document.getElementById('send').disabled")
    if placed:
        keys.to("Send turn", "Tab", 20)
        keys.press("Enter")
    else:
        page.once("dialog", lambda dialog: dialog.accept())
        keys.to("Skip to the actions", "Tab", 200)
        keys.press("Enter")
        keys.to("Pass", "Tab", 10)
        keys.press("Enter")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        after = _view(page, base, game)
        if after["status"] != "playing" or after["turn"]["seat"] != view["you"]:
            return keys.count
        time.sleep(0.05)
    raise AssertionError(f"the turn never ended: {page.locator('#error').inner_text()}")


def _check_snapshot(page: Any, view: dict[str, Any]) -> None:
    """The board as assistive technology reads it: every square's name with its contents."""
    snapshot = page.locator("#board").aria_snapshot()
    for square, tile in view["board"].items():
        assert f'button "{square}, {tile}' in snapshot, square
    assert 'button "A1, times 3"' in snapshot
    names = re.findall(r'button "([A-N]\d+),', snapshot)
    assert len(names) == 14 * 14
    assert re.search(r'button "[A-N]\d+, empty', snapshot)
    assert re.search(r'button "[A-N]\d+, (plus|minus|times|divided by)', snapshot)


def test_a_whole_game_by_keyboard_alone(finished: dict[str, Any]) -> None:
    presses = finished["presses"]
    assert presses
    print(f"\nkey presses per turn ({len(presses)} turns): min {min(presses)}, median "
          f"{statistics.median(presses)}, max {max(presses)}, total {sum(presses)}")  # fmt: skip
    page = finished["pages"][0]
    reason = page.locator("#reason").inner_text()
    assert reason.lower().startswith("game over: "), reason  # why it ended, in words
    assert page.locator("#actions").is_hidden()  # no dead buttons after the end
    assert page.locator("#review-link").get_attribute("href").endswith("/review")


def test_the_review_steps_from_first_to_last_as_the_replay(
    server: str, finished: dict[str, Any], browser: Any
) -> None:
    game = finished["game"]
    record = requests.get(f"{server}/v1/games/{game}/record", timeout=10).text
    replayed = replay_record(record)
    rules = replayed.rules
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(f"{server}/games/{game}/review")
    figures = page.locator("figure.position")
    count = figures.count()
    assert count == len(replayed.played) + 1
    page.keyboard.press("Home")
    assert page.locator("#first").is_disabled()
    states = [replayed.played[0].before] + [p.before for p in replayed.played[1:]]
    states.append(replayed.state)
    names = list(replayed.record.names)
    for step in range(count):
        shown = page.locator("figure.position:not([hidden]) pre").text_content()
        view = rules.view(states[step], None)
        view["seats"] = [{**s, "name": names[i]} for i, s in enumerate(view["seats"])]
        assert shown == rules.draw(view), f"position {step}"
        if step < count - 1:
            (page.keyboard.press("ArrowRight") if step % 2 else page.get_by_role(
                "button", name="Next", exact=True).click())  # fmt: skip
    assert page.locator("#last").is_disabled()
    page.get_by_role("button", name="First", exact=True).click()
    assert page.locator("#review").get_attribute("data-index") == "0"
    page.get_by_role("button", name="Last", exact=True).click()
    assert len(page.locator("#costliest li").all()) == 3
    assert page.locator("#turns-review tbody tr").count() > 0
    assert page.locator("#record-download").get_attribute("href") == f"/v1/games/{game}/record"
    page.close()


def test_the_tutorial_played_through_in_four_languages(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    titles = set()
    for lang in ("fr", "nb", "it", "en"):
        page.goto(f"{server}/tutorial/mathable?lang={lang}")
        assert page.locator("html").get_attribute("lang") == lang
        titles.add(page.locator("h1").inner_text())
    assert len(titles) == 4
    steps = page.locator("section.tutorial-step")
    count = steps.count()
    assert count > 5
    for index in range(count):
        step = steps.nth(index)
        assert step.is_visible()
        step.locator("button.play").click()
        assert step.locator(".after").is_visible()
    assert page.locator("#tutorial-done").is_visible()
    page.close()


def test_axe_finds_nothing_serious_on_any_page(
    server: str, finished: dict[str, Any], browser: Any
) -> None:
    source = axe.axe_source()
    base, game = server, finished["game"]
    ann = finished["ann"]
    playing = requests.post(f"{base}/v1/games", json={"tiles": example_tiles(7)},
                            headers=auth(ann), timeout=10).json()["id"]  # fmt: skip
    bob = register(base, "bob")
    requests.post(f"{base}/v1/games/{playing}/join", headers=auth(bob), timeout=10)
    # A game looking for players, for the lobby to list.
    requests.post(f"{base}/v1/games", json={}, headers=auth(bob), timeout=10)
    shots = Path(os.environ.get("MATHABLE_PLAY_SCREENSHOTS") or "/nonexistent")
    counts: dict[str, int] = {}
    found: dict[str, list[dict[str, Any]]] = {}
    link = requests.post(f"{base}/v1/me/signin-link", json={"game": playing},
                         headers=auth(ann), timeout=10).json()  # fmt: skip
    context = browser.new_context(viewport=PHONE, bypass_csp=True, device_scale_factor=2)
    page = context.new_page()
    pages = {
        "sign-in": ("/signin", None),
        "front door": ("/", None),
        "sign-up": ("/signup", None),
        "computer": ("/computer", None),
        "spectator": (f"/games/{game}", None),
        "review": (f"/games/{game}/review", None),
        "tutorial": ("/tutorial/mathable", "section.tutorial-step button.play"),
        "play": (link["path"], "sign in"),
        "play, game over": (f"/play/{game}", None),
        # Signed in from here on (issue 42's pages).
        "home": ("/", None),
        "new game": ("/new", "computer seat"),
        "lobby": ("/lobby", None),
        "settings": ("/settings", None),
        "player": (f"/players/{ann['name']}", None),
        "leaderboard": ("/leaderboard", None),
        "tournaments": ("/tournaments", None),
        "computer, signed in": ("/computer", None),
    }
    for name, (path, then) in pages.items():
        page.goto(base + path)
        if then == "sign in":
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_url(f"**/play/{playing}")
            _wait_status(page, "Your turn.")
            page.get_by_role("button", name=re.compile(r"^tile ")).first.click()
        elif then == "computer seat":  # the levels, as GET /v1/computers lists them
            page.wait_for_function("() => !document.querySelector('#seat-2-kind "
                                   ".computer-option').disabled")  # fmt: skip
            page.locator("#seat-2-kind").select_option("computer")
        elif then:
            page.locator(then).first.click()
        if name == "home":
            assert page.locator("h1").inner_text() == f"Hello, {ann['name']}"
        if name == "lobby":
            assert page.get_by_role("button", name="Join").count() >= 1
        violations = axe.audit(page, source)
        counts[name] = len(axe.serious(violations))
        found[name] = violations
        if shots.is_dir():
            page.screenshot(path=str(shots / f"{re.sub(r'[^a-z]+', '-', name)}-phone.png"),
                            full_page=True)  # fmt: skip
    print("\naxe-core " + axe.VERSION + ", serious or critical violations per page: "
          + ", ".join(f"{k} {v}" for k, v in counts.items()))  # fmt: skip
    print("all violations: " + "; ".join(
        f"{k}: " + ", ".join(f"{v['id']} ({v['impact']})" for v in vs) for k, vs in found.items()))
    assert not any(counts.values()), {k: axe.serious(v) for k, v in found.items()}
    context.close()
