"""Setting up: RULES.md "Setting up" and the given-order deal of DESIGN.md."""

from __future__ import annotations

from collections.abc import Sequence

from mathable import TILE_SET, OrderedBag
from mathable.games.mathable.events import GameStarted
from tests.rules.helpers import Game, bag_order

DEAL = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 24, 25, 27, 28, 30, 32, 35]


class ScriptedBag(OrderedBag):
    """Draws from the front of a scripted order, whatever the game's bag holds."""

    def __init__(self, script: list[int]) -> None:
        self.script = script

    def draw(self, bag: Sequence[int], n: int) -> list[int]:
        drawn, self.script = self.script[:n], self.script[n:]
        assert all(t in bag for t in drawn)
        return drawn


def started(game: Game) -> GameStarted:
    (event,) = [e for e in game.log if isinstance(e, GameStarted)]
    return event


def test_highest_start_tile_begins_and_keeps_it() -> None:
    script = [5, 40, 9] + DEAL
    game = Game(players=3, bag=ScriptedBag(script))
    event = started(game)
    assert event.first_seat == 1
    assert [r[0] for r in event.racks] == [5, 40, 9]
    assert game.state.turn is not None and game.state.turn.seat == 1


def test_players_who_tie_draw_again_and_tie_break_tiles_go_back() -> None:
    # Seats 0 and 2 tie on 10; they draw again (3 and 3: tie again), then 2 and 7.
    script = [10, 4, 10, 3, 3, 2, 7] + DEAL
    game = Game(players=3, bag=ScriptedBag(script))
    event = started(game)
    assert event.first_seat == 2
    assert event.start_draws == ((10, 3, 2), (4,), (10, 3, 7))
    assert [r[0] for r in event.racks] == [10, 4, 10]
    # The tie-break tiles 3, 3, 2, 7 went back: 106 tiles still in bag and racks.
    in_racks = sum(len(s.rack) for s in game.state.seats)
    assert in_racks == 21 and len(game.state.bag) == 106 - 21


def test_first_player_draws_six_more_first_then_clockwise() -> None:
    script = [2, 9] + [11, 12, 13, 14, 15, 16] + [17, 18, 19, 20, 21, 24]
    game = Game(players=2, bag=ScriptedBag(script))
    racks = started(game).racks
    assert racks[1] == (9, 11, 12, 13, 14, 15, 16)
    assert racks[0] == (2, 17, 18, 19, 20, 21, 24)


def test_given_order_skips_the_start_draw_and_deals_seven_each_in_seat_order() -> None:
    order = bag_order(*range(1, 8), 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 24, 25, 27)
    game = Game(players=3, tiles=order)
    event = started(game)
    assert event.first_seat == 0
    assert event.start_draws == ((), (), ())
    assert event.racks == (
        tuple(range(1, 8)),
        (11, 12, 13, 14, 15, 16, 17),
        (18, 19, 20, 21, 24, 25, 27),
    )
    assert game.state.bag == order[21:]


def test_a_seeded_game_deals_the_same_racks_every_time() -> None:
    first = Game(players=4, seed=42).state
    second = Game(players=4, seed=42).state
    other = Game(players=4, seed=43).state
    assert [s.rack for s in first.seats] == [s.rack for s in second.seats]
    assert [s.rack for s in first.seats] != [s.rack for s in other.seats]


def test_a_random_game_accounts_for_all_106_tiles_after_the_deal() -> None:
    state = Game(players=4).state
    tiles = sorted(list(state.bag) + [t for s in state.seats for t in s.rack])
    assert tiles == sorted(TILE_SET)
    assert all(len(s.rack) == 7 for s in state.seats)


def test_everyone_is_told_when_a_game_has_a_seed_or_a_given_order() -> None:
    from mathable import view

    assert view(Game(seed=5).state, 1)["seeded"] is True
    assert view(Game(tiles=bag_order()).state, None)["ordered"] is True
    plain = view(Game().state, 0)
    assert plain["seeded"] is False and plain["ordered"] is False
    assert "seed" not in plain and "tiles" not in plain
