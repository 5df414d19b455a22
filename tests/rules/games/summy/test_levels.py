"""Summy's computer levels, made again as the module makes them when it loads
(``levels._looking``): each plays what its level's search finds, from the view alone."""

from __future__ import annotations

import random
from itertools import islice

import pytest

from mathable.core.ruleset import ruleset
from mathable.games.summy import levels
from mathable.games.summy.movegen import best_move, legal_moves
from tests.rules.summy_positions import mid_game

SUMMY = ruleset("summy")


def _views() -> list[dict[str, object]]:
    found = []
    for seed in range(12):
        state = mid_game(seed, 20)
        if state is not None:
            found.append(SUMMY.view(state, state.turn.seat))
    assert len(found) >= 4
    return found


def _position(view: dict[str, object]) -> tuple[dict[tuple[int, int], int], list[int], set[object]]:
    return levels._position(view)


@pytest.mark.parametrize(
    ("name", "look", "casual"),
    [
        ("casual", levels.CASUAL_LOOK, True),
        ("greedy", levels.GREEDY_LOOK, False),
        ("best", levels.BEST_LOOK, False),
        ("strong", None, False),
    ],
)
def test_a_level_made_again_plays_as_the_installed_one(
    name: str, look: int | None, casual: bool
) -> None:
    made = levels._looking(look, casual=casual) if casual else levels._looking(look)
    for view in _views():
        assert made(view, 7) == levels.LEVELS[name](view, 7)


def test_the_levels_search_as_much_as_their_level_says() -> None:
    played = 0
    for view in _views():
        table, hand, closed = _position(view)
        best = best_move(table, hand, closed)
        if best is None:
            continue
        played += 1
        assert levels._looking(None)(view, 1) == [levels._command(best)]
        first = list(islice(legal_moves(table, hand, closed), 3))
        top = max(first, key=lambda m: m.points)
        assert levels._looking(3)(view, 1) == [levels._command(top)]
        # Casual: one of the lower-scoring half (the middle one in) of what it looked at,
        # drawn by the seed.
        looked = sorted(islice(legal_moves(table, hand, closed), 12), key=lambda m: m.points)
        low = looked[: max(1, (len(looked) + 1) // 2)]
        for seed in range(8):
            chosen = random.Random(seed).choice(low)
            assert levels._looking(12, casual=True)(view, seed) == [levels._command(chosen)]
    assert played >= 3


def test_a_level_with_no_equation_gives_tiles_back_or_passes() -> None:
    view = {"table": [{"x": 0, "y": 0, "tile": "7"}], "hand": ["+", "+"], "supply": 5}
    assert levels._looking(3)(view, 1) == [{"type": "discard", "tiles": ["+"]}]
    assert levels._looking(None)({**view, "supply": 0}, 1) == [{"type": "pass"}]
