"""``GET /v1/games/{id}/stream`` against a real server: a bot lives on it.

Two bots play a whole Mathable game and a whole Summy game each from the game
stream and their own ``POST``s, with no ``GET`` of anything else (counted); the
stream's first line is the whole view, then one after every change; a
spectator's lines hide the racks; a line's clock is its version's;
``since=<version>`` resumes with exactly the views after that version; a
missing game is 404.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from typing import Any

import pytest
import requests

import mathable
from tests.server.helpers import example_tiles
from tests.server.live import live_server
from tests.server.streams import RESUME_ENV

pytestmark = pytest.mark.e2e


class StreamBot:
    """Plays one seat of one game from its game stream alone; counts its requests."""

    def __init__(self, url: str, token: str, game_id: str) -> None:
        self.url, self.game_id = url, game_id
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"
        self.requests: Counter[str] = Counter()
        self.refused: list[str] = []
        self.views: list[dict[str, Any]] = []
        self.error: BaseException | None = None

    def _send(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        kind = "stream" if path.endswith("/stream") else path.rsplit("/", 1)[-1]
        self.requests[f"{method} {kind}"] += 1
        return self.session.request(method, f"{self.url}{path}", timeout=(5, 60), **kwargs)

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        rules = mathable.ruleset(view["ruleset"])
        found = rules.suggest(dict(view))
        if found is not None:
            return found[0]
        tiles = view.get("hand") or []
        if "discard" in rules.command_types and view.get("supply") and tiles:
            spare = sorted(tiles, key=lambda t: (t == "=", t), reverse=True)[:2]
            return {"type": "discard", "tiles": spare}
        return {"type": "pass"}

    def run(self) -> None:
        try:
            self._play()
        except BaseException as err:  # told by the test
            self.error = err

    def _play(self) -> None:
        since: int | None = None
        while True:  # a stream the server ends is resumed with the last version read
            params = {"since": since} if since is not None else None
            stream = self._send("GET", f"/v1/games/{self.game_id}/stream", params=params,
                                stream=True)
            assert stream.status_code == 200, stream.text
            with stream:
                for raw in stream.iter_lines():
                    if not raw.strip():
                        continue
                    line = json.loads(raw)
                    assert line["type"] == "game"
                    view = line["view"]
                    self.views.append(view)
                    since = view["version"]
                    if view["status"] in ("ended", "cancelled"):
                        return
                    if view["your_turn"]:
                        command = {**self.choose(view), "expected_version": view["version"]}
                        answer = self._send(
                            "POST", f"/v1/games/{self.game_id}/moves", json=command
                        )
                        if answer.status_code != 200:
                            self.refused.append(answer.text)
                            answer = self._send(
                                "POST",
                                f"/v1/games/{self.game_id}/moves",
                                json={"type": "pass", "expected_version": view["version"]},
                            )
                            assert answer.status_code == 200, answer.text


def register(url: str, name: str) -> str:
    answer = requests.post(f"{url}/v1/players", json={"name": name}, timeout=10)
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["token"]
    return token


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(url: str, one: str, two: str, two_name: str, options: dict[str, Any]) -> str:
    created = requests.post(
        f"{url}/v1/games", json={**options, "invite": [two_name]}, headers=auth(one), timeout=10
    )
    assert created.status_code == 201, created.text
    game_id: str = created.json()["id"]
    joined = requests.post(f"{url}/v1/games/{game_id}/join", headers=auth(two), timeout=10)
    assert joined.status_code == 200, joined.text
    return game_id


def first_lines(url: str, path: str, count: int, headers: dict[str, str] | None = None,
                params: dict[str, Any] | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """The first ``count`` event lines of a stream (heartbeats skipped), then closed."""
    found: list[dict[str, Any]] = []
    with requests.get(f"{url}{path}", headers=headers, params=params, stream=True,
                      timeout=(5, 10)) as stream:  # fmt: skip
        assert stream.status_code == 200, stream.text
        assert stream.headers["Content-Type"].startswith("application/x-ndjson")
        for raw in stream.iter_lines():
            if raw.strip():
                found.append(json.loads(raw))
                if len(found) == count:
                    break
    return found


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"tiles": example_tiles(1)}, id="mathable"),
        pytest.param({"ruleset": "summy"}, id="summy"),
    ],
)
def test_two_bots_play_a_whole_game_from_the_game_stream_with_no_get(
    options: dict[str, Any],
) -> None:
    with live_server(env=RESUME_ENV) as url:
        one, two = register(url, "sol"), register(url, "tor")
        game_id = new_game(url, one, two, "tor", options)
        bots = [StreamBot(url, one, game_id), StreamBot(url, two, game_id)]
        threads = [threading.Thread(target=bot.run, daemon=True) for bot in bots]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        for bot in bots:
            assert bot.error is None, repr(bot.error)
            assert bot.views[-1]["status"] == "ended"
            assert bot.refused == []
            # The stream, and the bot's own moves: nothing else, no GET of the game.
            assert set(bot.requests) <= {"GET stream", "POST moves"}, bot.requests
            assert bot.requests["POST moves"] >= 3
            versions = [view["version"] for view in bot.views]
            assert versions == sorted(set(versions))  # each version once, in order
        final = requests.get(f"{url}/v1/games/{game_id}", timeout=10).json()
        assert bots[0].views[-1]["version"] == final["version"]
        assert bots[1].views[-1]["version"] == final["version"]


def test_the_stream_gives_the_whole_view_then_each_change_and_resumes_by_version() -> None:
    with live_server(env=RESUME_ENV) as url:
        one, two = register(url, "uli"), register(url, "val")
        game_id = new_game(url, one, two, "val", {"tiles": example_tiles(2)})
        path = f"/v1/games/{game_id}/stream"
        seat = first_lines(url, path, 1, auth(one))[0]
        shown = requests.get(f"{url}/v1/games/{game_id}", headers=auth(one), timeout=10).json()
        assert seat["type"] == "game" and seat["view"]["version"] == shown["version"]
        assert seat["view"]["rack"] == shown["rack"] and seat["view"]["your_turn"] is True
        spectator = first_lines(url, path, 1)[0]["view"]
        anyone = requests.get(f"{url}/v1/games/{game_id}", timeout=10).json()
        assert spectator["you"] is None and spectator["rack"] == anyone["rack"] != shown["rack"]
        assert {**spectator, "clock": None} == {**anyone, "clock": None}
        assert first_lines(url, path, 1)[0]["view"] == spectator  # one line for every spectator
        version = shown["version"]

        # Resumed at the version read: nothing until the game moves, then the new view.
        got: list[dict[str, Any]] = []
        reader = threading.Thread(
            target=lambda: got.extend(first_lines(url, path, 2, auth(two), {"since": version}))
        )
        reader.start()
        moved = requests.post(
            f"{url}/v1/games/{game_id}/moves",
            json={"type": "pass", "expected_version": version},
            headers=auth(one),
            timeout=10,
        )
        assert moved.status_code == 200, moved.text
        after_pass = moved.json()["version"]
        passed = requests.post(
            f"{url}/v1/games/{game_id}/moves",
            json={"type": "pass", "expected_version": after_pass},
            headers=auth(two),
            timeout=10,
        )
        assert passed.status_code == 200, passed.text
        reader.join(timeout=20)
        assert [line["view"]["version"] for line in got] == [after_pass, passed.json()["version"]]
        assert got[0]["view"]["your_turn"] is True and got[1]["view"]["your_turn"] is False
        # Resumed one version back: the newest view at once.
        older = first_lines(url, path, 1, auth(two), {"since": version})[0]["view"]
        assert older["version"] == passed.json()["version"]

        missing = requests.get(f"{url}/v1/games/gnothere/stream", timeout=10)
        assert missing.status_code == 404
        bad = requests.get(f"{url}{path}?since=x", timeout=10)
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "validation_error"


def test_a_line_is_made_once_per_version_and_viewer_with_the_clock_of_its_version(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One line per version and kind of viewer for every stream: made once (not once per
    connection), its clock the version's (time left when the turn began, whose clock
    runs, the deadline), whenever a stream reads it."""
    from flask.testing import FlaskClient

    from mathable_server.games.timesource import MovableTime
    from mathable_server.http.api import game_stream
    from tests.server.apps import make_app
    from tests.server.clocks import DAY, MONDAY, World

    time = MovableTime(MONDAY)
    app = make_app(database_url, vacation_days=3)
    app.extensions["mathable"].games.time = time
    world = World(app, time)
    plain = FlaskClient(app, app.response_class)  # the contract client reads whole bodies
    made: list[int | None] = []
    render = game_stream.view_text

    def counted(svc: Any, game_id: str, state: Any, seat: int | None) -> str:
        made.append(seat)
        return render(svc, game_id, state, seat)

    monkeypatch.setattr(game_stream, "view_text", counted)
    try:
        game_id = world.start({"per_move": 3 * DAY, "auto_vacation": False})
        world.advance(days=1)
        shown = world.view(game_id)
        assert shown["clock"]["remaining"] == [2 * DAY, 3 * DAY]
        for who in (world.ada, None, world.ada, None, None):
            headers = who.auth if who else {}
            response = plain.get(f"/v1/games/{game_id}/stream", headers=headers, buffered=False)
            body = iter(response.response)
            assert next(body) == b"\n"
            line = json.loads(next(body))
            response.close()
            clock = line["view"]["clock"]
            assert clock["remaining"] == [3 * DAY, 3 * DAY]  # as the turn began
            assert clock["running"] == 0 and clock["deadline"] == shown["clock"]["deadline"]
            same = plain.get(f"/v1/games/{game_id}", headers=headers).json
            assert {**line["view"], "clock": None} == {**same, "clock": None}
        assert made == [0, None]  # a seat's line and a spectator's, each made once
    finally:
        app.extensions["mathable"].store.engine.dispose()
