"""``GET /v1/me/stream`` resumed at any line gives exactly what a stream left open gives.

A property test against a real server, on SQLite and PostgreSQL: a player has
open invitations and games waiting on them and on others; one stream is left
open (the opening, then whatever happens: joins, new invitations, declines,
passes that hand the player the turn, resignations); streams broken at random
lines are resumed with the last cursor read, and each gives exactly the lines
the open stream gave after it, nothing lost, nothing twice. Every line has a
cursor of its own, increasing (as strings too). A break inside the opening is
resumed while nothing has changed since it opened (the opening is the player's
present: resumed later, it is the present then).
"""

from __future__ import annotations

import itertools
import json
import queue
import threading
import time
from typing import Any

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.contract import check_response
from tests.server.helpers import example_tiles
from tests.server.live import live_server
from tests.server.streams import RESUME_ENV

pytestmark = pytest.mark.e2e

_names = itertools.count()


class Reader:
    """A stream read in a thread: its raw lines, heartbeats as b""."""

    def __init__(self, url: str, who: dict[str, str], since: str | None = None) -> None:
        params = {"since": since} if since is not None else None
        self.response = requests.get(
            f"{url}/v1/me/stream", headers=who, params=params, stream=True, timeout=(5, 30)
        )
        assert self.response.status_code == 200, self.response.text
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.response.iter_lines(chunk_size=1):
                self.lines.put(raw.strip())
        except Exception:  # closed by the test
            pass

    def until_quiet(self, beats: int = 2, timeout: float = 20) -> list[dict[str, Any]]:
        """The event lines read until ``beats`` heartbeats in a row."""
        found: list[dict[str, Any]] = []
        quiet = 0
        deadline = time.monotonic() + timeout
        while quiet < beats:
            raw = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            if raw:
                found.append(json.loads(raw))
                quiet = 0
            else:
                quiet += 1
        return found

    def close(self) -> None:
        self.response.close()


def resumed(url: str, who: dict[str, str], since: str) -> list[dict[str, Any]]:
    """What a stream resumed with ``since`` gives before it waits (heartbeat, lines, beat)."""
    reader = Reader(url, who, since)
    try:
        return reader.until_quiet()
    finally:
        reader.close()


class World:
    """One example's players and games on a live server."""

    def __init__(self, url: str) -> None:
        self.url = url
        number = next(_names)
        self.me_name, self.other_name = f"pat{number}", f"quin{number}"
        self.me, self.other = self.register(self.me_name), self.register(self.other_name)
        self.orders = iter(range(10))  # at most 6 games set up and 4 invitations after
        self.invitations: list[str] = []  # open, to me
        self.mine: list[str] = []  # waiting on me
        self.theirs: list[str] = []  # waiting on the other

    def register(self, name: str) -> dict[str, str]:
        answer = requests.post(f"{self.url}/v1/players", json={"name": name}, timeout=10)
        assert answer.status_code == 201, answer.text
        return {"Authorization": f"Bearer {answer.json()['token']}"}

    def post(self, path: str, who: dict[str, str], body: dict[str, Any] | None = None) -> Any:
        answer = requests.post(f"{self.url}{path}", json=body or {}, headers=who, timeout=10)
        assert answer.status_code in (200, 201), answer.text
        return answer.json()

    def create(self, creator: dict[str, str], invitee: str) -> str:
        body = {"tiles": example_tiles(next(self.orders)), "invite": [invitee]}
        game_id: str = self.post("/v1/games", creator, body)["id"]
        return game_id

    def invite_me(self) -> None:
        self.invitations.append(self.create(self.other, self.me_name))

    def waiting_on_me(self) -> None:
        game_id = self.create(self.me, self.other_name)  # seat 0 moves first
        self.post(f"/v1/games/{game_id}/join", self.other)
        self.mine.append(game_id)

    def waiting_on_them(self) -> None:
        game_id = self.create(self.other, self.me_name)
        self.post(f"/v1/games/{game_id}/join", self.me)
        self.theirs.append(game_id)

    def command(self, game_id: str, who: dict[str, str], kind: str) -> None:
        version = requests.get(f"{self.url}/v1/games/{game_id}", headers=who, timeout=10)
        self.post(
            f"/v1/games/{game_id}/moves",
            who,
            {"type": kind, "expected_version": version.json()["version"]},
        )

    def act(self, action: str) -> None:
        """One thing that happens after the stream opened (nothing if it cannot)."""
        if action == "join" and self.invitations:
            game_id = self.invitations.pop(0)
            self.post(f"/v1/games/{game_id}/join", self.me)
            self.theirs.append(game_id)
        elif action == "decline" and self.invitations:
            self.post(f"/v1/games/{self.invitations.pop()}/decline", self.me)
        elif action == "invite":
            self.invite_me()
        elif action == "their_pass" and self.theirs:  # two lines in one row: moved, your_turn
            game_id = self.theirs.pop(0)
            self.command(game_id, self.other, "pass")
            self.mine.append(game_id)
        elif action == "resign" and self.mine:
            self.command(self.mine.pop(), self.me, "resign")


def check_resumes(url: str, data: st.DataObject) -> None:
    world = World(url)
    for _ in range(data.draw(st.integers(0, 2), label="invitations")):
        world.invite_me()
    for _ in range(data.draw(st.integers(0, 2), label="waiting on me")):
        world.waiting_on_me()
    for _ in range(data.draw(st.integers(0, 2), label="waiting on them")):
        world.waiting_on_them()
    actions = data.draw(
        st.lists(
            st.sampled_from(["join", "decline", "invite", "their_pass", "resign"]), max_size=4
        ),
        label="actions",
    )
    left_open = Reader(url, world.me)
    try:
        opening = left_open.until_quiet()
        assert sorted(
            (line["type"], line["game_id"]) for line in opening
        ) == sorted(
            [("invited", g) for g in world.invitations] + [("your_turn", g) for g in world.mine]
        )
        # Broken inside the opening, resumed before anything changes.
        if opening:
            for at in data.draw(
                st.lists(st.integers(0, len(opening) - 1), max_size=3, unique=True),
                label="opening breaks",
            ):
                assert resumed(url, world.me, opening[at]["cursor"]) == opening[at + 1 :]
        for action in actions:
            world.act(action)
        later = left_open.until_quiet(beats=3)
    finally:
        left_open.close()
    lines = opening + later
    cursors = [line["cursor"] for line in lines]
    assert cursors == sorted(cursors) and len(set(cursors)) == len(cursors)
    # Broken at any line after the opening, resumed once everything happened.
    if later:
        for at in data.draw(
            st.lists(
                st.integers(len(opening), len(lines) - 1), min_size=1, max_size=4, unique=True
            ),
            label="breaks",
        ):
            assert resumed(url, world.me, lines[at]["cursor"]) == lines[at + 1 :], at


@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
)
def test_a_stream_resumed_at_any_line_gives_exactly_what_an_open_one_gives(
    backend: str, request: pytest.FixtureRequest, tmp_path: Any
) -> None:
    url = (
        f"sqlite:///{tmp_path / 'resume.db'}"
        if backend == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    with live_server(url, env=RESUME_ENV) as server:

        @settings(
            max_examples=8,
            deadline=None,
            derandomize=True,
            suppress_health_check=[HealthCheck.too_slow],
        )
        @given(st.data())
        def resumes(data: st.DataObject) -> None:
            check_resumes(server, data)

        resumes()


def test_a_resume_inside_the_opening_after_a_change_tells_each_game_once_in_order(
    tmp_path: Any,
) -> None:
    """Ann's opening names two games waiting on her; she reads its first line; both play
    in the second game; resumed with that line's cursor, the second game is told by its
    feed lines only (not by an opening line of its present and then again by the feed),
    each version once and in order. A cursor past the feed's newest row is 409
    ``cursor_ahead`` (a database restored from before it: open a fresh stream)."""
    with live_server(f"sqlite:///{tmp_path / 'opening.db'}", env=RESUME_ENV) as url:
        world = World(url)
        world.waiting_on_me()
        world.waiting_on_me()
        reader = Reader(url, world.me)
        try:
            opening = reader.until_quiet()
        finally:
            reader.close()
        assert [line["type"] for line in opening] == ["your_turn", "your_turn"]
        first, second = opening[0], opening[1]["game_id"]
        world.command(second, world.me, "pass")
        world.command(second, world.other, "pass")
        lines = resumed(url, world.me, first["cursor"])
        told = [(line["type"], line["game_id"], line["version"]) for line in lines]
        assert len(told) == len(set(told))  # nothing twice
        versions = [version for _type, _game, version in told]
        assert versions == sorted(versions)  # never a version after a newer one
        assert all(game == second for _type, game, _version in told)
        assert lines[-1]["type"] == "your_turn"  # the pass handed the turn back to her
        cursors = [line["cursor"] for line in lines]
        assert cursors == sorted(cursors) and cursors[0] > first["cursor"]
        ahead = requests.get(
            f"{url}/v1/me/stream", headers=world.me, params={"since": "999999"}, timeout=10
        )
        assert ahead.status_code == 409 and ahead.json()["error"]["code"] == "cursor_ahead"
        # The cursor sent, a string as every cursor is (issue 41: it was the row's number).
        assert ahead.json()["error"]["details"] == {"since": "999999"}
        check_response("GET", "/v1/me/stream", 409, ahead.content, ahead.headers["Content-Type"])
