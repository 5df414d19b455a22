"""Summy against the contract (issue 26): whole games, every answer checked against openapi.yaml.

``client`` is a ``ContractClient`` (tests/server/apps.py): every answer the
app gives here, the JSON ones and the pages and pictures, must be documented for
its status and its JSON body must conform to the spec's closed schemas. Whole
Summy games are played to each end rules version 3 has (``no_equations``,
``idle``); finished games of rules version 2 (``hand_emptied``, ``no_equations``,
``idle``, with their deductions) are stored as recorded and read back through
the same client. The leniency the contract documents is pinned here too.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from mathable.core.events import Event
from mathable.games.summy import SUPPLY_SET, SummyState, tile_names
from mathable.games.summy import apply as summy_apply
from mathable.games.summy.movegen import legal_moves
from mathable.games.summy.tiles import parse_tiles
from tests.rules.recorded_logs import load
from tests.server.apps import ContractClient
from tests.server.helpers import Account, move, register
from tests.server.summy_games import ONE_TWO_THREE, summy_game, supply


def _codes(names: list[str]) -> list[int]:
    return [code for name in names for code in parse_tiles(name)]


def _look_at_everything(client: FlaskClient, gid: str, players: list[Account]) -> dict[str, Any]:
    """Every read of the game, by each player and by nobody (each answer checked by the
    client); the view of the player to move, or of seat 0 once the game is over."""
    views = {}
    for who in [*players, None]:
        headers = who.auth if who is not None else {}
        view = client.get(f"/v1/games/{gid}", headers=headers)
        assert view.status_code == 200, view.json
        views[who.id if who else None] = view.json
        assert client.get(f"/v1/games/{gid}/events", headers=headers).status_code == 200
        assert client.get(f"/v1/games/{gid}/board.svg", headers=headers).status_code == 200
        if who is not None:
            assert client.get("/v1/me?details=1", headers=headers).status_code == 200
    assert client.get(f"/games/{gid}").status_code == 200
    spectator = views[None]
    assert spectator["hand"] is None and spectator["you"] is None
    turn = spectator["turn"]
    seat = turn["seat"] if spectator["status"] == "playing" and turn else 0
    view: dict[str, Any] = views[players[seat].id]
    return view


def _play_to_the_end(
    client: FlaskClient, seed: int, *, pass_when_dry: bool
) -> tuple[dict[str, Any], list[Account], int]:
    """A whole game: the first equation the move generator finds, else a discard while the
    supply holds tiles; with the supply empty a discard of one tile (``pass_when_dry``:
    a pass instead, so that two rounds of passes end the game ``idle``)."""
    rng = random.Random(seed)
    order = list(SUPPLY_SET)
    rng.shuffle(order)
    ada, bob = register(client, f"ada{seed}"), register(client, f"bob{seed}")
    players = [ada, bob]
    game = summy_game(client, ada, bob, tiles=tile_names(order))
    gid = game["id"]
    view = _look_at_everything(client, gid, players)
    turns = 0
    while view["status"] == "playing":
        seat = view["turn"]["seat"]
        assert view["you"] == seat and view["your_turn"] is True
        table = {(t["x"], t["y"]): parse_tiles(t["tile"])[0] for t in view["table"]}
        closed = [(c["x"], c["y"]) for c in view["closed"]]
        hand = _codes(view["hand"])
        found = (
            None
            if (pass_when_dry and view["supply"] == 0)
            else (next(legal_moves(table, hand, closed), None))
        )
        if found is not None:
            command: dict[str, Any] = {
                "type": "equation",
                "placements": [
                    {"x": x, "y": y, "tile": tile_names([t])[0]} for x, y, t in found.placements
                ],
                "direction": found.direction,
            }
        elif view["supply"] or (view["hand"] and not pass_when_dry):
            command = {"type": "discard", "tiles": view["hand"][:2]}
        else:
            command = {"type": "pass"}
        played = move(client, players[seat], gid, view["version"], **command)
        assert played.status_code == 200, (command, played.json)
        turns += 1
        assert turns < 400
        view = _look_at_everything(client, gid, players)
    return view, players, turns


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_summy_game_ends_with_no_equations_and_every_answer_meets_the_spec(
    client: FlaskClient, seed: int
) -> None:
    final, players, turns = _play_to_the_end(client, seed, pass_when_dry=False)
    assert final["result"]["reason"] == "no_equations", final["result"]
    assert final["supply"] == 0 and turns > 10
    assert final["result"]["deductions"] == [0, 0]  # rules version 3: none
    assert final["rules_version"] == 3
    assert final["your_turn"] is False and final["turn"] is None
    feed = client.get(f"/v1/games/{final['id']}/events").json["events"]
    (revealed,) = [e for e in feed if e["type"] == "draws_revealed"]
    assert sorted(revealed["order"]) == sorted(SUPPLY_SET)  # the 93 codes (DrawsRevealedEvent)
    # The served data says what each code is: the order read with it is the game's deal.
    codes = client.get("/v1/rulesets/summy").json["tiles"]["codes"]
    named = {c["code"]: c["tile"] for c in codes}
    (started,) = [e for e in feed if e["type"] == "summy_started"]
    dealt = [named[code] for code in revealed["order"][:16]]
    assert sorted(dealt) == sorted(started["hands"][0] + started["hands"][1])


def test_a_whole_summy_game_ends_idle_after_two_rounds_of_passes_and_meets_the_spec(
    client: FlaskClient,
) -> None:
    final, _players, _turns = _play_to_the_end(client, 3, pass_when_dry=True)
    assert final["result"]["reason"] == "idle", final["result"]
    assert final["supply"] == 0


#: The recorded games of rules version 2, one for each of its ends.
OLD_GAMES = {
    "hand_emptied": "rules_v2_summy_12.json",
    "no_equations": "rules_v2_summy_2.json",
    "idle": "rules_v2_summy_24.json",
}


def _store_recorded(app: Flask, name: str, players: list[Account]) -> str:
    """The recorded game's events, as they were played, stored as a game of these players."""
    text = json.dumps(load(name)["steps"])
    text = text.replace('"ann"', json.dumps(players[0].id)).replace(
        '"bob"', json.dumps(players[1].id)
    )
    events = [Event.from_dict(e) for step in json.loads(text) for e in step.get("events", [])]
    state = SummyState()
    for event in events:
        state = summy_apply(state, event)
    gid = "old" + name.split("_")[-1].removesuffix(".json")
    app.extensions["mathable"].store.append(gid, 0, events, state, at=int(time.time() * 1000))
    return gid


@pytest.mark.parametrize("reason", sorted(OLD_GAMES))
def test_a_finished_summy_game_of_rules_version_2_is_served_as_the_spec_says(
    app: Flask, client: FlaskClient, reason: str
) -> None:
    """Found by a bot author: Summy's ends were missing from EndReason, so every finished
    Summy game failed validation. Version 2's ends, with their deductions, are in it."""
    players = [register(client, "ann"), register(client, "bob")]
    gid = _store_recorded(app, OLD_GAMES[reason], players)
    final = _look_at_everything(client, gid, players)
    assert final["status"] == "ended" and final["rules_version"] == 2
    assert final["result"]["reason"] == reason
    events = client.get(f"/v1/games/{gid}/events", headers=players[0].auth).json["events"]
    assert events[-1]["type"] == "game_ended" and events[-1]["reason"] == reason
    assert final["result"]["deductions"] != [0, 0]  # version 2 deducted the hands' digits


# --- what a view says of its rules --------------------------------------------------------


def test_a_new_game_of_either_ruleset_says_it_plays_rules_version_3(client: FlaskClient) -> None:
    ada, bob = register(client, "ada"), register(client, "bob")
    summy = summy_game(client, ada, bob)
    mathable = client.post("/v1/games", json={}, headers=ada.auth).json
    assert summy["rules_version"] == 3 and mathable["rules_version"] == 3
    summy_data = client.get("/v1/rulesets/summy").json  # checked against the spec
    choices = {c["name"] for c in summy_data["choices"]}
    assert {"leading_zeros", "no_leading_operator", "no_negative_results"} <= choices
    assert "exact_division" in choices
    assert client.get("/v1/rulesets/mathable").json["rules_version"] == 3
    served = client.get("/v1/rulesets").json
    assert {r["name"]: r["rules_version"] for r in served["rulesets"]} == {
        "mathable": 3,
        "summy": 3,
    }


# --- the leniency the contract documents (openapi.yaml: Square, SummyTile, SimpleCommand) ---


@pytest.fixture
def two(client: FlaskClient) -> Iterator[tuple[Account, Account]]:
    yield register(client, "ada"), register(client, "bob")


def test_a_square_in_lower_case_is_read_as_the_square(
    client: FlaskClient, two: tuple[Account, Account]
) -> None:
    from tests.server.helpers import EXAMPLE_TILES, started_game

    ada, bob = two
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    placed = move(client, ada, game["id"], game["version"], type="place", square="i8", tile=12)
    assert placed.status_code == 200, placed.json
    assert placed.json["board"]["I8"] == 12 and "i8" not in placed.json["board"]
    off = move(client, ada, game["id"], placed.json["version"], type="place", square="z8", tile=8)
    assert off.status_code == 400 and off.json["error"]["code"] == "bad_square"


def test_summy_sign_aliases_are_read_as_the_tile_and_answered_as_written(
    client: FlaskClient, two: tuple[Account, Account]
) -> None:
    ada, bob = two
    game = summy_game(client, ada, bob)  # ada holds 1 2 + 3 4 5 x =
    discarded = move(client, ada, game["id"], game["version"], type="discard", tiles=["X"])
    assert discarded.status_code == 200, discarded.json
    event = discarded.json["events"][0]
    assert event["type"] == "tiles_discarded" and event["discarded"] == ["x"]
    assert "X" not in discarded.json["hand"]
    bad = move(client, bob, game["id"], discarded.json["version"], type="discard", tiles=["y"])
    assert bad.status_code == 422 and bad.json["error"]["code"] == "bad_tile"


def test_end_turn_with_nothing_placed_is_recorded_as_a_pass(
    client: FlaskClient, two: tuple[Account, Account]
) -> None:
    from tests.server.helpers import EXAMPLE_TILES, started_game

    ada, bob = two
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    ended = move(client, ada, game["id"], game["version"], type="end_turn")
    assert ended.status_code == 200, ended.json
    assert [e["type"] for e in ended.json["events"]] == ["passed"]
    assert ended.json["turn"]["seat"] == 1


# --- refusals of a Summy game, each as the spec says --------------------------------------


def test_summy_refusals_of_every_kind_answer_as_the_spec_says(
    client: FlaskClient, two: tuple[Account, Account]
) -> None:
    ada, bob = two
    game = summy_game(client, ada, bob, tiles=supply("12+345x=" + "6789-:=0" + "1231"))
    gid, version = game["id"], game["version"]
    played = move(client, ada, gid, version, type="equation", placements=ONE_TWO_THREE)
    version = played.json["version"]
    refused = {
        "equation_end": move(
            client, bob, gid, version, type="equation", placements=[{"x": 2, "y": 0, "tile": "9"}]
        ),
        "not_your_turn": move(client, ada, gid, version, type="discard", tiles=["1"]),
        "tile_not_in_hand": move(client, bob, gid, version, type="discard", tiles=["5"]),
        "supply_not_empty": move(client, bob, gid, version, type="pass"),
        "bad_tile": move(client, bob, gid, version, type="discard", tiles=["?"]),
    }
    for code, answer in refused.items():
        assert answer.status_code in (400, 403, 409, 422), (code, answer.json)
        error = answer.json["error"]
        assert error["code"] == code, (code, error)
        assert "details" in error, (code, error)
    assert refused["equation_end"].json["error"]["details"]["equation"] == "1+2=3"
    assert "5" in refused["tile_not_in_hand"].json["error"]["message"]
    after = client.get(f"/v1/games/{gid}", headers=bob.auth).json
    assert after["version"] == version  # nothing changed


def test_the_client_checks_the_answers_it_gets(client: FlaskClient) -> None:
    assert isinstance(client, ContractClient)
