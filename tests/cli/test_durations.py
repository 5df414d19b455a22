"""Durations and clocks as the CLI reads and says them (``mathable_cli.durations``)."""

from __future__ import annotations

import pytest

from mathable_cli.durations import clock_line, parse_clock, parse_duration, time_left


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
