"""The end of a game of Mathable: why it is over (``end_reason``), and a game refereed by
its players that waits on its last turn to end (``pending_end``).

The end itself (deductions, winners, the order revealed) is the kernel's
(``mathable.core.lifecycle.end``); ``commands.MATHABLE`` tells it Mathable's reasons.
"""

from __future__ import annotations

from mathable.core.errors import RuleError
from mathable.core.words import says
from mathable.games.mathable.movegen import has_legal_move
from mathable.games.mathable.state import V2, GameState


def end_reason(state: GameState, *, waiting: bool = False) -> str | None:
    """Why the game is over now, or None while it goes on.

    With players as referee, a game that would end right after a turn still open
    to correction waits for the next player: they correct it or pass, and only
    then does it end (``waiting=True`` gives the reason it is waiting to end on).
    """
    if state.status != "playing":
        return None
    active = state.active_seats()
    if len(active) <= 1:
        return "resigned"
    if state.correctable is not None and state.options.referee == "players" and not waiting:
        return None
    if not state.bag and any(not state.seats[s].rack for s in active):
        return "rack_emptied"
    if state.idle_turns >= 2 * len(active):
        return "no_placements"
    if state.rules_version >= V2:
        in_play = set(state.bag).union(*(state.seats[s].rack for s in active))
        if not has_legal_move(state.position, in_play):
            return "blocked"
    elif not state.bag and not any(
        has_legal_move(state.position, state.seats[s].rack) for s in active
    ):
        return "blocked"
    return None


def pending_end(state: GameState) -> str | None:
    """The reason a players-refereed game ends unless its last turn is corrected, or None."""
    if state.correctable is None or state.options.referee != "players":
        return None
    return end_reason(state, waiting=True)


def refuse_if_ending(state: GameState) -> None:
    """RuleError ``game_ending`` while a players-refereed game waits to end on its last turn:
    only a correction or a pass is played then."""
    if pending_end(state) is not None:
        raise RuleError(
            "game_ending",
            says(
                "the game is over unless the last turn is corrected: correct it, or pass to end it"
            ),
            {"reason": pending_end(state)},
        )


__all__ = ["end_reason", "pending_end", "refuse_if_ending"]
