"""The Mathable API v1 from Python: a client with auth, retries and idempotent commands.

``Client(base_url, token)`` reads games as typed views (``GameView``), plays
whole turns (``client.play(game_id, best_turn)``), waits for your turn
(``client.wait_for_turn``) and gets the rules as data (``client.ruleset()``).
``mathable-cli`` uses the same transport. See ``docs/bots.md``.
"""

from __future__ import annotations

from mathable_client.client import LONG_POLL, Client, turn_command
from mathable_client.transport import (
    ENDLESS,
    PATIENT,
    QUICK,
    ApiError,
    BadRequest,
    ClientError,
    NotJson,
    Reply,
    Transport,
    Unreachable,
    new_idempotency_key,
)
from mathable_client.views import (
    Equation,
    GameView,
    PlacedTile,
    ResultView,
    SeatView,
    TurnView,
)

__all__ = [
    "ENDLESS",
    "LONG_POLL",
    "PATIENT",
    "QUICK",
    "ApiError",
    "BadRequest",
    "Client",
    "ClientError",
    "Equation",
    "GameView",
    "NotJson",
    "PlacedTile",
    "Reply",
    "ResultView",
    "SeatView",
    "Transport",
    "TurnView",
    "Unreachable",
    "new_idempotency_key",
    "turn_command",
]
