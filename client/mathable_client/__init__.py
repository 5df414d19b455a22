"""The Mathable API v1 from Python: a client with auth, retries and idempotent commands.

``Client(base_url, token)`` reads games as typed views (``GameView``), plays
whole turns (``client.play(game_id, best_turn)``), waits for your turn
(``client.wait_for_turn``) and gets the rules as data (``client.ruleset()``).
``mathable-cli`` uses the same transport. See ``docs/bots.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from mathable_client.views import (
        Equation,
        GameView,
        PlacedTile,
        ResultView,
        SeatView,
        TurnView,
    )

#: The typed views, loaded when first asked for (PEP 562): a call that reads JSON only
#: (``mathable-cli show``) does not build their classes.
_VIEWS = frozenset({"Equation", "GameView", "PlacedTile", "ResultView", "SeatView", "TurnView"})


def __getattr__(name: str) -> Any:
    if name not in _VIEWS:
        raise AttributeError(f"module 'mathable_client' has no attribute {name!r}")
    from mathable_client import views

    return getattr(views, name)


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
