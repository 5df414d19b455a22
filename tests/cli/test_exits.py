"""Exit codes (``mathable_cli.exits``): each one documented, and a refusal (exit 6) told apart
from an illegal move (exit 3).

From what a first-time user tripped over (the former test_newcomer.py: "refusals that are not
illegal moves", and every exit code documented).
"""

from __future__ import annotations

import re
from pathlib import Path

import responses

from mathable_cli.exits import ExitCode
from tests.cli.conftest import SERVER, FakeServer, Invoke


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


def test_every_exit_code_is_documented() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    documented = {int(n) for n in re.findall(r"^  \| (\d) \|", docs, re.MULTILINE)}
    assert documented == {int(code) for code in ExitCode}
