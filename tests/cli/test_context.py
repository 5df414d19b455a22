"""A profile named with ``-p`` or ``MATHABLE_PROFILE`` must exist: every command but those
that make, manage or need no profile refuses one the config file lacks, before any request."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import responses

from mathable_cli.app import COMMANDS
from mathable_cli.context import RUN_WITHOUT_PROFILE
from mathable_cli.exits import ExitCode
from tests.cli.conftest import FakeServer, Invoke
from tests.cli.players import cli_command

#: Each command with arguments enough to get past its own checks of the command line.
ARGUMENTS: dict[str, list[str]] = {
    "logout": ["logout"],
    "whoami": ["whoami"],
    "token": ["token", "rotate"],
    "new": ["new"],
    "join": ["join", "g1"],
    "decline": ["decline", "g1"],
    "games": ["games"],
    "show": ["show", "g1"],
    "history": ["history", "g1"],
    "export": ["export", "g1"],
    "review": ["review", "g1"],
    "archive": ["archive", "bob"],
    "move": ["move", "g1", "I8=12"],
    "exchange": ["exchange", "g1", "3"],
    "discard": ["discard", "g1", "x"],
    "pass": ["pass", "g1"],
    "correct": ["correct", "g1"],
    "resign": ["resign", "g1", "--yes"],
    "wait": ["wait", "g1"],
    "vacation": ["vacation", "7"],
    "claim": ["claim", "g1"],
    "give-time": ["give-time", "g1", "1", "1d"],
    "hint": ["hint", "g1"],
    "bot": ["bot", "g1"],
    "verify": ["verify", "g1"],
    "open": ["open", "g1"],
    "block": ["block", "bob"],
    "unblock": ["unblock", "bob"],
    "blocks": ["blocks"],
    "email": ["email", "show"],
    "notify": ["notify"],
    "say": ["say", "g1", "hi"],
    "messages": ["messages", "g1"],
    "mute": ["mute", "g1"],
    "unmute": ["unmute", "g1"],
    "rematch": ["rematch", "g1"],
    "nudge": ["nudge", "g1"],
    "time-zone": ["time-zone"],
    "language": ["language"],
    "record": ["record"],
    "leaderboard": ["leaderboard"],
}


def test_every_command_that_needs_a_profile_is_checked_here() -> None:
    assert set(ARGUMENTS) == set(COMMANDS) - RUN_WITHOUT_PROFILE


@pytest.mark.parametrize("command", sorted(ARGUMENTS))
def test_an_unknown_profile_is_refused_before_any_request(
    cli: Invoke, http: responses.RequestsMock, command: str
) -> None:
    result = cli("-p", "nosuchprofile", *ARGUMENTS[command])
    assert result.exit_code == ExitCode.USAGE, (result.stdout, result.stderr)
    assert "error: there is no profile 'nosuchprofile'" in result.stderr
    assert "the profiles are: none yet" in result.stderr
    assert result.stdout == ""
    assert not http.calls


def test_the_environment_names_a_profile_as_the_flag_does(cli: Invoke, fake: FakeServer) -> None:
    cli("register", "ann", env={"MATHABLE_TOKEN": ""})
    gid = fake.new_game("p-alice", "p-bob")
    refused = cli("show", gid, env={"MATHABLE_PROFILE": "nosuchprofile"})
    assert refused.exit_code == ExitCode.USAGE
    assert "there is no profile 'nosuchprofile'" in refused.stderr
    assert "the profiles are: ann" in refused.stderr
    # A profile that exists is used, even by a spectator's command.
    assert cli("-p", "ann", "show", gid).exit_code == 0


def test_a_token_does_not_excuse_an_unknown_profile(cli: Invoke, fake: FakeServer) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    result = cli("-p", "nosuchprofile", "--token", "tok-alice", "hint", gid)
    assert result.exit_code == ExitCode.USAGE and "no profile 'nosuchprofile'" in result.stderr


def test_without_a_config_file_the_default_profile_needs_no_existing(
    cli: Invoke, fake: FakeServer
) -> None:
    gid = fake.new_game("p-alice", "p-bob")
    shown = cli("show", gid, env={"MATHABLE_TOKEN": ""})
    assert shown.exit_code == 0, shown.stderr
    assert shown.stdout.startswith(f"Game {gid} |")


def test_commands_that_make_manage_or_need_no_profile_run_with_any(
    cli: Invoke, fake: FakeServer
) -> None:
    assert cli("-p", "nosuchprofile", "rules", "summy").exit_code == 0
    listed = cli("-p", "nosuchprofile", "profile", "list")
    assert listed.exit_code == 0 and "No profiles yet" in listed.stderr
    made = cli("-p", "second", "register", "carol", env={"MATHABLE_TOKEN": ""})
    assert made.exit_code == 0, made.stderr
    assert cli("-p", "second", "whoami", env={"MATHABLE_TOKEN": ""}).exit_code == 0
    logged = cli("-p", "third", "login", input="tok-bob\n", env={"MATHABLE_TOKEN": ""})
    assert logged.exit_code == 0, logged.stderr


def test_the_real_executable_refuses_an_unknown_profile(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MATHABLE_")}
    # Nothing listens on the discard port: a request would fail with exit 5, not 2.
    env |= {"MATHABLE_SERVER": "http://127.0.0.1:9", "MATHABLE_CONFIG_DIR": str(tmp_path)}
    done = subprocess.run(
        [*cli_command(), "-p", "nosuchprofile", "show", "g1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == ExitCode.USAGE, (done.stdout, done.stderr)
    assert "error: there is no profile 'nosuchprofile'" in done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
