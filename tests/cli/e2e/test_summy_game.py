"""End to end: Summy with the real ``mathable-cli`` against a real server process.

Two people create and join a Summy game, look at the table, take a hint and
play it in the typed notation (the first square may be negative), see a bad
play refused, discard; then a bot plays a bot to the end, and the final scores
are the equations' digits less the hands' digits.
"""

from __future__ import annotations

import json
from pathlib import Path

import requests

from tests.cli.players import Player


def _feed(player: Player, game: str) -> list[dict[str, object]]:
    reply = requests.get(
        f"{player.server}/v1/games/{game}/events",
        headers={"Authorization": f"Bearer {player.token}"},
        timeout=30,
    )
    reply.raise_for_status()
    events: list[dict[str, object]] = reply.json()["events"]
    return events


def test_summy_from_the_cli_and_a_bot_game_to_the_end(server: str, tmp_path: Path) -> None:
    ann, ben = Player(server, "ann", tmp_path), Player(server, "ben", tmp_path)
    ann.register()
    ben.register()
    game = ann.run("new", "--ruleset", "summy", "--invite", "ben", "--unrated").stdout.strip()
    ben.run("join", game)
    shown = ann.run("show", game).stdout
    assert " = " in shown.splitlines()[2] or "=" in shown  # the first = drawn on the table
    assert "Supply: 77 tiles" in shown

    view = ann.view(game)
    first, other = (ann, ben) if view["turn"]["seat"] == 0 else (ben, ann)
    # A play with a tile the hand lacks: the refusal names the tile (issue 26), exit 3.
    missing = next(d for d in "0123456789" if d not in first.view(game)["hand"])
    lacking = first.run("move", game, "-3,0", "across", f"{missing}+{missing}={missing}", expect=3)
    assert f"no {missing}" in lacking.stderr and "in your hand" in lacking.stderr
    # A play that names no direction is a usage error (exit 2), nothing sent.
    first.run("move", game, "-3,0", "1+2=3", expect=2)
    assert first.view(game)["version"] == view["version"]
    hint = json.loads(first.run("hint", game, "--json").stdout)
    if hint is not None:
        words = hint["words"].rsplit(" (", 1)[0].split()
        other.run("move", game, *words, expect=4)  # not ben's turn: refused, exit 4
        first.run("move", game, "5,5", "across", "1+1=2", expect=3)  # no table tile: exit 3
        played = first.run("move", game, *words)
        assert "Played" in played.stderr
        assert first.view(game)["last_play"]["equation"] == words[2]
    else:
        first.run("discard", game, first.view(game)["hand"][0])
    assert other.view(game)["turn"]["seat"] == other.view(game)["you"]

    bots = [
        ann.popen("bot", game, "--interval", "0.2"),
        ben.popen("bot", game, "--interval", "0.2"),
    ]
    outputs = [b.communicate(timeout=240) for b in bots]
    for process, (_out, err) in zip(bots, outputs, strict=True):
        assert process.returncode == 0, err
        assert "Traceback" not in err
    final = ann.view(game)
    assert final["status"] == "ended"
    result = final["result"]
    earned = [0, 0]
    for event in _feed(ann, game):
        if event["type"] == "equation_played":
            earned[int(event["seat"])] += int(event["points"])  # type: ignore[call-overload]
    assert result["scores"] == [e - d for e, d in zip(earned, result["deductions"], strict=True)]
    assert "game over" in ann.run("show", game).stdout
