"""The hidden-information referee: knows the true game (from the log) and checks what
one viewer was shown (``Referee.scan``): a ``rack`` is the viewer's own or null, tiles
drawn by others are null, no list holds another seat's rack, and nothing resembling
the bag order or the seed appears, until the game has ended and revealed its order.
Used by every test that checks an answer hides what it must."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from mathable import GameState
from tests.server.helpers import Account

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
