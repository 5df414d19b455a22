"""Key presses of keyboard-only Mathable turns on the play page of an older commit (issue
43's "before"; the "after" is printed by tests/server/e2e/test_board_for_everyone.py).

    .venv/bin/python bench/bench_keyboard_before.py [COMMIT]   (default 2b968e4)

The commit's tree is unpacked to a temporary folder (``git archive``) and served by a live
server on loopback; Debian's Chromium plays six turns the only way that page allowed:
Tab or Shift+Tab (whichever is shorter) to each tile and square, Enter, then to `Send
turn`, Enter. Prints (tiles placed, key presses) per turn.
"""

from __future__ import annotations

import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import requests

REPO = Path(__file__).resolve().parents[1]
NAME = "(e => e.getAttribute('aria-label') || e.textContent.trim())(document.activeElement)"
SELECTOR = (
    'a[href], button:not([disabled]), textarea, input, summary, [tabindex]:not([tabindex="-1"])'
)
STOPS = f"""() => [...document.querySelectorAll('{SELECTOR}')].filter(e => e.offsetParent !== null)
  .map(e => e.getAttribute('aria-label') || e.textContent.trim())"""


def main(commit: str) -> None:
    with tempfile.TemporaryDirectory(prefix="keyboard-before-") as folder:
        archive = subprocess.run(["git", "archive", commit], cwd=REPO, capture_output=True,
                                 check=True).stdout  # fmt: skip
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        sys.path.insert(0, folder)  # its tests' live server serves its own tree
        from playwright.sync_api import sync_playwright
        from tests.server.helpers import EXAMPLE_TILES
        from tests.server.live import live_server

        from mathable import legal_placements

        with live_server(env={"MATHABLE_RATE_LIMIT": "off"}) as base, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
            players = [_register(base, n) for n in ("ann", "bob")]
            game = requests.post(f"{base}/v1/games", json={"tiles": EXAMPLE_TILES},
                                 headers=_auth(players[0]), timeout=10).json()["id"]  # fmt: skip
            requests.post(f"{base}/v1/games/{game}/join", headers=_auth(players[1]), timeout=10)
            pages = [_signed_in(browser, base, p, game) for p in players]
            results = []
            for turn in range(6):
                seat = turn % 2
                view = requests.get(f"{base}/v1/games/{game}", headers=_auth(players[seat]),
                                    timeout=10).json()  # fmt: skip
                page = pages[seat]
                page.bring_to_front()
                page.wait_for_function("() => document.getElementById('status').textContent"
                                       ".includes('Your turn.')", timeout=20_000)  # fmt: skip
                if turn < 2:
                    page.locator("body").click(position={"x": 2, "y": 2})  # the page's top
                board, rack = dict(view["board"]), list(view["rack"])
                count = placed = 0
                while placed < 3 and (options := legal_placements(board, rack)):
                    best = options[0]
                    count += _to(page, f"tile {best.tile}") + 1
                    page.keyboard.press("Enter")
                    count += _to(page, best.square) + 1
                    page.keyboard.press("Enter")
                    board[best.square] = best.tile
                    rack.remove(best.tile)
                    placed += 1
                count += _to(page, "Send turn") + 1
                page.keyboard.press("Enter")
                deadline = time.monotonic() + 20
                while requests.get(f"{base}/v1/games/{game}",
                                   timeout=10).json()["turn"]["seat"] == seat:  # fmt: skip
                    assert time.monotonic() < deadline, "the turn never ended"
                    time.sleep(0.05)
                results.append((placed, count))
            browser.close()
    print(f"before ({commit}), key presses per turn (tiles placed, presses): {results}")


def _to(page: Any, label: str) -> int:
    """Tab or Shift+Tab, the shorter way, until ``label`` has the focus; the presses."""
    stops: list[str] = page.evaluate(STOPS)
    here = page.evaluate(NAME)
    want = stops.index(label)
    at = stops.index(here) if here in stops else -1
    forward = (want - at) % len(stops) if at >= 0 else want + 1
    backward = (at - want) % len(stops) if at >= 0 else len(stops) * 2
    key = "Tab" if forward <= backward else "Shift+Tab"
    for count in range(1000):
        if page.evaluate(NAME) == label:
            return count
        page.keyboard.press(key)
    raise AssertionError(f"{label} was never reached")


def _register(base: str, prefix: str) -> dict[str, str]:
    answer = requests.post(f"{base}/v1/players", json={"name": prefix + secrets.token_hex(3)},
                           timeout=10)  # fmt: skip
    body: dict[str, str] = answer.json()
    return body


def _auth(player: dict[str, str]) -> dict[str, str]:
    return {"Authorization": f"Bearer {player['token']}"}


def _signed_in(browser: Any, base: str, player: dict[str, str], game: str) -> Any:
    link = requests.post(f"{base}/v1/me/signin-link", json={"game": game},
                         headers=_auth(player), timeout=10).json()  # fmt: skip
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.goto(base + link["path"])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"**/play/{game}")
    return page


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "2b968e4")
