"""What a viewer sees: the rules package's views and redacted events, with server fields.

Every game body and event feed goes through ``mathable.view`` and
``mathable.redact``, which hide other racks, the bag order and the seed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from mathable import Event, GameState, redact, view
from mathable_server.store import StoredEvent


def player_ids(state: GameState) -> list[str]:
    """Every player a view of ``state`` names: the seated and the invited."""
    seated = [seat.player for seat in state.seats if seat.player is not None]
    return seated + [p for p in state.options.invited if p not in seated]


def viewer_seat(state: GameState, player_id: str | None) -> int | None:
    return None if player_id is None else state.seat_of(player_id)


def game_body(
    game_id: str, state: GameState, seat: int | None, names: Mapping[str, str]
) -> dict[str, Any]:
    """The game as ``seat`` (None: a spectator) may see it, with ids and player names."""
    body = view(state, seat)
    for entry in body["seats"]:
        player = entry["player"]
        entry["name"] = None if player is None else names.get(player)
    body["invited"] = [{"id": p, "name": names.get(p)} for p in state.options.invited]
    body["id"] = game_id
    return body


def event_body(version: int, event: Event, seat: int | None, at: str | None) -> dict[str, Any]:
    body = redact(event, seat)
    body["version"] = version
    if at is not None:
        body["at"] = at
    return body


def events_body(stored: Iterable[StoredEvent], seat: int | None) -> list[dict[str, Any]]:
    return [event_body(s.version, s.event, seat, s.created_at) for s in stored]


def appended_body(first_version: int, new: list[Event], seat: int | None) -> list[dict[str, Any]]:
    """The events a command just appended, numbered from ``first_version``, redacted."""
    return [event_body(first_version + i, e, seat, None) for i, e in enumerate(new)]


class BodyCache:
    """Rendered JSON views by (game, version, seat): a version never changes, so neither does
    its view. Least recently used dropped first; safe across threads."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._bodies: OrderedDict[tuple[str, int, int | None], str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int, int | None]) -> str | None:
        with self._lock:
            body = self._bodies.get(key)
            if body is not None:
                self._bodies.move_to_end(key)
            return body

    def put(self, key: tuple[str, int, int | None], body: str) -> None:
        with self._lock:
            self._bodies[key] = body
            while len(self._bodies) > self._size:
                self._bodies.popitem(last=False)
