"""What every viewer may see of the events every game shares.

A game's own ``redact`` hides what its own events hold (racks, hands, draws) and
hands every other event to ``redact_shared``: the seed and the bag order of a
game are never shown in ``game_created``; the lifecycle events hide nothing.
"""

from __future__ import annotations

from typing import Any

from mathable.core.events import Event, GameCreated


def redact_shared(event: Event, viewer: int | None, *, revealed: bool = False) -> dict[str, Any]:
    """``event.to_dict()`` with everything ``viewer`` may not see taken out.

    ``viewer`` (a seat, or None) does not matter to the shared events: what
    ``game_created`` hides, it hides from everyone, even once the game has
    ``revealed`` its bag order (``draws_revealed`` carries the order then).
    """
    data = event.to_dict()
    if isinstance(event, GameCreated):
        data.pop("seed")
        data.pop("tiles")
        # The bag order is revealed by draws_revealed at the end, never here.
        data.pop("order", None)
        data.pop("salt", None)
        data["commitment"] = event.commitment
        data["seeded"] = event.seed is not None
        data["ordered"] = event.tiles is not None
    return data


__all__ = ["redact_shared"]
