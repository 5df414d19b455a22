"""What a move costs the database on SQLite, counted at the driver (issue 47).

Every statement the sqlite3 driver runs is counted (``set_trace_callback``: the
``BEGIN`` and ``COMMIT``, the version read on the driver, SQLAlchemy's statements
alike). A move of a player with no address, sent as the CLI sends it (with an
``Idempotency-Key``), was 14 statements before issue 47: the key looked up first,
``PRAGMA busy_timeout`` set to 0 and back around every ``BEGIN IMMEDIATE``, an
``INSERT`` per event and per feed row, and two reads of addresses and settings that
found nothing at every change of turn. Now it is ``BEGIN``, the key, the events, the
game's row, the feed rows, ``COMMIT`` and, when the turn changes hands, one read of
both players' contacts; the version is read first only when the game is not cached at
the version the move names (the append checks it in any case).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from tests.server.apps import close_app, make_app
from tests.server.helpers import EXAMPLE_TILES, Account, register, started_game

#: The read of a game's version (and clock) that every view makes first.
VERSION_READ = "SELECT version, due_at FROM games"

#: The most statements one move may issue (the issue's target).
MOST = 8


@pytest.fixture
def traced(app: Flask) -> Iterator[list[str]]:
    """Every statement the driver runs from now on, as it runs it."""
    engine = app.extensions["mathable"].store.engine
    statements: list[str] = []

    def trace(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.set_trace_callback(statements.append)

    event.listen(engine, "connect", trace)
    engine.dispose()  # every connection from now on is traced
    yield statements
    event.remove(engine, "connect", trace)


def _move(app: Flask, who: Account, game_id: str, **command: Any) -> Any:
    return app.test_client().post(
        f"/v1/games/{game_id}/moves",
        json=command,
        headers={**who.auth, "Idempotency-Key": secrets.token_hex(12)},
    )


def test_a_move_issues_at_most_eight_statements(app: Flask, traced: list[str]) -> None:
    client = app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    game = started_game(client, ada, bob, tiles=EXAMPLE_TILES)
    gid = game["id"]
    client.get(f"/v1/games/{gid}", headers=ada.auth)  # the game in the cache, as it mostly is
    counts: dict[str, int] = {}
    for name, who, command in (
        ("place", ada, {"type": "place", "square": "I8", "tile": 12, "expected_version": 3}),
        ("place", ada, {"type": "place", "square": "H6", "tile": 8, "expected_version": 4}),
        ("end_turn (the turn changes hands)", ada, {"type": "end_turn", "expected_version": 5}),
        ("pass", bob, {"type": "pass", "expected_version": 6}),
    ):
        traced.clear()
        response = _move(app, who, gid, **command)
        assert response.status_code == 200, response.json
        counts[name] = max(counts.get(name, 0), len(traced))
        assert len(traced) <= MOST, (name, traced)
        assert sum(s.startswith("INSERT INTO events") for s in traced) == 1, traced
        assert not any("busy_timeout" in s for s in traced), traced
    assert counts["place"] <= MOST - 1  # a tile placed tells nobody: no contacts read


def test_a_turn_of_many_events_is_one_insert_of_events(app: Flask, traced: list[str]) -> None:
    client = app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    gid = started_game(client, ada, bob, tiles=EXAMPLE_TILES)["id"]
    client.get(f"/v1/games/{gid}", headers=ada.auth)
    traced.clear()
    placements = [{"square": "I8", "tile": 12}, {"square": "H6", "tile": 8}]
    response = _move(app, ada, gid, type="turn", placements=placements, expected_version=3)
    assert response.status_code == 200, response.json
    assert response.json["version"] - 3 >= 3  # two tiles, the turn's end, the draw...
    assert len(traced) <= MOST, traced
    assert sum(s.startswith("INSERT INTO events") for s in traced) == 1, traced
    assert sum(s.startswith("INSERT INTO player_feed") for s in traced) == 1, traced


def test_a_move_on_the_cached_game_reads_no_version_first(app: Flask, traced: list[str]) -> None:
    client = app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    gid = started_game(client, ada, bob, tiles=EXAMPLE_TILES)["id"]
    client.get(f"/v1/games/{gid}", headers=ada.auth)  # cached at version 3
    traced.clear()
    response = _move(app, ada, gid, type="place", square="I8", tile=12, expected_version=3)
    assert response.status_code == 200, response.json
    assert not any(s.startswith(VERSION_READ) for s in traced), traced
    assert len(traced) <= MOST - 2, traced


def test_a_move_on_a_game_another_process_moved_is_judged_on_the_stored_game(
    app: Flask, store_url: str
) -> None:
    """This process's cache is behind (another process moved the game): a move naming the
    version it holds is refused as stale (409), whether the cached game would take it (the
    append finds the game moved on) or refuse it (it is judged on the stored game, not
    refused by the rules); one naming the stored version is played."""
    client = app.test_client()
    other = make_app(store_url)  # another process on the same database
    try:
        for refused_here, names in ((False, ("ada", "bob")), (True, ("cyd", "dan"))):
            # Two pairs: a player sits in one game of a given bag order at a time.
            ada, bob = register(client, names[0]), register(client, names[1])
            gid = started_game(client, ada, bob, tiles=EXAMPLE_TILES)["id"]
            client.get(f"/v1/games/{gid}", headers=ada.auth)  # cached here at version 3
            played = _move(other, ada, gid, type="place", square="I8", tile=12,
                           expected_version=3)  # fmt: skip
            assert played.status_code == 200, played.json
            # A tile the cached game takes (I8 is free there), or one it refuses (no 99
            # on the rack): both are stale.
            tile = 99 if refused_here else 12
            stale = _move(app, ada, gid, type="place", square="I8", tile=tile, expected_version=3)
            assert stale.status_code == 409, (refused_here, stale.json)
            assert stale.json["error"]["current_version"] == 4, stale.json
            fine = _move(app, ada, gid, type="place", square="H6", tile=8, expected_version=4)
            assert fine.status_code == 200, fine.json
            assert fine.json["version"] == 5
    finally:
        close_app(other)
