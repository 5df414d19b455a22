"""Summy's computer players by level (issue 44): from a seat's JSON view to the JSON
commands of its decision (see ``mathable.games.mathable.levels``).

The levels differ in how much of the search they look at: ``casual`` (``easy``) takes a
low-scoring equation among the first few it finds, ``greedy`` (``medium``) the best of
the first few, ``best`` (``hard``) the best of many, ``strong`` (``expert``) the best of
all (``best_move``, exhaustive).

>>> from mathable.games.summy.selfplay import play_game, replay
>>> from mathable.games.summy.ruleset import RULES
>>> state = replay(play_game(seed=3)[:3])
>>> [LEVELS[name](RULES.view(state, state.turn.seat), 1)[0]["type"] for name in sorted(LEVELS)]
['equation', 'equation', 'equation', 'equation']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from itertools import islice
from typing import Any

from mathable.games.summy.movegen import Move, best_move, legal_moves
from mathable.games.summy.tiles import EQUALS, parse_tile, tile_names

Json = dict[str, Any]
#: Equations ``casual`` looks at, ``greedy``'s and ``best``'s share of the search.
CASUAL_LOOK, GREEDY_LOOK, BEST_LOOK = 12, 3, 25


def _position(view: Mapping[str, Any]) -> tuple[dict[tuple[int, int], int], list[int], set[Any]]:
    table = {(p["x"], p["y"]): parse_tile(p["tile"]) for p in view.get("table") or []}
    hand = [parse_tile(t) for t in view.get("hand") or []]
    closed = {(c["x"], c["y"]) for c in view.get("closed") or []}
    return table, hand, closed


def _command(move: Move) -> Json:
    return {
        "type": "equation",
        "placements": [{"x": x, "y": y, "tile": tile_names([t])[0]} for x, y, t in move.placements],
        "direction": move.direction,
    }


def _nothing(view: Mapping[str, Any], hand: list[int]) -> Json:
    """No equation: give back the hand's least useful tiles (the supply allowing), or pass."""
    supply = int(view.get("supply") or 0)
    if not supply or not hand:
        return {"type": "pass"}
    extra_equals = [t for t in hand if t == EQUALS][1:]
    digits = sorted((t for t in hand if t <= 9), reverse=True)
    tiles = ((extra_equals + digits[:2]) or hand[:1])[:supply]
    return {"type": "discard", "tiles": tile_names(tiles)}


Play = Callable[[Mapping[str, Any], int], list[Json]]


def _looking(look: int | None, casual: bool = False) -> Play:
    def play(view: Mapping[str, Any], seed: int) -> list[Json]:
        table, hand, closed = _position(view)
        if look is None:
            move = best_move(table, hand, closed)
        else:
            found = list(islice(legal_moves(table, hand, closed), look))
            if casual and found:
                found.sort(key=lambda m: m.points)
                move = random.Random(seed).choice(found[: max(1, (len(found) + 1) // 2)])
            else:
                move = max(found, key=lambda m: m.points, default=None)
        return [_command(move) if move is not None else _nothing(view, hand)]

    return play


#: The built-in engines by name, as ``mathable.core.computer`` finds them.
LEVELS: dict[str, Play] = {
    "casual": _looking(CASUAL_LOOK, casual=True),
    "greedy": _looking(GREEDY_LOOK),
    "best": _looking(BEST_LOOK),
    "strong": _looking(None),
}
