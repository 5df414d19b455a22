"""Summy games over the API: the supply in a given order and a started game of two seats."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from mathable.games.summy import SUPPLY_SET, tile_names
from mathable.games.summy.tiles import parse_tiles
from tests.server.helpers import Account


def supply(front: str) -> list[str]:
    """The 93 supply tiles as strings, beginning with ``front`` (one character a tile)."""
    rest = list(SUPPLY_SET)
    for tile in parse_tiles(front):
        rest.remove(tile)
    return list(front) + tile_names(rest)


#: Seat 0 holds 1 2 + 3 4 5 x =, seat 1 holds 6 7 8 9 - : = 0; then 1 2 3 1 are drawn.
FRONT = "12+345x=" + "6789-:=0" + "1231"


def summy_game(client: FlaskClient, a: Account, b: Account, **options: Any) -> dict[str, Any]:
    options.setdefault("tiles", supply(FRONT))
    created = client.post("/v1/games", json={"ruleset": "summy", **options}, headers=a.auth)
    assert created.status_code == 201, created.json
    joined = client.post(f"/v1/games/{created.json['id']}/join", headers=b.auth)
    assert joined.status_code == 200, joined.json
    body: dict[str, Any] = joined.json  # type: ignore[assignment]
    return body


#: Seat 0's first play: 1+2=3 round the = in the middle (6 points).
ONE_TWO_THREE = [
    {"x": -3, "y": 0, "tile": "1"},
    {"x": -2, "y": 0, "tile": "+"},
    {"x": -1, "y": 0, "tile": "2"},
    {"x": 1, "y": 0, "tile": "3"},
]
