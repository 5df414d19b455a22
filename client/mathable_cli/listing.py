"""The caller's games as ``GET /v1/me`` lists them: which wait on the caller, in what order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def waits_on_me(entry: Mapping[str, Any]) -> bool:
    """True when a game of ``GET /v1/me`` waits on the caller."""
    for key in ("your_turn", "waiting_on_you", "my_turn"):
        if key in entry:
            return bool(entry[key])
    you = entry.get("you")
    turn = entry.get("turn")
    seat = turn.get("seat") if isinstance(turn, dict) else entry.get("turn_seat")
    return entry.get("status") == "playing" and you is not None and seat == you


def game_entries(me: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The caller's games, the ones waiting on them first (as the server sorts them)."""
    games = [dict(g) for g in me.get("games") or []]
    return sorted(games, key=lambda g: not waits_on_me(g))  # stable: keeps the server's order
