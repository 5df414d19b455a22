"""The computer's levels (issue 44), a short run of ``bench/bench_computer_levels.py``: in
duplicate games (each deal played twice, the engines swapping seats) through the JSON
commands the server's computer sends, each level beats the one below it. The full run
(100 games a pair, both games) prints the win rates docs/server.md gives."""

from __future__ import annotations

import random

import pytest

from mathable.core.computer import duel, engines
from mathable.core.lifecycle import Create, Join
from mathable.core.ruleset import ruleset

DEALS = 6


def _wins(ruleset_name: str, strong: str, weak: str) -> float:
    found = engines()
    a, b = found[strong], found[weak]
    tiles = list(ruleset(ruleset_name).tile_set)
    points = 0.0
    for deal in range(DEALS):
        order = tiles[:]
        random.Random(f"suite:{deal}").shuffle(order)
        for seats, mine in (((a, b), 0), ((b, a), 1)):
            scores = duel(ruleset_name, seats, order, seed=deal)
            points += (scores[mine] > scores[1 - mine]) + 0.5 * (scores[mine] == scores[1 - mine])
    return points / (2 * DEALS)


@pytest.mark.parametrize(
    ("game", "strong", "weak"),
    [
        ("mathable", "best", "greedy"),
        ("mathable", "greedy", "casual"),
        ("summy", "strong", "casual"),
    ],  # fmt: skip
)
def test_a_stronger_level_wins_most_duplicate_games(game: str, strong: str, weak: str) -> None:
    assert _wins(game, strong, weak) > 0.5


def test_every_engine_plays_both_games_to_the_end_with_legal_commands() -> None:
    found = engines()
    for game in ("mathable", "summy"):
        tiles = list(ruleset(game).tile_set)
        random.Random(game).shuffle(tiles)
        for name in ("casual", "greedy", "best", "strong"):
            assert set(found[name].rulesets) >= {"mathable", "summy"}
            scores = duel(game, [found[name], found["casual"]], tiles, seed=1)
            assert len(scores) == 2


@pytest.mark.parametrize("level", ["casual", "greedy", "best", "strong"])
def test_a_built_in_level_plays_both_games_by_its_own_name(level: str) -> None:
    """The built-in levels are made when the module loads (``computer._builtin``): made
    again here, each is named for its level, plays both games, and picks the same
    commands as the engine installed under that name."""
    from mathable.core import computer

    made = computer._builtin(level)
    assert made.name == level and repr(made) == f"ComputerEngine({level!r})"
    assert made.rulesets == ("mathable", "summy")
    installed = engines()[level]
    for game in made.rulesets:
        rules = ruleset(game)
        state = rules.new_state()
        for command in (Create("a", seed=11, ruleset=game), Join("b")):
            for event in rules.check(state, command):
                state = rules.apply(state, event)
        view = rules.view(state, state.turn.seat)
        assert made.turn(game, view, 5) == installed.turn(game, view, 5)
        assert made.turn(game, view, 5)


def test_a_duel_is_seeded_0_by_default_and_stops_a_game_that_never_ends() -> None:
    """``duel``'s defaults: seed 0 (the same game as ``seed=0``, another than ``seed=1``
    for a level that draws its choices), and 5,000 decisions before a game that does not
    end is an error (an engine that never sends a command)."""
    found = engines()
    tiles = list(ruleset("mathable").tile_set)
    random.Random("duel").shuffle(tiles)
    seats = [found["casual"], found["casual"]]
    by_seed = {seed: duel("mathable", seats, tiles, seed=seed) for seed in (0, 1)}
    assert by_seed[0] != by_seed[1]
    assert duel("mathable", seats, tiles) == by_seed[0]

    class Idle:
        rulesets = ("mathable",)

        def turn(self, game: str, view: object, seed: int) -> list[object]:
            return []

    with pytest.raises(RuntimeError) as never:
        duel("mathable", [Idle(), Idle()], tiles)  # type: ignore[list-item]
    assert str(never.value) == "the game did not end in 5000 decisions"


def test_a_duel_plays_the_order_it_is_given_with_as_many_seats_as_engines() -> None:
    """The tiles come in the order given (the same order, the same game; another order,
    another game), for as many seats as engines, in the game named."""
    found = engines()
    for game in ("mathable", "summy"):
        tiles = list(ruleset(game).tile_set)
        random.Random(f"order:{game}").shuffle(tiles)
        three = [found["greedy"], found["casual"], found["casual"]]
        scores = duel(game, three, tiles, seed=3)
        assert len(scores) == 3
        assert duel(game, three, tiles, seed=3) == scores
        assert duel(game, three, tiles[::-1], seed=3) != scores
