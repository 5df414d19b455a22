"""The built-in engines, by name: ``greedy``, ``best`` and ``strong``.

>>> from mathable.games.mathable.engine import PlayerView, _dealt_example
>>> view = PlayerView.of(_dealt_example(), seat=0)
>>> print(greedy(view)); print(best(view))
F8=12 I8=7 F7=3 F6=9 (extra tiles)
I8=12 J8=16 F8=7 I7=3 I9=9 (extra tiles)
>>> sorted(BUILTIN_ENGINES)
['best', 'greedy', 'strong']
"""

from __future__ import annotations

from typing import Final

from mathable.games.mathable.engine import (
    Engine,
    ExchangeTiles,
    PassTurn,
    Play,
    PlayerView,
    TurnChoice,
)
from mathable.games.mathable.movegen import best_turn_in, greedy_turn
from mathable.games.mathable.strong import strong

#: The search budget of ``best``: a strong turn in well under a second.
BEST_NODE_LIMIT: Final = 20_000


def nothing_fits(view: PlayerView) -> TurnChoice:
    """No tile fits: end a begun turn, else give back the biggest tiles, else pass."""
    if view.placed:
        return PassTurn()
    room = min(len(view.rack), view.bag_size)
    if room > 0:
        return ExchangeTiles(tuple(sorted(view.rack)[-room:]))
    return PassTurn()


def greedy(view: PlayerView) -> TurnChoice:
    """The best single placement, then the best next one, and so on; extra tiles drawn."""
    line = greedy_turn(view.position, view.rack)
    if not line:
        return nothing_fits(view)
    return Play(tuple(line), draw_extra=True)


def best_engine(node_limit: int = BEST_NODE_LIMIT) -> Engine:
    """``best`` with another search budget."""

    def best(view: PlayerView) -> TurnChoice:
        """The highest-scoring turn the search finds (the 50 bonus counted); extra tiles drawn
        unless they would cost that bonus. When nothing fits: exchange the biggest, or pass."""
        found = best_turn_in(
            view.position, view.rack, bonus_possible=view.bonus_possible, node_limit=node_limit
        )
        if not found.placements:
            return nothing_fits(view)
        # Extra tiles drawn now would stay on the rack and cost the 50 bonus.
        return Play(found.placements, draw_extra=not found.bonus)

    return best


def best(view: PlayerView) -> TurnChoice:
    """The highest-scoring turn the search finds (the 50 bonus counted); extra tiles drawn
    unless they would cost that bonus. When nothing fits: exchange the biggest, or pass."""
    return _best(view)


_best = best_engine()


BUILTIN_ENGINES: Final[dict[str, Engine]] = {"greedy": greedy, "best": best, "strong": strong}
