"""Mathable's draws as the committed bag order says they should be (``mathable.core.audit``)."""

from __future__ import annotations

from dataclasses import replace

from mathable.core.bag import OrderedBag
from mathable.core.events import Event
from mathable.games.mathable.commands import deal_start
from mathable.games.mathable.events import ExtraTileDrawn, GameStarted, TilesExchanged, TurnEnded
from mathable.games.mathable.state import GameState


def expected_draw(state: GameState, event: Event) -> Event | None:
    """What a draw event should hold if every tile came off the front of the bag."""
    front = state.bag
    match event:
        case GameStarted():
            return deal_start(state, OrderedBag())
        case ExtraTileDrawn():
            return replace(event, tile=front[0]) if front else None
        case TurnEnded() if event.drawn:
            return replace(event, drawn=tuple(front[: len(event.drawn)]))
        case TilesExchanged():
            return replace(event, drawn=tuple(front[: len(event.drawn)]))
    return None


__all__ = ["expected_draw"]
