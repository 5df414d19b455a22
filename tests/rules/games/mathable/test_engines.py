"""The built-in engines (``mathable.games.mathable.engines``): legal turns, the best
and greedy choices, on boards worked out by hand."""

from __future__ import annotations

import pytest

import mathable
from mathable import ExchangeTiles, PassTurn, Placement, Play, PlayerView, position_from
from mathable.games.mathable.engine import checked_choice
from mathable.games.mathable.engines import BUILTIN_ENGINES, best, best_engine, greedy, nothing_fits
from mathable.games.mathable.selfplay import new_game
from tests.rules.helpers import bag_order, dealt


@pytest.mark.parametrize("name", sorted(BUILTIN_ENGINES))
def test_every_built_in_engine_plays_a_legal_turn_and_exchanges_when_nothing_fits(
    name: str,
) -> None:
    engine = BUILTIN_ENGINES[name]
    view = PlayerView.of(dealt(), 0)
    assert isinstance(checked_choice(engine(view), view), Play)
    stuck = PlayerView.of(new_game(2, tiles=bag_order(90, 81, 72, 70, 64, 63, 60)), 0)
    answer = checked_choice(engine(stuck), stuck)
    assert isinstance(answer, ExchangeTiles) and sorted(answer.tiles) == sorted(stuck.rack)


def test_best_plays_the_highest_scoring_turn_and_greedy_no_more() -> None:
    view = PlayerView.of(dealt(), 0)
    top = mathable.best_turn_in(view.position, view.rack)
    best_play = best(view)
    greedy_play = greedy(view)
    assert isinstance(best_play, Play) and isinstance(greedy_play, Play)
    assert sum(p.points for p in best_play.placements) == top.total - top.bonus
    assert sum(p.points for p in greedy_play.placements) <= top.total


# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_engines.py ---------------
# The built-in engines' choices on boards worked out by hand
# (``mathable.games.mathable.engines``).


# From 5, 8, 0 the most points are 13 with two tiles; all three go down for 13 + 50
# (test_movegen.py's bonus board).
BONUS_BOARD = {
    "H5": 4, "F6": 4, "G6": 4, "H6": 2, "I6": 8, "E7": 4, "F7": 3, "F8": 1, "I8": 1, "H9": 6,
}  # fmt: skip


def _view(
    board: dict[str, int],
    rack: tuple[int, ...],
    *,
    started_with: int | None = None,
    bag_size: int = 50,
    placed: tuple[Placement, ...] = (),
) -> PlayerView:
    return PlayerView(
        seat=0,
        rack=rack,
        position=position_from(board),
        bag_size=bag_size,
        scores=(0, 0),
        rack_sizes=(len(rack), 7),
        started_with=len(rack) if started_with is None else started_with,
        placed=placed,
    )


def test_best_plays_the_highest_line_and_draws_extra_tiles_when_no_bonus_is_at_stake() -> None:
    for engine in (best, best_engine()):
        choice = engine(_view({"I8": 12}, (16, 90, 8)))
        assert choice == Play((Placement("J8", 16, 16), Placement("H9", 8, 8)), draw_extra=True)


def test_best_empties_a_rack_of_seven_for_the_bonus_and_then_draws_no_extra_tile() -> None:
    # Started the turn with 7: emptying the rack earns 50, so the three tiles go down.
    choice = best_engine()(_view(BONUS_BOARD, (5, 8, 0), started_with=7))
    assert isinstance(choice, Play)
    assert len(choice.placements) == 3 and sum(p.points for p in choice.placements) == 13
    assert choice.draw_extra is False
    # No bonus possible: the two tiles worth 13, extra tiles drawn.
    choice = best_engine()(_view(BONUS_BOARD, (5, 8, 0), started_with=3))
    assert isinstance(choice, Play)
    assert len(choice.placements) == 2 and sum(p.points for p in choice.placements) == 13
    assert choice.draw_extra is True


def test_best_searches_within_its_node_limit() -> None:
    # Cut after one node the search keeps the greedy line, H6 rather than H9.
    choice = best_engine(node_limit=1)(_view({"I8": 12}, (16, 90, 8)))
    assert choice == Play((Placement("J8", 16, 16), Placement("H6", 8, 8)), draw_extra=True)


def test_when_nothing_fits_best_and_greedy_exchange_the_biggest_tiles_the_bag_allows() -> None:
    view = _view({}, (90, 50, 80, 70), bag_size=2)
    for engine in (best, best_engine(), greedy):
        assert engine(view) == ExchangeTiles((80, 90))
    assert nothing_fits(_view({}, (90, 50, 80), bag_size=10)) == ExchangeTiles((50, 80, 90))
    assert nothing_fits(_view({}, (90, 50, 80), bag_size=1)) == ExchangeTiles((90,))


def test_when_nothing_fits_and_the_bag_is_empty_the_engines_pass() -> None:
    view = _view({}, (90, 80), bag_size=0)
    for engine in (best, best_engine(), greedy):
        assert engine(view) == PassTurn()


def test_when_nothing_more_fits_a_begun_turn_ends() -> None:
    view = _view({}, (90,), placed=(Placement("F8", 12, 12),))
    assert nothing_fits(view) == PassTurn()
    assert best_engine()(view) == PassTurn() == greedy(view)


def test_greedy_plays_its_line_and_draws_the_extra_tiles() -> None:
    choice = greedy(_view({"I8": 12}, (16, 90, 8)))
    assert choice == Play((Placement("J8", 16, 16), Placement("H6", 8, 8)), draw_extra=True)
