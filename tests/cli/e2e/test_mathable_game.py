"""End to end: the real ``mathable-cli`` executable against a real server process.

Two identities play a complete game from a known bag order: one-shot moves for
alice, the interactive mode fed through stdin for bob, with an extra tile, an
exchange, a pass, a ``wait`` that wakes on the opponent's move, and the final
rack deductions. Then a bot plays a bot to the end. Scores are checked against
the server's own answers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import requests

import mathable
from tests.cli.conftest import bag_order
from tests.cli.players import Player

pytestmark = pytest.mark.e2e

ALICE_RACK = [12, 16, 3, 7, 40, 9, 5]
BOB_RACK = [2, 8, 6, 1, 4, 10, 11]
TILES = bag_order(*ALICE_RACK, *BOB_RACK, 45)


def _best(view: dict[str, Any]) -> list[mathable.Placement]:
    return list(mathable.best_turn(view["board"], view["rack"]).placements)


def _interactive_script(view: dict[str, Any], placements: list[mathable.Placement]) -> str:
    """Placements one a line, declining each extra tile offered, then ``done``."""
    lines = []
    for p in placements:
        lines.append(str(p))
        if mathable.OPERATION[mathable.parse_square(p.square)] and view["bag_size"] > 0:
            lines.append("n")
    return "\n".join(lines + ["done", ""])


def test_two_people_play_a_whole_game(server: str, tmp_path: Path) -> None:
    alice, bob = Player(server, "alice", tmp_path), Player(server, "bob", tmp_path)
    alice.register()
    bob.register()
    order = tmp_path / "bag.txt"
    order.write_text(",".join(map(str, TILES)))
    game = alice.run("new", "--tiles", f"@{order}", "--invite", "bob").stdout.strip()
    bob.run("join", game)
    assert alice.run("games").stdout.startswith(game)

    # Bob waits (long-poll) while alice plays a one-shot turn with an extra tile.
    waiting = bob.popen("wait", game)
    moved = alice.run("move", game, "I8=12", "J8=16", "--draw-extra")
    assert "drew 1 extra tile" in moved.stderr
    out, err = waiting.communicate(timeout=60)
    assert waiting.returncode == 0 and out.strip() == game, err
    assert sorted(alice.view(game)["rack"]) == sorted([3, 7, 40, 9, 5, 45, TILES[15]])

    # Bob exchanges, alice passes, bob plays interactively with a refusal explained.
    bob.run("exchange", game, "10", "11")
    alice.run("move", game, "I8=3", expect=3)  # square taken: refused locally, exit 3
    alice.run("pass", game)
    alice.run("pass", game, expect=4)  # not her turn any more
    # Staged placements reach the server only with `done`: a typo taken back costs nothing.
    session = bob.run("move", game, input="H5=6\nH6=8\nG6=4\nundo\nquit\n")
    assert "H5 is not next to two tiles" in session.stderr
    assert "H6=8 scores 8: 2 x 4." in session.stderr
    assert "Took back G6=4" in session.stderr
    assert "H6" not in bob.view(game)["board"]  # quit: nothing was sent
    session = bob.run("move", game, input="H6=8\nG6=4\nundo\ndone\n")
    assert "Staged, not sent: H6=8 (8): 8 points this turn." in session.stderr
    assert bob.view(game)["seats"][1]["score"] == 8
    assert "G6" not in bob.view(game)["board"]

    # Then to the end: alice one-shot, bob interactive, each playing the best turn.
    hint = json.loads(alice.run("hint", game, "--json").stdout)
    assert (
        hint["best_turn"]["total"]
        == mathable.best_turn(alice.view(game)["board"], alice.view(game)["rack"]).total
    )
    turns = 0
    while True:
        view = alice.view(game)
        if view["status"] == "ended":
            break
        me, player = (alice, "alice") if view["turn"]["seat"] == 0 else (bob, "bob")
        view = me.view(game)
        best = _best(view)
        if not best:
            if view["bag_size"] >= 1:
                me.run("exchange", game, str(max(view["rack"])))
            else:
                me.run("pass", game)
        elif player == "alice":
            me.run("move", game, *map(str, best))
        else:
            me.run("move", game, input=_interactive_script(view, best))
        turns += 1
        assert turns < 200
    assert turns >= 10  # a real game, not one cut short

    final = alice.view(game)
    result = final["result"]
    events = requests.get(
        f"{server}/v1/games/{game}/events",
        headers={"Authorization": f"Bearer {alice.token}"},
        timeout=30,
    ).json()["events"]
    kinds = {e["type"] for e in events}
    assert {"extra_tile_drawn", "tiles_exchanged", "passed", "game_ended"} <= kinds
    # Scores: every turn's points and bonus, less the tiles left on the rack.
    earned = [0, 0]
    for event in events:
        if event["type"] == "turn_ended":
            earned[event["seat"]] += event["points"] + event["bonus"]
    assert result["scores"] == [e - d for e, d in zip(earned, result["deductions"], strict=True)]
    assert [s["score"] for s in final["seats"]] == result["scores"]
    assert sum(result["deductions"]) > 0 or result["reason"] == "rack_emptied"

    # What the CLI tells matches the server.
    shown = json.loads(bob.run("show", game, "--json").stdout)
    assert shown["result"] == result
    history = alice.run("history", game).stdout
    names = ["alice", "bob"]
    assert (
        "Final scores: "
        + ", ".join(f"{n} {s}" for n, s in zip(names, result["scores"], strict=True))
        in history
    )
    assert (
        "Rack deductions: "
        + ", ".join(
            f"{n} {-d if d else 'none'}" for n, d in zip(names, result["deductions"], strict=True)
        )
        in history
    )
    # Every turn says when it was played (the server's event times, in local time).
    assert re.match(r"  1\. \d{4}-\d\d-\d\d \d\d:\d\d  alice: I8=12 \(12\)", history)
    table = alice.run("export", game, "--table").stdout
    assert table.startswith(f"Mathable game {game}") and "Final scores:" in table
    record = alice.run("export", game).stdout
    assert record.startswith('[Game "mathable"]') and f'[Id "{game}"]' in record
    # The record replays, with no server, to the server's final scores.
    saved = tmp_path / "game.txt"
    saved.write_text(record, encoding="utf-8")
    replayed = alice.run("import", str(saved)).stdout
    assert f"alice: {result['scores'][0]}\nbob: {result['scores'][1]}\n" in replayed
    assert "the tiles drawn follow the bag order committed to at its creation" in replayed
    # After the scripted opening (turns 1 to 4) both played the best turn the engine
    # finds: the review finds no point left there, and the opening's costs.
    reviewed = json.loads(bob.run("review", game, "--json").stdout)
    lost = {t["number"]: t["lost"] for t in reviewed["turns"]}
    assert len(lost) >= 10 and all(lost[n] == 0 for n in lost if n > 4)
    assert reviewed["total_lost"] == sum(lost[n] for n in (1, 2, 3, 4)) > 0
    board = alice.run("show", game).stdout
    assert "game over" in board
    # Nothing more to wait for: not 0, so `while mathable-cli wait GAME` stops.
    over = alice.run("wait", game, expect=7)
    assert over.stdout.strip() == game and "is over" in over.stderr
    # A guest (no account) may look at the game too.
    guest = Player(server, "guest", tmp_path)
    assert "game over" in guest.run("show", game).stdout
    archived = [
        json.loads(line) for line in guest.run("archive", "bob", "--json").stdout.splitlines()
    ]
    assert [(a["id"], a["players"]) for a in archived] == [(game, ["alice", "bob"])]
    assert archived[0]["record"] == record


def test_a_bot_plays_a_bot_to_the_end(server: str, tmp_path: Path) -> None:
    ann, ben = Player(server, "ann", tmp_path), Player(server, "ben", tmp_path)
    ann.register()
    ben.register()
    game = ann.run("new", "--seed", "7").stdout.strip()
    ben.run("join", game)
    bots = [
        ann.popen("bot", game, "--interval", "0.2"),
        ben.popen("bot", "--all", "--until-idle", "--interval", "0.2", "--max-interval", "0.5"),
    ]
    outputs = [b.communicate(timeout=240) for b in bots]
    for process, (_out, err) in zip(bots, outputs, strict=True):
        assert process.returncode == 0, err
        assert "Traceback" not in err
    final = ann.view(game)
    assert final["status"] == "ended"
    scores = final["result"]["scores"]
    line = f"{game}: ann {scores[0]}, ben {scores[1]}"
    assert outputs[0][0].startswith(line) and outputs[1][0].startswith(line)
    assert "played" in outputs[0][1] and "played" in outputs[1][1]
    # Every draw of the finished game checks out against the order it committed to.
    checked = ann.run("verify", game).stdout.strip()
    assert checked.startswith(f"{game}: all ") and checked.endswith(" draws check out")
    assert int(checked.split()[2]) > 10
