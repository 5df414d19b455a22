"""``tournament``: engines play each other locally, through the rules package."""

from __future__ import annotations

import json
import math

import pytest

from mathable_cli.exits import ExitCode
from mathable_cli.screens.mathable.tournaments import Job, Outcome, PairingResult, elo, jobs_for
from tests.cli.conftest import Invoke


def test_a_short_duplicate_tournament_reports_every_pairing(cli: Invoke) -> None:
    result = cli(
        "tournament", "--engines", "greedy,best", "--games", "2", "--duplicate", "--json",
        "--jobs", "2",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    [pairing] = data["pairings"]
    assert pairing["engines"] == ["greedy", "best"] and pairing["games"] == 2
    assert sum(pairing["wins"]) + pairing["draws"] == 2
    margin = pairing["mean_score"][0] - pairing["mean_score"][1]
    assert math.isclose(pairing["mean_margin"], margin, abs_tol=0.11)
    assert pairing["engine_errors"] == [0, 0]
    assert all(ms is not None and ms >= 0 for ms in pairing["median_ms_per_turn"])


@pytest.mark.filterwarnings("ignore:mathable.engines is deprecated:DeprecationWarning")
def test_duplicate_games_swap_seats_so_an_engine_against_itself_breaks_even(cli: Invoke) -> None:
    # The same deterministic engine under two names: each bag order is played from
    # both seats, so whatever seat 0 gains from the draw, each name gets once.
    result = cli(
        "tournament", "--engines", "greedy,mathable.engines:greedy", "--games", "4",
        "--duplicate", "--json", "--jobs", "1",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    [pairing] = json.loads(result.stdout)["pairings"]
    assert pairing["wins"][0] == pairing["wins"][1]
    assert pairing["mean_margin"] == 0 and pairing["elo"] == 0


def test_the_table_names_the_pairing_and_its_elo(cli: Invoke) -> None:
    result = cli("tournament", "--engines", "greedy,best", "--games", "1", "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    assert "greedy vs best" in result.stdout and "Elo (95%)" in result.stdout


def test_round_robin_of_three_engines_plays_three_pairings() -> None:
    jobs = jobs_for(["a", "b", "c"], 3, duplicate=True, seed=5)
    assert {j.engines for j in jobs} == {("a", "b"), ("a", "c"), ("b", "c")}
    # Three games round up to two duplicate pairs: four games per pairing.
    assert len(jobs) == 12
    assert sorted((j.index, j.swapped) for j in jobs if j.engines == ("a", "b")) == [
        (0, False), (0, True), (1, False), (1, True),
    ]  # fmt: skip


def test_elo_interval_is_around_the_score() -> None:
    assert elo(0.5) == 0 and elo(0.0) == -math.inf
    assert round(elo(0.64)) == 100
    result = PairingResult(("a", "b"), duplicate=False)
    for index, scores in enumerate([(500, 400), (450, 300), (300, 310), (600, 200)]):
        job = Job(0, ("a", "b"), index, False, 1)
        result.outcomes.append(Outcome(job, scores, ([], []), ([], []), "blocked"))
    value, low, high = result.elo_interval()
    assert result.wins(0) == 3 and result.score == 0.75
    assert round(value, 1) == 190.8
    # Four games say little: the 95% interval is wide, and holds the estimate.
    assert low < 0 < value < high


def test_a_bad_engine_is_a_usage_error_before_any_game(cli: Invoke) -> None:
    result = cli("tournament", "--engines", "best,nosuch:engine", "--games", "2")
    assert result.exit_code == ExitCode.USAGE
    assert "cannot import 'nosuch'" in result.stderr
    assert cli("tournament", "--engines", "best", "--games", "2").exit_code == ExitCode.USAGE
