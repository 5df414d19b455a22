"""Playing the computer in the browser (issue 44), end to end: Debian's Chromium driven by
Playwright against a live server. A visitor with no account opens ``/computer`` ("Play
the computer"), keeps the first game and level, presses ``Start the game`` and is on the
game's page, signed in as a guest; they play a whole Mathable game by clicking (the best
single placements the move generator finds), and the computer answers each turn.

From the front door ``/``, a new visitor is playing the computer in two clicks (``Play
the computer``, ``Start the game``: the level defaults to easy; the count printed); a
signed-in player finds ``Play the computer`` on their home page and seats the computer
(level easy) from ``New game``, and the computer answers their first move."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from mathable import legal_placements
from tests.server.browser import chromium
from tests.server.live import live_server

pytestmark = pytest.mark.e2e



@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    env = {"MATHABLE_COMPUTER_DELAY": "0.3", "MATHABLE_RATE_LIMIT": "off",
           "MATHABLE_ADDRESS_RATE_LIMIT": "off"}  # fmt: skip
    with live_server(env=env) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def _view(page: Any, base: str, game: str) -> dict[str, Any]:
    answer = page.context.request.get(f"{base}/v1/games/{game}")
    assert answer.ok, answer.text()
    body: dict[str, Any] = answer.json()
    return body


def _button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def _square(page: Any, name: str) -> Any:
    """A square of the board: its accessible name starts with it (``I8, 12``)."""
    return page.get_by_role("button", name=re.compile("^" + re.escape(name) + ","))


def _play_turn(page: Any, base: str, game: str, view: dict[str, Any]) -> None:
    """Up to three of the best single placements, clicked; then Send turn (or Pass)."""
    page.wait_for_function("v => Number(document.getElementById('play').dataset.version) >= v",
                           arg=view["version"], timeout=20_000)  # fmt: skip
    page.wait_for_function("() => document.getElementById('status').textContent"
                           ".includes('Your turn.')", timeout=20_000)  # fmt: skip
    board, rack = dict(view["board"]), list(view["rack"])
    placed = 0
    while placed < 3:
        options = legal_placements(board, rack)
        if not options:
            break
        best = options[0]
        _button(page, f"tile {best.tile}").first.click()
        _square(page, best.square).click()
        board[best.square] = best.tile
        rack.remove(best.tile)
        placed += 1
    if placed:
        _button(page, "Send turn").click()
    else:
        page.once("dialog", lambda dialog: dialog.accept())  # Pass asks to be sure
        _button(page, "Pass").click()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        now = _view(page, base, game)
        if now["status"] != "playing" or not now["your_turn"] or now["version"] > view[
            "version"
        ] + placed + 1:
            return
        time.sleep(0.05)
    raise AssertionError("the turn never ended")


def test_a_visitor_plays_a_whole_game_against_the_computer_from_play_the_computer(
    server: str, browser: Any
) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(f"{server}/computer")
    assert page.locator("h1").inner_text() == "Play the computer"
    assert page.get_by_label("Game").input_value() == "mathable"
    page.get_by_role("button", name="Start the game").click()  # the one click
    page.wait_for_url("**/play/g*")
    game = page.url.rsplit("/", 1)[1]
    view = _view(page, server, game)
    assert view["status"] == "playing"
    me, computer = view["seats"][view["you"]], view["seats"][1 - view["you"]]
    assert me["name"].startswith("guest-") and computer["name"] == "computer-easy"
    turns = 0
    deadline = time.monotonic() + 600
    while view["status"] == "playing":
        assert time.monotonic() < deadline, "the game never ended"
        if view["your_turn"]:
            _play_turn(page, server, game, view)
            turns += 1
        else:
            time.sleep(0.1)  # the computer's turn: it moves within its delay
        view = _view(page, server, game)
    assert view["status"] == "ended" and turns >= 3
    page.wait_for_function("() => document.getElementById('status').textContent"
                           ".includes('Game over')", timeout=20_000)  # fmt: skip
    context.close()


def test_a_new_visitor_plays_the_computer_within_three_clicks_of_the_front_door(
    server: str, browser: Any
) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(f"{server}/")
    clicks = 0
    page.get_by_role("link", name="Play the computer", exact=True).click()
    clicks += 1
    page.wait_for_url("**/computer")
    # The game and the level have their defaults (Mathable, easy): the next click starts.
    assert page.get_by_role("radio", checked=True).get_attribute("value") == "easy"
    page.get_by_role("button", name="Start the game").click()
    clicks += 1
    page.wait_for_url("**/play/g*")
    game = page.url.rsplit("/", 1)[1]
    view = _view(page, server, game)
    assert view["status"] == "playing"
    assert view["seats"][1 - view["you"]]["name"] == "computer-easy"
    if not view["your_turn"]:  # the computer began: its first turn comes within its delay
        deadline = time.monotonic() + 20
        while not view["your_turn"]:
            assert time.monotonic() < deadline, "the computer never moved"
            time.sleep(0.1)
            view = _view(page, server, game)
    _play_turn(page, server, game, view)  # the first move: tiles and squares, then Send
    print(f"\nclicks from / to a game against the computer: {clicks}")
    assert clicks <= 3
    after = _view(page, server, game)
    assert after["version"] > view["version"]
    # The computer answers that first move within its delay.
    deadline = time.monotonic() + 20
    while not after["your_turn"] and after["status"] == "playing":
        assert time.monotonic() < deadline, "the computer never answered"
        time.sleep(0.1)
        after = _view(page, server, game)
    context.close()


def _signed_in_home(browser: Any, base: str) -> tuple[Any, str]:
    """A registered player's browser, signed in by a one-time link, on their home page."""
    name = f"ann{secrets.token_hex(3)}"
    made = requests.post(f"{base}/v1/players", json={"name": name}, timeout=10)
    assert made.status_code == 201, made.text
    token = made.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    link = requests.post(f"{base}/v1/me/signin-link", json={}, headers=auth, timeout=10).json()
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(base + link["path"])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(base + "/")
    return page, name


def test_a_player_plays_the_computer_from_home_and_from_new_game(
    server: str, browser: Any
) -> None:
    page, name = _signed_in_home(browser, server)
    assert page.locator("h1").inner_text() == f"Hello, {name}"
    # The signed-in home leads to the computer.
    home = page.locator("#home")
    to_computer = home.get_by_role("link", name="Play the computer", exact=True)
    assert to_computer.get_attribute("href") == "/computer"
    # New game: the other seat the computer, level easy.
    home.get_by_role("link", name="New game", exact=True).click()
    page.wait_for_url("**/new")
    seat = page.get_by_label("Seat 2")
    page.wait_for_function("() => !document.querySelector('#seat-2-kind .computer-option')"
                           ".disabled")  # fmt: skip
    seat.select_option("computer")
    level = page.locator("#seat-2-level")
    assert level.is_visible()
    level.select_option("easy")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_function("() => location.pathname.startsWith('/play/') || "
                           "(document.getElementById('new-error') || {}).textContent")  # fmt: skip
    assert "/play/g" in page.url, page.locator("#new-error").inner_text()
    game = page.url.rsplit("/", 1)[1]
    view = _view(page, server, game)
    assert view["status"] == "playing", page.locator("#new-error").all_inner_texts()
    me, computer = view["seats"][view["you"]], view["seats"][1 - view["you"]]
    assert me["name"] == name and computer["name"] == "computer-easy"
    deadline = time.monotonic() + 20
    while not view["your_turn"]:
        assert time.monotonic() < deadline, "the computer never moved"
        time.sleep(0.1)
        view = _view(page, server, game)
    _play_turn(page, server, game, view)
    after = _view(page, server, game)
    deadline = time.monotonic() + 20
    while not after["your_turn"] and after["status"] == "playing":
        assert time.monotonic() < deadline, "the computer never answered the first move"
        time.sleep(0.1)
        after = _view(page, server, game)
    assert after["version"] >= view["version"] + 2  # my turn and the computer's
    page.context.close()
