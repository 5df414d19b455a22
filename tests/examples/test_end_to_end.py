"""End to end: Fifteen, installed as a package of its own, on a real server.

The server and the CLI are real processes that find the game only through its
entry point (``conftest.install_example``): no line of either names it. One game
is played to the end over HTTP (refusals with their codes, the result, the event
feed), one with ``mathable-cli`` through its generic screen (``show``, ``move``,
``hint``), one watched on the game page and in the stream. The mail game is in
``test_mail.py``.
"""

from __future__ import annotations

import html
import json
import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.cli.players import Player
from tests.examples.conftest import python_path
from tests.server.live import live_server

pytestmark = pytest.mark.e2e

TIMEOUT = 30


@pytest.fixture(scope="module")
def server(fifteen_installed: str) -> Iterator[str]:
    env = {"PYTHONPATH": fifteen_installed, "MATHABLE_RATE_LIMIT": "off"}
    with live_server(env=env) as url:
        yield url


class Seat:
    """A player over HTTP alone."""

    def __init__(self, server: str, name: str) -> None:
        self.server = server
        made = requests.post(f"{server}/v1/players", json={"name": name}, timeout=TIMEOUT)
        assert made.status_code == 201, made.text
        self.auth = {"Authorization": f"Bearer {made.json()['token']}"}

    def get(self, path: str) -> Any:
        reply = requests.get(f"{self.server}{path}", headers=self.auth, timeout=TIMEOUT)
        assert reply.status_code == 200, reply.text
        return reply.json()

    def post(self, path: str, body: dict[str, Any] | None = None) -> requests.Response:
        return requests.post(
            f"{self.server}{path}", json=body or {}, headers=self.auth, timeout=TIMEOUT
        )

    def move(self, game: str, body: dict[str, Any], status: int = 200) -> Any:
        version = self.get(f"/v1/games/{game}")["version"]
        reply = self.post(f"/v1/games/{game}/moves", {**body, "expected_version": version})
        assert reply.status_code == status, reply.text
        return reply.json()


def new_game(one: Seat, two: Seat, two_name: str) -> str:
    created = one.post("/v1/games", {"ruleset": "fifteen", "invite": [two_name]})
    assert created.status_code == 201, created.text
    game: str = created.json()["id"]
    assert two.post(f"/v1/games/{game}/join").status_code == 200
    return game


def test_a_game_over_http_to_the_end(server: str) -> None:
    ann, ben = Seat(server, "ann"), Seat(server, "ben")
    assert ann.get("/v1/rulesets/fifteen")["target"] == 15
    played = {entry["name"]: entry for entry in ann.get("/v1/rulesets")["rulesets"]}
    assert sorted(played) == ["fifteen", "mathable", "summy"]  # the plugin is listed
    assert "claim" in played["fifteen"]["command_types"]
    three = ann.post("/v1/games", {"ruleset": "fifteen", "players": 3})
    assert three.status_code == 422 and three.json()["error"]["code"] == "bad_players"
    game = new_game(ann, ben, "ben")
    view = ann.get(f"/v1/games/{game}")
    assert (view["ruleset"], view["status"], view["turn"]["seat"]) == ("fifteen", "playing", 0)
    assert view["free"] == list(range(1, 10)) and view["you"] == 0

    refused = ben.move(game, {"type": "claim", "digit": 5}, status=403)
    assert refused["error"]["code"] == "not_your_turn"
    for bad in ({"digit": 0}, {"digit": "5"}, {"digit": 5, "square": "b2"}, {}):
        refused = ann.move(game, {"type": "claim", **bad}, status=400)
        assert refused["error"]["code"] == "validation_error"
    ann.move(game, {"type": "claim", "digit": 8})
    taken = ben.move(game, {"type": "claim", "digit": 8}, status=422)
    assert taken["error"]["code"] == "digit_taken"
    assert taken["error"]["details"]["seat"] == 0
    # Said in the caller's language, from the example's own catalog (its entry point in
    # ``mathable.translations``).
    version = ben.get(f"/v1/games/{game}")["version"]
    french = requests.post(
        f"{server}/v1/games/{game}/moves",
        json={"type": "claim", "digit": 8, "expected_version": version},
        headers={**ben.auth, "Accept-Language": "fr"},
        timeout=TIMEOUT,
    )
    assert french.status_code == 422 and french.json()["error"]["code"] == "digit_taken"
    assert french.json()["error"]["message"] == "8 est déjà à la place 0"
    ben.move(game, {"type": "claim", "digit": 5})
    ann.move(game, {"type": "claim", "digit": 6})
    ben.move(game, {"type": "pass"})
    final = ann.move(game, {"type": "claim", "digit": 1})  # 8 + 6 + 1
    assert final["status"] == "ended"
    assert final["result"]["reason"] == "fifteen" and final["result"]["winners"] == [0]
    assert final["seats"][0]["line"] == [1, 6, 8]
    over = ben.move(game, {"type": "claim", "digit": 2}, status=422)
    assert over["error"]["code"] == "game_over"

    events = ben.get(f"/v1/games/{game}/events")["events"]
    assert [e["type"] for e in events] == [
        "game_created", "player_joined", "fifteen_started", "digit_claimed", "digit_claimed",
        "digit_claimed", "passed", "digit_claimed", "game_ended", "draws_revealed",
    ]  # fmt: skip
    created = events[0]
    assert created["ruleset"] == "fifteen"
    assert not {"seed", "tiles", "order", "salt"} & set(created)
    assert [e["digit"] for e in events if e["type"] == "digit_claimed"] == [8, 5, 6, 1]


def test_a_game_with_the_cli_through_the_generic_screen(server: str, tmp_path: Path) -> None:
    cora, dan = Player(server, "cora", tmp_path), Player(server, "dan", tmp_path)
    for who in (cora, dan):
        who.env["PYTHONPATH"] = python_path("shared", "client")
        who.register()
    assert "to hold three digits that sum to 15 wins" in cora.run("rules", "fifteen").stdout
    game = cora.run(
        "new", "--ruleset", "fifteen", "--invite", "dan", "--unrated"
    ).stdout.split()[0]
    dan.run("join", game)
    shown = cora.run("show", game).stdout
    assert shown.splitlines()[:4] == [
        "      a    b    c",
        " 1    2    7    6",
        " 2    9    5    1",
        " 3    4    3    8",
    ]
    assert f"{game} (fifteen): your turn" in shown
    hint = json.loads(cora.run("hint", game, "--json").stdout)
    assert hint == {"command": {"type": "claim", "digit": 5}, "words": "5 (b2)"}
    assert cora.run("hint", game).stdout == "Best: 5 (b2)\n"
    dan.run("move", game, "5", expect=4)  # not dan's turn
    cora.run("move", game, "d9", expect=3)  # no such square: read by the CLI
    played = cora.run("move", game, "b2")
    assert "Played b2" in played.stderr
    dan.run("move", game, "5", expect=3)  # taken: a move against the rules (its illegal_move_codes)
    dan.run("move", game, "claim", "2")
    cora.run("move", game, "4")  # 5 + 4 + 6 next
    dan.run("move", game, "6")  # dan blocks
    # Each takes the hint from here on: the game ends, won or drawn.
    for _ in range(5):
        view = cora.view(game)
        if view["status"] == "ended":
            break
        mover = cora if view["turn"]["seat"] == 0 else dan
        words = json.loads(mover.run("hint", game, "--json").stdout)["words"].split()[0]
        mover.run("move", game, words)
    final = cora.view(game)
    assert final["status"] == "ended"
    assert final["result"]["reason"] in ("fifteen", "all_claimed")
    ended = cora.run("show", game).stdout
    assert "game over" in ended
    assert "X5" in ended and "O2" in ended


def test_the_game_page_shows_the_board(server: str) -> None:
    eve, fay = Seat(server, "eve"), Seat(server, "fay")
    game = new_game(eve, fay, "fay")
    eve.move(game, {"type": "claim", "digit": 5})
    fay.move(game, {"type": "claim", "digit": 8})
    page = requests.get(f"{server}/games/{game}", timeout=TIMEOUT)
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    text = html.unescape(page.text)
    assert " 2    9   X5    1" in text and " 3    4    3   O8" in text
    assert "eve to play." in text and "fay" in text
    assert "claimed 5 (b2)" in text  # the move list, in the game's own words
    assert "None" not in text and "Tiles in the" not in text  # Fifteen draws from no pool


def test_a_move_arrives_in_the_stream(server: str) -> None:
    gil, hal = Seat(server, "gil"), Seat(server, "hal")
    game = new_game(gil, hal, "hal")
    lines: queue.Queue[dict[str, Any]] = queue.Queue()
    opened = threading.Event()

    def follow() -> None:
        try:
            with requests.get(
                f"{server}/v1/me/stream", headers=hal.auth, stream=True, timeout=TIMEOUT
            ) as reply:
                opened.set()
                for raw in reply.iter_lines():
                    if raw:
                        lines.put(json.loads(raw))
        except requests.RequestException:
            pass  # the server stops at the end of the module

    threading.Thread(target=follow, daemon=True).start()
    assert opened.wait(TIMEOUT)
    # Without since, the stream opens with what waits on hal: nothing yet (gil to move).
    gil.move(game, {"type": "claim", "digit": 5})
    seen = []
    while not any(s["type"] == "your_turn" for s in seen):
        seen.append(lines.get(timeout=TIMEOUT))
    assert all(s["game_id"] == game for s in seen)
    assert {"moved", "your_turn"} <= {s["type"] for s in seen}
    assert max(int(s["version"]) for s in seen) == gil.get(f"/v1/games/{game}")["version"]


def test_the_archive_of_a_player_of_a_game_without_a_record_notation(server: str) -> None:
    """Fifteen writes no record: its line says so (``record`` null, a ``reason``), the
    stream goes on to the player's other games, and the answer is whole NDJSON."""
    cal, dee = Seat(server, "cal"), Seat(server, "dee")
    game = new_game(cal, dee, "dee")
    for seat, digit in ((cal, 8), (dee, 5), (cal, 6), (dee, 4), (cal, 1)):
        seat.move(game, {"type": "claim", "digit": digit})
    other = cal.post("/v1/games", {"invite": ["dee"]}).json()["id"]
    assert dee.post(f"/v1/games/{other}/join").status_code == 200
    cal.move(other, {"type": "resign"})
    reply = requests.get(f"{server}/v1/players/cal/games", timeout=TIMEOUT)
    assert reply.status_code == 200, reply.text
    lines = {line["id"]: line for line in map(json.loads, reply.text.splitlines())}
    assert set(lines) == {game, other}
    assert lines[game]["record"] is None and lines[game]["code"] == "no_record_notation"
    assert lines[game]["reason"]
    assert lines[other]["record"].startswith('[Game "mathable"]')
