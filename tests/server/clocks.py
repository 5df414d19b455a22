"""Simulated time for the server tests: a server on one database whose "now" a test moves.

``World`` holds the app, its ``MovableTime`` and three registered players; ``MONDAY`` is
where the simulated weeks start. Used by the clock tests and the game stream's.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from mathable_server.games.timesource import MovableTime
from tests.server.helpers import Account, example_tiles, move, new_game, register

DAY = 86400
HOUR = 3600
#: Monday 2027-03-01 09:00 UTC: the simulated weeks start here.
MONDAY = int(datetime(2027, 3, 1, 9, tzinfo=UTC).timestamp() * 1000)


class World:
    """A server on one database whose time the test moves; ada and bob (and cy) play."""

    def __init__(self, app: Flask, time: MovableTime) -> None:
        self.app = app
        self.time = time
        self.client: FlaskClient = app.test_client()
        self.ada = register(self.client, "ada")
        self.bob = register(self.client, "bob")
        self.cy = register(self.client, "cy")

    @property
    def games(self) -> Any:
        return self.app.extensions["mathable"].games

    def start(self, clock: dict[str, Any], *players: Account) -> str:
        """A started game of ``players`` (ada first) with ``clock``: seat 0 moves first."""
        seated = players or (self.ada, self.bob)
        game = new_game(self.client, seated[0], players=len(seated), tiles=_tiles(), clock=clock)
        for other in seated[1:]:
            response = self.client.post(f"/v1/games/{game['id']}/join", headers=other.auth)
            assert response.status_code == 200, response.json
        game_id: str = game["id"]
        return game_id

    def view(self, game_id: str, who: Account | None = None) -> dict[str, Any]:
        response = self.client.get(f"/v1/games/{game_id}", headers=(who or self.ada).auth)
        assert response.status_code == 200, response.json
        body: dict[str, Any] = response.json  # type: ignore[assignment]
        return body

    def events(self, game_id: str) -> list[dict[str, Any]]:
        response = self.client.get(f"/v1/games/{game_id}/events", headers=self.ada.auth)
        found: list[dict[str, Any]] = response.json["events"]  # type: ignore[index]
        return found

    def types(self, game_id: str) -> list[str]:
        return [e["type"] for e in self.events(game_id)]

    def passes(self, game_id: str, who: Account) -> dict[str, Any]:
        version = self.view(game_id, who)["version"]
        response = move(self.client, who, game_id, version, type="pass")
        assert response.status_code == 200, response.json
        body: dict[str, Any] = response.json  # type: ignore[assignment]
        return body

    def advance(self, **amount: float) -> None:
        self.time.advance(**amount)


_orders = itertools.count()


def _tiles() -> list[int]:
    """The worked example's start, another order for each game (one player sits in one
    unfinished game of a bag order at a time)."""
    return example_tiles(next(_orders))
