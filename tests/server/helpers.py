"""Small helpers for driving the API in tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask.testing import FlaskClient

from mathable import TILE_SET


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def register(client: FlaskClient, name: str) -> Account:
    response = client.post("/v1/players", json={"name": name})
    assert response.status_code == 201, response.json
    body = response.json
    assert body is not None
    return Account(body["id"], body["name"], body["token"])


def bag_order(*front: int) -> list[int]:
    """All 106 tiles, beginning with ``front``, the rest in set order."""
    rest = list(TILE_SET)
    for tile in front:
        rest.remove(tile)
    return list(front) + rest


#: The rule book's worked example: racks 1 2 8 12 16 17 42 and 3 4 6 7 7 8 21, then 11.
EXAMPLE_TILES = bag_order(1, 2, 8, 12, 16, 17, 42, 3, 4, 6, 7, 7, 8, 21, 11)


def example_tiles(number: int) -> list[int]:
    """The worked example's order with its last ten tiles (all different) turned by
    ``number`` (0 to 9): another bag order that deals and draws as the example does but
    for the bag's last tiles. A player sits in one unfinished game of a bag order at a
    time (422 ``same_order``): games played at once by one player need orders of their own.
    """
    head, tail = EXAMPLE_TILES[:-10], EXAMPLE_TILES[-10:]
    turn = number % 10
    return head + tail[turn:] + tail[:turn]


def new_game(client: FlaskClient, creator: Account, **options: Any) -> dict[str, Any]:
    response = client.post("/v1/games", json=options, headers=creator.auth)
    assert response.status_code == 201, response.json
    body: dict[str, Any] = response.json  # type: ignore[assignment]
    return body


def started_game(client: FlaskClient, a: Account, b: Account, **options: Any) -> dict[str, Any]:
    """A two-player game that has started (``a`` in seat 0); its view for ``b``."""
    game = new_game(client, a, **options)
    response = client.post(f"/v1/games/{game['id']}/join", headers=b.auth)
    assert response.status_code == 200, response.json
    body: dict[str, Any] = response.json  # type: ignore[assignment]
    return body


def move(
    client: FlaskClient, who: Account, game_id: str, version: int | None, **command: Any
) -> Any:
    if version is not None:
        command["expected_version"] = version
    return client.post(f"/v1/games/{game_id}/moves", json=command, headers=who.auth)


def snapshot(client: FlaskClient, game_id: str, who: Account | None = None) -> Any:
    """Everything observable about a game: the view and the event feed."""
    headers = who.auth if who else {}
    view = client.get(f"/v1/games/{game_id}", headers=headers)
    feed = client.get(f"/v1/games/{game_id}/events", headers=headers)
    assert view.status_code == 200 and feed.status_code == 200
    return view.json, feed.json


class Table:
    """A started worked-example game: ada (seat 0, to move), bob, and eve who is not seated."""

    def __init__(self, client: FlaskClient, **options: Any) -> None:
        self.client = client
        self.ada, self.bob, self.eve = (register(client, n) for n in ("ada", "bob", "eve"))
        options.setdefault("tiles", EXAMPLE_TILES)
        self.id = started_game(client, self.ada, self.bob, **options)["id"]
        self.version = 3

    def send(self, who: Account, version: int | None = -1, **command: Any) -> Any:
        if "expected_version" in command:
            version = None
        response = move(
            self.client, who, self.id, self.version if version == -1 else version, **command
        )
        if response.status_code == 200:
            self.version = response.json["version"]
        return response

    def ok(self, who: Account, **command: Any) -> dict[str, Any]:
        response = self.send(who, **command)
        assert response.status_code == 200, response.json
        body: dict[str, Any] = response.json
        return body

    def observed(self) -> Any:
        """Everything each seat and a spectator can see of the game."""
        return [snapshot(self.client, self.id, who) for who in (self.ada, self.bob, None)]


def event_feed(
    client: FlaskClient, game_id: str, who: Account | None = None
) -> list[dict[str, Any]]:
    """The event feed of a game as ``who`` (or a spectator) reads it."""
    answer = client.get(f"/v1/games/{game_id}/events", headers=who.auth if who else {})
    assert answer.status_code == 200
    events: list[dict[str, Any]] = answer.json["events"]  # type: ignore[index]
    return events


def first_event(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    """The first event of type ``kind``."""
    return next(event for event in events if event["type"] == kind)


def resign_game(client: FlaskClient, who: Account, game: dict[str, Any]) -> dict[str, Any]:
    """``who`` resigns ``game`` at its version now; the answer."""
    view = client.get(f"/v1/games/{game['id']}", headers=who.auth).json
    answer = move(client, who, game["id"], view["version"], type="resign")  # type: ignore[index]
    assert answer.status_code == 200, answer.json
    body: dict[str, Any] = answer.json
    return body
