"""``verify``: a game still played has not ended, and says so in words.

Found in a new user's trial of issue 27's features (the former test_trial_findings.py: "a
game not yet over").
"""

from __future__ import annotations

import responses

from mathable_cli.exits import ExitCode
from tests.cli.conftest import SERVER, Invoke


def test_verify_of_a_game_still_played_says_it_has_not_ended(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    http.get(
        f"{SERVER}/v1/games/gbzxgg784vx/events",
        json={"version": 3, "events": [
            {"type": "game_created", "version": 1}, {"type": "player_joined", "version": 2},
            {"type": "game_started", "version": 3, "start_draws": None},
        ]},
    )  # fmt: skip
    result = cli("verify", "gbzxgg784vx")
    assert result.exit_code == ExitCode.ERROR, result.stderr
    assert "gbzxgg784vx has not ended: its bag order is revealed at the end" in result.stderr
    assert "start_draws" not in result.stderr
