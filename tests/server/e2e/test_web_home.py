"""The web as a home (issue 42), end to end: Debian's Chromium driven by Playwright, a
live server and a real local SMTP relay (aiosmtpd), three friends with only browsers
and addresses.

Cea signs up in the browser, creates a three-seat game inviting Dan by address and
leaving one seat open; Eve signs up and joins it from the lobby; Dan follows his mail.
All three play it to the end by clicking on their play pages (the moves chosen by the
rules package's move generator); their home pages' titles and "waiting on you" lists
follow the turns. Dan changes his time zone and language in the settings, and his
next turn mail follows them. Eve downloads her data and deletes her account: the
finished game shows an anonymous name, and the database holds nothing of hers but the
anonymous seat.

``MATHABLE_WEB_SCREENSHOTS=dir`` keeps the phone-size screenshots of each new page
(docs/screenshots holds them).
"""

from __future__ import annotations

import os
import re
import secrets
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mathable import legal_placements
from tests.server.browser import PHONE, chromium
from tests.server.live import live_server
from tests.server.mailbox import Mailbox, text_of

pytestmark = pytest.mark.e2e


PUBLIC = "http://mathable.test"
DESK = {"width": 1100, "height": 900}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Mailbox, Path]]:
    mailbox = Mailbox()
    mailbox.start()
    database = tmp_path_factory.mktemp("web-home") / "live.db"
    env = {
        "MATHABLE_SMTP_URL": mailbox.url,
        "MATHABLE_PUBLIC_URL": PUBLIC,
        "MATHABLE_DELIVER_SECONDS": "0.1",
        "MATHABLE_OUTBOX_BASE_DELAY": "0.1",
        "MATHABLE_RATE_LIMIT": "off",
        "MATHABLE_ADDRESS_RATE_LIMIT": "off",
        "MATHABLE_STREAM_HEARTBEAT": "1",
    }
    try:
        with live_server(f"sqlite:///{database}", env=env) as url:
            yield url, mailbox, database
    finally:
        mailbox.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


class Clicks:
    """Counts what a new visitor clicks (and opens from their mail) on the way."""

    def __init__(self) -> None:
        self.count = 0

    def click(self, locator: Any) -> None:
        self.count += 1
        locator.click()


def _link_in(mailbox: Mailbox, address: str, path: str) -> str:
    mail = mailbox.wait_for(lambda m: m["To"] == address and f"{PUBLIC}{path}" in text_of(m))
    found = re.search(rf"({re.escape(PUBLIC)}{path}[A-Za-z0-9_-]+)", text_of(mail))
    assert found is not None, text_of(mail)
    return found[1]


def _sign_up(browser: Any, base: str, mailbox: Mailbox, name: str, shots: Path | None = None,
             clicks: Clicks | None = None) -> Any:  # fmt: skip
    """A new visitor signs up from the front door; their page, signed in, at home."""
    clicks = clicks or Clicks()
    address = f"{name}@example.org"
    context = browser.new_context(viewport=PHONE if shots else DESK, device_scale_factor=2)
    page = context.new_page()
    page.goto(base + "/")
    if shots:
        page.screenshot(path=str(shots / "web-home-front.png"), full_page=True)
    clicks.click(page.get_by_role("link", name="Sign up", exact=True))
    page.get_by_label("Your email address").fill(address)
    clicks.click(page.get_by_role("button", name="Mail me a sign-up link"))
    page.locator("#message").wait_for()
    if shots:
        page.screenshot(path=str(shots / "web-home-signup.png"), full_page=True)
    clicks.count += 1  # the link, opened from the mail
    page.goto(_link_in(mailbox, address, "/signup/").replace(PUBLIC, base))
    page.get_by_label("Pick a name").fill(name)
    clicks.click(page.get_by_role("button", name="Create my account"))
    page.wait_for_url(base + "/")
    assert page.locator("h1").inner_text() == f"Hello, {name}"
    if shots:
        page.set_viewport_size(DESK)
    return page


def _view(page: Any, base: str, game: str) -> dict[str, Any]:
    answer = page.context.request.get(f"{base}/v1/games/{game}")
    assert answer.ok, answer.text()
    body: dict[str, Any] = answer.json()
    return body


def _wait_status(page: Any, words: str) -> None:
    page.wait_for_function(
        "w => document.getElementById('status').textContent.includes(w)", arg=words,
        timeout=20_000,
    )  # fmt: skip


def _turn(page: Any, base: str, game: str, clicks: Clicks | None = None) -> None:
    """The seat to move plays greedily by clicking: up to three placements, each the best
    single one the move generator finds, then Send turn (Pass when none fits)."""
    clicks = clicks or Clicks()
    page.bring_to_front()
    view = _view(page, base, game)
    page.wait_for_function("v => Number(document.getElementById('play').dataset.version) >= v",
                           arg=view["version"], timeout=20_000)  # fmt: skip
    _wait_status(page, "Your turn.")
    board, rack = dict(view["board"]), list(view["rack"])
    placed = 0
    while placed < 3:
        options = legal_placements(board, rack)
        if not options:
            break
        best = options[0]
        clicks.click(page.get_by_role("button", name=f"tile {best.tile}", exact=True).first)
        # A square's name starts with it and says what lies there (``H9, empty``).
        square = re.compile("^" + re.escape(best.square) + ",")
        clicks.click(page.get_by_role("button", name=square))
        board[best.square] = best.tile
        rack.remove(best.tile)
        placed += 1
    if not placed:
        page.once("dialog", lambda dialog: dialog.accept())  # Pass asks to be sure
    words = "Send turn" if placed else "Pass"
    clicks.click(page.get_by_role("button", name=words, exact=True))
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        now = _view(page, base, game)
        if now["status"] != "playing" or now["turn"]["seat"] != view["you"]:
            return
        time.sleep(0.05)
    raise AssertionError("the turn never ended")


def _title_count(page: Any, expected: int) -> None:
    """The page's title starts with ``(n) `` (none for 0), kept current by its script."""
    page.wait_for_function(
        "n => n ? document.title.startsWith('(' + n + ') ') : !/^\\(\\d+\\) /.test(document.title)",
        arg=expected, timeout=45_000,  # a loaded CI machine: the streams' wake-ups queue
    )  # fmt: skip


def _waiting_ids(home: Any) -> list[str]:
    return list(home.locator("#waiting li[data-game]").evaluate_all(
        "items => items.map(i => i.dataset.game)"))  # fmt: skip


def test_three_friends_sign_up_find_each_other_and_finish_a_game_in_browsers(
    server: tuple[str, Mailbox, Path], browser: Any, tmp_path: Path
) -> None:
    base, mailbox, database = server
    shots = Path(os.environ.get("MATHABLE_WEB_SCREENSHOTS") or tmp_path)
    tag = secrets.token_hex(2)
    cea_name, dan_name, eve_name = f"cea{tag}", f"dan{tag}", f"eve{tag}"
    dan_address = f"{dan_name}@example.org"
    blocked: list[str] = []

    def watch(page: Any) -> Any:
        page.on("console", lambda m: blocked.append(m.text) if "Content Security" in m.text
                else None)  # fmt: skip
        return page

    # Cea, a new visitor: the front door, sign up, a new game.
    clicks = Clicks()
    cea = watch(_sign_up(browser, base, mailbox, cea_name, shots, clicks))
    cea.set_viewport_size(PHONE)
    cea.screenshot(path=str(shots / "web-home-empty.png"), full_page=True)
    clicks.click(cea.get_by_role("link", name="New game", exact=True).first)
    cea.wait_for_url(base + "/new")
    cea.get_by_label("Seats").select_option("3")
    cea.get_by_label("Seat 2").select_option("address")
    cea.get_by_label("Email address").first.fill(dan_address)
    assert cea.get_by_label("Seat 3").input_value() == "open"
    cea.screenshot(path=str(shots / "web-home-new.png"), full_page=True)
    cea.set_viewport_size(DESK)
    clicks.click(cea.get_by_role("button", name="Create game"))
    cea.wait_for_url(re.compile(r".*/play/g[0-9a-z]+$"))
    game = cea.url.rsplit("/", 1)[1]
    created = _view(cea, base, game)
    assert created["players"] == 3 and created["clock"]["per_move"] == 3 * 86_400

    # Eve signs up and finds the game in the lobby: one seat open to anyone (the other
    # is promised to Dan's mailed invitation).
    eve = watch(_sign_up(browser, base, mailbox, eve_name))
    eve.goto(base + "/lobby")
    card = eve.locator(f'#lobby li[data-game="{game}"]')
    assert cea_name in card.inner_text() and "1 of 3 seats taken" in card.inner_text()
    eve.set_viewport_size(PHONE)
    eve.screenshot(path=str(shots / "web-home-lobby.png"), full_page=True)
    eve.set_viewport_size(DESK)
    listed = eve.context.request.get(f"{base}/v1/lobby").json()["games"]
    entry = next(g for g in listed if g["id"] == game)
    assert entry["creator"]["name"] == cea_name and entry["seated"] == 1
    card.get_by_role("button", name="Join").click()
    eve.wait_for_url(f"{base}/play/{game}")
    # Full but for Dan's seat: the lobby shows it no more.
    assert all(g["id"] != game for g in eve.context.request.get(f"{base}/v1/lobby").json()["games"])

    # Dan follows his mail.
    dan_context = browser.new_context(viewport=DESK)
    dan = watch(dan_context.new_page())
    dan.goto(_link_in(mailbox, dan_address, "/join/").replace(PUBLIC, base))
    dan.get_by_label("Pick a name").fill(dan_name)
    dan.get_by_role("button", name="Join the game").click()
    dan.wait_for_url(f"{base}/play/{game}")

    players = {cea_name: cea, dan_name: dan, eve_name: eve}
    homes = {}
    for name, page in players.items():
        home = watch(page.context.new_page())
        home.goto(base + "/")
        homes[name] = home
    view = _view(cea, base, game)
    assert view["status"] == "playing"
    names = [seat["name"] for seat in view["seats"]]

    def check_homes(turn_seat: int) -> None:
        """The one to move has ``(1) `` in both tabs' titles and the game waiting on them
        on the home; the others nothing."""
        for name, home in homes.items():
            mine = names[turn_seat] == name
            _title_count(home, 1 if mine else 0)
            _title_count(players[name], 1 if mine else 0)
            home.wait_for_function(
                "([g, mine]) => { const h = document.getElementById('home');"
                " return h && h.dataset.waiting.split(' ').includes(g) === mine; }",
                arg=[game, mine], timeout=20_000,
            )  # fmt: skip
            assert (game in _waiting_ids(home)) == mine

    check_homes(view["turn"]["seat"])
    first_mover = players[names[view["turn"]["seat"]]]
    homes[names[view["turn"]["seat"]]].set_viewport_size(PHONE)
    homes[names[view["turn"]["seat"]]].screenshot(path=str(shots / "web-home-waiting.png"),
                                                  full_page=True)  # fmt: skip
    _turn(first_mover, base, game, clicks if first_mover is cea else None)
    counted = first_mover is cea
    if counted:
        print(f"\nclicks from / to a first move (sign-up, new game, a turn): {clicks.count}")
    check_homes(_view(cea, base, game)["turn"]["seat"])

    # Dan reads Norwegian in Tokyo from now on: his next turn mail says so.
    dan.goto(base + "/settings")
    dan.get_by_label("Time zone", exact=True).fill("Asia/Tokyo")
    dan.locator("#zone-form").get_by_role("button", name="Save").click()
    dan.locator("#zone-form .result").wait_for()
    dan.get_by_label("Language of pages and mail").select_option("nb")
    dan.locator("#language-form").get_by_role("button", name="Save").click()
    dan.wait_for_function("() => document.documentElement.lang === 'nb'", timeout=20_000)
    dan.set_viewport_size(PHONE)
    dan.screenshot(path=str(shots / "web-home-settings.png"), full_page=True)
    dan.set_viewport_size(DESK)
    settings = dan.context.request.get(f"{base}/v1/me").json()
    assert settings["time_zone"] == "Asia/Tokyo" and settings["language"] == "nb"
    sent = len(mailbox.to(dan_address))
    dan.goto(f"{base}/play/{game}")

    mailed = others_moved = False
    turns = 1
    while True:
        view = _view(cea, base, game)
        if view["status"] == "ended":
            break
        mover = names[view["turn"]["seat"]]
        page = players[mover]
        if mover == dan_name:
            if not mailed and others_moved:
                # His first turn mail since: in Norwegian, the deadline in Tokyo time.
                mailbox.wait_for(lambda m: len(mailbox.to(dan_address)) > sent)
                newest = mailbox.to(dan_address)[-1]
                assert newest["Content-Language"] == "nb", newest["Subject"]
                assert "(Asia/Tokyo)" in text_of(newest), text_of(newest)
                mailed = True
            _turn_nb(page, base, game)  # his page is in Norwegian now
        else:
            _turn(page, base, game, clicks if mover == cea_name and not counted else None)
            if mover == cea_name and not counted:
                counted = True  # Cea's first move: the new visitor's clicks counted
                print(f"\nclicks from / to a first move (sign-up, new game, a turn): "
                      f"{clicks.count}")  # fmt: skip
            others_moved = True
        turns += 1
        if turns <= 4:
            check_homes(_view(cea, base, game)["turn"]["seat"])
        assert turns < 400, "the game never ended"
    print(f"whole three-seat game: {turns} turns")
    assert mailed, "Dan had no turn after changing his settings"
    for home in homes.values():
        _title_count(home, 0)
        home.goto(base + "/")
        finished = home.locator(f'#finished li[data-game="{game}"]')
        assert finished.get_by_role("button", name=re.compile("Rematch|Omkamp")).count() == 1
    homes[cea_name].set_viewport_size(PHONE)
    homes[cea_name].screenshot(path=str(shots / "web-home-finished.png"), full_page=True)

    # Players and the leaderboard.
    cea.goto(f"{base}/players/{eve_name}")
    assert "Against you" in cea.locator("#head-to-head").inner_text()
    assert game in cea.locator("#recent").inner_text()
    if cea.locator("table tbody tr").count():  # a rated game: each rating's history drawn
        assert cea.locator("table svg polyline").count() >= 1
    cea.set_viewport_size(PHONE)
    cea.screenshot(path=str(shots / "web-home-player.png"), full_page=True)
    cea.goto(f"{base}/leaderboard")
    cea.screenshot(path=str(shots / "web-home-leaderboard.png"), full_page=True)

    # Eve downloads her data, then deletes her account.
    eve_id = eve.context.request.get(f"{base}/v1/me").json()["id"]
    eve.goto(f"{base}/settings")
    with eve.expect_download() as download:
        eve.get_by_role("link", name="Download my data (JSON)").click()
    data = Path(download.value.path()).read_text()
    assert eve_name in data and f"{eve_name}@example.org" in data and game in data
    eve.get_by_label("Type your name to confirm").fill(eve_name)
    eve.get_by_role("button", name="Delete my account").click()
    eve.wait_for_url(base + "/")
    assert eve.get_by_role("link", name="Sign up", exact=True).count() == 1  # signed out
    spectator = cea.context.browser.new_page()
    spectator.goto(f"{base}/games/{game}")
    shown = spectator.locator("main").inner_text()
    assert eve_name not in shown and "anonymous-" in shown
    _nothing_left(database, eve_id, eve_name)
    assert blocked == []
    for context in (cea.context, eve.context, dan.context, spectator.context):
        context.close()


def _turn_nb(page: Any, base: str, game: str) -> None:
    """``_turn`` on a page in Norwegian: the same buttons, found by their places."""
    view = _view(page, base, game)
    page.bring_to_front()
    page.wait_for_function("v => Number(document.getElementById('play').dataset.version) >= v",
                           arg=view["version"], timeout=20_000)  # fmt: skip
    board, rack = dict(view["board"]), list(view["rack"])
    page.wait_for_function("n => document.querySelectorAll('#rack button').length === n",
                           arg=len(rack), timeout=20_000)  # fmt: skip
    placed = 0
    while placed < 3:
        options = legal_placements(board, rack)
        if not options:
            break
        best = options[0]
        page.locator("#rack button", has_text=re.compile(rf"^{best.tile}$")).first.click()
        page.locator(f'#board [data-square="{best.square}"]').first.click()
        board[best.square] = best.tile
        rack.remove(best.tile)
        placed += 1
    if not placed:
        page.once("dialog", lambda dialog: dialog.accept())  # Pass asks to be sure
    page.locator("#send" if placed else "#pass").click()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        now = _view(page, base, game)
        if now["status"] != "playing" or now["turn"]["seat"] != view["you"]:
            return
        time.sleep(0.05)
    raise AssertionError("the turn never ended")


def _nothing_left(database: Path, player_id: str, name: str) -> None:
    """Every table of the database, read for the player's id, name and address: only the
    anonymous seat is left (the player's row under another name, their seats and
    results of games, and the games' logs, which name seats by id; in the feed, the row
    that told every process the account was gone: its id, a kind and a time)."""
    keeps = {"players", "game_members", "game_results", "events", "player_feed_cursor",
             "player_feed"}
    with sqlite3.connect(database) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            rows = conn.execute(f'SELECT * FROM "{table}"').fetchall()  # noqa: S608
            for row in rows:
                text = " ".join(str(v) for v in row)
                assert name not in text, (table, row)
                assert f"{name}@example.org" not in text, (table, row)
                if player_id in text:
                    assert table in keeps, (table, row)
                    assert table != "player_feed" or "revoked" in row, (table, row)
        anonymous, email, token = conn.execute(
            "SELECT name, email, token_hash FROM players WHERE id = ?", (player_id,)
        ).fetchone()
        assert anonymous.startswith("anonymous-")
        assert email is None and token == ""
