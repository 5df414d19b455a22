"""End to end: ``mathable-cli new --computer hard`` against a real server (issue 44): the
game starts at once with the server's computer in the other seat, which moves by itself."""

from __future__ import annotations

import time
from pathlib import Path

from tests.cli.players import Player


def test_new_with_the_computer_seats_it_and_it_moves(server: str, tmp_path: Path) -> None:
    ada = Player(server, "ada-cc", tmp_path)
    ada.register()
    made = ada.run("new", "--computer", "hard")
    game = made.stdout.strip()
    assert "computer (hard)" in made.stderr
    view = ada.view(game)
    assert view["status"] == "playing"
    assert [s["name"] for s in view["seats"]] == ["ada-cc", "computer-hard"]
    assert view["rated"] is False
    # Whoever begins, the computer's turn comes and goes by itself (``run`` plays it).
    if view["turn"]["seat"] == 0:
        ada.run("pass", game)
    deadline = time.monotonic() + 30
    while not ada.view(game)["your_turn"] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ada.view(game)["your_turn"]
    # A level the server does not have is refused (422 unknown_computer).
    refused = ada.run("new", "--computer", "grandmaster", expect=6)
    assert "grandmaster" in refused.stderr
