"""The clock as a pure fold of timed events: deadlines, weekends, vacations, replays."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathable import (
    TILE_SET,
    Correct,
    Create,
    EndTurn,
    Equation,
    GameState,
    Join,
    Pass,
    Place,
    Resign,
    RuleError,
    TimeOut,
    apply,
    check,
)
from mathable.core.clock import (
    DAY,
    MAX_SECONDS,
    SECOND,
    ClockState,
    add_counted,
    advance,
    check_claim,
    check_spec,
    counted,
    replay_timed,
)
from mathable.core.events import (
    Event,
    GameEnded,
    Passed,
    TimedOut,
    TimeGiven,
    VacationDayUsed,
    VacationEnded,
    VacationStarted,
)
from mathable.core.state import ClockSpec
from mathable.games.mathable.commands import EndVacation, GiveTime, StartVacation, UseVacationDay
from mathable.games.mathable.events import TurnEnded
from mathable.games.mathable.state import MathableTurn
from tests.rules.helpers import arranged, play, refusal, sq

TILES = tuple(sorted(TILE_SET))
#: Monday 2027-03-01 00:00 UTC.
MONDAY = 1_803_859_200_000


def _play(spec: ClockSpec, players: int = 2) -> list[tuple[int, Event]]:
    """A started game with ``spec``: created, joined and started at MONDAY."""
    state = GameState()
    log: list[tuple[int, Event]] = []
    commands: list[object] = [Create("p0", players=players, tiles=TILES, clock=spec)]
    commands += [Join(f"p{i}") for i in range(1, players)]
    for command in commands:
        for event in check(state, command):  # type: ignore[arg-type]
            state = apply(state, event)
            log.append((MONDAY, event))
    return log


def _then(log: list[tuple[int, Event]], at: int, command: object) -> list[tuple[int, Event]]:
    state, _ = replay_timed(log)
    return log + [(at, e) for e in check(state, command)]  # type: ignore[arg-type]


def test_replaying_the_same_timed_log_gives_the_same_deadlines() -> None:
    log = _play(ClockSpec(initial=3 * DAY // 1000, increment=DAY // 1000))
    log = _then(log, MONDAY + DAY, Pass(0))
    log = _then(log, MONDAY + DAY + 5, Pass(1))
    assert replay_timed(log) == replay_timed(list(log))
    _, clock = replay_timed(log)
    assert clock is not None and clock.deadline == MONDAY + DAY + 5 + 3 * DAY


def test_apply_ignores_time_a_log_without_times_gives_the_same_state() -> None:
    log = _then(_play(ClockSpec(per_move=86400)), MONDAY + 7, Pass(0))
    state, _ = replay_timed(log)
    plain = GameState()
    for _, event in log:
        plain = apply(plain, event)
    assert plain == state


def test_gifts_and_vacations_move_the_deadline() -> None:
    log = _play(ClockSpec(per_move=86400))
    log.append((MONDAY + 1000, TimeGiven(1, 0, 3600)))
    _, clock = replay_timed(log)
    assert clock is not None and clock.deadline == MONDAY + DAY + 3_600_000
    log.append((MONDAY + 2000, VacationStarted(0, 2)))
    _, clock = replay_timed(log)
    assert clock is not None and clock.on_vacation(MONDAY + DAY) == [0]
    assert clock.deadline == MONDAY + 2000 + 2 * DAY + (DAY + 3_600_000 - 2000)


def test_a_timeout_in_a_four_player_game_drops_one_seat() -> None:
    log = _play(ClockSpec(per_move=86400), players=4)
    log = _then(log, MONDAY + DAY, TimeOut(0))
    state, clock = replay_timed(log)
    assert state.status == "playing" and state.seats[0].timed_out
    assert state.turn is not None and state.turn.seat == 1
    assert clock is not None and clock.running == 1 and clock.deadline == MONDAY + 2 * DAY


def test_a_game_without_a_clock_has_none() -> None:
    state = GameState()
    clock: ClockState | None = None
    for event in check(state, Create("p0")):
        state = apply(state, event)
        clock = advance(clock, MONDAY, event, state)
    assert clock is None


@given(
    start=st.integers(min_value=0, max_value=4_000_000_000_000),
    amount=st.integers(min_value=1, max_value=60 * DAY),
)
def test_adding_counted_time_is_the_inverse_of_counting_it(start: int, amount: int) -> None:
    for weekends_off in (False, True):
        end = add_counted(start, amount, weekends_off)
        assert counted(start, end, weekends_off) == amount
        assert counted(start, end - 1, weekends_off) < amount


# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_clock.py -----------------
# The clock of a game, pinned: specs, weekday counting, banks, gifts, vacations, claims.
#
# The survivors of the mutation run of issue 19 over ``mathable.core.clock`` and the clock
# commands each have a test here, named for the rule it pins. Times are ms since 1970 UTC.


HOUR = 3600 * SECOND
WEEK = 7 * DAY


FRIDAY_NOON = MONDAY + 4 * DAY + 12 * HOUR
SATURDAY_NOON = MONDAY + 5 * DAY + 12 * HOUR


def says(state: GameState, command: object) -> tuple[str, str]:
    err = refusal(state, command)  # type: ignore[arg-type]
    return err.code, err.message


def spec_refused(spec: ClockSpec) -> tuple[str, str]:
    with pytest.raises(RuleError) as err:
        check_spec(spec)
    return err.value.code, err.value.message


def started(spec: ClockSpec, players: int = 2, at: int = MONDAY) -> list[tuple[int, Event]]:
    """A game with ``spec``, created, joined and started at ``at``: seat 0 to move."""
    state = GameState()
    log: list[tuple[int, Event]] = []
    commands: list[object] = [Create("p0", players=players, tiles=TILES, clock=spec)]
    commands += [Join(f"p{i}") for i in range(1, players)]
    for command in commands:
        for event in check(state, command):  # type: ignore[arg-type]
            state = apply(state, event)
            log.append((at, event))
    return log


def then(log: list[tuple[int, Event]], at: int, *commands: object) -> list[tuple[int, Event]]:
    """``log`` and the events of ``commands``, each written at ``at``."""
    out = list(log)
    for command in commands:
        state, _ = replay_timed(out)
        out += [(at, e) for e in check(state, command)]  # type: ignore[arg-type]
    return out


def clock_of(log: list[tuple[int, Event]]) -> ClockState:
    _, clock = replay_timed(log)
    assert clock is not None
    return clock


# --- the spec ---------------------------------------------------------------------------------


def test_a_clock_is_per_move_or_a_bank_never_both_nor_neither() -> None:
    both = "give either per_move or initial (a time bank), not both"
    assert spec_refused(ClockSpec()) == ("bad_clock", both)
    assert spec_refused(ClockSpec(per_move=60, initial=60)) == ("bad_clock", both)
    check_spec(ClockSpec(per_move=60))  # accepted
    check_spec(ClockSpec(initial=60))  # accepted


def test_increment_and_max_belong_to_a_bank_not_per_move() -> None:
    words = ("bad_clock", "increment and max belong to a time bank, not per_move")
    assert spec_refused(ClockSpec(per_move=60, increment=1)) == words
    assert spec_refused(ClockSpec(per_move=60, max=60)) == words
    check_spec(ClockSpec(initial=60, increment=1, max=60))  # accepted


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        (ClockSpec(per_move=True), "per_move"),
        (ClockSpec(per_move=1.5), "per_move"),  # type: ignore[arg-type]
        (ClockSpec(initial="60"), "initial"),  # type: ignore[arg-type]
        (ClockSpec(initial=60, increment=False), "increment"),
        (ClockSpec(initial=60, max=60.0), "max"),  # type: ignore[arg-type]
    ],
)
def test_clock_durations_are_whole_seconds(spec: ClockSpec, name: str) -> None:
    assert spec_refused(spec) == ("bad_clock", f"{name} is a whole number of seconds")


@pytest.mark.parametrize(
    ("spec", "name", "minimum"),
    [
        (ClockSpec(per_move=0), "per_move", 1),
        (ClockSpec(per_move=MAX_SECONDS + 1), "per_move", 1),
        (ClockSpec(initial=0), "initial", 1),
        (ClockSpec(initial=MAX_SECONDS + 1), "initial", 1),
        (ClockSpec(initial=60, increment=-1), "increment", 0),
        (ClockSpec(initial=60, increment=MAX_SECONDS + 1), "increment", 0),
        (ClockSpec(initial=60, max=0), "max", 1),
        (ClockSpec(initial=60, max=MAX_SECONDS + 1), "max", 1),
    ],
)
def test_clock_durations_run_from_one_second_to_a_year(
    spec: ClockSpec, name: str, minimum: int
) -> None:
    assert MAX_SECONDS == 31_536_000
    assert spec_refused(spec) == (
        "bad_clock",
        f"{name} must be {minimum} to 31536000 seconds (a year)",
    )


_WHOLE = "a whole number of seconds"


@pytest.mark.parametrize(
    ("spec", "details"),
    [
        (ClockSpec(), {"fields": ["per_move", "initial"], "per_move": None, "initial": None}),
        (
            ClockSpec(per_move=60, initial=90),
            {"fields": ["per_move", "initial"], "per_move": 60, "initial": 90},
        ),
        (
            ClockSpec(per_move=60, increment=5),
            {"fields": ["increment", "max"], "increment": 5, "max": None},
        ),
        (
            ClockSpec(per_move=60, max=120),
            {"fields": ["increment", "max"], "increment": 0, "max": 120},
        ),
        (ClockSpec(per_move=True), {"field": "per_move", "value": True, "accepted": _WHOLE}),
        (ClockSpec(initial="60"), {"field": "initial", "value": "60", "accepted": _WHOLE}),  # type: ignore[arg-type]
        (
            ClockSpec(initial=60, increment=1.5),  # type: ignore[arg-type]
            {"field": "increment", "value": 1.5, "accepted": _WHOLE},
        ),
        (
            ClockSpec(initial=60, max=[1]),  # type: ignore[arg-type]
            {"field": "max", "value": "[1]", "accepted": _WHOLE},
        ),
        (
            ClockSpec(per_move=0),
            {"field": "per_move", "value": 0, "min": 1, "max": MAX_SECONDS},
        ),
        (
            ClockSpec(initial=60, increment=-1),
            {"field": "increment", "value": -1, "min": 0, "max": MAX_SECONDS},
        ),
        (
            ClockSpec(initial=60, max=MAX_SECONDS + 1),
            {"field": "max", "value": MAX_SECONDS + 1, "min": 1, "max": MAX_SECONDS},
        ),
        (
            ClockSpec(initial=10, max=9),
            {"fields": ["max", "initial"], "max": 9, "initial": 10},
        ),
        (
            ClockSpec(initial=10, on_timeout="draw"),
            {"field": "on_timeout", "value": "draw", "accepted": ["lose", "claim"]},
        ),
    ],
)
def test_each_refused_clock_names_its_fields_and_values_as_errors_md_says(
    spec: ClockSpec, details: dict[str, object]
) -> None:
    """docs/errors.md, ``bad_clock``: ``field``, ``value`` and ``accepted`` or ``min``/``max``
    for one field; ``fields`` (the two that clash) with their values for a pair."""
    with pytest.raises(RuleError) as err:
        check_spec(spec)
    assert err.value.code == "bad_clock"
    assert err.value.details == details


def test_the_shortest_and_longest_durations_are_accepted() -> None:
    for spec in (
        ClockSpec(per_move=1),
        ClockSpec(per_move=MAX_SECONDS),
        ClockSpec(initial=1, increment=0, max=1),
        ClockSpec(initial=MAX_SECONDS, increment=MAX_SECONDS, max=MAX_SECONDS),
    ):
        check_spec(spec)  # accepted


def test_a_bank_max_is_not_below_its_initial_time() -> None:
    assert spec_refused(ClockSpec(initial=10, max=9)) == (
        "bad_clock",
        "max (9 s) is below initial (10 s)",
    )
    check_spec(ClockSpec(initial=10, max=10))  # accepted


def test_a_timeout_is_lost_or_claimed() -> None:
    words = ("bad_clock", "on_timeout is 'lose' or 'claim'")
    assert spec_refused(ClockSpec(per_move=60, on_timeout="draw")) == words  # type: ignore[arg-type]
    check_spec(ClockSpec(per_move=60, on_timeout="lose"))  # accepted
    check_spec(ClockSpec(per_move=60, on_timeout="claim"))  # accepted


def test_a_game_with_a_bad_clock_is_not_created() -> None:
    assert says(GameState(), Create("p0", clock=ClockSpec(per_move=0))) == (
        "bad_clock",
        "per_move must be 1 to 31536000 seconds (a year)",
    )


# --- counting time ----------------------------------------------------------------------------


def test_counted_time_is_all_of_it_without_weekends_off() -> None:
    assert counted(FRIDAY_NOON, FRIDAY_NOON + 3 * DAY + 7, False) == 3 * DAY + 7
    assert counted(MONDAY, MONDAY + 1, False) == 1
    for weekends_off in (False, True):
        assert counted(MONDAY, MONDAY, weekends_off) == 0
        assert counted(MONDAY + DAY, MONDAY, weekends_off) == 0  # time never runs backwards


def test_with_weekends_off_only_monday_to_friday_utc_counts() -> None:
    assert counted(MONDAY, MONDAY + WEEK, True) == 5 * DAY
    assert counted(MONDAY, MONDAY + 3 * WEEK, True) == 15 * DAY
    assert counted(MONDAY, MONDAY + 5 * DAY, True) == 5 * DAY  # to Saturday 00:00
    assert counted(MONDAY + 5 * DAY, MONDAY + WEEK, True) == 0  # the weekend
    assert counted(SATURDAY_NOON, MONDAY + WEEK + HOUR, True) == HOUR
    assert counted(FRIDAY_NOON, FRIDAY_NOON + 3 * DAY, True) == DAY  # to Monday noon
    assert counted(MONDAY + HOUR, MONDAY + 2 * HOUR, True) == HOUR
    # 1970-01-01 was a Thursday: Thursday, Friday, then Monday.
    assert counted(0, 2 * DAY, True) == 2 * DAY
    assert counted(0, 5 * DAY, True) == 3 * DAY
    assert counted(DAY, 8 * DAY, True) == 5 * DAY


def test_adding_no_time_leaves_the_moment_where_it_is() -> None:
    for weekends_off in (False, True):
        for start in (MONDAY, FRIDAY_NOON, SATURDAY_NOON, MONDAY + 5 * DAY):
            assert add_counted(start, 0, weekends_off) == start
            assert add_counted(start, -HOUR, weekends_off) == start


def test_adding_counted_time_skips_weekends_when_they_are_off() -> None:
    assert add_counted(MONDAY, 1, False) == MONDAY + 1
    assert add_counted(FRIDAY_NOON, DAY, False) == FRIDAY_NOON + DAY
    assert add_counted(MONDAY, 1, True) == MONDAY + 1
    assert add_counted(FRIDAY_NOON, DAY, True) == MONDAY + WEEK + 12 * HOUR
    assert add_counted(SATURDAY_NOON, DAY, True) == MONDAY + WEEK + DAY
    # Time that runs out at the end of a Friday runs out then, not on Monday.
    assert add_counted(FRIDAY_NOON, 12 * HOUR, True) == MONDAY + 5 * DAY
    assert add_counted(MONDAY, 5 * DAY, True) == MONDAY + 5 * DAY
    assert add_counted(MONDAY, 10 * DAY, True) == MONDAY + WEEK + 5 * DAY
    assert add_counted(MONDAY, 10 * DAY + 1, True) == MONDAY + 2 * WEEK + 1
    # The first week of 1970 too (a Thursday): its Friday ends on Saturday 00:00.
    assert add_counted(0, 2 * DAY, True) == 2 * DAY
    assert add_counted(0, 2 * DAY + 1, True) == 4 * DAY + 1
    assert add_counted(DAY, DAY, True) == 2 * DAY


# --- the clock of a game ----------------------------------------------------------------------


def test_a_created_game_has_a_clock_with_no_time_until_it_starts() -> None:
    spec = ClockSpec(per_move=3600)
    log = started(spec, players=3)
    created = clock_of(log[:1])
    assert created == ClockState(spec, (0, 0, 0), None, MONDAY, (None, None, None), 0)
    assert created.deadline is None and created.due is None
    assert created.expired(MONDAY + WEEK) is None
    assert created.remaining_at(MONDAY + DAY) == (0, 0, 0)


def test_a_game_without_a_clock_never_gets_one() -> None:
    log = [(MONDAY, e) for e in check(GameState(), Create("p0", tiles=TILES))]
    state, clock = replay_timed(log)
    assert clock is None
    for event in check(state, Join("p1")):
        state = apply(state, event)
        assert advance(None, MONDAY, event, state) is None
    assert replay_timed([]) == (GameState(), None)


def test_the_start_gives_every_seat_its_full_time_and_starts_the_first_clock() -> None:
    spec = ClockSpec(initial=7200, increment=60)
    clock = clock_of(started(spec, players=3, at=MONDAY + 5))
    assert clock == ClockState(
        spec, (2 * HOUR,) * 3, 0, MONDAY + 5, (None, None, None), turns_played=0
    )
    assert clock.deadline == MONDAY + 5 + 2 * HOUR


def test_the_full_time_is_the_move_time_or_the_initial_bank() -> None:
    assert ClockState(ClockSpec(per_move=60)).full() == 60 * SECOND
    assert ClockState(ClockSpec(initial=90, increment=5)).full() == 90 * SECOND
    assert ClockState(ClockSpec()).full() == 0


def test_a_per_move_clock_is_full_again_after_each_move() -> None:
    log = then(started(ClockSpec(per_move=3600)), MONDAY + 10 * 60 * SECOND, Pass(0))
    clock = clock_of(log)
    assert clock.remaining == (HOUR, HOUR) and clock.running == 1
    assert clock.since == MONDAY + 600_000 and clock.turns_played == 1
    assert clock.deadline == MONDAY + 600_000 + HOUR


def test_a_bank_keeps_what_is_left_and_gains_the_increment_after_a_move() -> None:
    spec = ClockSpec(initial=3600, increment=60)
    clock = clock_of(then(started(spec), MONDAY + 600 * SECOND, Pass(0)))
    assert clock.remaining == (3000 * SECOND + 60 * SECOND, HOUR)
    assert clock.deadline == MONDAY + 600 * SECOND + HOUR


def test_a_bank_never_grows_above_its_max() -> None:
    spec = ClockSpec(initial=3600, increment=600, max=3700)
    clock = clock_of(then(started(spec), MONDAY + SECOND, Pass(0)))
    assert clock.remaining == (3700 * SECOND, HOUR)


def test_a_bank_without_a_max_never_grows_above_a_year() -> None:
    spec = ClockSpec(initial=MAX_SECONDS, increment=100)
    clock = clock_of(then(started(spec), MONDAY + SECOND, Pass(0)))
    assert clock.remaining == (MAX_SECONDS * SECOND, MAX_SECONDS * SECOND)


def test_a_late_move_nobody_claimed_is_forgiven_not_carried() -> None:
    spec = ClockSpec(initial=60, increment=30, on_timeout="claim")
    clock = clock_of(then(started(spec), MONDAY + 100 * SECOND, Pass(0)))
    assert clock.remaining == (30 * SECOND, 60 * SECOND)
    per_move = ClockSpec(per_move=60, on_timeout="claim")
    assert clock_of(then(started(per_move), MONDAY + DAY, Pass(0))).remaining == (
        60 * SECOND,
        60 * SECOND,
    )


def test_the_clock_of_a_turn_in_progress_goes_on_without_a_refill() -> None:
    # A gift during seat 0's turn is not a move: seat 0 keeps what it used.
    spec = ClockSpec(per_move=3600)
    clock = clock_of(then(started(spec), MONDAY + 600 * SECOND, GiveTime(1, 0, 60)))
    assert clock.remaining == (HOUR - 600 * SECOND + 60 * SECOND, HOUR)
    assert clock.running == 0 and clock.deadline == MONDAY + HOUR + 60 * SECOND


def test_a_placement_is_not_a_move_of_the_clock() -> None:
    spec = ClockSpec(initial=3600, increment=60)
    state = replace(
        arranged([(12, 1), (1,)], bag=(30,)), options=replace(GameState().options, clock=spec)
    )
    clock = ClockState(spec, (HOUR, HOUR), 0, MONDAY, (None, None), state.turns_played)
    for event in check(state, Place(0, sq("I8"), 12)):
        state = apply(state, event)
        clock = advance(clock, MONDAY + 600 * SECOND, event, state)  # type: ignore[assignment]
    assert clock.remaining == (HOUR - 600 * SECOND, HOUR) and clock.running == 0


def test_a_seat_that_moves_again_gets_its_move_time_back() -> None:
    # The turn comes back to the same seat (its opponents are gone): still a new move.
    spec = ClockSpec(per_move=3600)
    clock = ClockState(spec, (HOUR, HOUR, HOUR), 0, MONDAY, (None, None, None), 4)
    after = GameState(status="playing", turn=MathableTurn(0, 7), turns_played=5)
    moved = advance(clock, MONDAY + 600 * SECOND, Passed(0), after)
    assert moved is not None
    assert moved.remaining == (HOUR, HOUR, HOUR) and moved.running == 0
    assert moved.turns_played == 5


def test_only_the_running_seat_loses_time() -> None:
    clock = clock_of(started(ClockSpec(per_move=3600), players=3))
    assert clock.remaining_at(MONDAY + 600 * SECOND) == (HOUR - 600 * SECOND, HOUR, HOUR)
    assert clock.remaining_at(MONDAY - HOUR) == (HOUR, HOUR, HOUR)  # no time before the event
    assert clock.remaining_at(MONDAY + WEEK) == (0, HOUR, HOUR)  # never below 0


def test_an_event_written_before_the_last_uses_no_time() -> None:
    log = started(ClockSpec(per_move=3600))
    log.append((MONDAY - 600 * SECOND, TimeGiven(1, 0, 60)))
    clock = clock_of(log)
    assert clock.remaining == (HOUR + 60 * SECOND, HOUR) and clock.since == MONDAY


def test_time_is_up_at_the_deadline_itself() -> None:
    clock = clock_of(started(ClockSpec(per_move=3600)))
    assert clock.expired(MONDAY + HOUR - 1) is None
    assert clock.expired(MONDAY + HOUR) == 0
    assert clock.expired(MONDAY + WEEK) == 0
    later = clock_of(then(started(ClockSpec(per_move=3600)), MONDAY + 1, Pass(0)))
    assert later.expired(MONDAY + 1 + HOUR) == 1


def test_the_server_acts_at_the_deadline_unless_it_waits_for_a_claim() -> None:
    for on_timeout, auto_vacation, due in [
        ("lose", True, MONDAY + HOUR),
        ("lose", False, MONDAY + HOUR),
        ("claim", True, MONDAY + HOUR),
        ("claim", False, None),
    ]:
        spec = ClockSpec(per_move=3600, on_timeout=on_timeout, auto_vacation=auto_vacation)  # type: ignore[arg-type]
        clock = clock_of(started(spec))
        assert clock.deadline == MONDAY + HOUR
        assert clock.due == due, (on_timeout, auto_vacation)


def test_the_clock_stands_still_on_weekends_when_they_are_off() -> None:
    spec = ClockSpec(per_move=86400, weekends_off=True)
    clock = clock_of(started(spec, at=FRIDAY_NOON))
    assert clock.deadline == MONDAY + WEEK + 12 * HOUR
    assert clock.remaining_at(SATURDAY_NOON) == (12 * HOUR, DAY)
    assert clock.used(0, FRIDAY_NOON, SATURDAY_NOON) == 12 * HOUR
    open_spec = ClockSpec(per_move=86400)
    assert clock_of(started(open_spec, at=FRIDAY_NOON)).deadline == FRIDAY_NOON + DAY


# --- gifts and vacations ----------------------------------------------------------------------


def test_a_gift_of_time_goes_to_the_receivers_clock() -> None:
    log = then(started(ClockSpec(per_move=3600)), MONDAY, GiveTime(0, 1, 90))
    clock = clock_of(log)
    assert clock.remaining == (HOUR, HOUR + 90 * SECOND) and clock.running == 0
    assert clock.deadline == MONDAY + HOUR


def test_a_vacation_runs_for_whole_days_from_its_start() -> None:
    at = MONDAY + HOUR
    clock = clock_of(then(started(ClockSpec(per_move=3600)), at, StartVacation(1, 2)))
    assert clock.vacations == (None, (at, at + 2 * DAY))
    assert clock.on_vacation(at - 1) == []
    assert clock.on_vacation(at) == [1]
    assert clock.on_vacation(at + 2 * DAY - 1) == [1]
    assert clock.on_vacation(at + 2 * DAY) == []


def test_the_clock_of_a_seat_on_vacation_stands_still_until_it_ends() -> None:
    at = MONDAY + 600 * SECOND
    clock = clock_of(then(started(ClockSpec(per_move=3600)), at, StartVacation(0, 2)))
    left = HOUR - 600 * SECOND
    assert clock.remaining == (left, HOUR)
    assert clock.deadline == at + 2 * DAY + left
    assert clock.remaining_at(at + DAY) == (left, HOUR)
    assert clock.remaining_at(at + 2 * DAY + SECOND) == (left - SECOND, HOUR)
    assert clock.used(0, MONDAY, at + 2 * DAY + SECOND) == 601 * SECOND
    assert clock.used(1, MONDAY, at + 2 * DAY + SECOND) == 2 * DAY + 601 * SECOND


def test_vacation_time_inside_a_stretch_is_all_that_is_taken_away() -> None:
    clock = ClockState(
        ClockSpec(per_move=86400), (DAY, DAY), 0, MONDAY, ((MONDAY + HOUR, MONDAY + 3 * HOUR), None)
    )
    assert clock.used(0, MONDAY, MONDAY + 5 * HOUR) == 3 * HOUR
    assert clock.used(0, MONDAY + 2 * HOUR, MONDAY + 5 * HOUR) == 2 * HOUR
    assert clock.used(0, MONDAY, MONDAY + 2 * HOUR) == HOUR
    assert clock.used(1, MONDAY, MONDAY + 5 * HOUR) == 5 * HOUR


def test_a_clock_state_without_vacations_counts_all_the_time() -> None:
    clock = ClockState(ClockSpec(per_move=60), remaining=(60 * SECOND,), running=0, since=0)
    assert clock.used(0, 0, 1000) == 1000
    assert clock.remaining_at(1000) == (59 * SECOND,)


def test_a_vacation_of_the_waiting_seat_delays_its_clock_when_its_turn_comes() -> None:
    log = then(started(ClockSpec(per_move=3600)), MONDAY, StartVacation(1, 1))
    clock = clock_of(then(log, MONDAY + HOUR // 2, Pass(0)))
    assert clock.running == 1
    assert clock.deadline == MONDAY + DAY + HOUR


def test_a_vacation_started_with_no_time_left_does_not_delay_the_deadline() -> None:
    spec = ClockSpec(per_move=3600, on_timeout="claim", auto_vacation=False)
    clock = clock_of(then(started(spec), MONDAY + HOUR, StartVacation(0, 3)))
    assert clock.remaining == (0, HOUR)
    assert clock.deadline == MONDAY + HOUR and clock.expired(MONDAY + HOUR) == 0
    late = clock_of(then(started(spec), MONDAY + 2 * HOUR, StartVacation(0, 3)))
    assert late.deadline == MONDAY + 2 * HOUR


def test_coming_back_early_ends_the_vacation_at_that_moment() -> None:
    log = then(started(ClockSpec(per_move=3600)), MONDAY, StartVacation(0, 3))
    clock = clock_of(then(log, MONDAY + DAY, EndVacation(0)))
    assert clock.vacations == ((MONDAY, MONDAY + DAY), None)
    assert clock.on_vacation(MONDAY + DAY) == []
    assert clock.remaining == (HOUR, HOUR)
    assert clock.deadline == MONDAY + DAY + HOUR


def test_coming_back_changes_nothing_without_a_vacation_under_way() -> None:
    spec = ClockSpec(per_move=3600)
    never = clock_of(then(started(spec), MONDAY + 60 * SECOND, EndVacation(1)))
    assert never.vacations == (None, None)
    log = then(started(spec), MONDAY, StartVacation(1, 1))
    over = clock_of(then(log, MONDAY + 2 * DAY, Pass(0), EndVacation(1)))
    assert over.vacations == (None, (MONDAY, MONDAY + DAY))
    assert over.deadline == MONDAY + 2 * DAY + HOUR


def test_coming_back_before_a_vacation_started_leaves_it_empty() -> None:
    # An event written before the vacation's own time (clocks of two servers).
    log = then(started(ClockSpec(per_move=3600)), MONDAY + HOUR // 2, StartVacation(1, 2))
    log.append((MONDAY, VacationEnded(1)))
    clock = clock_of(log)
    assert clock.vacations == (None, (MONDAY + HOUR // 2, MONDAY + HOUR // 2))


def test_a_vacation_day_gives_twenty_four_hours_more() -> None:
    spec = ClockSpec(per_move=3600)
    clock = clock_of(then(started(spec), MONDAY + HOUR, UseVacationDay(0)))
    assert clock.remaining == (DAY, HOUR)
    assert clock.deadline == MONDAY + HOUR + DAY
    other = clock_of(then(started(spec), MONDAY, UseVacationDay(1)))
    assert other.remaining == (HOUR, HOUR + DAY)


def test_a_timeout_of_one_seat_of_three_starts_the_next_clock() -> None:
    log = then(started(ClockSpec(per_move=3600), players=3), MONDAY + HOUR, TimeOut(0))
    state, clock = replay_timed(log)
    assert clock is not None
    assert state.seats[0].timed_out and clock.running == 1
    assert clock.remaining == (HOUR, HOUR, HOUR)
    assert clock.deadline == MONDAY + 2 * HOUR


def test_the_clock_stops_when_the_game_ends() -> None:
    log = then(started(ClockSpec(per_move=3600)), MONDAY + HOUR, TimeOut(0))
    state, clock = replay_timed(log)
    assert state.status == "ended" and clock is not None
    assert clock.running is None and clock.deadline is None and clock.due is None
    assert clock.remaining_at(MONDAY + WEEK) == clock.remaining


# --- claims -----------------------------------------------------------------------------------


def claim_refused(
    state: GameState, clock: ClockState | None, now: int, seat: int
) -> tuple[str, str]:
    with pytest.raises(RuleError) as err:
        check_claim(state, clock, now, seat)
    return err.value.code, err.value.message


def test_an_opponent_claims_a_timeout_only_once_time_is_up() -> None:
    spec = ClockSpec(per_move=3600, on_timeout="claim")
    state, clock = replay_timed(started(spec, players=3))
    assert claim_refused(state, clock, MONDAY + HOUR - 1, 1) == (
        "not_expired",
        "the player to move still has time",
    )
    assert check_claim(state, clock, MONDAY + HOUR, 1) == 0
    assert check_claim(state, clock, MONDAY + HOUR, 2) == 0
    assert claim_refused(state, clock, MONDAY + HOUR, 0) == (
        "own_timeout",
        "you cannot claim your own timeout: move instead",
    )
    state, clock = replay_timed(then(started(spec), MONDAY + 1, Pass(0)))
    assert check_claim(state, clock, MONDAY + 1 + HOUR, 0) == 1


def test_only_a_claim_mode_clock_takes_claims() -> None:
    state, clock = replay_timed(started(ClockSpec(per_move=3600)))
    assert claim_refused(state, clock, MONDAY + DAY, 1) == (
        "claims_off",
        "this game's clock ends a late player's game by itself",
    )
    plain = [(MONDAY, e) for e in check(GameState(), Create("p0", tiles=TILES))]
    state, clock = replay_timed(then(plain, MONDAY, Join("p1")))
    assert claim_refused(state, clock, MONDAY + DAY, 1) == ("no_clock", "this game has no clock")


@pytest.mark.parametrize("seat", [-1, 2])
def test_a_claim_comes_from_a_seat_of_the_game(seat: int) -> None:
    spec = ClockSpec(per_move=3600, on_timeout="claim")
    state, clock = replay_timed(started(spec))
    assert claim_refused(state, clock, MONDAY + DAY, seat) == (
        "game_over",
        "only a game in play has a clock running",
    )


def test_a_claim_needs_a_game_in_play_and_a_seat_still_playing() -> None:
    spec = ClockSpec(per_move=3600, on_timeout="claim")
    log = started(spec, players=3)
    state, clock = replay_timed(then(log, MONDAY, Resign(2)))
    assert claim_refused(state, clock, MONDAY + DAY, 2) == (
        "not_seated",
        "you no longer play in this game",
    )
    state, clock = replay_timed(then(log, MONDAY, Resign(2), Resign(1)))
    assert state.status == "ended"
    assert claim_refused(state, clock, MONDAY + DAY, 0) == (
        "game_over",
        "only a game in play has a clock running",
    )


def claim_details(
    state: GameState, clock: ClockState | None, now: int, seat: int
) -> tuple[str, dict[str, object] | None]:
    with pytest.raises(RuleError) as err:
        check_claim(state, clock, now, seat)
    return err.value.code, err.value.details


def test_each_refused_claim_says_why_in_its_details() -> None:
    """What a bot reads of a refused ``claim_timeout`` (docs/errors.md): the seat to move
    and its time left, the claimant's own seat, the clock's mode, the game's status."""
    spec = ClockSpec(per_move=3600, on_timeout="claim")
    state, clock = replay_timed(started(spec, players=3))
    assert claim_details(state, clock, MONDAY + HOUR - 5, 1) == (
        "not_expired",
        {"seat": 0, "remaining_ms": 5},
    )
    assert claim_details(state, clock, MONDAY + HOUR, 0) == ("own_timeout", {"seat": 0})
    assert clock is not None
    stopped = replace(clock, running=None)  # a clock that runs for nobody never runs out
    assert claim_details(state, stopped, MONDAY + WEEK, 1) == (
        "not_expired",
        {"seat": None, "remaining_ms": None},
    )
    assert claim_details(state, clock, MONDAY + HOUR, 3) == ("game_over", {"status": "playing"})
    resigned, clock_after = replay_timed(then(started(spec, players=3), MONDAY, Resign(2)))
    assert claim_details(resigned, clock_after, MONDAY + DAY, 2) == (
        "not_seated",
        {"seat": 2, "resigned": True},
    )
    ended, ended_clock = replay_timed(then(started(spec), MONDAY, Resign(1)))
    assert claim_details(ended, ended_clock, MONDAY + DAY, 0) == (
        "game_over",
        {"status": "ended"},
    )
    plain_state, plain_clock = replay_timed(started(ClockSpec(per_move=3600)))
    assert claim_details(plain_state, plain_clock, MONDAY + DAY, 1) == (
        "claims_off",
        {"on_timeout": plain_clock.spec.on_timeout},  # type: ignore[union-attr]
    )
    assert plain_clock is not None and plain_clock.spec.on_timeout != "claim"
    assert claim_details(plain_state, None, MONDAY + DAY, 1) == ("no_clock", {"clock": None})


# --- the clock commands -----------------------------------------------------------------------


def clocked(racks: list[tuple[int, ...]], spec: ClockSpec | None = None) -> GameState:
    state = arranged(racks, bag=(30, 31))
    return replace(state, options=replace(state.options, clock=spec or ClockSpec(per_move=3600)))


CLOCK_COMMANDS = [
    GiveTime(0, 1, 60),
    StartVacation(0, 1),
    EndVacation(0),
    UseVacationDay(0),
    TimeOut(0),
]


@pytest.mark.parametrize("command", CLOCK_COMMANDS)
def test_clock_commands_need_a_clock(command: object) -> None:
    state = arranged([(12,), (1,)], bag=(30,))
    assert says(state, command) == ("no_clock", "this game has no clock")


@pytest.mark.parametrize("command", CLOCK_COMMANDS)
def test_clock_commands_need_a_game_in_play(command: object) -> None:
    log = [(MONDAY, e) for e in check(GameState(), Create("p0", clock=ClockSpec(per_move=60)))]
    waiting, _ = replay_timed(log)
    words = "the clock runs only while the game is played"
    assert says(waiting, command) == ("game_not_started", words)
    ended, _ = replay_timed(then(started(ClockSpec(per_move=60)), MONDAY, Resign(1)))
    assert ended.status == "ended"
    assert says(ended, command) == ("game_over", words)


@pytest.mark.parametrize(
    "command",
    [
        GiveTime(2, 0, 60),
        GiveTime(-1, 0, 60),
        StartVacation(2, 1),
        EndVacation(-1),
        UseVacationDay(2),
        TimeOut(2),
        TimeOut(-1),
    ],
)
def test_clock_commands_come_from_a_seat_of_the_game(command: object) -> None:
    state = clocked([(12,), (1,)])
    assert says(state, command) == ("not_seated", "that seat no longer plays in this game")


def test_a_seat_that_left_has_no_clock_to_use() -> None:
    state = play(clocked([(12,), (1,), (2,)]), Resign(2))
    for command in (GiveTime(2, 0, 60), StartVacation(2, 1), UseVacationDay(2), TimeOut(2)):
        assert says(state, command) == ("not_seated", "that seat no longer plays in this game")


def test_time_is_given_to_an_opponent_still_playing() -> None:
    state = play(clocked([(12,), (1,), (2,)]), Resign(2))
    for to in (2, 3, -1):
        assert says(state, GiveTime(0, to, 60)) == (
            "bad_seat",
            f"seat {to} does not play in this game",
        )
    assert says(state, GiveTime(0, 0, 60)) == ("own_seat", "time can only be given to an opponent")
    assert check(state, GiveTime(0, 1, 60)) == [TimeGiven(0, 1, 60)]
    assert check(state, GiveTime(1, 0, 60)) == [TimeGiven(1, 0, 60)]


@pytest.mark.parametrize("seconds", [0, -5, MAX_SECONDS + 1, True, 1.5, "60"])
def test_a_gift_is_one_second_to_a_year(seconds: object) -> None:
    state = clocked([(12,), (1,)])
    assert says(state, GiveTime(0, 1, seconds)) == (  # type: ignore[arg-type]
        "bad_seconds",
        "give 1 to 31536000 seconds",
    )


def test_the_smallest_and_largest_gifts_are_given() -> None:
    state = clocked([(12,), (1,)])
    assert check(state, GiveTime(0, 1, 1)) == [TimeGiven(0, 1, 1)]
    assert check(state, GiveTime(0, 1, MAX_SECONDS)) == [TimeGiven(0, 1, MAX_SECONDS)]


@pytest.mark.parametrize("days", [0, -1, 367])
def test_a_vacation_lasts_one_to_366_days(days: int) -> None:
    state = clocked([(12,), (1,)])
    assert says(state, StartVacation(1, days)) == ("bad_days", "a vacation lasts 1 to 366 days")


def test_vacations_start_end_and_days_are_used_by_any_seat_still_playing() -> None:
    state = clocked([(12,), (1,)])
    assert check(state, StartVacation(1, 1)) == [VacationStarted(1, 1)]
    assert check(state, StartVacation(0, 366)) == [VacationStarted(0, 366)]
    assert check(state, EndVacation(1)) == [VacationEnded(1)]
    assert check(state, UseVacationDay(0)) == [VacationDayUsed(0)]
    for command in (StartVacation(1, 3), EndVacation(1), UseVacationDay(0), GiveTime(0, 1, 5)):
        after = play(state, command)  # only the clock changes, and the version
        assert after.version == state.version + 1 and replace(after, version=state.version) == state


def test_a_timeout_in_a_two_player_game_ends_it_for_the_other() -> None:
    state = clocked([(12,), (1, 2)])
    events = check(state, TimeOut(0))
    assert events[0] == TimedOut(0, None)
    end = events[1]
    assert isinstance(end, GameEnded) and end.reason == "timeout" and end.winners == (1,)
    assert end.deductions == (12, 3) and end.scores == (-12, -3)
    assert len(events) == 2 or len(events) == 3  # the bag order may be revealed


def test_a_claimed_timeout_names_who_claimed_it() -> None:
    state = clocked([(12,), (1,), (2,)])
    assert check(state, TimeOut(0, claimed_by=2)) == [TimedOut(0, 2)]
    after = play(state, TimeOut(0, claimed_by=2))
    assert after.status == "playing" and after.seats[0].timed_out and after.seats[0].resigned
    assert after.turn is not None and after.turn.seat == 1


def test_a_timeout_out_of_turn_leaves_the_turn_where_it_is() -> None:
    state = play(clocked([(12, 1), (1,), (2,)]), Place(0, sq("I8"), 12))
    for seat in (1, 2):
        after = play(state, TimeOut(seat))
        assert after.status == "playing" and after.seats[seat].timed_out
        assert after.turn == state.turn  # seat 0's turn goes on, its tile still down
        assert [s.timed_out for s in after.seats] == [False, seat == 1, seat == 2]


def test_a_timeout_with_tiles_down_scores_them_without_a_refill() -> None:
    state = play(clocked([(12, 1), (1,), (2,)]), Place(0, sq("I8"), 12))
    assert check(state, TimeOut(0)) == [
        TurnEnded(seat=0, points=12, bonus=0, drawn=()),
        TimedOut(0, None),
    ]
    after = play(state, TimeOut(0))
    assert after.seats[0].score == 12 and after.seats[0].rack == (1,)
    assert after.bag == (30, 31) and after.turn is not None and after.turn.seat == 1
    # Another seat's timeout leaves the tiles of the turn in play down.
    assert check(state, TimeOut(2)) == [TimedOut(2, None)]


def test_a_timeout_that_leaves_a_game_over_ends_it_as_it_would_end() -> None:
    # Two seats left and the bag empty with a rack empty: the usual end applies.
    state = replace(clocked([(12,), (), (2,)]), bag=())
    events = check(state, TimeOut(2))
    assert events[0] == TimedOut(2, None)
    assert any(isinstance(e, GameEnded) and e.reason != "timeout" for e in events[1:])


def test_a_vacation_over_a_weekend_off_takes_away_only_its_weekdays() -> None:
    spec = ClockSpec(per_move=3 * 86400, weekends_off=True)
    clock = clock_of(then(started(spec, at=FRIDAY_NOON), FRIDAY_NOON, StartVacation(0, 3)))
    assert clock.vacations[0] == (
        FRIDAY_NOON,
        FRIDAY_NOON + 3 * DAY,
    )
    tuesday_noon = FRIDAY_NOON + 4 * DAY
    assert clock.used(0, FRIDAY_NOON, tuesday_noon) == DAY  # Monday noon to Tuesday noon
    assert clock.used(1, FRIDAY_NOON, tuesday_noon) == 2 * DAY
    assert clock.remaining_at(tuesday_noon) == (2 * DAY, 3 * DAY)


def test_a_timeout_of_the_player_to_move_closes_the_correction_window() -> None:
    state = arranged([(12, 1), (5,), (6,)], referee="players", bag=(30, 31))
    state = replace(state, options=replace(state.options, clock=ClockSpec(per_move=3600)))
    state = play(state, Place(0, sq("I8"), 12, claims=(Equation(sq("H8"), sq("G8"), "+"),)))
    state = play(state, EndTurn(0))
    assert state.correctable is not None and state.turn is not None and state.turn.seat == 1
    out_of_turn = play(state, TimeOut(2))
    assert out_of_turn.correctable is not None  # seat 2 was not the one to act
    timed_out = play(state, TimeOut(1))
    assert timed_out.correctable is None
    assert timed_out.turn is not None and timed_out.turn.seat == 2
    assert refusal(timed_out, Correct(2)).code == "nothing_to_correct"


def test_each_clock_command_s_refusal_gives_the_details_errors_md_lists() -> None:
    """docs/errors.md: ``no_clock`` ``clock``; ``game_not_started``/``game_over`` the
    ``status``; ``not_seated`` the ``seat``, the number of ``seats`` and whether it
    ``resigned``; ``bad_seat``, ``bad_seconds``, ``bad_days`` the ``field`` and its
    ``value`` with the seats still playing or the bounds; ``own_seat`` the ``seat``."""

    def details(state: GameState, command: object) -> tuple[str, dict[str, object]]:
        err = refusal(state, command)  # type: ignore[arg-type]
        return err.code, err.details

    plain = arranged([(12,), (1,)], bag=(30,))
    for command in CLOCK_COMMANDS:
        assert details(plain, command) == ("no_clock", {"clock": None})
    log = [(MONDAY, e) for e in check(GameState(), Create("p0", clock=ClockSpec(per_move=60)))]
    waiting, _ = replay_timed(log)
    assert details(waiting, GiveTime(0, 1, 60)) == ("game_not_started", {"status": "waiting"})
    ended, _ = replay_timed(then(started(ClockSpec(per_move=60)), MONDAY, Resign(1)))
    assert details(ended, StartVacation(0, 1)) == ("game_over", {"status": "ended"})

    two = clocked([(12,), (1,)])
    assert details(two, UseVacationDay(2)) == (
        "not_seated",
        {"seat": 2, "seats": 2, "resigned": False},
    )
    assert details(two, EndVacation(-1)) == (
        "not_seated",
        {"seat": -1, "seats": 2, "resigned": False},
    )
    three = play(clocked([(12,), (1,), (2,)]), Resign(2))
    assert details(three, GiveTime(2, 0, 60)) == (
        "not_seated",
        {"seat": 2, "seats": 3, "resigned": True},
    )
    for to in (2, 3):
        assert details(three, GiveTime(0, to, 60)) == (
            "bad_seat",
            {"field": "seat", "value": to, "active_seats": [0, 1]},
        )
    assert details(three, GiveTime(1, 1, 60)) == ("own_seat", {"seat": 1})
    for seconds in (0, MAX_SECONDS + 1, "60"):
        assert details(two, GiveTime(0, 1, seconds)) == (  # type: ignore[arg-type]
            "bad_seconds",
            {"field": "seconds", "value": seconds, "min": 1, "max": MAX_SECONDS},
        )
    for days in (0, 367, 1.5):
        assert details(two, StartVacation(1, days)) == (  # type: ignore[arg-type]
            "bad_days",
            {"field": "days", "value": days, "min": 1, "max": 366},
        )
