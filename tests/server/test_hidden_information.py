"""Bots play complete games over the API; no answer ever shows another seat's tiles.

Every response a player or spectator receives (views, event feeds, command
answers, errors) is scanned: a ``rack`` is the viewer's own or null, tiles
drawn by others are null, no list holds another seat's rack, and nothing
resembling the bag order or the seed appears, until the game has ended and
revealed its bag order (``draws_revealed``), after which nothing is hidden.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from mathable import OPERATION, GameState, best_turn, parse_square
from mathable.core.audit import audit, events_from_feed
from tests.server.helpers import Account, register

COUNTED = {"scores", "deductions", "winners", "rack_sizes", "drawn_count"}


class Referee:
    """Knows the true game (from the log) and checks what one viewer was shown."""

    def __init__(self, client: FlaskClient, game_id: str, seats: list[Account]) -> None:
        self.client = client
        self.game_id = game_id
        self.seats = seats
        self.checked = 0

    def truth(self) -> GameState:
        state: GameState = self.client.application.extensions["mathable"].games.state(self.game_id)
        return state

    def scan(self, body: Any, viewer: int | None) -> None:
        state = self.truth()
        own = list(state.seats[viewer].rack) if viewer is not None else None
        others = [
            sorted(seat.rack)
            for index, seat in enumerate(state.seats)
            if index != viewer and len(seat.rack) >= 3
        ]
        text = json.dumps(body)
        assert '"seed"' not in text and '"bag"' not in text
        if state.draws_revealed:
            # After the end: the order is public (it lets anyone check every draw), but
            # game_created still never shows it, nor the seed.
            self._created_stays_closed(body)
            self.checked += 1
            return
        assert '"order"' not in text and '"salt"' not in text
        assert "draws_revealed" not in text
        for other in others:
            assert ", ".join(map(str, other)) not in text
        self._walk(body, viewer, own, others, None)
        self.checked += 1

    def _walk(
        self, node: Any, viewer: int | None, own: Any, others: list[list[int]], key: str | None
    ) -> None:
        if isinstance(node, dict):
            if "type" in node and "v" in node:
                self._event(node, viewer)
            if "rack" in node:
                assert node["rack"] is None or node["rack"] == own
            for k, v in node.items():
                self._walk(v, viewer, own, others, k)
        elif isinstance(node, list):
            if node and all(isinstance(x, int) for x in node) and key not in COUNTED:
                assert len(node) <= 16, (key, node)
                assert sorted(node) not in others or key == "rack", (key, node)
            for item in node:
                self._walk(item, viewer, own, others, key)

    def _created_stays_closed(self, node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "game_created":
                assert not {"seed", "tiles", "order", "salt"} & set(node)
            for value in node.values():
                self._created_stays_closed(value)
        elif isinstance(node, list):
            for item in node:
                self._created_stays_closed(item)

    @staticmethod
    def _event(event: dict[str, Any], viewer: int | None) -> None:
        kind, seat = event["type"], event.get("seat")
        if kind == "game_created":
            assert "seed" not in event and "tiles" not in event
            assert "order" not in event and "salt" not in event
            assert len(event["commitment"]) == 64
        elif kind == "game_started":
            for index, (rack, draw) in enumerate(
                zip(event["racks"], event["start_draws"], strict=True)
            ):
                if index != viewer:
                    assert rack is None and draw is None
        elif kind == "extra_tile_drawn" and seat != viewer:
            assert event["tile"] is None
        elif kind == "turn_ended" and seat != viewer:
            assert event["drawn"] is None
        elif kind == "tiles_exchanged" and seat != viewer:
            assert event["returned"] is None and event["drawn"] is None


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
