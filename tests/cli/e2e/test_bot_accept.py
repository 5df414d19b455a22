"""``mathable-cli bot --all --accept``: the real executable against a real server.

The bot joins the invitations its filters take (from whom, which ruleset, at
most N games at once), plays them to the end, and leaves the others open.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.cli.players import Player
from tests.server.helpers import example_tiles
from tests.server.live import live_server

pytestmark = pytest.mark.e2e


def invite(player: Player, invitee: str, options: dict[str, Any]) -> str:
    created = requests.post(
        f"{player.server}/v1/games",
        json={**options, "invite": [invitee]},
        headers={"Authorization": f"Bearer {player.token}"},
        timeout=30,
    )
    assert created.status_code == 201, created.text
    game_id: str = created.json()["id"]
    return game_id


def test_bot_accepts_only_the_invitations_its_filters_take_one_game_at_a_time(
    tmp_path: Path,
) -> None:
    with live_server() as url:
        robot, ann, ben, cid = (Player(url, n, tmp_path) for n in ("robot", "ann", "ben", "cid"))
        for player in (robot, ann, ben, cid):
            player.register()
        taken = [invite(ann, "robot", {"tiles": example_tiles(n)}) for n in (1, 2)]
        from_ben = invite(ben, "robot", {"tiles": example_tiles(3)})  # not from ann or cid
        summy = invite(cid, "robot", {"ruleset": "summy"})  # from cid, but not Mathable
        ann_bot = ann.popen("bot", "--all", "--until-idle", "--interval", "0.2",
                            "--max-interval", "0.5")  # fmt: skip
        robot_bot = robot.popen(
            "bot", "--all", "--accept", "--from", "ann", "--from", "cid", "--ruleset", "mathable",
            "--max-games", "1", "--until-idle", "--interval", "0.2", "--max-interval", "0.5",
        )  # fmt: skip
        try:
            out, err = robot_bot.communicate(timeout=120)
            _ann_out, ann_err = ann_bot.communicate(timeout=60)
        finally:
            for process in (robot_bot, ann_bot):
                if process.poll() is None:
                    process.kill()
        assert robot_bot.returncode == 0, err
        assert ann_bot.returncode == 0, ann_err
        for game in taken:
            assert ann.view(game)["status"] == "ended"
            assert ann.view(game)["seats"][1]["name"] == "robot"
        for game in (from_ben, summy):
            left = robot.view(game)
            assert left["status"] == "waiting" and left["you"] is None
        # At most one game at once: the second accepted only after the first ended.
        accepted = re.findall(r"(g\w+): accepted the invitation", err)
        assert sorted(accepted) == sorted(taken)
        first, second = accepted
        ended = [e for e in events(url, first) if e["type"] == "game_ended"]
        joined = [e for e in events(url, second) if e["type"] == "player_joined"]
        assert len(ended) == 1 and len(joined) == 1
        assert joined[0]["at"] >= ended[0]["at"]


def events(url: str, game: str) -> list[dict[str, Any]]:
    answer = requests.get(f"{url}/v1/games/{game}/events", timeout=30)
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["events"]
    return found


def test_accept_goes_with_all(tmp_path: Path) -> None:
    with live_server() as url:
        robot = Player(url, "rob", tmp_path)
        robot.register()
        robot.run("bot", "g1", "--accept", expect=2)
        robot.run("bot", "--all", "--from", "ann", expect=2)


def test_the_from_filter_takes_a_name_in_any_case() -> None:
    """Names are one in any case on the server: ``--from Ann`` takes ann's invitation."""
    from mathable_cli.commands.bots import Acceptance

    entry = {"ruleset": "mathable", "seats": [{"seat": 0, "name": "ann"}, {"seat": 1}]}
    assert Acceptance(frozenset({"Ann"})).takes(entry)
    assert not Acceptance(frozenset({"ben"})).takes(entry)
    assert not Acceptance(frozenset({"ann"})).takes({"seats": [{"seat": 1, "name": "x"}]})
