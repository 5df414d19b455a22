"""Which game a command means (``mathable_cli.resolve``): a unique start of an id is enough,
and a command without a game takes the only one waiting on you, or says which.

From new users' trials: "which game" of what a first-time user tripped over (the former
test_newcomer.py), and ``hint`` without a game from the trial of issue 27's features (the
former test_trial_findings.py).
"""

from __future__ import annotations

import json

import mathable
from mathable_cli.exits import ExitCode
from tests.cli.conftest import FakeServer, Invoke

LONG_IDS = ("gabcdefghij", "gabzzzzzzzz", "gqrstuvwxyz")


def _long_games(fake: FakeServer, count: int = 2) -> list[str]:
    """Games with ids as long as the server's, alice to play in each."""
    ids = []
    for long_id in LONG_IDS[:count]:
        gid = fake.new_game("p-alice", "p-bob")
        fake.games[long_id] = fake.games.pop(gid)
        ids.append(long_id)
    return ids


def test_a_unique_start_of_an_id_is_enough(cli: Invoke, fake: FakeServer) -> None:
    first, second = _long_games(fake)
    result = cli("show", "gabc")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"Game {first} |")
    assert f"Game {first}." in result.stderr  # it says which game it took
    both = cli("show", "gab")
    assert both.exit_code == ExitCode.USAGE
    assert f"'gab' begins 2 of your games: {first}, {second}" in both.stderr


def test_every_command_naming_a_game_takes_a_unique_start_of_its_id(
    cli: Invoke, fake: FakeServer
) -> None:
    first, _ = _long_games(fake)
    hint = cli("hint", "gabc", "--json")
    assert hint.exit_code == 0, hint.stderr
    assert hint.stdout == cli("hint", first, "--json").stdout
    invited = fake.new_game("p-bob", None)
    fake.games["gxyzinvited"] = fake.games.pop(invited)
    fake.invitations["gxyzinvited"] = "p-alice"
    joined = cli("join", "gxyz")
    assert joined.exit_code == 0, joined.stderr
    assert "You sit in seat 1 of game gxyzinvited" in joined.stderr
    assert fake.games["gxyzinvited"].state.seat_of("p-alice") == 1


def test_a_command_without_a_game_takes_the_only_one_waiting_on_you(
    cli: Invoke, fake: FakeServer
) -> None:
    (gid,) = _long_games(fake, 1)
    other = fake.new_game("p-alice", "p-bob")
    fake.run(other, mathable.Pass(0))  # bob's turn there: not waiting on alice
    played = cli("move", "I8=12", "J8=16")
    assert played.exit_code == 0, played.stderr
    assert f"Game {gid}, the only one waiting on you." in played.stderr
    assert fake.games[gid].state.seats[0].score == 28
    # Now none waits on alice: say which game.
    none = cli("show")
    assert none.exit_code == ExitCode.USAGE and "no game waits on you" in none.stderr


def test_several_games_waiting_means_say_which(cli: Invoke, fake: FakeServer) -> None:
    first, second = _long_games(fake)
    result = cli("pass")
    assert result.exit_code == ExitCode.USAGE
    assert f"2 games wait on you: {first}, {second}" in result.stderr
    assert json.loads(cli("games", "--json").stdout)["games"][0]["your_turn"] is True


def test_hint_without_a_game_takes_the_only_one_waiting_on_you(
    cli: Invoke, fake: FakeServer
) -> None:
    (only,) = _long_games(fake, 1)
    result = cli("hint", "--json")
    assert result.exit_code == 0, result.stderr
    assert f"Game {only}, the only one waiting on you." in result.stderr
    assert result.stdout == cli("hint", only, "--json").stdout
