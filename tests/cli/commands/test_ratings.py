"""``leaderboard`` counts games in good English: "(1 game)", "(2 games)"."""

from __future__ import annotations

import responses

from tests.cli.conftest import SERVER, Invoke


def test_the_leaderboard_says_1_game_and_2_games(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    players = [
        {"name": "ada", "rating": 3.5, "games": 2, "mu": 28.0, "sigma": 8.0},
        {"name": "bob", "rating": 1.0, "games": 1, "mu": 25.0, "sigma": 8.0},
    ]
    http.get(f"{SERVER}/v1/leaderboard", json={"ruleset": "mathable", "players": players})
    result = cli("leaderboard")
    assert result.exit_code == 0, result.stderr
    first, second = result.stdout.splitlines()
    assert first.endswith("(2 games)") and second.endswith("(1 game)")
