"""The example game at the end of the Norwegian rule book, move by move.

Player 1 holds 1 2 8 12 16 17 42 and scores 39 (drawing the extra tile 11
after the + square); player 2 holds 3 4 6 7 7 8 21 and scores 71 plus the
50-point bonus for placing all seven tiles."""

from __future__ import annotations

from mathable import (
    DrawExtra,
    EndTurn,
    Place,
    PlayTurn,
    TurnPlacement,
    has_legal_move,
    legal_placements_in,
)
from mathable.games.mathable.events import TurnEnded
from tests.rules.helpers import Game, bag_order, refused, sq

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
    # 17 and 42 were not placed, 11 is the extra tile; the refill takes the next four.
    order = example_game().state.bag
    assert ended.drawn == order[1:5]
    assert game.state.seats[0].rack == (17, 42, 11) + ended.drawn


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


# --- the side remarks of the rule book's example ------------------------------


def placements_of(game: Game, tile: int) -> set[str]:
    return {p.square for p in legal_placements_in(game.state.position, [tile])}


def test_worked_example_side_remarks_of_player_one() -> None:
    game = example_game()
    # "He can place the 12 left of the 3 or right of the 4."
    assert {"F8", "I8"} <= placements_of(game, 12)
    for square, tile, _ in PLAYER_1[:2]:
        game.run(Place(seat=0, square=sq(square), tile=tile))
    # "He could also have placed the 2 above the 1" (G6), instead of below the 3 (G9).
    assert {"G6", "G9"} <= placements_of(game, 2)
    for square, tile, _ in PLAYER_1[2:]:
        game.run(Place(seat=0, square=sq(square), tile=tile))
    game.run(DrawExtra(seat=0))
    # "Player 1 cannot place another tile": 17, 42 and the extra 11 fit nowhere.
    assert sorted(game.state.seats[0].rack) == [11, 17, 42]
    assert not has_legal_move(game.state.position, game.state.seats[0].rack)


def test_worked_example_side_remarks_of_player_two() -> None:
    game = example_game()
    for square, tile, _ in PLAYER_1:
        game.run(Place(seat=0, square=sq(square), tile=tile))
    game.run(DrawExtra(seat=0))
    game.run(EndTurn(seat=0))
    game.run(Place(seat=1, square=sq("F8"), tile=7))
    # "He could also have placed the 6 above the 1" (F6), instead of below the 7 (F9).
    assert {"F6", "F9"} <= placements_of(game, 6)
    game.run(Place(seat=1, square=sq("F9"), tile=6))
    # "8 left of the 6 gives 8 points", against 16 right of the 2 (H9).
    points = {p.square: p.points for p in legal_placements_in(game.state.position, [8])}
    assert points["E9"] == 8 and points["H9"] == 16
    for square, tile, _ in PLAYER_2[2:6]:
        game.run(Place(seat=1, square=sq(square), tile=tile))
    # "He cannot place the 7 above the 21": E7 is a + square and 21 / 3 divides.
    assert refused(game.state, Place(seat=1, square=sq("E7"), tile=7)) == "wrong_operation"
    game.run(Place(seat=1, square=sq("E10"), tile=7))
    game.run(EndTurn(seat=1))
    # "Player 1 can begin by placing the 42" (7 x 6 below the 6 on F10, for one).
    assert 42 in game.state.seats[0].rack
    assert "F10" in placements_of(game, 42)
