"""A whole simulated league season (two, in fact), printed as standings: 8 players in two
divisions of 4, every game played by real moves (each turn the placement that scores
most, one tile, then the turn ends; a pass when none fits) for ``--turns`` turns, then
the clock is moved past the round's close and the unfinished games are settled on the
score, as the organiser said in advance. The next season opens a week later with the
top two of the lower division up and the bottom two of the upper one down.

    .venv/bin/python bench/simulate_league.py
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server"), str(ROOT)]

from mathable.core.ruleset import ruleset  # noqa: E402
from mathable_server import Settings, create_app  # noqa: E402
from mathable_server.games.timesource import MovableTime  # noqa: E402
from mathable_server.tournaments.service import Spec  # noqa: E402

NAMES = ["ada", "bob", "cy", "dee", "eve", "fay", "gus", "hal"]


def turn(client: Any, games: Any, tokens: dict[str, str], game_id: str) -> bool:
    state = games.state(game_id)
    if state.status != "playing":
        return False
    seat = state.turn.seat
    player = state.seats[seat].player
    auth = {"Authorization": f"Bearer {tokens[player]}"}
    legal = ruleset(state.ruleset).legal_commands(state, seat)
    path = f"/v1/games/{game_id}/moves"
    if legal:
        best = dict(max(legal, key=lambda c: c["points"]))
        best.pop("points")
        answer = client.post(path, json={**best, "expected_version": state.version}, headers=auth)
        version = answer.get_json()["version"]
        client.post(path, json={"type": "end_turn", "expected_version": version}, headers=auth)
    else:
        client.post(path, json={"type": "pass", "expected_version": state.version}, headers=auth)
    return True


def season(client: Any, app: Any, tokens: dict[str, str], tid: str, turns: int) -> dict[str, Any]:
    services = app.extensions["mathable"]
    view = client.get(f"/v1/tournaments/{tid}").get_json()
    for game in view["rounds"][-1]:
        for _ in range(turns):
            if not turn(client, services.games, tokens, game["game_id"]):
                break
    return view


def show(view: dict[str, Any], number: int) -> None:
    print(f"Season {number} ({view['name']}):")
    division = None
    for line in view["standings"]:
        if line.get("division") != division:
            division = line.get("division")
            print(f"  Division {division + 1}")
        print(f"    {line['name']:<5} {line['points']:>4} points  SB {line['tiebreak']:>5}  "
              f"{line['played']} played")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=12, help="turns played in each game")
    opts = parser.parse_args()
    time = MovableTime()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Settings(database_url=f"sqlite:///{folder}/league.db"), time=time)
        client = app.test_client()
        tokens = {}
        for name in NAMES:
            body = client.post("/v1/players", json={"name": name}).get_json()
            tokens[body["id"]] = body["token"]
        service = app.extensions["mathable"].tournaments
        tid = service.create(None, Spec("Simulated league", "mathable", "league", clock=None,
                                        division_size=4, close_after_hours=30 * 24,
                                        season_break_hours=168, rated=False))  # fmt: skip
        for token in tokens.values():
            client.post(f"/v1/tournaments/{tid}/join", headers={"Authorization": f"Bearer {token}"})
        service.start(tid, None)
        for number in (1, 2):
            season(client, app, tokens, tid, opts.turns)
            time.advance(days=31)  # past the round's close: unfinished games on the score
            service.sweep()
            view = client.get(f"/v1/tournaments/{tid}").get_json()
            show(view, number)
            settled = sum(1 for g in view["rounds"][-1] if (g["result"] or {}).get("settled"))
            count = len(view["rounds"][-1])
            print(f"  ({count} games, {settled} settled on the score at the close)")
            time.advance(days=7)
            service.sweep()  # the next season opens
        view = client.get(f"/v1/tournaments/{tid}").get_json()
        print("Season 3 opens with divisions:",
              {n: s["division"] + 1 for n, s in ((s["name"], s) for s in view["standings"])})
        services = app.extensions["mathable"]
        services.follower.stop()
        services.held_polls.stop()
        services.store.engine.dispose()


if __name__ == "__main__":
    main()
