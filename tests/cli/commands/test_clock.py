"""Clocks in the CLI: ``new --clock``, ``vacation``, ``claim``, ``give-time`` (the durations
they read and say: tests/cli/test_durations.py)."""

from __future__ import annotations

import responses

from mathable_cli.exits import ExitCode
from tests.cli.conftest import SERVER, Invoke, body_of, requests_to


def test_new_sends_the_clock(cli: Invoke, http: responses.RequestsMock) -> None:
    http.post(f"{SERVER}/v1/games", status=201, json={"id": "g9", "status": "waiting"})
    result = cli("new", "--clock", "10d+36h/10d")
    assert result.exit_code == 0, result.stderr
    (post,) = requests_to(http, "POST", "/v1/games")
    assert body_of(post)["clock"] == {"initial": 864000, "increment": 129600, "max": 864000}
    assert cli("new", "--clock", "soon").exit_code == ExitCode.USAGE


def test_vacation_starts_and_ends(cli: Invoke, http: responses.RequestsMock) -> None:
    answer = {
        "starts_at": "2027-03-01T09:00:00Z",
        "ends_at": "2027-03-08T09:00:00Z",
        "days": 7,
        "days_left": 23,
        "games": ["g1"],
    }
    http.post(f"{SERVER}/v1/me/vacation", status=201, json=answer)
    http.delete(f"{SERVER}/v1/me/vacation", status=200, json={**answer, "days": 1})
    started = cli("vacation", "7")
    assert started.exit_code == 0 and "23 vacation days left" in started.stderr
    assert body_of(requests_to(http, "POST", "/v1/me/vacation")[0]) == {"days": 7}
    assert cli("vacation", "--end").exit_code == 0
    assert cli("vacation").exit_code == ExitCode.USAGE


def test_claim_and_give_time_send_their_commands(cli: Invoke, http: responses.RequestsMock) -> None:
    view = {"id": "g1", "version": 4, "status": "playing", "you": 1, "clock": None}
    http.get(f"{SERVER}/v1/games/g1", json=view)
    http.post(f"{SERVER}/v1/games/g1/moves", json={**view, "version": 5})
    assert cli("claim", "g1").exit_code == 0
    assert cli("give-time", "g1", "0", "1d").exit_code == 0
    sent = [body_of(r) for r in requests_to(http, "POST", "/v1/games/g1/moves")]
    assert sent == [
        {"type": "claim_timeout", "expected_version": 4},
        {"type": "give_time", "seat": 0, "seconds": 86400, "expected_version": 4},
    ]
