"""The real ``mathable-cli nudge`` against a real server: a nudge before the turn has
lasted a day is refused (exit 6, ``too_early``), and so is one on your own turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.players import Player
from tests.server.live import live_server

pytestmark = pytest.mark.e2e


def test_a_nudge_too_early_is_refused(tmp_path: Path) -> None:
    with live_server() as server:
        ann, ben = (Player(server, n, tmp_path) for n in ("ann", "ben"))
        for player in (ann, ben):
            player.register()
        game = ann.run("new", "--invite", "ben").stdout.strip()
        ben.run("join", game)
        # Whoever is to move (the seats are drawn): the other one nudges too early.
        mover, waiter = (ben, ann) if "nobody to nudge" in ben.run(
            "nudge", game, expect=6).stderr else (ann, ben)  # fmt: skip
        early = waiter.run("nudge", game, expect=6)
        assert "a nudge waits until the turn has lasted 24 hours" in early.stderr
        assert "[too_early]" in early.stderr
        own = mover.run("nudge", game, expect=6)
        assert "it is your turn: nobody to nudge" in own.stderr
