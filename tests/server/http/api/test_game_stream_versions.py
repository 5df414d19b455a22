"""A game stream misses no version, against a real server: a live, unbroken stream of a
three-seat game has a line for every version the game rests at (each command's), for
every seat and a spectator, each naming the line before (``previous``) and carrying
the events between, redacted as ``GET /v1/games/{id}/events`` redacts them for that
viewer; a stream resumed from ``since`` opens with one line carrying every event since.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
import requests

import mathable
from tests.server.live import live_server
from tests.server.streams import RESUME_ENV

pytestmark = pytest.mark.e2e

#: Commands played while the streams are open: three rounds, the game still in play (its
#: end reveals every draw to everyone, and ``/events`` then shows what the lines hid).
COMMANDS = 9


def register(url: str, name: str) -> str:
    answer = requests.post(f"{url}/v1/players", json={"name": name}, timeout=10)
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["token"]
    return token


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class Reader:
    """Reads one stream in a thread until the game reaches ``final`` (set by the test)."""

    def __init__(self, url: str, game_id: str, token: str | None, since: int | None = None):
        self.lines: list[dict[str, Any]] = []
        self.opened = threading.Event()
        self.final: int | None = None
        self.error: BaseException | None = None
        params = {"since": since} if since is not None else None
        self._stream = requests.get(
            f"{url}/v1/games/{game_id}/stream",
            headers=auth(token),
            params=params,
            stream=True,
            timeout=(5, 30),
        )
        assert self._stream.status_code == 200, self._stream.text
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            with self._stream:
                for raw in self._stream.iter_lines():
                    self.opened.set()  # the first heartbeat: the stream is held
                    if raw.strip():
                        self.lines.append(json.loads(raw))
                    last = self.lines[-1]["version"] if self.lines else -1
                    if self.final is not None and last >= self.final:
                        return
        except BaseException as err:  # told by the test
            self.error = err

    def finish(self, final: int) -> list[dict[str, Any]]:
        self.final = final
        self._thread.join(timeout=60)
        assert not self._thread.is_alive(), "the stream never reached the final version"
        assert self.error is None, repr(self.error)
        return self.lines


def choose(view: dict[str, Any]) -> dict[str, Any]:
    found = mathable.ruleset(view["ruleset"]).suggest(dict(view))
    return found[0] if found is not None else {"type": "pass"}


def play(url: str, game_id: str, tokens: list[str], commands: int) -> list[int]:
    """Each seat in turn plays what the rules suggest, at once; the versions the game rested
    at after each command."""
    rests = []
    for _ in range(commands):
        spectator = requests.get(f"{url}/v1/games/{game_id}", timeout=10).json()
        if spectator["status"] != "playing":
            break
        token = tokens[spectator["turn"]["seat"]]
        view = requests.get(f"{url}/v1/games/{game_id}", headers=auth(token), timeout=10).json()
        command = {**choose(view), "expected_version": view["version"]}
        answer = requests.post(
            f"{url}/v1/games/{game_id}/moves", json=command, headers=auth(token), timeout=10
        )
        if answer.status_code != 200:  # a suggestion the rules refuse: pass instead
            command = {"type": "pass", "expected_version": view["version"]}
            answer = requests.post(
                f"{url}/v1/games/{game_id}/moves", json=command, headers=auth(token), timeout=10
            )
        assert answer.status_code == 200, answer.text
        rests.append(answer.json()["version"])
    return rests


def events_for(url: str, game_id: str, token: str | None, after: int) -> list[dict[str, Any]]:
    answer = requests.get(
        f"{url}/v1/games/{game_id}/events", params={"after": after}, headers=auth(token),
        timeout=10,
    )  # fmt: skip
    assert answer.status_code == 200, answer.text
    events: list[dict[str, Any]] = answer.json()["events"]
    return events


def three_seat_game(url: str) -> tuple[str, list[str]]:
    tokens = [register(url, name) for name in ("wes", "xia", "yan")]
    created = requests.post(
        f"{url}/v1/games",
        json={"players": 3, "seed": 47, "invite": ["xia", "yan"]},
        headers=auth(tokens[0]),
        timeout=10,
    )
    assert created.status_code == 201, created.text
    game_id: str = created.json()["id"]
    for token in tokens[1:]:
        joined = requests.post(f"{url}/v1/games/{game_id}/join", headers=auth(token), timeout=10)
        assert joined.status_code == 200, joined.text
    return game_id, tokens


def test_a_live_stream_has_a_line_for_every_version_for_every_seat() -> None:
    with live_server(env=RESUME_ENV) as url:
        game_id, tokens = three_seat_game(url)
        start = requests.get(f"{url}/v1/games/{game_id}", timeout=10).json()["version"]
        viewers: list[str | None] = [*tokens, None]
        readers = [Reader(url, game_id, token) for token in viewers]
        for reader in readers:
            assert reader.opened.wait(10)
        rests = play(url, game_id, tokens, COMMANDS)
        assert len(rests) == COMMANDS
        status = requests.get(f"{url}/v1/games/{game_id}", timeout=10).json()["status"]
        assert status == "playing"
        for token, reader in zip(viewers, readers, strict=True):
            lines = reader.finish(rests[-1])
            # A line for the game as it was, then one for every command, in order.
            assert [line["version"] for line in lines] == [start, *rests]
            assert [line["view"]["version"] for line in lines] == [start, *rests]
            assert lines[0]["previous"] is None and lines[0]["events"] == []
            for before, line in zip(lines, lines[1:], strict=False):
                assert line["previous"] == before["version"]
                versions = [event["version"] for event in line["events"]]
                assert versions == list(range(line["previous"] + 1, line["version"] + 1))
            carried = [event for line in lines for event in line["events"]]
            assert carried == events_for(url, game_id, token, start)
            seat = None if token is None else tokens.index(token)
            assert all(line["view"]["you"] == seat for line in lines)


def test_a_resumed_stream_opens_with_every_event_since() -> None:
    with live_server(env=RESUME_ENV) as url:
        game_id, tokens = three_seat_game(url)
        start = requests.get(f"{url}/v1/games/{game_id}", timeout=10).json()["version"]
        rests = play(url, game_id, tokens, 8)
        assert len(rests) == 8
        newest = rests[-1]
        for token in (tokens[1], None):
            for since in (0, start, rests[2]):
                reader = Reader(url, game_id, token, since=since)
                first = reader.finish(newest)[0]
                assert first["previous"] == since and first["version"] == newest
                assert first["events"] == events_for(url, game_id, token, since)
                assert [e["version"] for e in first["events"]] == list(
                    range(since + 1, newest + 1)
                )
                here = requests.get(
                    f"{url}/v1/games/{game_id}", headers=auth(token), timeout=10
                ).json()
                assert {**first["view"], "clock": None} == {**here, "clock": None}
        # Resumed at the newest version: nothing until the game moves, then its line.
        reader = Reader(url, game_id, tokens[0], since=newest)
        assert reader.opened.wait(10)
        time.sleep(0.6)  # two heartbeats: a line for the version resumed at would be there
        assert reader.lines == []
        moved = play(url, game_id, tokens, 1)
        lines = reader.finish(moved[-1])
        assert [(line["previous"], line["version"]) for line in lines] == [(newest, moved[-1])]


def test_commands_that_land_together_are_a_line_each_with_the_view_of_their_version(
    database_url: str,
) -> None:
    """The stream is not read while three commands land: when it is, each is a line of its
    own, its view the one a ``GET`` answered at that version (replayed from the line
    before), its events that command's."""
    from flask.testing import FlaskClient

    from tests.server.apps import make_app
    from tests.server.helpers import move, new_game
    from tests.server.helpers import register as register_on

    app = make_app(database_url, stream_heartbeat=0.2)
    client = app.test_client()
    plain = FlaskClient(app, app.response_class)  # the contract client reads whole bodies
    players = [register_on(client, name) for name in ("zed", "amy", "bob")]
    game_id = new_game(client, players[0], players=3, seed=47, invite=["amy", "bob"])["id"]
    for who in players[1:]:
        assert client.post(f"/v1/games/{game_id}/join", headers=who.auth).status_code == 200
    watcher = players[1]
    response = plain.get(f"/v1/games/{game_id}/stream", headers=watcher.auth, buffered=False)
    body = iter(response.response)
    try:
        assert next(body) == b"\n"
        first = json.loads(next(body))
        views: dict[int, dict[str, Any]] = {}

        def three_passes() -> None:  # in a thread of its own: the stream holds this one's
            version = first["version"]
            for _ in range(3):
                now = client.get(f"/v1/games/{game_id}").json
                mover = now["seats"][now["turn"]["seat"]]["player"]
                who = next(p for p in players if p.id == mover)
                answer = move(client, who, game_id, version, type="pass")
                assert answer.status_code == 200, answer.json
                version = answer.json["version"]
                views[version] = client.get(f"/v1/games/{game_id}", headers=watcher.auth).json

        passes = threading.Thread(target=three_passes)
        passes.start()
        passes.join(timeout=30)
        assert len(views) == 3
        lines = []
        while len(lines) < 3:
            raw = next(body)
            if raw.strip():
                lines.append(json.loads(raw))
    finally:
        response.close()
    assert [line["version"] for line in lines] == list(views)
    assert [line["previous"] for line in lines] == [first["version"], *list(views)[:2]]
    for line in lines:
        assert {**line["view"], "clock": None} == {**views[line["version"]], "clock": None}
        assert [e["type"] for e in line["events"]] == ["passed"]
