"""The rule book's worked example, played over HTTP on a game made with the matching tiles.

Player 1 places 12, 8, 2, 1, 16, draws the extra 11 and scores 39; player 2
places all seven tiles for 71 plus the 50-point bonus.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.server.helpers import EXAMPLE_TILES, move, register, started_game

pytestmark = pytest.mark.both_databases

PLAYER_1 = [("I8", 12, 12), ("H6", 8, 8), ("G9", 2, 2), ("F7", 1, 1), ("J8", 16, 16)]
PLAYER_2 = [
    ("F8", 7, 7),
    ("F9", 6, 6),
    ("H9", 8, 16),
    ("G6", 4, 4),
    ("E9", 3, 3),
    ("E8", 21, 21),
    ("E10", 7, 14),
]


def test_worked_example_over_http_scores_39_and_71_plus_bonus(client: FlaskClient) -> None:
    one, two = register(client, "one"), register(client, "two")
    game = started_game(client, one, two, tiles=EXAMPLE_TILES)
    version = game["version"]

    def play(who: object, **command: object) -> dict[str, object]:
        nonlocal version
        response = move(client, who, game["id"], version, **command)  # type: ignore[arg-type]
        assert response.status_code == 200, response.json
        body: dict[str, object] = response.json  # type: ignore[assignment]
        version = body["version"]  # type: ignore[assignment]
        return body

    for square, tile, points in PLAYER_1:
        placed = play(one, type="place", square=square, tile=tile)
        assert placed["events"][0]["points"] == points, square  # type: ignore[index]
    extra = play(one, type="draw_extra")
    assert extra["events"][0]["tile"] == 11  # type: ignore[index]
    ended = play(one, type="end_turn")
    event = ended["events"][0]  # type: ignore[index]
    assert (event["points"], event["bonus"], len(event["drawn"])) == (39, 0, 4)

    for square, tile, points in PLAYER_2:
        placed = play(two, type="place", square=square, tile=tile)
        assert placed["events"][0]["points"] == points, square  # type: ignore[index]
    ended = play(two, type="end_turn")
    event = ended["events"][0]  # type: ignore[index]
    assert (event["points"], event["bonus"], len(event["drawn"])) == (71, 50, 7)
    assert [s["score"] for s in ended["seats"]] == [39, 121]  # type: ignore[attr-defined]
    spectator = client.get(f"/v1/games/{game['id']}").json
    assert spectator is not None and [s["score"] for s in spectator["seats"]] == [39, 121]
    assert spectator["board"]["E10"] == 7
