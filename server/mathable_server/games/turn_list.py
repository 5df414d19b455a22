"""A game's turns in words, for people reading the web page: who did what, for how many points.

Built from the event log, using only what every spectator may know, by the
game's own ruleset (``Ruleset.move_lines``: the kernel folds the shared events
and a turn told in one event, ``Ruleset.turn_told``; a game whose turn spans
several events folds those itself).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from mathable import Event
from mathable.core.errors import RuleError
from mathable.core.events import GameCreated
from mathable.core.movelist import MoveLine
from mathable.core.plugins import DEFAULT_RULESET
from mathable.core.ruleset import ruleset

#: One line of the move list (``mathable.core.movelist.MoveLine``).
TurnLine = MoveLine


def end_words(reason: str, game: str | None = None) -> str:
    """Why a game ended, in its ruleset's words (no ruleset named: the default game's)."""
    try:
        return ruleset(game or DEFAULT_RULESET).end_words(reason)
    except RuleError:
        return reason


def turn_lines(
    events: Iterable[Event], names: Sequence[str] = (), game: str | None = None
) -> list[TurnLine]:
    """The turns of a game in order; an unfinished turn last, as ``playing``.

    ``names`` names the seats in words (``seat 1``, ``seat 2``... otherwise); ``game``
    is the game's ruleset (else the one its ``game_created`` names, else the default game).

    >>> from mathable.games.mathable.events import TilePlaced, TurnEnded
    >>> lines = turn_lines([TilePlaced(0, 107, 12, (), 12), TurnEnded(0, 12, 0, (5,))])
    >>> [(line.number, line.kind, line.words) for line in lines]
    [(1, 'played', 'J8=12 (12)')]
    """
    events = list(events)
    if game is None:
        created = next((e for e in events if isinstance(e, GameCreated)), None)
        game = created.ruleset if created is not None and created.ruleset else DEFAULT_RULESET
    return ruleset(game).move_lines(events, names)
