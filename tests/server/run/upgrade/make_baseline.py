"""Make ``baseline.json``: a database written by the server as it was before migrations.

Run once, by the code of ``main`` at af924e6 (the schema Alembic's baseline revision
describes), and kept: ``test_upgrade.py`` loads these rows into a schema made the way
that code made it and upgrades them. Do not run it again on a later schema; a later
fixture would be a new file made by its own revision.

    python -m tests.server.run.upgrade.make_baseline tests/server/run/upgrade/baseline.json

It plays games in every state a game can be in through the HTTP API, then writes
every row of every table, each player's token (test data only), and what each
seat and a spectator saw of every game.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from sqlalchemy import select

import mathable
from mathable_server import Settings, create_app
from mathable_server.store.engine import metadata
from tests.server.helpers import EXAMPLE_TILES, Account, bag_order, move, new_game, register

#: 4 + 3 is not 13: a placement only players as referee let through, for a correction.
WRONG_CLAIM = [{"near": "H8", "far": "G8", "op": "+"}]


class Game:
    def __init__(self, client: FlaskClient, game_id: str, by_seat: list[Account]) -> None:
        self.client, self.id, self.by_seat = client, game_id, by_seat

    def view(self, who: Account | None = None) -> dict[str, Any]:
        headers = who.auth if who else {}
        response = self.client.get(f"/v1/games/{self.id}", headers=headers)
        assert response.status_code == 200, response.json
        body: dict[str, Any] = response.json  # type: ignore[assignment]
        return body

    def send(self, who: Account, **command: Any) -> dict[str, Any]:
        version = self.view(who)["version"]
        response = move(self.client, who, self.id, version, **command)
        assert response.status_code == 200, (command, response.json)
        body: dict[str, Any] = response.json  # type: ignore[assignment]
        return body

    def to_move(self) -> Account:
        view = self.view()
        return self.by_seat[view["turn"]["seat"]]

    def best(self, turns: int | None = None) -> None:
        """Play best turns (exchanging, then passing, when nothing fits) for ``turns`` turns."""
        played = 0
        while self.view()["status"] == "playing" and (turns is None or played < turns):
            who = self.to_move()
            view = self.view(who)
            best = mathable.best_turn(view["board"], view["rack"], node_limit=2000)
            if best.placements:
                placements = [{"square": p.square, "tile": p.tile} for p in best.placements]
                self.send(who, type="turn", placements=placements)
            elif view["bag_size"] >= 1:
                self.send(who, type="exchange", tiles=view["rack"][:1])
            else:
                self.send(who, type="pass")
            played += 1


def play_all(client: FlaskClient) -> tuple[list[Account], list[Game]]:
    ada, bob, cid, dan = (register(client, n) for n in ("ada", "bob", "cid", "dan"))
    register(client, "eve")  # an account with no games
    found: list[Game] = []

    def started(seats: list[Account], **options: Any) -> Game:
        game = new_game(client, seats[0], players=len(seats), **options)
        for who in seats[1:]:
            response = client.post(f"/v1/games/{game['id']}/join", headers=who.auth)
            assert response.status_code == 200, response.json
        made = Game(client, game["id"], seats)
        found.append(made)
        return made

    # Waiting for players: an invitation not taken up, and a 3-seat game with a seat free.
    invite = new_game(client, ada, players=2, invite=["cid"])
    found.append(Game(client, invite["id"], [ada]))
    open_game = new_game(client, bob, players=3)
    client.post(f"/v1/games/{open_game['id']}/join", headers=dan.auth)
    found.append(Game(client, open_game["id"], [bob, dan]))

    # The worked example, stopped after player 1's turn with the extra tile (server referee).
    example = started([ada, bob], tiles=EXAMPLE_TILES)
    for square, tile in (("I8", 12), ("H6", 8), ("G9", 2), ("F7", 1), ("J8", 16)):
        example.send(ada, type="place", square=square, tile=tile)
    example.send(ada, type="draw_extra")
    example.send(ada, type="end_turn")

    # Mid-game with an exchange and a pass, random bag.
    middle = started([bob, cid])
    middle.best(turns=4)
    middle.send(middle.to_move(), type="exchange", tiles=middle.view(middle.to_move())["rack"][:2])
    middle.send(middle.to_move(), type="pass")
    middle.best(turns=2)

    # Players as referee: a wrong placement waits for a correction.
    players_mode = started([cid, dan], referee="players", tiles=bag_order(13, 2, 3, 4, 5, 6, 7))
    players_mode.send(cid, type="place", square="I8", tile=13, equations=WRONG_CLAIM)
    players_mode.send(cid, type="end_turn")

    # A corrected turn, then play on.
    corrected = started([ada, dan], referee="players", tiles=bag_order(13, 2, 3, 4, 5, 6, 7))
    corrected.send(ada, type="place", square="I8", tile=13, equations=WRONG_CLAIM)
    corrected.send(ada, type="end_turn")
    corrected.send(dan, type="correct")
    corrected.send(dan, type="pass")
    corrected.send(ada, type="exchange", tiles=corrected.view(ada)["rack"][:3])
    corrected_view = corrected.view(ada)
    assert corrected_view["status"] == "playing", corrected_view

    # Finished: by resignation, played out to the end, and three seats with one resigned.
    resigned = started([bob, ada])
    resigned.best(turns=3)
    resigned.send(resigned.to_move(), type="resign")

    played_out = started([cid, bob], seed=7)
    played_out.best()

    three = started([ada, bob, cid])
    three.best(turns=3)
    three.send(cid, type="resign")
    three.best(turns=2)

    four = started([dan, cid, bob, ada], seed=11)
    four.best(turns=5)
    return [ada, bob, cid, dan], found


def main(out: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_url=f"sqlite:///{folder}/baseline.db", rate_limit=None)
        app = create_app(settings)
        client = app.test_client()
        accounts, games = play_all(client)
        engine = app.extensions["mathable"].store.engine
        tables: dict[str, list[dict[str, Any]]] = {}
        with engine.connect() as conn:
            for table in metadata.sorted_tables:
                rows = conn.execute(select(table)).mappings().all()
                tables[table.name] = [dict(r) for r in rows]
        views = {
            game.id: {
                "spectator": game.view(),
                **{who.name: game.view(who) for who in set(game.by_seat)},
            }
            for game in games
        }
        engine.dispose()
    fixture = {
        "made_by": "mathable main af924e6 (before migrations)",
        "tokens": {a.name: a.token for a in accounts},
        "tables": tables,
        "views": views,
    }
    Path(out).write_text(json.dumps(fixture, indent=1, sort_keys=True) + "\n")
    counts = {name: len(rows) for name, rows in tables.items()}
    print(f"{out}: {len(games)} games, {counts}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
