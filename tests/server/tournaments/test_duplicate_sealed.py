"""A duplicate round's tables are read by their own seats only while a table of the round
(one tile order) still plays: to a player of another table, and to a visitor, every read
path answers 404 as for no game; once every table has finished, they are public.
On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from mathable_server.games.timesource import MovableTime
from mathable_server.tournaments.service import Spec
from tests.server.apps import _OPEN_APPS, ContractClient, close_app
from tests.server.clocks import MONDAY
from tests.server.helpers import Account
from tests.server.tournaments.test_tournament_pages import _signed_in
from tests.server.tournaments.test_tournaments import (
    by_name,
    play_one,
    players,
    post,
    resign,
    service,
    shown,
)

pytestmark = pytest.mark.both_databases

#: Every way to read one game by its id: the API and the pages.
PATHS = (
    "/v1/games/{id}",
    "/v1/games/{id}/events",
    "/v1/games/{id}/stream",
    "/v1/games/{id}/record",
    "/v1/games/{id}/board.svg",
    "/v1/games/{id}/messages",
    "/v1/games/{id}/rematch",
    "/games/{id}",
    "/games/{id}/review",
    "/play/{id}",
)


@pytest.fixture
def world(store_url: str) -> Iterator[Flask]:
    from mathable_server import Settings, create_app

    app = create_app(Settings(database_url=store_url, pool_size=4), time=MovableTime(MONDAY))
    app.test_client_class = ContractClient
    _OPEN_APPS.append(app)
    yield app
    close_app(app)


def _status(app: Flask, path: str, who: Account | None) -> int:
    # A plain client (the contract's reads every body): a stream is not read to its end.
    client = FlaskClient(app, app.response_class)
    answer = client.get(path, headers=who.auth if who else {}, buffered=False)
    status = answer.status_code
    answer.close()
    return status


def test_a_table_is_sealed_from_the_other_tables_until_the_round_ends(world: Flask) -> None:
    accounts = players(world, 4)
    names = by_name(accounts)
    svc = service(world)
    tid = svc.create(None, Spec(name="Duplicate night", ruleset="mathable",
                                format="duplicate", rounds=1, rated=False))  # fmt: skip
    for a in accounts:
        post(world, a, tid, "join")
    svc.start(tid, None)
    table_a, table_b = shown(world, tid)["rounds"][0]
    a_player = names[table_a["seats"][0]]
    b_player = names[table_b["seats"][0]]
    b_id = table_b["game_id"]
    play_one(world, names, b_id)  # table B has drawn tiles of the round's order

    for path in PATHS:
        url = path.format(id=b_id)
        assert _status(world, url, a_player) == 404, url  # another table of the round
        assert _status(world, url, None) == 404, url  # a visitor
    refused = world.test_client().get(f"/v1/games/{b_id}", headers=a_player.auth)
    assert refused.json["error"]["code"] == "game_not_found"  # as for no such game
    # B's own seats read it as always.
    assert _status(world, f"/v1/games/{b_id}", b_player) == 200
    assert _status(world, f"/games/{b_id}", b_player) == 200
    # The tournament page links a player to their own table only.
    browser = _signed_in(world, world.test_client(), a_player.auth)
    text = browser.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert f'href="/games/{table_a["game_id"]}"' in text
    assert f'href="/games/{b_id}"' not in text

    # Table A ends first: B still plays, so A is sealed from B's players in turn, and
    # left out of A's player's public lists.
    resign(world, names[table_a["seats"][1]], table_a["game_id"])
    assert _status(world, f"/v1/games/{table_a['game_id']}/record", b_player) == 404
    archive = world.test_client().get(f"/v1/players/{a_player.name}/games", headers=b_player.auth)
    assert table_a["game_id"] not in archive.get_data(as_text=True)
    profile = world.test_client().get(f"/players/{a_player.name}").get_data(as_text=True)
    assert table_a["game_id"] not in profile

    # Every table has finished: both are public, to anyone.
    resign(world, names[table_b["seats"][1]], b_id)
    for path in PATHS:
        if path.startswith(("/play/", "/v1/games/{id}/messages", "/v1/games/{id}/rematch")):
            continue  # a seat's page, a seat's chat, no rematch asked: not for visitors
        url = path.format(id=b_id)
        assert _status(world, url, a_player) == 200, url
        assert _status(world, url, None) == 200, url
    assert _status(world, f"/v1/games/{b_id}/rematch", None) == 404  # nobody asked for one
    archive = world.test_client().get(f"/v1/players/{a_player.name}/games")
    assert table_a["game_id"] in archive.get_data(as_text=True)
    page = world.test_client().get(f"/tournaments/{tid}").get_data(as_text=True)
    assert f'href="/games/{b_id}"' in page
