"""What a first-time user tripped over: rules, refusals, retries, ids, looking as a guest."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import requests
import responses

import mathable
from mathable.core.rulebook import rules_markdown
from mathable_cli.exits import ExitCode
from mathable_cli.game import local_time
from tests.cli.conftest import SERVER, FakeServer, Invoke

LONG_IDS = ("gabcdefghij", "gabzzzzzzzz", "gqrstuvwxyz")


def _long_games(fake: FakeServer, count: int = 2) -> list[str]:
    """Games with ids as long as the server's, alice to play in each."""
    ids = []
    for long_id in LONG_IDS[:count]:
        gid = fake.new_game("p-alice", "p-bob")
        fake.games[long_id] = fake.games.pop(gid)
        ids.append(long_id)
    return ids


# --- rules -----------------------------------------------------------------------------


def test_rules_prints_the_rules_with_the_worked_example(cli: Invoke) -> None:
    result = cli("rules")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == rules_markdown()
    assert "## A worked example" in result.stdout and "## Placing a tile" in result.stdout
    assert "# The rules of Summy" in result.stdout  # both games, as docs/rules.md


def test_rules_of_one_game_print_that_games_part_alone(cli: Invoke) -> None:
    from mathable.games.summy.rulebook import rules_markdown as summy_rules

    summy = cli("rules", "summy")
    assert summy.exit_code == 0, summy.stderr
    assert summy.stdout == summy_rules()
    assert "`8x15=120` | 17" in summy.stdout and "`no_equations`" in summy.stdout
    mathable = cli("rules", "mathable")
    assert mathable.exit_code == 0 and "Summy" not in mathable.stdout
    assert mathable.stdout.startswith("# The rules of Mathable")
    unknown = cli("rules", "chess")
    assert unknown.exit_code != 0 and "no game called 'chess'" in unknown.stderr


# --- refusals that are not illegal moves ---------------------------------------------------


def test_an_unknown_invitee_is_a_refusal_not_an_illegal_move(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    http.post(
        f"{SERVER}/v1/games",
        status=422,
        json={"error": {"code": "unknown_player", "message": "there is no player named 'zed'"}},
    )
    result = cli("new", "--invite", "zed")
    assert result.exit_code == ExitCode.REFUSED == 6
    assert "there is no player named 'zed'" in result.stderr


def test_resigning_a_game_not_started_is_a_refusal(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", None)
    result = cli("resign", gid, "--yes")
    assert result.exit_code == ExitCode.REFUSED
    assert "[game_not_started]" in result.stderr


def test_an_illegal_placement_still_exits_3(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    assert cli("move", gid, "I8=9").exit_code == ExitCode.ILLEGAL_MOVE == 3


# --- the server down -----------------------------------------------------------------------


def test_an_unreachable_server_is_retried_briefly_and_said(
    cli: Invoke, http: responses.RequestsMock, no_waiting: list[float]
) -> None:
    http.get(f"{SERVER}/v1/games/gabcdefghij", body=requests.ConnectionError("refused"))
    result = cli("show", "gabcdefghij")
    assert result.exit_code == ExitCode.NETWORK
    retries = [line for line in result.stderr.splitlines() if "trying again in" in line]
    assert len(retries) == len(no_waiting) == 3
    assert retries[0].startswith(f"cannot connect to {SERVER}; trying again in")
    assert retries[0].endswith("(attempt 2 of 4)")
    assert sum(no_waiting) < 3.0  # a person is waiting: a short total


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


# --- looking at a game -----------------------------------------------------------------


def test_show_history_and_export_need_no_account(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    cli("move", gid, "I8=12", "J8=16")
    anonymous = {"MATHABLE_TOKEN": ""}
    shown = cli("show", gid, env=anonymous)
    assert shown.exit_code == 0, shown.stderr
    assert "12* 16*" in shown.stdout and "Your rack" not in shown.stdout
    history = cli("history", gid, env=anonymous)
    assert history.exit_code == 0, history.stderr
    assert "alice: I8=12 (12), J8=16 (16) = 28" in history.stdout
    assert cli("export", gid, env=anonymous).exit_code == 0
    # Without a game, there is nothing to guess from: say which.
    assert cli("show", env=anonymous).exit_code == ExitCode.USAGE


def test_export_is_the_same_whoever_exports_it(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    by_alice = cli("export", gid, "--table").stdout
    by_bob = cli("export", gid, "--table", env={"MATHABLE_TOKEN": "tok-bob"}).stdout
    assert by_alice == by_bob
    assert "Status: alice's turn" in by_alice and "your turn" not in by_alice
    assert "version" not in by_alice


def test_export_letters_stand_over_their_columns(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    cli("move", gid, "I8=12")
    text = cli("export", gid, "--table").stdout.splitlines()
    header = next(line for line in text if line.split() == list("ABCDEFGHIJKLMN"))
    row8 = next(line for line in text if line.startswith(" 8 "))
    assert header.index("I") == row8.index("12") + 1
    assert header.index("A") == row8.index("3x") + 1


def test_the_game_over_header_fits_80_columns_and_has_no_version(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Resign(0))
    shown = cli("show", gid).stdout.splitlines()
    assert shown[0] == f"Game {gid} | game over: bob wins"
    assert all(len(line) <= 80 for line in shown)
    assert "The game is over: all players but one resigned." in shown
    playing = cli("show", fake.new_game("p-alice", "p-bob")).stdout.splitlines()[0]
    assert "version" not in playing


def test_history_deductions_never_read_minus_zero(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    fake.run(gid, mathable.Resign(1))
    history = cli("history", gid).stdout
    line = next(x for x in history.splitlines() if x.startswith("Rack deductions:"))
    assert "-0" not in line and re.fullmatch(r"Rack deductions: alice -\d+, bob -\d+", line)


def test_history_times_are_local(cli: Invoke) -> None:
    stamp = "2026-03-01T09:15:00.000000Z"
    expected = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone()
    assert local_time(stamp) == expected.strftime("%Y-%m-%d %H:%M")
    assert local_time(None) == "" and local_time("yesterday") == ""


def test_flags_show_no_type_in_the_help(cli: Invoke) -> None:
    for command in (["wait"], ["move"], ["games"]):
        result = cli(*command, "--help")
        assert result.exit_code == 0
        assert "<bool>" not in result.stdout, command


# --- which game ------------------------------------------------------------------------


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


def test_every_exit_code_is_documented() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    documented = {int(n) for n in re.findall(r"^  \| (\d) \|", docs, re.MULTILINE)}
    assert documented == {int(code) for code in ExitCode}


def test_show_reads_the_last_turn_from_the_view_not_the_whole_log(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    cli("move", gid, "I8=12", "J8=16")
    cli("exchange", gid, "2", "8", env={"MATHABLE_TOKEN": "tok-bob"})
    before = len(fake.http.calls)
    shown = cli("show", gid)
    assert "Last turn: bob: exchanged 2 tiles" in shown.stdout
    calls = [c.request.url for c in fake.http.calls[before:]]
    # The game's view, and the seat's new messages: never the whole log.
    assert len(calls) == 2 and not any("/events" in c for c in calls)
    assert "/messages" in calls[1]


def test_every_command_module_is_known_to_the_lazy_loader() -> None:
    """Commands are loaded when used: a command missing from COMMANDS would be unreachable."""
    import importlib
    import pkgutil

    import typer

    import mathable_cli.commands
    from mathable_cli.app import COMMANDS

    for info in pkgutil.iter_modules(mathable_cli.commands.__path__):
        module = importlib.import_module(f"mathable_cli.commands.{info.name}")
        commands = typer.Typer()
        module.register(commands)
        group = typer.main.get_group(commands)
        for name in group.list_commands(typer.Context(group)):
            assert COMMANDS.get(name) == info.name, name
