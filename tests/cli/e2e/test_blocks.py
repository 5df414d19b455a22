"""The real ``mathable-cli`` against a real server: block, blocks, unblock, and open."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.players import Player
from tests.server.live import live_server

pytestmark = pytest.mark.e2e


def test_block_refuses_invitations_and_open_lets_anyone_join(tmp_path: Path) -> None:
    with live_server() as server:
        ann, ben, cat = (Player(server, n, tmp_path) for n in ("ann", "ben", "cat"))
        for player in (ann, ben, cat):
            player.register()
        assert "Blocked ben." in ann.run("block", "ben").stderr + ann.run("block", "ben").stdout
        assert ann.run("blocks").stdout.split()[:2] == ["ben", "blocked"]
        refused = ben.run("new", "--invite", "ann", expect=6)  # 403: refused
        assert "ann does not take your invitations" in refused.stderr
        ann.run("unblock", "ben")
        assert ann.run("blocks").stdout == ""
        game = ann.run("new", "--invite", "ben").stdout.strip()
        ben.run("decline", game)
        closed = cat.run("join", game, expect=6)
        assert "only its creator can open it" in closed.stderr
        ann.run("open", game, "--to-anyone")
        cat.run("join", game)
        assert ann.view(game)["status"] == "playing"
        assert game in ann.run("history", game).stdout + ann.run("export", game).stdout
