"""Bots play complete games over the API; no answer ever shows another seat's tiles.

Every response a player or spectator receives (views, event feeds, command
answers, errors) is scanned: a ``rack`` is the viewer's own or null, tiles
drawn by others are null, no list holds another seat's rack, and nothing
resembling the bag order or the seed appears, until the game has ended and
revealed its bag order (``draws_revealed``), after which nothing is hidden.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from mathable import OPERATION, best_turn, parse_square
from mathable.core.audit import audit, events_from_feed
from tests.server.helpers import register
from tests.server.hidden import Referee

pytestmark = pytest.mark.both_databases


def play_out(client: FlaskClient, players: int, seed: int) -> Referee:
    seats = [register(client, f"bot{players}x{seed}n{i}") for i in range(players)]
    created = client.post(
        "/v1/games", json={"players": players, "seed": seed}, headers=seats[0].auth
    )
    game_id = created.json["id"]  # type: ignore[index]
    referee = Referee(client, game_id, seats)
    referee.scan(created.json, 0)
    for index in range(1, players):
        joined = client.post(f"/v1/games/{game_id}/join", headers=seats[index].auth)
        referee.scan(joined.json, index)

    def get(path: str, viewer: int | None) -> Any:
        headers = seats[viewer].auth if viewer is not None else {}
        response = client.get(f"/v1/games/{game_id}{path}", headers=headers)
        assert response.status_code == 200
        referee.scan(response.json, viewer)
        return response.json

    for _turn in range(400):
        spectator = get("", None)
        get("/events", None)
        if spectator["status"] == "ended":
            break
        mover = spectator["turn"]["seat"]
        idle = (mover + 1) % players
        game = get("", mover)
        get(f"/events?after={max(0, game['version'] - 12)}", idle)
        version = game["version"]
        # Refused requests answer errors; they must not leak either.
        for who, command in (
            (idle, {"type": "pass"}),
            (mover, {"type": "exchange", "tiles": [999]}),
        ):
            refused = client.post(
                f"/v1/games/{game_id}/moves",
                json={**command, "expected_version": version},
                headers=seats[who].auth,
            )
            assert refused.status_code in (403, 422)
            referee.scan(refused.json, who)
        command = bot_move(game)
        response = client.post(
            f"/v1/games/{game_id}/moves",
            json={**command, "expected_version": version},
            headers=seats[mover].auth,
        )
        assert response.status_code == 200, (command, response.json)
        referee.scan(response.json, mover)
    else:  # pragma: no cover
        pytest.fail("the game did not end")
    return referee


def bot_move(game: dict[str, Any]) -> dict[str, Any]:
    """A strong turn by ``best_turn``; else an exchange while the bag allows; else a pass."""
    rack, bag = game["rack"], game["bag_size"]
    turn = best_turn(game["board"], rack, node_limit=300)
    if turn.placements:
        spare = bag
        placements = []
        for p in turn.placements:
            extra = OPERATION[parse_square(p.square)] is not None and spare > 0
            spare -= extra
            placements.append({"square": p.square, "tile": p.tile, "draw_extra": extra})
        return {"type": "turn", "placements": placements}
    if bag >= len(rack) and rack:
        return {"type": "exchange", "tiles": rack[: min(3, len(rack))]}
    return {"type": "pass"}


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_complete_bot_games_never_show_a_seat_anothers_tiles(
    client: FlaskClient, players: int, seed: int
) -> None:
    referee = play_out(client, players, seed)
    final = referee.truth()
    assert final.status == "ended" and final.result is not None
    assert referee.checked > 50


def test_a_finished_game_shows_everyone_what_checks_every_draw(client: FlaskClient) -> None:
    referee = play_out(client, 2, 21)
    spectator_feed = client.get(f"/v1/games/{referee.game_id}/events").json
    assert spectator_feed is not None
    feed = spectator_feed["events"]
    assert feed[-1]["type"] == "draws_revealed" and len(feed[-1]["order"]) == 106
    result = audit(events_from_feed(feed))
    assert result.ok and result.draws > 10, result
