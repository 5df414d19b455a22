"""The example game at the end of the Norwegian rule book, move by move.

Player 1 holds 1 2 8 12 16 17 42 and scores 39 (drawing the extra tile 11
after the + square); player 2 holds 3 4 6 7 7 8 21 and scores 71 plus the
50-point bonus for placing all seven tiles.
"""

from __future__ import annotations

from mathable import DrawExtra, EndTurn, Place, PlayTurn, TurnPlacement
from mathable.events import TurnEnded
from tests.rules.helpers import Game, bag_order, sq

PLAYER_1 = [("I8", 12, 12), ("H6", 8, 8), ("G9", 2, 2), ("F7", 1, 1), ("J8", 16, 16)]
PLAYER_2 = [
    ("F8", 7, 7),
    ("F9", 6, 6),
    ("H9", 8, 16),  # 6 + 2 across and 2 x 4 down: two equations
    ("G6", 4, 4),
    ("E9", 3, 3),  # 6 / 2
    ("E8", 21, 21),  # 7 x 3 on the x square; the extra tile is declined
    ("E10", 7, 14),  # 21 / 3 on a 2x square
]


def example_game() -> Game:
    order = bag_order(1, 2, 8, 12, 16, 17, 42, 3, 4, 6, 7, 7, 8, 21, 11)
    game = Game(tiles=order)
    assert game.state.seats[0].rack == (1, 2, 8, 12, 16, 17, 42)
    assert game.state.seats[1].rack == (3, 4, 6, 7, 7, 8, 21)
    return game


def test_worked_example_player_one_scores_39_and_draws_the_extra_eleven() -> None:
    game = example_game()
    for square, tile, points in PLAYER_1:
        (placed,) = game.run(Place(seat=0, square=sq(square), tile=tile))
        assert placed.points == points, square  # type: ignore[attr-defined]
    (extra,) = game.run(DrawExtra(seat=0))
    assert extra.tile == 11  # type: ignore[attr-defined]
    (ended,) = game.run(EndTurn(seat=0))
    assert isinstance(ended, TurnEnded)
    assert (ended.points, ended.bonus, len(ended.drawn)) == (39, 0, 4)
    assert game.state.seats[0].score == 39
    assert sorted(game.state.seats[0].rack)[:3] != []
    assert len(game.state.seats[0].rack) == 7


def test_worked_example_player_two_scores_71_plus_the_bonus() -> None:
    game = example_game()
    game.run(
        PlayTurn(
            seat=0,
            placements=tuple(TurnPlacement(sq(s), t) for s, t, _ in PLAYER_1[:-1])
            + (TurnPlacement(sq("J8"), 16, draw_extra=True),),
        )
    )
    for square, tile, points in PLAYER_2:
        (placed,) = game.run(Place(seat=1, square=sq(square), tile=tile))
        assert placed.points == points, square  # type: ignore[attr-defined]
    (ended,) = game.run(EndTurn(seat=1))
    assert isinstance(ended, TurnEnded)
    assert (ended.points, ended.bonus, len(ended.drawn)) == (71, 50, 7)
    assert [s.score for s in game.state.seats] == [39, 121]
    assert game.replayed() == game.state
