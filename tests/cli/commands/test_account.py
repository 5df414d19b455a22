"""Profiles, ``register``, ``login``, ``logout``, ``whoami``: the account commands (settings
and the config file: tests/cli/test_config.py)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import responses

from mathable_cli.exits import ExitCode
from tests.cli.conftest import SERVER, FakeServer, Invoke, requests_to


def test_register_saves_a_private_profile_named_after_the_player(
    cli: Invoke, fake: FakeServer, tmp_path: Path
) -> None:
    result = cli("register", "carol", env={"MATHABLE_TOKEN": ""})
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == "tok-carol"  # shown once, on stdout
    path = tmp_path / "config" / "config.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    data = json.loads(path.read_text())
    assert data["current"] == "carol"
    assert data["profiles"]["carol"] == {
        "server": SERVER,
        "token": "tok-carol",
        "name": "carol",
        "id": "p-carol",
    }


def test_register_refuses_to_overwrite_a_profile_with_a_token(
    cli: Invoke, fake: FakeServer
) -> None:
    assert cli("register", "carol").exit_code == 0
    again = cli("register", "carol")
    assert again.exit_code == ExitCode.USAGE
    assert "--force" in again.stderr


def test_profiles_serve_several_identities(cli: Invoke, fake: FakeServer) -> None:
    cli("register", "carol", env={"MATHABLE_TOKEN": ""})
    cli("register", "dave", env={"MATHABLE_TOKEN": ""})
    listed = cli("profile", "list", "--json")
    data = json.loads(listed.stdout)
    assert data["current"] == "dave" and set(data["profiles"]) == {"carol", "dave"}
    assert "token" not in data["profiles"]["carol"]  # never printed again
    # The environment token would win; without it the profile's token is used.
    who = cli("--profile", "carol", "whoami", env={"MATHABLE_TOKEN": ""})
    assert who.exit_code == 0, who.stderr
    assert who.stdout.startswith("carol (id p-carol)")
    assert cli("profile", "use", "carol").exit_code == 0
    assert json.loads(cli("profile", "list", "--json").stdout)["current"] == "carol"
    assert cli("profile", "use", "nobody").exit_code == ExitCode.USAGE
    assert cli("profile", "remove", "dave").exit_code == 0
    plain = cli("profile", "list")
    assert plain.stdout.splitlines()[1] == "*  carol    carol   http://mathable.test  logged in"


def test_profile_list_columns_line_up(cli: Invoke, fake: FakeServer) -> None:
    cli("register", "al", env={"MATHABLE_TOKEN": ""})
    cli("-p", "second", "register", "bartholomew", env={"MATHABLE_TOKEN": ""})
    cli("-p", "second", "logout", env={"MATHABLE_TOKEN": ""})
    heading, *rows = cli("profile", "list").stdout.splitlines()
    assert heading.split() == ["PROFILE", "PLAYER", "SERVER"]
    for column in ("PLAYER", "SERVER"):
        start = heading.index(column)
        for row in rows:
            assert row[start - 2 : start] == "  " and row[start] != " ", (column, row)
    assert rows[1].split()[:2] == ["*", "second"] and rows[1].endswith("logged out")


def test_register_says_it_switched_the_current_profile(cli: Invoke, fake: FakeServer) -> None:
    first = cli("register", "carol", env={"MATHABLE_TOKEN": ""})
    assert "now the current one" not in first.stderr  # nothing to switch from
    second = cli("register", "dave", env={"MATHABLE_TOKEN": ""})
    assert "Profile 'dave' is now the current one, instead of 'carol'" in second.stderr
    assert "profile use carol" in second.stderr


def test_an_unknown_profile_is_named_as_such(cli: Invoke, fake: FakeServer) -> None:
    cli("register", "ann", env={"MATHABLE_TOKEN": ""})
    result = cli("-p", "carol", "games", env={"MATHABLE_TOKEN": ""})
    assert result.exit_code == ExitCode.USAGE
    assert "there is no profile 'carol'" in result.stderr
    assert "not logged in" not in result.stderr
    assert "the profiles are: ann" in result.stderr
    # A profile known but logged out is still "not logged in".
    cli("logout", env={"MATHABLE_TOKEN": ""})
    out = cli("-p", "ann", "games", env={"MATHABLE_TOKEN": ""})
    assert out.exit_code == ExitCode.ERROR and "you are not logged in" in out.stderr


def test_login_checks_the_token_and_stores_it(cli: Invoke, fake: FakeServer) -> None:
    result = cli("login", input="tok-bob\n", env={"MATHABLE_TOKEN": ""})
    assert result.exit_code == 0, result.stderr
    assert "Logged in as bob" in result.stderr
    who = cli("whoami", env={"MATHABLE_TOKEN": ""})
    assert who.stdout.startswith("bob (id p-bob)")
    assert "token from profile bob" in who.stdout
    assert cli("logout").exit_code == 0
    after = cli("whoami", env={"MATHABLE_TOKEN": ""})
    assert after.exit_code == ExitCode.ERROR
    assert "not logged in" in after.stderr and "mathable-cli login" in after.stderr


def test_login_with_a_bad_token_stores_nothing(
    cli: Invoke, fake: FakeServer, tmp_path: Path
) -> None:
    result = cli("--token", "wrong", "login")
    assert result.exit_code == ExitCode.ERROR
    assert "[unauthorized]" in result.stderr
    assert not (tmp_path / "config" / "config.json").exists()


def test_no_token_for_a_command_that_needs_one(cli: Invoke, http: responses.RequestsMock) -> None:
    result = cli("games", env={"MATHABLE_TOKEN": ""})
    assert result.exit_code == ExitCode.ERROR
    assert "register" in result.stderr
    assert len(http.calls) == 0


def test_register_bot_says_the_account_is_a_bot(cli: Invoke, fake: FakeServer) -> None:
    assert cli("register", "robo", "--bot", env={"MATHABLE_TOKEN": ""}).exit_code == 0
    sent = [json.loads(r.body) for r in requests_to(fake.http, "POST", "/v1/players")]
    assert sent == [{"name": "robo", "bot": True}]


# --- found in a new user's trial of issue 27's features (the former test_trial_findings.py):
# the words and exit codes of a refused name, a refused field ---------------------------


def _refuse(
    http: responses.RequestsMock, method: str, path: str, status: int, **error: object
) -> None:
    http.add(method, f"{SERVER}{path}", status=status, json={"error": error})


def test_a_look_alike_name_is_refused_like_a_taken_one_with_no_word_of_games(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    for code in ("name_confusable", "name_taken"):
        http.reset()
        _refuse(http, "POST", "/v1/players", 409, code=code, message="choose another name")
        result = cli("register", "bobO", env={"MATHABLE_TOKEN": ""})
        assert result.exit_code == ExitCode.REFUSED, (code, result.output)
        assert f"choose another name [{code}]" in result.stderr
        assert "show GAME" not in result.stderr  # the hint of a game that moved on


def test_a_refused_field_is_named_with_the_server_s_reason(
    cli: Invoke, http: responses.RequestsMock
) -> None:
    _refuse(
        http, "POST", "/v1/players", 400, code="validation_error",
        message="the request has invalid fields",
        fields={"name": ["String does not match expected pattern."]},
    )  # fmt: skip
    result = cli("register", "ann ", env={"MATHABLE_TOKEN": ""})
    assert "invalid fields: name: String does not match expected pattern." in result.stderr
