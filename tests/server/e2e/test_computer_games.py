"""Whole games against the computer over HTTP (issue 44): a person plays each level of
both rulesets on a live ``mathable-server run``, which plays the computer's turns in a
worker of its own; the computer answers each move within its delay."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import requests

from tests.server.computer_play import Human, play_whole_game
from tests.server.live import live_server

DELAY = 0.5
BUDGET_MS = 3000
#: What a turn of the computer may take beyond its delay here: its thinking (bounded by
#: the budget) and a machine shared by many test runs.
SLACK = BUDGET_MS / 1000 + 2.0
LEVELS = ("easy", "medium", "hard", "expert")


def test_a_person_plays_whole_games_against_every_level_of_both_games() -> None:
    env = {"MATHABLE_COMPUTER_DELAY": str(DELAY), "MATHABLE_COMPUTER_BUDGET_MS": str(BUDGET_MS)}
    with live_server(env=env) as base:
        listed = requests.get(f"{base}/v1/computers", timeout=30).json()["computers"]
        assert [c["level"] for c in listed] == list(LEVELS)
        assert all(set(c["rulesets"]) >= {"mathable", "summy"} for c in listed)
        names = {c["level"]: c["name"] for c in listed}
        tables = []
        for ruleset in ("mathable", "summy"):
            for level in LEVELS:
                human = Human.register(base, f"{ruleset[:4]}-{level}")
                game = human.new_game(ruleset=ruleset, computer=level)
                # Seated at once: the game starts with the computer in the other seat.
                assert game["status"] == "playing"
                assert [s["name"] for s in game["seats"]].count(names[level]) == 1
                assert game["rated"] is False
                tables.append((human, game["id"], level))
        with ThreadPoolExecutor(len(tables)) as pool:
            played = list(pool.map(lambda t: play_whole_game(t[0], t[1]), tables))
        # A message to the computer is taken and answered by nothing; the game's record,
        # review and rematch work as for any game (the rematch seats the computer at once).
        human, game_id, _level = tables[0]
        said = human.session.post(f"{base}/v1/games/{game_id}/messages",
                                  json={"text": "good game"}, timeout=30)  # fmt: skip
        assert said.status_code == 201, said.text
        time.sleep(DELAY * 3)
        messages = human.session.get(f"{base}/v1/games/{game_id}/messages", timeout=30).json()
        assert [m["text"] for m in messages["messages"]] == ["good game"]
        record = human.session.get(f"{base}/v1/games/{game_id}/record", timeout=30)
        assert record.status_code == 200 and "computer-easy" in record.text
        rematch = human.session.post(f"{base}/v1/games/{game_id}/rematch", timeout=30)
        assert rematch.status_code == 201, rematch.text
        again = human.view(rematch.json()["id"])
        assert again["status"] == "playing" and again["ruleset"] == "mathable"
    for (_human, _game, level), result in zip(tables, played, strict=True):
        assert result.view["status"] == "ended", (level, result.view["status"])
        assert len(result.waits) >= 3, level  # whole games: the computer answered often
        assert max(result.waits) < DELAY + SLACK, (level, max(result.waits))
