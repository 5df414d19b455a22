"""The real ``mathable-cli`` against a real server: token rotate, logout --everywhere, decline,
and verify refusing a game that has not ended."""

from __future__ import annotations

from pathlib import Path

import pytest
import requests

from tests.cli.players import Player
from tests.server.live import live_server

pytestmark = pytest.mark.e2e


def _status(server: str, token: str) -> int:
    auth = {"Authorization": f"Bearer {token}"}
    return requests.get(f"{server}/v1/me", headers=auth, timeout=30).status_code


def test_token_rotate_logout_everywhere_decline_and_verify(tmp_path: Path) -> None:
    with live_server() as server:
        ann, ben = Player(server, "ann", tmp_path), Player(server, "ben", tmp_path)
        ann.register()
        ben.register()

        old = ann.token
        new = ann.run("token", "rotate").stdout.strip()
        assert new != old and _status(server, old) == 401 and _status(server, new) == 200
        ann.token = new
        assert ann.run("whoami").stdout.startswith("ann ")  # the profile holds the new one

        game = ann.run("new", "--invite", "ben").stdout.strip()
        ben.run("decline", game)
        assert ann.view(game)["invited"] == []
        ann.run("decline", game)  # the creator calls it off
        assert ann.view(game)["status"] == "cancelled"

        refused = ann.run("verify", game, expect=1)
        assert "ended" in refused.stderr

        ben.run("logout", "--everywhere")
        assert _status(server, ben.token) == 401
        gone = ben.run("whoami", expect=1)  # no token left in the profile
        assert "not logged in" in gone.stderr
