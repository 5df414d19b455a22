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


def test_with_no_equation_a_level_gives_back_all_but_one_equals_and_the_two_top_digits() -> None:
    view = {"table": [{"x": 0, "y": 0, "tile": "7"}], "hand": ["+", "=", "1", "=", "9", "5"]}
    assert levels._looking(3)({**view, "supply": 5}, 1) == [
        {"type": "discard", "tiles": ["=", "9", "5"]}
    ]
    assert levels._looking(3)({**view, "supply": 2}, 1) == [
        {"type": "discard", "tiles": ["=", "9"]}
    ]
    single = {**view, "hand": ["+", "=", "=", "-"], "supply": 5}
    assert levels._looking(3)(single, 1) == [{"type": "discard", "tiles": ["="]}]


def test_casual_with_two_equations_to_choose_from_plays_the_lower_scoring_one() -> None:
    # The table's 2 and 3 each open one way only (the squares around them are closed):
    # 3-1=2 (6 points) and 4-1=3 (8 points) are the only equations the hand makes.
    closed = [(0, -1), (0, 1), (1, 0), (20, -1), (20, 1), (21, 0)]
    view = {
        "table": [{"x": 0, "y": 0, "tile": "2"}, {"x": 20, "y": 0, "tile": "3"}],
        "hand": ["1", "3", "4", "-", "="],
        "closed": [{"x": x, "y": y} for x, y in closed],
        "supply": 10,
    }
    table, hand, shut = _position(view)
    assert sorted(m.points for m in legal_moves(table, hand, shut)) == [6, 8]
    low = {
        "type": "equation",
        "placements": [
            {"x": -4, "y": 0, "tile": "3"},
            {"x": -3, "y": 0, "tile": "-"},
            {"x": -2, "y": 0, "tile": "1"},
            {"x": -1, "y": 0, "tile": "="},
        ],
        "direction": "across",
    }
    made = levels._looking(levels.CASUAL_LOOK, casual=True)  # as the module makes it
    for seed in range(8):
        assert levels.LEVELS["casual"](view, seed) == [low], seed
        assert made(view, seed) == [low], seed
    high = levels.LEVELS["strong"](view, 1)
    assert [p["tile"] for p in high[0]["placements"]] == ["4", "-", "1", "="]
