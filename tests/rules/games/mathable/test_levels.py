"""Mathable's computer levels (``mathable.games.mathable.levels``): the JSON commands a
decision is sent as, what ``casual`` plays from a seed, and each level made again as the
module makes it when it loads (``level_engine``)."""

from __future__ import annotations

from typing import Any

import pytest

from mathable.games.mathable import levels
from mathable.games.mathable.engine import (
    EngineError,
    ExchangeTiles,
    PassTurn,
    Play,
    PlayerView,
    _dealt_example,
)
from mathable.games.mathable.engines import best, greedy
from mathable.games.mathable.movegen import Placement
from mathable.games.mathable.ruleset import RULES
from mathable.games.mathable.strong import strong

Json = dict[str, Any]


def _view(**changes: Any) -> Json:
    """Seat 0's JSON view of the dealt example (board G7=1 H7=2 G8=3 H8=4, rack 12 16 3 7
    40 9 5, 92 tiles in the bag), with ``changes``."""
    return {**RULES.view(_dealt_example(), 0), **changes}


def _mid_turn(**changes: Any) -> Json:
    """The same view with I8=12 already placed this turn by seat 0."""
    view = _view(**changes)
    turn = {**view["turn"], "placements": [{"square": "I8", "tile": 12, "points": 12}]}
    return {**view, "board": {**view["board"], "I8": 12}, "turn": turn}


# I8=12, J8=16 (on the + square: 4 + 12), F8=7, E8=21 (on the x square: 7 x 3): a line
# with two operation squares, J8 and E8, each of which may draw the extra tiles.
LINE = (
    Placement("I8", 12, 12),
    Placement("J8", 16, 16),
    Placement("F8", 7, 7),
    Placement("E8", 21, 21),
)
PLACED = [
    {"type": "place", "square": "I8", "tile": 12},
    {"type": "place", "square": "J8", "tile": 16},
    {"type": "place", "square": "F8", "tile": 7},
    {"type": "place", "square": "E8", "tile": 21},
]
EXTRA = {"type": "draw_extra"}


def _commands(choice: Any, view: Json) -> list[Json]:
    return levels.commands_of(choice, PlayerView.from_json(view))


def test_a_whole_turn_is_one_turn_command_drawing_extra_tiles_on_operation_squares_only() -> None:
    assert _commands(Play(LINE, draw_extra=True), _view()) == [
        {
            "type": "turn",
            "placements": [
                {"square": "I8", "tile": 12, "draw_extra": False},
                {"square": "J8", "tile": 16, "draw_extra": True},
                {"square": "F8", "tile": 7, "draw_extra": False},
                {"square": "E8", "tile": 21, "draw_extra": True},
            ],
        }
    ]
    assert _commands(Play(LINE[:2]), _view()) == [
        {
            "type": "turn",
            "placements": [
                {"square": "I8", "tile": 12, "draw_extra": False},
                {"square": "J8", "tile": 16, "draw_extra": False},
            ],
        }
    ]


@pytest.mark.parametrize(
    ("bag_size", "commands"),
    [
        (92, [*PLACED[:2], EXTRA, *PLACED[2:], EXTRA]),
        (2, [*PLACED[:2], EXTRA, *PLACED[2:], EXTRA]),
        (1, [*PLACED[:2], EXTRA, *PLACED[2:]]),
        (0, PLACED),
    ],
)
def test_a_turn_that_goes_on_is_placed_tile_by_tile_drawing_while_the_bag_has_tiles(
    bag_size: int, commands: list[Json]
) -> None:
    play = Play(LINE, draw_extra=True, end_turn=False)
    assert _commands(play, _view(bag_size=bag_size)) == commands
    assert _commands(Play(LINE, end_turn=False), _view(bag_size=bag_size)) == PLACED


def test_a_play_in_a_turn_already_begun_is_placed_tile_by_tile_then_ended() -> None:
    assert _commands(Play(LINE[1:], draw_extra=True), _mid_turn(bag_size=1)) == [
        *PLACED[1:2],
        EXTRA,
        *PLACED[2:],
        {"type": "end_turn"},
    ]
    assert _commands(Play(LINE[1:2], end_turn=False), _mid_turn()) == PLACED[1:2]


def test_a_pass_ends_a_begun_turn_and_an_exchange_names_its_tiles() -> None:
    assert _commands(PassTurn(), _view()) == [{"type": "pass"}]
    assert _commands(PassTurn(), _mid_turn()) == [{"type": "end_turn"}]
    assert _commands(ExchangeTiles((40, 16)), _view()) == [{"type": "exchange", "tiles": [40, 16]}]


def _turn(*placements: tuple[str, int, bool]) -> list[Json]:
    return [
        {
            "type": "turn",
            "placements": [{"square": s, "tile": t, "draw_extra": e} for s, t, e in placements],
        }
    ]


# The dealt example's eight single placements, best first: F8=12 I8=12 F8=7 I8=7 (the
# better half), F7=3 G6=3 G9=3 I7=3 (the worse half).
CASUAL_BY_SEED = {
    0: ("I7", 3),  # the seed's first draw 0.84: one of the worse half
    1: ("F8", 12),  # 0.13, under CASUAL_BEST (0.3): the best placement
    2: ("F7", 3),
    3: ("F8", 12),  # 0.24
    4: ("F8", 12),  # 0.24
    5: ("G9", 3),
    6: ("F7", 3),
    7: ("G6", 3),  # 0.32, just over CASUAL_BEST
}


def test_casual_plays_its_best_tile_now_and_then_else_one_of_the_worse_half_by_the_seed() -> None:
    casual = levels.level_engine(None)
    for seed, (square, tile) in CASUAL_BY_SEED.items():
        assert casual(_view(), seed) == _turn((square, tile, False)), seed
    worse = {("F7", 3), ("G6", 3), ("G9", 3), ("I7", 3)}
    for seed in range(8, 40):
        (command,) = casual(_view(), seed)
        (placed,) = command["placements"]
        assert (placed["square"], placed["tile"]) in worse | {("F8", 12)}


def test_casual_with_two_placements_plays_the_worse_one_unless_the_seed_says_best() -> None:
    # A rack of 4 (and 5, which fits nowhere) fits G6 and G9 alike: G6 comes first.
    casual = levels.level_engine(None)
    assert [casual(_view(rack=[4, 5]), seed) for seed in range(4)] == [
        _turn(("G9", 4, False)),  # 0.84
        _turn(("G6", 4, False)),  # 0.13
        _turn(("G9", 4, False)),  # 0.96
        _turn(("G6", 4, False)),  # 0.24
    ]


def test_casual_places_one_tile_and_never_draws_the_extra_tiles() -> None:
    # I8=7 makes J8 (+) take 4 + 7 = 11: the only placement, on an operation square.
    view = _view(board={**_view()["board"], "I8": 7}, rack=[11, 5])
    for seed in range(4):
        assert levels.level_engine(None)(view, seed) == _turn(("J8", 11, False))
    assert levels.level_engine(greedy)(view, 0) == _turn(("J8", 11, True))


def test_casual_with_nothing_that_fits_exchanges_then_passes_and_ends_a_begun_turn() -> None:
    casual = levels.level_engine(None)
    assert casual(_view(rack=[5, 9]), 1) == [{"type": "exchange", "tiles": [5, 9]}]
    assert casual(_view(rack=[9, 5, 40], bag_size=2), 1) == [{"type": "exchange", "tiles": [9, 40]}]
    assert casual(_view(rack=[5, 9], bag_size=0), 1) == [{"type": "pass"}]
    assert casual(_mid_turn(), 1) == [{"type": "end_turn"}]


def test_each_level_made_again_plays_what_its_engine_chooses_as_the_installed_one() -> None:
    view = _view()
    made = {
        "greedy": levels.level_engine(greedy),
        "best": levels.level_engine(best),
        "strong": levels.level_engine(strong),
    }
    assert made["greedy"](view, 1) == _turn(
        ("F8", 12, False), ("I8", 7, False), ("F7", 3, False), ("F6", 9, False)
    )
    assert made["best"](view, 1) == _turn(
        ("I8", 12, False), ("J8", 16, True), ("F8", 7, False), ("I7", 3, False), ("I9", 9, False)
    )
    assert made["strong"](view, 1) == [*PLACED[:2], EXTRA]
    for name, engine in made.items():
        assert engine(view, 3) == levels.LEVELS[name](view, 3)
    for seed in range(4):
        assert levels.level_engine(None)(view, seed) == levels.LEVELS["casual"](view, seed)


def test_a_level_refuses_a_view_without_a_seat_and_a_choice_the_view_does_not_allow() -> None:
    with pytest.raises(ValueError, match="no seat of yours"):
        levels.level_engine(greedy)({"board": {}}, 1)
    with pytest.raises(EngineError, match="not a Play, ExchangeTiles or PassTurn"):
        levels.level_engine(lambda view: None)(_view(), 1)  # type: ignore[arg-type,return-value]
