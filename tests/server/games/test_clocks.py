"""Clocks over simulated weeks, on SQLite and PostgreSQL: the server's "now" is moved by hand.

Every kind (per move, time bank), weekends off, vacations, automatic vacation
days, claims, gifts of time, a 3-player game where one seat times out, the
sweeper, and the input the API refuses.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from mathable_server.games.timesource import MovableTime
from tests.server.apps import make_app
from tests.server.clocks import DAY, HOUR, MONDAY, World
from tests.server.helpers import move, new_game

pytestmark = pytest.mark.both_databases

def _deadline(body: dict[str, Any]) -> datetime:
    return datetime.strptime(body["clock"]["deadline"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    time = MovableTime(MONDAY)
    app = make_app(database_url, vacation_days=3)
    app.extensions["mathable"].games.time = time
    yield World(app, time)
    app.extensions["mathable"].store.engine.dispose()


# --- per move ---------------------------------------------------------------------


def test_per_move_clock_times_out_the_late_seat_and_ends_a_two_player_game(world: World) -> None:
    game_id = world.start({"per_move": 3 * DAY, "auto_vacation": False})
    view = world.view(game_id)
    assert view["clock"]["remaining"] == [3 * DAY, 3 * DAY]
    assert _deadline(view) == datetime(2027, 3, 4, 9, tzinfo=UTC)
    world.advance(days=2)
    assert world.view(game_id)["clock"]["remaining"] == [DAY, 3 * DAY]
    world.advance(days=1)  # exactly at the deadline: ada is out of time
    ended = world.view(game_id, world.bob)
    assert ended["status"] == "ended" and ended["result"]["reason"] == "timeout"
    assert ended["result"]["winners"] == [1]
    assert ended["seats"][0]["timed_out"] and ended["clock"]["deadline"] is None
    # Rack deductions as at any end.
    assert ended["result"]["deductions"] == [sum([1, 2, 8, 12, 16, 17, 42]), 56]
    assert world.types(game_id).count("timed_out") == 1


def test_per_move_clock_is_full_again_after_each_move(world: World) -> None:
    game_id = world.start({"per_move": DAY})
    world.advance(hours=20)
    world.passes(game_id, world.ada)
    view = world.view(game_id)
    assert view["clock"]["remaining"] == [DAY, DAY] and view["clock"]["running"] == 1
    world.advance(hours=20)
    world.passes(game_id, world.bob)
    world.advance(hours=23)
    assert world.view(game_id)["status"] == "playing"


def test_a_late_move_is_refused_once_the_game_timed_out(world: World) -> None:
    game_id = world.start({"per_move": DAY, "auto_vacation": False})
    version = world.view(game_id)["version"]
    world.advance(days=1, seconds=1)
    response = move(world.client, world.ada, game_id, version, type="pass")
    assert response.status_code == 409  # the timeout was written first
    assert world.view(game_id)["result"]["reason"] == "timeout"


# --- time bank ------------------------------------------------------------------------


def test_time_bank_gains_the_increment_and_never_passes_max(world: World) -> None:
    game_id = world.start(
        {"initial": 2 * DAY, "increment": DAY, "max": 2 * DAY + 12 * HOUR, "auto_vacation": False}
    )
    world.advance(hours=6)
    world.passes(game_id, world.ada)
    assert world.view(game_id)["clock"]["remaining"][0] == 2 * DAY + 12 * HOUR  # capped
    world.advance(days=1, hours=12)
    world.passes(game_id, world.bob)
    assert world.view(game_id)["clock"]["remaining"] == [2 * DAY + 12 * HOUR, 1 * DAY + 12 * HOUR]
    world.advance(days=2, hours=11)
    assert world.view(game_id)["status"] == "playing"
    world.advance(hours=1)
    assert world.view(game_id)["result"]["reason"] == "timeout"


# --- weekends off ---------------------------------------------------------------------


def test_weekends_off_stops_the_clock_on_saturday_and_sunday(world: World) -> None:
    world.time.set(MONDAY + 3 * DAY * 1000 + 3 * HOUR * 1000)  # Thursday 12:00
    game_id = world.start({"per_move": 2 * DAY, "weekends_off": True, "auto_vacation": False})
    assert _deadline(world.view(game_id)) == datetime(2027, 3, 8, 12, tzinfo=UTC)  # Monday
    world.advance(days=3)  # Sunday noon: half of Thursday and Friday used, not the weekend
    assert world.view(game_id)["clock"]["remaining"][0] == 12 * HOUR
    world.advance(days=1)
    assert world.view(game_id)["status"] == "ended"


def test_a_time_bank_with_weekends_off_over_two_weeks(world: World) -> None:
    game_id = world.start(
        {"initial": 3 * DAY, "increment": DAY, "weekends_off": True, "auto_vacation": False}
    )
    world.advance(days=2)  # Wednesday 09:00
    world.passes(game_id, world.ada)  # 3 - 2 + 1: two days left
    # bob's 3 days from Wednesday 09:00: 63 hours to Saturday, the rest on Monday.
    assert _deadline(world.view(game_id)) == datetime(2027, 3, 8, 9, tzinfo=UTC)
    world.advance(days=4, hours=23)  # Monday 08:00, through a weekend that does not count
    assert world.view(game_id)["clock"]["remaining"][1] == HOUR
    world.passes(game_id, world.bob)  # 1 hour + 1 day
    view = world.view(game_id)
    assert view["clock"]["remaining"] == [2 * DAY, DAY + HOUR]
    assert _deadline(view) == datetime(2027, 3, 10, 8, tzinfo=UTC)
    world.advance(days=1, hours=23, seconds=3599)
    assert world.view(game_id)["status"] == "playing"
    world.advance(seconds=1)
    assert world.view(game_id)["result"]["reason"] == "timeout"


# --- claim ----------------------------------------------------------------------------


def test_claim_mode_waits_for_the_opponent_to_claim(world: World) -> None:
    game_id = world.start({"per_move": DAY, "on_timeout": "claim", "auto_vacation": False})
    version = world.view(game_id)["version"]
    early = move(world.client, world.bob, game_id, version, type="claim_timeout")
    assert early.status_code == 422 and early.json["error"]["code"] == "not_expired"
    world.advance(days=2)
    waiting = world.view(game_id)
    assert waiting["status"] == "playing" and waiting["clock"]["expired"]
    assert world.types(game_id).count("timed_out") == 0
    own = move(world.client, world.ada, game_id, version, type="claim_timeout")
    assert own.status_code == 422 and own.json["error"]["code"] == "own_timeout"
    claimed = move(world.client, world.bob, game_id, version, type="claim_timeout")
    assert claimed.status_code == 200, claimed.json
    assert claimed.json["result"]["reason"] == "timeout"
    assert claimed.json["events"][0] == {
        "type": "timed_out",
        "v": 1,
        "seat": 0,
        "claimed_by": 1,
        "version": version + 1,
    }


def test_claim_mode_lets_the_late_player_still_move(world: World) -> None:
    game_id = world.start({"per_move": DAY, "on_timeout": "claim", "auto_vacation": False})
    world.advance(days=5)
    after = world.passes(game_id, world.ada)
    assert after["status"] == "playing" and after["clock"]["running"] == 1
    assert after["clock"]["remaining"] == [DAY, DAY] and not after["clock"]["expired"]


# --- give time ------------------------------------------------------------------------


def test_give_time_adds_to_an_opponent_and_not_to_yourself(world: World) -> None:
    game_id = world.start({"per_move": DAY})
    version = world.view(game_id)["version"]
    own = move(world.client, world.ada, game_id, version, type="give_time", seat=0, seconds=60)
    assert own.status_code == 422 and own.json["error"]["code"] == "own_seat"
    assert world.view(game_id)["version"] == version
    given = move(world.client, world.bob, game_id, version, type="give_time", seat=0, seconds=DAY)
    assert given.status_code == 200, given.json
    assert given.json["clock"]["remaining"][0] == 2 * DAY
    world.advance(days=1, hours=23)
    assert world.view(game_id)["status"] == "playing"


# --- vacations ------------------------------------------------------------------------


def test_a_vacation_stops_the_clock_and_ending_it_gives_days_back(world: World) -> None:
    game_id = world.start({"per_move": DAY, "auto_vacation": False})
    world.advance(hours=12)
    started = world.client.post("/v1/me/vacation", json={"days": 2}, headers=world.ada.auth)
    assert started.status_code == 201, started.json
    assert started.json["games"] == [game_id] and started.json["days_left"] == 1
    view = world.view(game_id)
    assert view["clock"]["on_vacation"] == [0]
    assert _deadline(view) == datetime(2027, 3, 4, 9, tzinfo=UTC)  # vacation end + 12 h
    world.advance(days=1, hours=6)
    assert world.view(game_id)["clock"]["remaining"][0] == 12 * HOUR
    ended = world.client.delete("/v1/me/vacation", headers=world.ada.auth)
    assert ended.status_code == 200 and ended.json["days"] == 2 and ended.json["days_left"] == 1
    view = world.view(game_id)
    assert view["clock"]["on_vacation"] == [] and view["clock"]["remaining"][0] == 12 * HOUR
    world.advance(hours=12)
    assert world.view(game_id)["status"] == "ended"


def test_vacations_beyond_the_allowance_or_overlapping_are_refused(world: World) -> None:
    game_id = world.start({"per_move": DAY})
    before = world.view(game_id)["version"]
    too_long = world.client.post("/v1/me/vacation", json={"days": 4}, headers=world.ada.auth)
    assert too_long.status_code == 422 and too_long.json["error"]["code"] == "vacation_allowance"
    first = world.client.post("/v1/me/vacation", json={"days": 1}, headers=world.ada.auth)
    assert first.status_code == 201
    again = world.client.post("/v1/me/vacation", json={"days": 1}, headers=world.ada.auth)
    assert again.status_code == 422 and again.json["error"]["code"] == "on_vacation"
    assert world.view(game_id)["version"] == before + 1  # one vacation_started, nothing more
    nothing = world.client.delete("/v1/me/vacation", headers=world.bob.auth)
    assert nothing.status_code == 422 and nothing.json["error"]["code"] == "not_on_vacation"
    for bad in ({"days": 0}, {"days": -3}, {"days": 400}, {"days": 2, "extra": 1}, {}):
        response = world.client.post("/v1/me/vacation", json=bad, headers=world.bob.auth)
        assert response.status_code == 400, bad


def test_auto_vacation_spends_a_day_before_a_timeout(world: World) -> None:
    game_id = world.start({"per_move": DAY})  # auto_vacation is on by default
    world.advance(days=1, hours=1)
    view = world.view(game_id)
    assert view["status"] == "playing" and view["clock"]["remaining"][0] == 23 * HOUR
    world.advance(days=2)  # two more days spent: the allowance of 3 is used up
    assert world.types(game_id).count("auto_vacation") == 3
    world.advance(days=1)
    assert world.view(game_id)["result"]["reason"] == "timeout"
    refused = world.client.post("/v1/me/vacation", json={"days": 1}, headers=world.ada.auth)
    assert refused.json["error"]["code"] == "vacation_allowance"


# --- 3 and 4 players -----------------------------------------------------------------


def test_a_seat_timing_out_drops_out_and_the_others_play_on(world: World) -> None:
    game_id = world.start({"per_move": DAY, "auto_vacation": False}, world.ada, world.bob, world.cy)
    world.advance(days=1)
    view = world.view(game_id, world.bob)
    assert view["status"] == "playing" and view["seats"][0]["timed_out"]
    assert view["turn"]["seat"] == 1 and view["clock"]["running"] == 1
    world.passes(game_id, world.bob)
    world.advance(days=1)  # cy times out too: bob is the last seat and wins
    ended = world.view(game_id, world.bob)
    assert ended["result"]["reason"] == "timeout" and ended["result"]["winners"] == [1]
    assert world.types(game_id).count("timed_out") == 2


# --- the sweeper, lists, old games ----------------------------------------------------------


def test_the_sweep_times_out_games_nobody_reads(world: World) -> None:
    late = world.start({"per_move": DAY, "auto_vacation": False})
    on_time = world.start({"per_move": 3 * DAY, "auto_vacation": False})
    world.advance(days=2)
    assert world.games.sweep() == 1
    with world.app.extensions["mathable"].store.engine.connect() as conn:
        from sqlalchemy import select

        from mathable_server.store.engine import games

        rows = dict(conn.execute(select(games.c.id, games.c.status)).all())
    assert rows[late] == "ended" and rows[on_time] == "playing"
    assert world.games.sweep() == 0


def test_me_lists_deadlines_nearest_first(world: World) -> None:
    far = world.start({"per_move": 5 * DAY})
    near = world.start({"per_move": DAY})
    no_clock = new_game(world.client, world.ada, players=2)["id"]
    world.client.post(f"/v1/games/{no_clock}/join", headers=world.bob.auth)
    listed = world.client.get("/v1/me", headers=world.ada.auth).json["games"]
    mine = [g for g in listed if g["your_turn"]]
    assert [g["id"] for g in mine][:2] == [near, far]
    assert mine[0]["deadline"] == "2027-03-02T09:00:00Z"
    assert {g["id"]: g["deadline"] for g in listed}[no_clock] is None


def test_a_game_without_a_clock_has_none(world: World) -> None:
    game = new_game(world.client, world.ada)
    assert game["clock"] is None
    world.advance(days=400)
    assert world.view(game["id"])["clock"] is None


# --- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "clock",
    [
        {"per_move": 0},
        {"per_move": -5},
        {"per_move": 366 * DAY},
        {"initial": DAY, "increment": -1},
        {"per_move": DAY, "color": "red"},
        {"per_move": DAY, "on_timeout": "shrug"},
        {"per_move": "3d"},
        {"per_move": True},
    ],
)
def test_bad_clocks_are_refused_with_400(world: World, clock: dict[str, Any]) -> None:
    response = world.client.post("/v1/games", json={"clock": clock}, headers=world.ada.auth)
    assert response.status_code == 400 and response.json["error"]["code"] == "validation_error"


@pytest.mark.parametrize(
    "clock",
    [{}, {"per_move": DAY, "initial": DAY}, {"initial": 2 * DAY, "max": DAY}],
)
def test_clocks_the_rules_refuse_get_422_bad_clock(world: World, clock: dict[str, Any]) -> None:
    response = world.client.post("/v1/games", json={"clock": clock}, headers=world.ada.auth)
    assert response.status_code == 422 and response.json["error"]["code"] == "bad_clock"


def test_give_time_and_claims_in_a_game_without_a_clock_change_nothing(world: World) -> None:
    game = new_game(world.client, world.ada)
    world.client.post(f"/v1/games/{game['id']}/join", headers=world.bob.auth)
    version = world.view(game["id"])["version"]
    for command in (
        {"type": "give_time", "seat": 1, "seconds": 60},
        {"type": "claim_timeout"},
    ):
        response = move(world.client, world.bob, game["id"], version, **command)
        assert response.status_code == 422 and response.json["error"]["code"] == "no_clock"
    bad = move(world.client, world.bob, game["id"], version, type="give_time", seat=0, seconds=0)
    assert bad.status_code == 400
    assert world.view(game["id"])["version"] == version
