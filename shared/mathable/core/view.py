"""What every viewer may see of what every game shares: its lifecycle, and its events.

``lifecycle_view`` is the part of every game's view that is the same in every
game (its status, options, whose turn, the result...), and ``seat_views`` its seats,
each with what the game adds of its own; a game's ``view`` adds its own keys (board or
table, rack or hand). What the commands every game shares show (a seat that resigned or
ran out of time...) is the kernel's (``mathable.core.lifecycle.shared``). A game's own
``redact`` hides what
its own events hold (racks, hands, draws) and hands every other event to
``redact_shared``: the seed and the bag order of a game are never shown in
``game_created``; the lifecycle events hide nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mathable.core.events import Event, GameCreated
from mathable.core.lifecycle import shared
from mathable.core.state import Lifecycle, Seat


def lifecycle_view(state: Lifecycle, viewer: int | None) -> dict[str, Any]:
    """The keys every game's view has, for ``viewer`` (a seat, or None), JSON-ready.

    ``your_turn`` is true when the game is in play and waits on ``viewer``; whoever
    chose a seed or a tile order can know every rack, so everyone is told
    (``seeded``, ``ordered``); ``commitment`` is the hash the server committed to at
    creation, checked against the order revealed at the end (``mathable-cli verify``).
    """
    options = state.options
    result = state.result
    # Only in a game made from a record (``POST /v1/games/import``): the views of games
    # played here stay as they were.
    imported = {"imported": True} if options.imported else {}
    return {
        **imported,
        "ruleset": state.ruleset,
        "rules_version": state.rules_version,
        "version": state.version,
        "status": state.status,
        "players": options.players,
        "referee": options.referee,
        "seeded": options.seed is not None,
        "ordered": options.tiles is not None,
        "commitment": options.commitment,
        "invited": list(options.invited),
        "you": viewer,
        "your_turn": viewer is not None
        and state.status == "playing"
        and state.turn is not None
        and state.turn.seat == viewer,
        "idle_turns": state.idle_turns,
        "turns_played": state.turns_played,
        "result": None
        if result is None
        else {
            "reason": result.reason,
            "deductions": list(result.deductions),
            "scores": list(result.scores),
            "winners": list(result.winners),
        },
        **shared.view_fields(state, viewer),
    }


def seat_views(state: Lifecycle, own: Callable[[Seat], dict[str, Any]]) -> list[dict[str, Any]]:
    """Each seat as every viewer may see it, JSON-ready: its number, player and score, the
    game's ``own`` keys of it (a rack's size...), then the kernel's (resigned, timed out).

    >>> from mathable.core.state import Seat
    >>> state = Lifecycle(seats=(Seat("ann", (1, 2), 5), Seat("bob", resigned=True)))
    >>> seat_views(state, lambda seat: {"held": len(seat.rack)})[1]
    {'seat': 1, 'player': 'bob', 'score': 0, 'held': 0, 'resigned': True, 'timed_out': False}
    """
    return [
        {
            "seat": index,
            "player": seat.player,
            "score": seat.score,
            **own(seat),
            **shared.seat_fields(seat),
        }
        for index, seat in enumerate(state.seats)
    ]


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


__all__ = ["lifecycle_view", "redact_shared", "seat_views"]
