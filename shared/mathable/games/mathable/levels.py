"""Mathable's computer players by level (issue 44): from a seat's JSON view to the JSON
commands of its decision, as the server's computer plays them.

Each engine takes the view a seat may see (``GET /v1/games/{id}``'s game: no other rack,
no bag order) and a seed (the same seed, the same choice: a worker that plays a turn
again after a crash decides the same), and answers the commands of one decision in
order: a whole turn is one ``turn`` command; a turn played in parts (``strong`` draws
its extra tiles and goes on) is ``place`` and ``draw_extra`` commands, and the engine is
asked again while the turn is its own.

- ``casual`` (``easy``): one tile a turn, most often not the best one: a beginner's pace.
- ``greedy`` (``medium``): the best placement, then the best next one, and so on.
- ``best`` (``hard``): the highest-scoring turn the search finds.
- ``strong`` (``expert``): points, leave and the opponent's replies weighed.

>>> from mathable.games.mathable.engine import _dealt_example
>>> from mathable.games.mathable.ruleset import RULES
>>> view = RULES.view(_dealt_example(), 0)
>>> casual(view, 1)[0]["type"], LEVELS["greedy"](view, 1)[0]["type"]
('turn', 'turn')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from mathable.games.mathable.board import OPERATION, parse_square
from mathable.games.mathable.engine import (
    Engine,
    ExchangeTiles,
    PassTurn,
    Play,
    PlayerView,
    TurnChoice,
    checked_choice,
)
from mathable.games.mathable.engines import best, greedy, nothing_fits
from mathable.games.mathable.movegen import legal_placements_in
from mathable.games.mathable.strong import strong

#: How often ``casual`` plays its best single tile; else one at random from the worse half.
CASUAL_BEST = 0.3

Json = dict[str, Any]


def commands_of(choice: TurnChoice, view: PlayerView) -> list[Json]:
    """The JSON commands that play ``choice`` (checked against ``view``) for its seat."""
    mid_turn = bool(view.placed)
    if isinstance(choice, Play):
        extra = [choice.draw_extra and OPERATION[parse_square(p.square)] is not None
                 for p in choice.placements]  # fmt: skip
        if choice.end_turn and not mid_turn:
            return [
                {
                    "type": "turn",
                    "placements": [
                        {"square": p.square, "tile": p.tile, "draw_extra": e}
                        for p, e in zip(choice.placements, extra, strict=True)
                    ],
                }
            ]
        out: list[Json] = []
        bag = view.bag_size
        for p, e in zip(choice.placements, extra, strict=True):
            out.append({"type": "place", "square": p.square, "tile": p.tile})
            if e and bag > 0:
                out.append({"type": "draw_extra"})
                bag -= 1
        if choice.end_turn:
            out.append({"type": "end_turn"})
        return out
    if isinstance(choice, ExchangeTiles):
        return [{"type": "exchange", "tiles": list(choice.tiles)}]
    return [{"type": "end_turn" if mid_turn else "pass"}]


def _casual(view: PlayerView, seed: int) -> TurnChoice:
    if view.placed:
        return PassTurn()
    found = legal_placements_in(view.position, view.rack)
    if not found:
        return nothing_fits(view)
    chance = random.Random(seed)
    if chance.random() < CASUAL_BEST or len(found) == 1:
        chosen = found[0]
    else:
        chosen = chance.choice(found[len(found) // 2 :])
    return Play((chosen,), draw_extra=False)


def level_engine(engine: Engine | None) -> Callable[[Mapping[str, Any], int], list[Json]]:
    """A JSON-view engine from a ``PlayerView`` one (None: ``casual``)."""

    def play(view: Mapping[str, Any], seed: int) -> list[Json]:
        seen = PlayerView.from_json(view)
        choice = _casual(seen, seed) if engine is None else engine(seen)
        return commands_of(checked_choice(choice, seen), seen)

    return play


casual = level_engine(None)
greedy_level = level_engine(greedy)
best_level = level_engine(best)
strong_level = level_engine(strong)

#: The built-in engines by name, as ``mathable.core.computer`` finds them.
LEVELS: dict[str, Callable[[Mapping[str, Any], int], list[Json]]] = {
    "casual": casual,
    "greedy": greedy_level,
    "best": best_level,
    "strong": strong_level,
}
