"""Playing in the browser (issue 28), end to end: Debian's Chromium driven by Playwright,
a live server, and a real local SMTP relay (aiosmtpd) catching the invitation.

Ann creates a game through the API and invites Bob by address; Bob follows the mailed
link, picks his name, and both play by clicking: a whole Mathable game (one turn
placing the extra tile it drew, one turn by keyboard alone, a refused move showing the
API's reason, a second tab of Ann's seeing Bob's move without a reload) and a whole
Summy game. The moves are chosen by the rules package's move generators on the seat's
view and clicked in; the pages send them through the JSON API. Between players (issue
29): messages written on the page and read live, a rated game's page without hints, the
result with what the end took off each rack, and the rematch button.

``MATHABLE_PLAY_SCREENSHOTS=dir`` keeps the screenshots (docs/ holds them).
"""

from __future__ import annotations

import os
import re
import secrets
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import requests

from mathable import legal_placements
from mathable.core.ruleset import ruleset
from tests.server.browser import PHONE, auth, chromium, register
from tests.server.helpers import EXAMPLE_TILES
from tests.server.live import live_server
from tests.server.mailbox import Mailbox, text_of

pytestmark = pytest.mark.e2e


#: The address the server believes it has; its links are read as the live server's.
PUBLIC = "http://mathable.test"
OPERATIONS = {
    square
    for squares in ruleset("mathable").data()["board"]["operations"].values()
    for square in squares
}


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Mailbox]]:
    mailbox = Mailbox()
    mailbox.start()
    env = {
        "MATHABLE_SMTP_URL": mailbox.url,
        "MATHABLE_PUBLIC_URL": PUBLIC,
        "MATHABLE_DELIVER_SECONDS": "0.1",
        "MATHABLE_OUTBOX_BASE_DELAY": "0.1",
        "MATHABLE_RATE_LIMIT": "off",
        "MATHABLE_ADDRESS_RATE_LIMIT": "off",
        # The play page reads the messages at every line of the game's stream, a heartbeat
        # too: a message written between two moves shows within a heartbeat.
        "MATHABLE_STREAM_HEARTBEAT": "1",
    }
    try:
        with live_server(env=env) as url:
            yield url, mailbox
    finally:
        mailbox.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def _signed_in(browser: Any, base: str, player: dict[str, str], game: str,
               viewport: dict[str, int] | None = None) -> Any:  # fmt: skip
    """A browser context signed in as ``player`` the way ``mathable-cli open`` does it."""
    link = requests.post(f"{base}/v1/me/signin-link", json={"game": game},
                         headers=auth(player), timeout=10).json()  # fmt: skip
    context = browser.new_context(viewport=viewport or {"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(base + link["path"])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"**/play/{game}")
    return page


def _invited(browser: Any, base: str, mailbox: Mailbox, ann: dict[str, str], game: str,
             address: str, name: str) -> tuple[Any, float]:  # fmt: skip
    """Ann invites ``address``; Bob's browser follows the mailed link and picks ``name``.
    Bob's page and when the mail came."""
    invited = requests.post(f"{base}/v1/games/{game}/invitations", json={"email": address},
                            headers=auth(ann), timeout=10)  # fmt: skip
    assert invited.status_code == 202, invited.text
    mail = mailbox.wait_for(lambda m: m["To"] == address and "invites you" in str(m["Subject"]))
    came = mailbox.times[mailbox.messages.index(mail)]
    link = re.search(r"(http://mathable\.test/join/[A-Za-z0-9_-]+)", text_of(mail))
    assert link is not None, text_of(mail)
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(link[1].replace(PUBLIC, base))
    assert ann["name"] in page.locator("h1").inner_text()
    page.get_by_label("Pick a name").fill(name)
    page.get_by_role("button", name="Join the game").click()
    page.wait_for_url(f"**/play/{game}")
    return page, came


def _button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def _pass(page: Any) -> None:
    """``Pass``, confirmed in the page's dialog."""
    page.once("dialog", lambda dialog: dialog.accept())
    _button(page, "Pass").click()


def _square(page: Any, name: str) -> Any:
    """A square of the board by its accessible name, which starts with the square and
    goes on with what lies on it (``I8, 12``; ``A1, times 3``; ``H9, empty``)."""
    return page.get_by_role("button", name=re.compile("^" + re.escape(name) + ","))


def _view(page: Any, base: str, game: str) -> dict[str, Any]:
    """The seat's view, asked with the page's own session cookie."""
    answer = page.context.request.get(f"{base}/v1/games/{game}")
    assert answer.ok, answer.text()
    body: dict[str, Any] = answer.json()
    return body


def _wait_version(page: Any, base: str, game: str, after: int) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        view = _view(page, base, game)
        if view["version"] > after:
            return view
        time.sleep(0.05)
    raise AssertionError("the move never came")


def _wait_rack(page: Any, base: str, game: str, size: int, placed: int) -> dict[str, Any]:
    """The seat's view once ``placed`` tiles of its turn are down and its rack holds
    ``size`` tiles (the extra tile drawn)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        view = _view(page, base, game)
        if len(view["turn"]["placements"]) == placed and len(view["rack"]) == size:
            return view
        time.sleep(0.05)
    raise AssertionError("the extra tile never came")


def _wait_status(page: Any, words: str) -> None:
    try:
        page.wait_for_function(
            "w => document.getElementById('status').textContent.includes(w)", arg=words,
            timeout=20_000,
        )  # fmt: skip
    except Exception:
        shown = (page.locator("#play").get_attribute("data-version"),
                 page.locator("#status").inner_text(), page.locator("#error").inner_text())
        raise AssertionError(f"the page never said {words!r}: {shown}") from None


def _mathable_turn(page: Any, base: str, game: str, want_extra: bool) -> dict[str, Any]:
    """The seat to move plays greedily by clicking: up to three placements, each the best
    single one the move generator finds; after an operation square, when asked, the extra
    tile is drawn and the turn goes on. What the turn did."""
    page.bring_to_front()  # a tab in the background is slowed down by the browser
    _page_current(page, base, game)
    _wait_status(page, "Your turn.")  # the page learned it without a reload
    view = _view(page, base, game)
    board, rack = dict(view["board"]), list(view["rack"])
    did: dict[str, Any] = {"placed": 0, "extra_placed": False, "version": view["version"]}
    drawn = False
    while did["placed"] < 3:
        options = legal_placements(board, rack)
        if not options:
            break
        best = options[0]
        _button(page, f"tile {best.tile}").first.click()
        _square(page, best.square).click()
        board[best.square] = best.tile
        rack.remove(best.tile)
        did["placed"] += 1
        if drawn:
            did["extra_placed"] = True
        if want_extra and not drawn and best.square in OPERATIONS and view["bag_size"] > 0:
            _button(page, "Draw extra tile").click()
            view = _wait_rack(page, base, game, len(rack) + 1, did["placed"])
            page.wait_for_function("n => document.querySelectorAll('#rack button').length === n",
                                   arg=len(view["rack"]), timeout=20_000)  # fmt: skip
            board, rack = dict(view["board"]), list(view["rack"])
            drawn = True
    if did["placed"]:
        _button(page, "Send turn").click()
    else:
        _pass(page)
    _turn_over(page, base, game, view["you"])
    return did


def _turn_over(page: Any, base: str, game: str, seat: int) -> None:
    """Wait until the seat's turn is over (the page may send several commands)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        view = _view(page, base, game)
        if view["status"] != "playing" or view["turn"]["seat"] != seat:
            return
        time.sleep(0.05)
    raise AssertionError("the turn never ended")


def _page_current(page: Any, base: str, game: str) -> None:
    """Wait until the page shows the game's current version (no reload: the long-poll)."""
    version = _view(page, base, game)["version"]
    page.wait_for_function("v => Number(document.getElementById('play').dataset.version) >= v",
                           arg=version, timeout=20_000)  # fmt: skip


def test_invited_by_mail_bob_plays_a_whole_mathable_game_in_the_browser(
    server: tuple[str, Mailbox], browser: Any, tmp_path: Path
) -> None:
    base, mailbox = server
    ann = register(base, "ann")
    created = requests.post(f"{base}/v1/games", json={"tiles": EXAMPLE_TILES},
                            headers=auth(ann), timeout=10).json()  # fmt: skip
    game = created["id"]
    address = f"bob{secrets.token_hex(3)}@example.org"
    bob_name = f"bob{secrets.token_hex(3)}"
    bob, mail_came = _invited(browser, base, mailbox, ann, game, address, bob_name)
    ann_page = _signed_in(browser, base, ann, game)
    ann_tab = ann_page.context.new_page()  # a second tab of Ann's seat
    ann_tab.goto(f"{base}/play/{game}")
    pages = {0: ann_page, 1: bob}
    blocked: list[str] = []
    for page in (ann_page, ann_tab, bob):
        page.on("console", lambda m: blocked.append(m.text) if "Content Security" in m.text
                else None)  # fmt: skip
    ann_page.bring_to_front()
    _wait_status(ann_page, "Your turn.")
    _wait_status(bob, "to play.")
    start = _view(ann_page, base, game)["version"]

    # A refused move shows the reason the API gave: 12 does not fit on A1.
    _button(ann_page, "tile 12").first.click()
    _square(ann_page, "A1").click()
    _button(ann_page, "Send turn").click()
    refusal = requests.post(f"{base}/v1/games/{game}/moves", headers=auth(ann), timeout=10,
                            json={"type": "turn", "expected_version": start,
                                  "placements": [{"square": "A1", "tile": 12}]}).json()  # fmt: skip
    message = refusal["error"]["message"]
    assert "A1" in message
    # Shown without the rules' technical prefix ("placement 1: "): what the board shows.
    message = re.sub(r"^[^\W\d_][\w ]{0,19} \d+\s?:\s*", "", message)
    print(f"\nthe refusal shown: {message}")
    ann_page.wait_for_function("m => document.getElementById('error').textContent === m",
                               arg=message, timeout=20_000)  # fmt: skip
    assert _view(ann_page, base, game)["version"] == start  # unchanged
    _button(ann_page, "Undo").click()  # A1 is taken back: the rack is whole again
    ann_page.wait_for_function("() => document.querySelectorAll('#rack button').length === 7")

    # The first move, by keyboard alone: the skip link to the rack, arrows to the tile,
    # Enter (the focus goes on to the board), arrows to I8, Enter, Tab to Send turn, Enter.
    def focus(page: Any, label: str, key: str) -> None:
        for _ in range(400):
            name = page.evaluate("(e => e.getAttribute('aria-label') || e.textContent.trim())"
                                 "(document.activeElement)")  # fmt: skip
            if name == label or name.startswith(label + ","):
                return
            page.keyboard.press(key)
        raise AssertionError(f"{label} was never reached by {key}")

    def arrows_to(page: Any, square: str) -> None:
        columns = "ABCDEFGHIJKLMN"
        at = page.evaluate("document.activeElement.dataset.square")
        dx = columns.index(square[0]) - columns.index(at[0])
        dy = int(square[1:]) - int(at[1:])
        for _ in range(abs(dx)):
            page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
        for _ in range(abs(dy)):
            page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")

    ann_page.locator("body").click(position={"x": 2, "y": 2})
    focus(ann_page, "Skip to your tiles", "Tab")
    ann_page.keyboard.press("Enter")
    focus(ann_page, "tile 12", "ArrowRight")
    ann_page.keyboard.press("Enter")
    arrows_to(ann_page, "I8")
    focus(ann_page, "I8", "ArrowRight")
    ann_page.keyboard.press("Enter")
    focus(ann_page, "Send turn", "Tab")
    ann_page.keyboard.press("Enter")
    first = _wait_version(ann_page, base, game, start)
    first_move_at = time.time()
    assert first["board"]["I8"] == 12
    print(f"\ninvitation mail to first move: {first_move_at - mail_came:.1f} s")

    # Bob sees it without a reload, and his move reaches both of Ann's tabs.
    bob.locator('[data-square="I8"].tile').wait_for(timeout=20_000)
    _wait_status(bob, "Your turn.")
    bob.wait_for_function("w => document.getElementById('news').textContent === w",
                          arg=f"{ann['name']}: I8=12 (12) — 12 points", timeout=20_000)  # fmt: skip
    assert bob.locator("#news").get_attribute("aria-live") == "polite"
    shots = Path(os.environ.get("MATHABLE_PLAY_SCREENSHOTS") or tmp_path)
    # Bob's turn on a phone: a tile chosen, the squares it fits framed, one placed and
    # the turn's running score (not sent: the phone's page keeps it to itself).
    phone = bob.context.browser.new_context(viewport=PHONE, device_scale_factor=2)
    phone_page = phone.new_page()
    phone_page.context.add_cookies(bob.context.cookies())
    phone_page.goto(f"{base}/play/{game}")
    _wait_status(phone_page, "Your turn.")
    view = _view(phone_page, base, game)
    best = legal_placements(view["board"], view["rack"])[0]
    _button(phone_page, f"tile {best.tile}").first.click()
    phone_page.locator("#board button.fits").first.wait_for(timeout=20_000)
    assert "fits" in (_square(phone_page, best.square).get_attribute("class") or "").split()
    _square(phone_page, best.square).click()
    phone_page.wait_for_function("() => document.getElementById('running').textContent"
                                 ".includes('This turn so far')", timeout=20_000)  # fmt: skip
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone_page.screenshot(path=str(shots / "play-mathable-phone-turn.png"))
    phone.close()
    did = _mathable_turn(bob, base, game, want_extra=True)
    for tab in (ann_page, ann_tab):
        _wait_status(tab, "Your turn.")
    ann_tab.wait_for_function("w => document.getElementById('news').textContent.startsWith(w)",
                              arg=f"{bob_name}: ", timeout=20_000)  # fmt: skip
    assert ann_tab.locator("#moves li").count() >= 2

    started = time.monotonic()
    turns = 2
    extra_in_turn = did["extra_placed"]
    while True:
        view = _view(ann_page, base, game)
        if view["status"] == "ended":
            break
        page = pages[view["turn"]["seat"]]
        did = _mathable_turn(page, base, game, want_extra=not extra_in_turn)
        extra_in_turn = extra_in_turn or did["extra_placed"]
        turns += 1
        assert turns < 300, "the game never ended"
    print(f"whole Mathable game: {turns} turns in {time.monotonic() - started:.1f} s")
    assert extra_in_turn, "no turn placed the extra tile it drew"
    for page in (ann_page, ann_tab, bob):
        _wait_status(page, "Game over")
    assert blocked == []

    # Readable on a phone: Bob's page at 390 x 844.
    phone = bob.context.browser.new_context(viewport=PHONE, device_scale_factor=2)
    phone_page = phone.new_page()
    phone_page.context.add_cookies(bob.context.cookies())
    phone_page.goto(f"{base}/play/{game}")
    _wait_status(phone_page, "Game over")
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    square = _square(phone_page, "H8").bounding_box()
    assert square is not None and square["width"] >= 20
    phone_page.screenshot(path=str(shots / "play-mathable-phone.png"), full_page=True)
    phone.close()
    for page in (ann_page, bob):
        page.context.close()


def _summy_turn(page: Any, base: str, game: str) -> None:
    from mathable.games.summy import tile_names
    from mathable.games.summy.movegen import legal_moves
    from mathable.games.summy.tiles import parse_tiles

    view = _view(page, base, game)
    table = {(t["x"], t["y"]): parse_tiles(t["tile"])[0] for t in view["table"]}
    closed = [(c["x"], c["y"]) for c in view["closed"]]
    hand = [parse_tiles(t)[0] for t in view["hand"]]
    moves = list(legal_moves(table, hand, closed))[:200]  # what the page is told of
    if not moves:
        if view.get("supply"):
            for index in range(min(3, len(view["hand"]))):  # discard three (Discard)
                page.locator(f'#rack button[data-index="{index}"]').click()
            _button(page, "Discard").click()
        else:
            _pass(page)
        _turn_over(page, base, game, view["you"])
        return
    best = max(moves, key=lambda m: (len(m.placements), m.points))
    # The squares of the equation nearest the table first: each is on the page by then.
    for x, y, tile in best.placements:
        _button(page, f"tile {tile_names([tile])[0]}").first.click()
        _square(page, f"{x},{y}").click()
    _button(page, "Check").click()
    page.wait_for_function(
        "() => document.getElementById('running').textContent.includes('equation')",
        timeout=20_000,
    )  # a function, not an expression: the page's CSP refuses eval
    _button(page, "Send turn").click()
    _turn_over(page, base, game, view["you"])


def test_a_whole_summy_game_by_clicking(
    server: tuple[str, Mailbox], browser: Any, tmp_path: Path
) -> None:
    import random

    from mathable.games.summy import SUPPLY_SET, tile_names

    base, mailbox = server
    ann = register(base, "ann")
    order = list(SUPPLY_SET)
    random.Random(28).shuffle(order)
    created = requests.post(f"{base}/v1/games",
                            json={"ruleset": "summy", "tiles": tile_names(order)},
                            headers=auth(ann), timeout=10).json()  # fmt: skip
    game = created["id"]
    address = f"bob{secrets.token_hex(3)}@example.org"
    bob, _came = _invited(browser, base, mailbox, ann, game, address, f"bob{secrets.token_hex(3)}")
    ann_page = _signed_in(browser, base, ann, game)
    pages = {0: ann_page, 1: bob}
    started = time.monotonic()
    turns = 0
    while True:
        view = _view(ann_page, base, game)
        if view["status"] == "ended":
            break
        page = pages[view["turn"]["seat"]]
        _page_current(page, base, game)
        _wait_status(page, "Your turn.")
        _summy_turn(page, base, game)
        turns += 1
        assert turns < 300, "the game never ended"
    print(f"\nwhole Summy game: {turns} turns in {time.monotonic() - started:.1f} s")
    _wait_status(bob, "Game over")
    shots = Path(os.environ.get("MATHABLE_PLAY_SCREENSHOTS") or tmp_path)
    bob.set_viewport_size(PHONE)
    bob.screenshot(path=str(shots / "play-summy-phone.png"), full_page=True)
    for page in (ann_page, bob):
        page.context.close()


def test_the_play_page_speaks_the_player_s_language(
    server: tuple[str, Mailbox], browser: Any
) -> None:
    """Ann reads French (PATCH /v1/me): her play page says so (issue 30), its buttons and
    the words its script writes (from the dictionary the page embeds: no inline script)."""
    base, _mailbox = server
    ann, bob = register(base, "ann"), register(base, "bob")
    requests.patch(f"{base}/v1/me", json={"language": "fr"}, headers=auth(ann), timeout=10)
    game = requests.post(f"{base}/v1/games", json={"tiles": EXAMPLE_TILES, "invite": [bob["name"]]},
                         headers=auth(ann), timeout=10).json()["id"]  # fmt: skip
    joined = requests.post(f"{base}/v1/games/{game}/join", json={}, headers=auth(bob), timeout=10)
    assert joined.status_code == 200, joined.text
    page = _signed_in(browser, base, ann, game)
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text) if "Content Security" in m.text else None)
    page.reload()
    page.wait_for_function(
        "() => document.getElementById('status').textContent === 'À vous de jouer.'"
    )
    assert page.locator("html").get_attribute("lang") == "fr"
    for label in ("Envoyer le tour", "Reprendre", "Échanger", "Passer", "Abandonner"):
        assert _button(page, label).count() == 1, label
    assert page.locator("#rack button").first.get_attribute("aria-label").startswith("jeton ")
    assert not blocked
    page.context.close()

def _wait_text(page: Any, selector: str, words: str) -> None:
    try:
        page.wait_for_function(
            "([s, w]) => (document.querySelector(s) || {textContent: ''}).textContent.includes(w)",
            arg=[selector, words], timeout=20_000,
        )  # fmt: skip
    except Exception:
        shown = page.locator(selector).inner_text()
        raise AssertionError(f"{selector} never said {words!r}: {shown!r}") from None


def test_messages_rated_flag_result_and_rematch_on_the_play_page(
    server: tuple[str, Mailbox], browser: Any, tmp_path: Path
) -> None:
    base, _mailbox = server
    ann, bob = register(base, "ann"), register(base, "bob")
    zone = requests.patch(f"{base}/v1/me", json={"time_zone": "Asia/Tokyo"},
                          headers=auth(ann), timeout=10)  # fmt: skip
    assert zone.ok, zone.text
    created = requests.post(f"{base}/v1/games", headers=auth(ann), timeout=10,
                            json={"invite": [bob["name"]], "clock": {"per_move": 259200}}).json()
    game = created["id"]
    assert created["rated"] is True  # dealt by the server, two people: rated by default
    joined = requests.post(f"{base}/v1/games/{game}/join", headers=auth(bob), timeout=10)
    assert joined.ok, joined.text
    ann_page, bob_page = (_signed_in(browser, base, p, game) for p in (ann, bob))
    for page in (ann_page, bob_page):
        _wait_text(page, "#rated", "Rated game: no hints")
        assert page.locator("#rated").is_visible() and not _button(page, "Hint").is_visible()
    # Ann's deadline in her time zone (PATCH /v1/me), the zone named.
    deadline = _view(ann_page, base, game)["clock"]["deadline"]
    local = datetime.strptime(deadline, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    local = local.astimezone(ZoneInfo("Asia/Tokyo"))
    _wait_text(ann_page, "#clock", f"{local:%H:%M}")
    _wait_text(ann_page, "#clock", f"{local.day} {local:%b %Y}")
    _wait_text(ann_page, "#clock", "(Asia/Tokyo)")

    # Ann writes on her page; Bob's page shows it without a move (at a heartbeat).
    ann_page.get_by_label("Write to the other players").fill("Good luck Bob!")
    _button(ann_page, "Send message").click()
    _wait_text(ann_page, "#messages", "you: Good luck Bob!")
    _wait_text(bob_page, "#messages", f"{ann['name']}: Good luck Bob!")
    assert ann_page.get_by_label("Write to the other players").input_value() == ""
    # Bob answers through the API; a text the API refuses shows its reason on the page.
    said = requests.post(f"{base}/v1/games/{game}/messages", json={"text": "Thanks <b>Ann</b>"},
                         headers=auth(bob), timeout=10)  # fmt: skip
    assert said.status_code == 201, said.text
    _wait_text(ann_page, "#messages", f"{bob['name']}: Thanks <b>Ann</b>")  # text, not HTML
    bob_page.evaluate("() => { document.getElementById('say-text').maxLength = 1000; }")
    bob_page.get_by_label("Write to the other players").fill("x" * 501)
    _button(bob_page, "Send message").click()
    _wait_text(bob_page, "#error", "at most 500 characters")
    assert len(requests.get(f"{base}/v1/games/{game}/messages", headers=auth(ann),
                            timeout=10).json()["messages"]) == 2  # fmt: skip

    # Bob resigns: both pages tell the result with the tiles the end took off each rack.
    version = _view(bob_page, base, game)["version"]
    resigned = requests.post(f"{base}/v1/games/{game}/moves", headers=auth(bob), timeout=10,
                             json={"type": "resign", "expected_version": version})  # fmt: skip
    assert resigned.ok, resigned.text
    result = resigned.json()["result"]
    players = (ann, bob)
    taken = ", ".join(
        f"{p['name']} -{d}" for p, d in zip(players, result["deductions"], strict=True)
    )
    for page in (ann_page, bob_page):
        _wait_status(page, f"Game over: {ann['name']} wins.")
        _wait_text(page, "#result", f"The tiles left on the racks counted: {taken}.")
        final = ", ".join(
            f"{p['name']} {s}" for p, s in zip(players, result["scores"], strict=True)
        )
        _wait_text(page, "#result", f"Final scores: {final}.")
    shots = Path(os.environ.get("MATHABLE_PLAY_SCREENSHOTS") or tmp_path)
    bob_page.screenshot(path=str(shots / "play-game-over.png"), full_page=True)
    # Each asks for the rematch on the page: one new game, both pages taken to it.
    _button(ann_page, "Rematch").click()
    ann_page.wait_for_url(re.compile(r".*/play/(?!" + game + r"$)[a-z0-9]+$"))
    rematch = ann_page.url.rsplit("/", 1)[1]
    _button(bob_page, "Rematch").click()
    bob_page.wait_for_url(f"**/play/{rematch}")
    again = requests.get(f"{base}/v1/games/{rematch}", headers=auth(bob), timeout=10).json()
    assert again["rated"] is True and again["status"] == "waiting"
    _wait_status(bob_page, "Waiting for players.")
    assert _button(bob_page, "Join the game").is_visible()  # invited by name: joins here
    for page in (ann_page, bob_page):
        page.context.close()
