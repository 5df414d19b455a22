"""Finished games as the lists show them, kept when they end (``finished_games``, issue 47).

Before, the archive (``GET /v1/players/{name}/games``) and ``GET /v1/me?details=true``
replayed every finished game they listed (a page of 100: 13,500 events read and applied,
0.55-0.74 s of CPU, every time). Now a game's row is written when it ends; a server
that has never seen the game lists it without reading one event, and says the same as
a replay would: a row deleted is written again from the events by the first list that
misses it, and the backfill of migration 0015 writes the rows of games that ended
before it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import delete, event, select

from mathable_server.store import migrations
from mathable_server.store.finished import backfill
from mathable_server.store.schema import finished_games
from tests.server.apps import close_app, make_app
from tests.server.helpers import Account, example_tiles, move, register, started_game

pytestmark = pytest.mark.both_databases


def _resign(app: Flask, who: Account, game_id: str) -> None:
    client = app.test_client()
    version = client.get(f"/v1/games/{game_id}", headers=who.auth).json["version"]  # type: ignore[index]
    assert move(client, who, game_id, version, type="resign").status_code == 200


def _lists(app: Flask, who: Account) -> tuple[list[dict[str, Any]], Any]:
    client = app.test_client()
    archive = client.get(f"/v1/players/{who.name}/games")
    assert archive.status_code == 200
    me = client.get("/v1/me?details=true", headers=who.auth)
    assert me.status_code == 200
    lines = [json.loads(line) for line in archive.get_data(as_text=True).splitlines()]
    return lines, me.json


@pytest.fixture
def finished(app: Flask) -> Iterator[dict[str, Any]]:
    """ada's games: two finished (one whose order another running game draws, so its
    end and order are withheld), one running; and what the lists say of them."""
    client = app.test_client()
    ada, bob, cy = (register(client, n) for n in ("ada", "bob", "cy"))
    first = started_game(client, ada, bob, tiles=example_tiles(2))["id"]
    _resign(app, bob, first)
    withheld = started_game(client, cy, ada, tiles=example_tiles(3))["id"]
    _resign(app, ada, withheld)
    started_game(client, bob, cy, tiles=example_tiles(3))  # draws the order: still running
    started_game(client, ada, cy, tiles=example_tiles(4))
    yield {"ada": ada, "ids": [first, withheld], "lists": _lists(app, ada)}


def _replays(app: Flask, game_ids: list[str]) -> list[str]:
    """The reads of events of ``game_ids`` from now on (a running game's are no concern)."""
    engine = app.extensions["mathable"].store.engine
    seen: list[str] = []

    def read(_conn: Any, _cursor: Any, statement: str, params: Any, *_rest: Any) -> None:
        values = params.values() if isinstance(params, dict) else params
        if "FROM events" in statement and any(v in game_ids for v in values):
            seen.append(statement)

    event.listen(engine, "before_cursor_execute", read)
    return seen


def test_a_finished_game_is_listed_from_its_row_without_a_replay(
    app: Flask, store_url: str, finished: dict[str, Any]
) -> None:
    engine = app.extensions["mathable"].store.engine
    with engine.connect() as conn:
        kept = {r.game_id for r in conn.execute(select(finished_games.c.game_id))}
    assert kept == set(finished["ids"])  # written when they ended, and no other
    lines, me = finished["lists"]
    assert len(lines) == 2 and all(line["record"] for line in lines)
    by_id = {line["id"]: line for line in lines}
    assert "Order" not in by_id[finished["ids"][1]]["record"]  # withheld: another draws it
    assert "Order" in by_id[finished["ids"][0]]["record"]
    ended = [g for g in me["games"] if g["status"] == "ended"]
    assert {g["id"] for g in ended} == set(finished["ids"])
    withheld = next(g for g in ended if g["id"] == finished["ids"][1])
    assert withheld["result"]["withheld"] is True

    fresh = make_app(store_url)  # a server that has never seen these games
    try:
        replays = _replays(fresh, finished["ids"])
        assert _lists(fresh, finished["ada"]) == finished["lists"]
        assert not replays, "a list replayed a finished game"
    finally:
        close_app(fresh)


def test_a_missing_row_is_written_again_by_the_first_list(
    app: Flask, store_url: str, finished: dict[str, Any]
) -> None:
    engine = app.extensions["mathable"].store.engine
    with engine.begin() as conn:
        before = {r.game_id: r.body for r in conn.execute(select(finished_games))}
        conn.execute(delete(finished_games))
    fresh = make_app(store_url)
    try:
        assert _lists(fresh, finished["ada"]) == finished["lists"]
    finally:
        close_app(fresh)
    with engine.connect() as conn:
        after = {r.game_id: r.body for r in conn.execute(select(finished_games))}
    assert after == before


def test_the_backfill_and_the_upgrade_write_the_games_ended_before(
    app: Flask, store_url: str, finished: dict[str, Any]
) -> None:
    engine = app.extensions["mathable"].store.engine
    with engine.begin() as conn:
        before = {r.game_id: r.body for r in conn.execute(select(finished_games))}
        conn.execute(delete(finished_games))
    assert backfill(engine, batch=1) == 2  # one game a transaction
    assert backfill(engine) == 0  # nothing left to write
    with engine.connect() as conn:
        assert {r.game_id: r.body for r in conn.execute(select(finished_games))} == before
    # A database at the revision before: the upgrade writes them once its schema is there.
    migrations.downgrade(engine, "0014_signin_links_by_player")
    migration = migrations.upgrade(engine)
    assert migration.before == "0014_signin_links_by_player"
    with engine.connect() as conn:
        assert {r.game_id: r.body for r in conn.execute(select(finished_games))} == before
    fresh = make_app(store_url)
    try:
        replays = _replays(fresh, finished["ids"])
        assert _lists(fresh, finished["ada"]) == finished["lists"]
        assert not replays
    finally:
        close_app(fresh)
