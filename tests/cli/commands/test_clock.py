"""Clocks in the CLI: durations, ``new --clock``, ``vacation``, ``claim``, ``give-time``."""

from __future__ import annotations

import pytest
import responses

from mathable_cli.durations import clock_line, parse_clock, parse_duration, time_left
from mathable_cli.exits import ExitCode
from tests.cli.conftest import SERVER, Invoke, body_of, requests_to


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("3d", 259200), ("36h", 129600), ("90m", 5400), ("1d12h", 129600), ("45", 45)],
)
def test_durations_read_days_hours_and_minutes(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "3x", "d3", "3d junk", "-2d"])
def test_bad_durations_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_duration(text)


def test_clocks_read_per_move_and_bank_forms() -> None:
    assert parse_clock("3d") == {"per_move": 259200}
    assert parse_clock("10d+36h/10d") == {"initial": 864000, "increment": 129600, "max": 864000}
    assert parse_clock("5d+1d") == {"initial": 432000, "increment": 86400}


def test_time_left_is_said_in_the_two_largest_units() -> None:
    assert time_left(2 * 86400 + 4 * 3600 + 59) == "2 days 4 hours"
    assert time_left(3600) == "1 hour" and time_left(0) == "no time"


def test_the_clock_line_says_whose_time_runs() -> None:
    view = {
        "you": 1,
        "clock": {"running": 1, "remaining": [86400, 3 * 3600], "deadline": "2027-03-01T12:00:00Z"},
    }
    in_utc = clock_line(view, "UTC")
    assert in_utc == "Clock: you have 3 hours left (until Mon 1 Mar 2027 12:00 UTC)"
    # The deadline in the player's time, the zone named.
    assert clock_line(view, "Europe/Oslo") == (
        "Clock: you have 3 hours left (until Mon 1 Mar 2027 13:00 CET (Europe/Oslo))"
    )
    assert clock_line({"clock": None}) is None


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
