"""``wait`` (one game, --any): long polls until it is your turn, the game ends or time runs
out, and says what the opponent just played."""

from __future__ import annotations

import json

import requests
import responses

import mathable
from mathable_cli.exits import ExitCode
from tests.cli.conftest import SERVER, FakeServer, Invoke, bob_plays


def test_wait_long_polls_until_it_is_my_turn(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Pass(0))
    fake.on_poll = lambda: bob_plays(fake, gid)
    result = cli("wait", gid)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"{gid}\n"
    assert fake.polls == [{"wait": "60", "since": "4"}]
    assert "Your turn in game" in result.stderr


def test_wait_returns_at_once_when_it_is_already_my_turn(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("wait", gid, "--json")
    assert json.loads(result.stdout)["id"] == gid
    assert fake.polls == []


def test_wait_gives_up_at_the_timeout(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Pass(0))
    result = cli("wait", gid, "--timeout", "5", "--interval", "1")
    assert result.exit_code == ExitCode.ERROR
    assert "still not your turn" in result.stderr
    assert fake.polls[0] == {"wait": "5", "since": "4"}


def test_wait_ends_when_the_game_ends(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Pass(0))
    fake.on_poll = lambda: fake.run(gid, mathable.Resign(1))
    result = cli("wait", gid)
    # Not 0 ("your turn"): `while mathable-cli wait GAME; do ...; done` stops at the end.
    assert result.exit_code == ExitCode.GAME_OVER
    assert "is over" in result.stderr and "alice wins" in result.stderr
    again = cli("wait", gid)  # at once, without waiting, whenever asked again
    assert again.exit_code == ExitCode.GAME_OVER


def test_wait_any_polls_the_game_list(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Pass(0))
    calls = []

    def later() -> None:
        calls.append(1)
        if len(calls) == 3:
            bob_plays(fake, gid)

    fake.on_poll = later
    result = cli("wait", "--any", "--interval", "2")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"{gid}\n"
    assert len(calls) == 4  # three polls, then one for what was played in the games found
    assert [p.get("details") for p in fake.polls] == [None, None, None, "true"]
    assert f"{gid}: bob played" in result.stderr


def test_wait_any_with_no_games_in_play_is_an_error(cli: Invoke, fake: FakeServer) -> None:
    result = cli("wait", "--any")
    assert result.exit_code == ExitCode.ERROR and "no game in play" in result.stderr


def test_wait_takes_a_game_or_any_not_both(cli: Invoke, fake: FakeServer) -> None:
    both = cli("wait", "g1", "--any")
    assert both.exit_code == ExitCode.USAGE and "not both" in both.stderr
    # No game: all of yours, as --any (here there are none in play, and it says so).
    alone = cli("wait")
    assert alone.exit_code == ExitCode.ERROR
    assert "you have no game in play to wait for" in alone.stderr


def test_wait_says_what_the_opponent_just_played(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Pass(0))

    def bob_plays() -> None:
        if fake.games[gid].state.turn.seat == 1:  # type: ignore[union-attr]
            fake.run(gid, mathable.Place(1, mathable.parse_square("H6"), 8))
            fake.run(gid, mathable.EndTurn(1))

    fake.on_poll = bob_plays
    result = cli("wait", gid)
    assert result.exit_code == 0, result.stderr
    assert "bob played H6=8 (8): 8 points." in result.stderr


# --- found in a new user's trial (the former test_newcomer.py): the server down ------------


def test_wait_keeps_trying_a_server_that_is_down_for_as_long_as_it_runs(
    cli: Invoke, http: responses.RequestsMock, no_waiting: list[float]
) -> None:
    # Longer than any count of tries: a restart, then the server answers again.
    for _ in range(12):
        http.get(f"{SERVER}/v1/games/gabcdefghij", body=requests.ConnectionError("refused"))
    http.get(
        f"{SERVER}/v1/games/gabcdefghij",
        status=404,
        json={"error": {"code": "game_not_found", "message": "there is no game"}},
    )
    result = cli("wait", "gabcdefghij")
    assert result.exit_code == ExitCode.ERROR and "there is no game" in result.stderr
    retries = [line for line in result.stderr.splitlines() if "trying again in" in line]
    assert len(retries) == len(no_waiting) == 12
    assert retries[-1].endswith("(attempt 13; trying for as long as this runs (Ctrl-C stops it))")
