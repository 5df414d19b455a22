"""The tournament commands, run as a user runs them (the real executable) against a real
server: organise a round robin, join it, start it, see the standings, leave."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.players import Player


def test_a_round_robin_from_the_terminal(server: str, tmp_path: Path) -> None:
    ada, bob, cy = (Player(server, n, tmp_path) for n in ("tada", "tbob", "tcy"))
    for p in (ada, bob, cy):
        p.register()
    made = json.loads(ada.run("tournament-new", "Club night", "--clock", "7d", "--json").stdout)
    tid = made["id"]
    for p in (ada, bob, cy):
        said = p.run("tournament-join", tid).stdout + p.run("tournament-join", tid).stderr
        assert "Club night" in said
    listed = ada.run("tournaments", "--status", "open").stdout
    assert tid in listed and "Club night" in listed and "3/16" in listed
    refused = bob.run("tournament-start", tid, expect=6)  # refused by the server
    assert "organiser" in refused.stderr
    started = ada.run("tournament-start", tid).stdout
    assert "Round 1" in started and started.count("playing") == 3
    left = cy.run("tournament-leave", tid)
    assert "Club night" in left.stdout + left.stderr
    shown = json.loads(bob.run("tournament-show", tid, "--json").stdout)
    assert shown["left"] == ["tcy"]
    text = bob.run("tournament-show", tid).stdout
    cy_games = [line for line in text.splitlines() if "tcy" in line and " - " in line]
    assert len(cy_games) == 2 and not any("playing" in line for line in cy_games)
    # `tournament` still plays engines locally, as it always did.
    assert "--games" in ada.run("tournament", "--help").stdout
