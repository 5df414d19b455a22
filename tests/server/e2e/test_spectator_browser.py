"""A real browser follows a game: Debian's Chromium, driven by Playwright, on a live server.

The page is loaded, a move is made through the API, the page shows it without a
reload, and a screenshot shows the printed board's colours at known squares.
Set ``MATHABLE_SCREENSHOT=path.png`` to keep the screenshot (docs/ holds one).
"""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from mathable.games.mathable.picture import (
    COLOUR_CENTRE,
    COLOUR_DOUBLE,
    COLOUR_LAST,
    COLOUR_OPERATION,
    COLOUR_PLAIN,
    COLOUR_TILE,
    COLOUR_TRIPLE,
)
from tests.server.browser import auth, chromium, register
from tests.server.helpers import EXAMPLE_TILES

pytestmark = pytest.mark.e2e

image_module = pytest.importorskip("PIL.Image", reason="Pillow is not installed")

#: Debian's chromium, or one named by MATHABLE_CHROMIUM; never a downloaded browser.


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _close(pixel: Any, colour: str, tolerance: int = 16) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], _rgb(colour), strict=True))


def test_the_page_follows_a_move_and_shows_the_printed_colours(
    browser: Any, live_url: str, tmp_path: Path
) -> None:
    ada, bob = register(live_url, "ada"), register(live_url, "bob")
    created = requests.post(
        f"{live_url}/v1/games", json={"tiles": EXAMPLE_TILES}, headers=auth(ada), timeout=10
    ).json()
    game = created["id"]
    joined = requests.post(f"{live_url}/v1/games/{game}/join", headers=auth(bob), timeout=10)
    assert joined.status_code == 200

    page = browser.new_page(viewport={"width": 1000, "height": 800}, device_scale_factor=1)
    # The pages' Content-Security-Policy blocks nothing they use (style, script, fetch).
    blocked: list[str] = []

    def note_blocked(message: Any) -> None:
        if "Content Security Policy" in message.text:
            blocked.append(message.text)

    page.on("console", note_blocked)
    try:
        page.goto(f"{live_url}/games/{game}")
        assert "script-src 'self' 'sha256-" in str(
            requests.get(f"{live_url}/games/{game}", timeout=10).headers["Content-Security-Policy"]
        )
        assert page.locator("rect.square").count() == 196
        assert page.locator("g.tile").count() == 0
        assert page.locator("#status").inner_text() == f"{ada['name']} to play."

        moved = requests.post(
            f"{live_url}/v1/games/{game}/moves",
            json={
                "type": "turn",
                "expected_version": joined.json()["version"],
                "placements": [{"square": "I8", "tile": 12}],
            },
            headers=auth(ada),
            timeout=10,
        )
        assert moved.status_code == 200, moved.text

        # No reload: the page's long-poll brings the move in.
        tile = page.locator('g.tile[data-square="I8"]')
        tile.wait_for(timeout=20_000)
        assert tile.text_content() == "12"
        assert page.locator("#status").inner_text() == f"{bob['name']} to play."
        assert "I8=12 (12)" in page.locator("ol.turns").inner_text()
        assert page.locator("#live-news").inner_text() == f"{bob['name']} to play."
        assert blocked == []

        shot = tmp_path / "spectator-page.png"
        page.screenshot(path=str(shot))
        image = image_module.open(io.BytesIO(shot.read_bytes())).convert("RGB")

        def near_corner(square: str) -> Any:
            box = page.locator(f'rect.square[data-square="{square}"]').bounding_box()
            return image.getpixel(
                (int(box["x"] + 0.2 * box["width"]), int(box["y"] + 0.2 * box["height"]))
            )

        assert _close(near_corner("J8"), COLOUR_OPERATION)
        assert _close(near_corner("E2"), COLOUR_OPERATION)
        assert _close(near_corner("A1"), COLOUR_TRIPLE)
        assert _close(near_corner("B2"), COLOUR_DOUBLE)
        assert _close(near_corner("A2"), COLOUR_PLAIN)
        assert _close(near_corner("G7"), COLOUR_CENTRE)
        assert _close(near_corner("I8"), COLOUR_TILE)  # the new tile covers the square

        box = tile.bounding_box()
        inside = image.crop(
            (
                int(box["x"]),
                int(box["y"]),
                int(box["x"] + box["width"]),
                int(box["y"] + box["height"]),
            )
        )
        red = sum(
            1
            for x in range(inside.width)
            for y in range(inside.height)
            if _close(inside.getpixel((x, y)), COLOUR_LAST, 40)
        )
        assert red > 50, "the last turn's tile has no red edge"
        keep = os.environ.get("MATHABLE_SCREENSHOT")
        if keep:
            shutil.copyfile(shot, keep)
    finally:
        page.close()


def _widest_summy_table(live_url: str, turns: int) -> tuple[str, dict[str, Any]]:
    """A Summy game whose players, for ``turns`` turns, play the equation reaching farthest
    from the middle across (the table grows wide); the last view, for a spectator."""
    import itertools
    import random

    from mathable.games.summy import SUPPLY_SET, tile_names
    from mathable.games.summy.movegen import legal_moves
    from mathable.games.summy.tiles import parse_tiles

    order = list(SUPPLY_SET)
    random.Random(7).shuffle(order)
    players = [register(live_url, "ada"), register(live_url, "bob")]
    created = requests.post(
        f"{live_url}/v1/games",
        json={"ruleset": "summy", "tiles": tile_names(order)},
        headers=auth(players[0]),
        timeout=10,
    ).json()
    game = created["id"]
    view = requests.post(
        f"{live_url}/v1/games/{game}/join", headers=auth(players[1]), timeout=10
    ).json()
    for _ in range(turns):
        if view["status"] != "playing":
            break
        seat = view["turn"]["seat"]
        view = requests.get(
            f"{live_url}/v1/games/{game}", headers=auth(players[seat]), timeout=10
        ).json()
        table = {(t["x"], t["y"]): parse_tiles(t["tile"])[0] for t in view["table"]}
        closed = [(c["x"], c["y"]) for c in view["closed"]]
        hand = [parse_tiles(t)[0] for t in view["hand"]]
        moves = list(itertools.islice(legal_moves(table, hand, closed), 400))
        if moves:
            best = max(moves, key=lambda m: max(abs(x) for x, _, _ in m.placements))
            command: dict[str, Any] = {
                "type": "equation",
                "placements": [
                    {"x": x, "y": y, "tile": tile_names([t])[0]} for x, y, t in best.placements
                ],
                "direction": best.direction,
            }
        else:
            command = {"type": "discard", "tiles": view["hand"][:3]}
        moved = requests.post(
            f"{live_url}/v1/games/{game}/moves",
            json={**command, "expected_version": view["version"]},
            headers=auth(players[seat]),
            timeout=10,
        )
        assert moved.status_code == 200, moved.text
        view = moved.json()
    spectator: dict[str, Any] = requests.get(f"{live_url}/v1/games/{game}", timeout=10).json()
    return game, spectator


def test_a_wide_summy_table_is_shown_whole_with_its_centre_in_view(
    browser: Any, live_url: str
) -> None:
    """Issue 26: the Summy page was a text grid cut off by a scroll bar. The table is now a
    picture scaled to the page: however wide the table, every tile (the middle = among
    them) is in the window, with no scrolling sideways."""
    game, view = _widest_summy_table(live_url, turns=20)
    xs = [t["x"] for t in view["table"]]
    assert max(xs) - min(xs) >= 24, "the table did not grow wide enough to test"
    page = browser.new_page(viewport={"width": 800, "height": 700}, device_scale_factor=1)
    try:
        page.goto(f"{live_url}/games/{game}")
        assert page.locator("svg g.tile[data-x]").count() == len(view["table"])
        assert page.locator("pre:visible").count() == 0  # the text grid is folded away
        width = page.evaluate("window.innerWidth")
        height = page.evaluate("window.innerHeight")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        centre = page.locator('svg g.tile[data-x="0"][data-y="0"]').bounding_box()
        assert centre is not None
        assert 0 <= centre["x"] and centre["x"] + centre["width"] <= width
        assert 0 <= centre["y"] and centre["y"] + centre["height"] <= height
        for edge in (min(xs), max(xs)):
            tile = page.locator(f'svg g.tile[data-x="{edge}"]').first.bounding_box()
            assert tile is not None and 0 <= tile["x"] and tile["x"] + tile["width"] <= width
        last = page.locator("svg g.tile.last").first.bounding_box()
        assert last is not None and 0 <= last["x"] <= width and 0 <= last["y"] <= height
    finally:
        page.close()
