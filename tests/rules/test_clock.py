"""The clock as a pure fold of timed events: deadlines, weekends, vacations, replays."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mathable import TILE_SET, Create, GameState, Join, Pass, TimeOut, apply, check
from mathable.core.clock import DAY, ClockState, add_counted, advance, counted, replay_timed
from mathable.core.events import Event, TimeGiven, VacationStarted
from mathable.core.state import ClockSpec

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
