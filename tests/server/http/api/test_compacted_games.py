"""A finished game compacted (``store.archive``, issue 47) reads the same on every path.

Its events leave ``events`` for one compressed row, its feed keeps each player's last
row, the answers kept for its keyed commands go. A server that never saw the game
(nothing cached) answers every read the same before and after: the view of each seat
and of a spectator, the event feed (``?after=``), the game stream resumed with
``since``, the record, the review page, the archive list, ``/v1/me?details=true``, the
player's page and record, the ratings rebuilt from the logs. A player's stream resumed
from a cursor older than the game's last row is told the game's last version and that
it is over, once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from mathable_server.games import ratings
from mathable_server.store import Store
from mathable_server.store.archive import Compactor
from mathable_server.store.engine import events, player_feed
from mathable_server.store.schema import event_archive, rating_history
from mathable_server.store.schema import ratings as rating_rows
from tests.server.apps import close_app, make_app
from tests.server.helpers import Account, example_tiles, move, register, started_game

pytestmark = pytest.mark.both_databases

PLAYER_1 = [("I8", 12), ("H6", 8), ("G9", 2), ("F7", 1), ("J8", 16)]


def _play(client: FlaskClient, who: Account, game_id: str, **command: Any) -> None:
    view = client.get(f"/v1/games/{game_id}", headers=who.auth).json
    answer = move(client, who, game_id, view["version"], **command)  # type: ignore[index]
    assert answer.status_code == 200, answer.json


def _lines(response: Any, count: int | None = None) -> list[Any]:
    """The JSON lines of a held stream (the first ``count``, else until it ends)."""
    found: list[Any] = []
    for chunk in response.response:
        for line in chunk.decode().splitlines():
            if line.strip():
                found.append(json.loads(line))
        if count is not None and len(found) >= count:
            break
    response.close()
    return found


def _reads(url: str, game_ids: list[str], ada: Account, bob: Account) -> dict[str, Any]:
    """Everything a fresh server says of the games and their players."""
    app = make_app(url, stream_seconds=1)
    client = app.test_client()
    plain = FlaskClient(app, app.response_class)
    seen: dict[str, Any] = {}
    try:
        for game_id in game_ids:
            for name, who in (("ada", ada), ("bob", bob), ("anyone", None)):
                auth = who.auth if who else {}
                key = f"{game_id} {name}"
                seen[f"view {key}"] = client.get(f"/v1/games/{game_id}", headers=auth).json
                for after in (0, 3, 9):
                    answer = client.get(f"/v1/games/{game_id}/events?after={after}", headers=auth)
                    seen[f"events after {after} {key}"] = answer.json
                stream = plain.get(
                    f"/v1/games/{game_id}/stream?since=4", headers=auth, buffered=False
                )
                seen[f"game stream {key}"] = _lines(stream, 1)
                seen[f"record {key}"] = client.get(
                    f"/v1/games/{game_id}/record", headers=auth
                ).get_data(as_text=True)
            seen[f"review {game_id}"] = plain.get(f"/games/{game_id}/review").get_data(as_text=True)
        seen["archive"] = client.get("/v1/players/ada/games").get_data(as_text=True)
        seen["me"] = client.get("/v1/me?details=true", headers=ada.auth).json
        seen["page"] = client.get("/v1/players/ada").json
        seen["player record"] = client.get("/v1/players/ada/record").json
        store: Store = app.extensions["mathable"].store
        with store.engine.connect() as conn:
            before = conn.execute(select(rating_rows).order_by(rating_rows.c.player_id)).all()
            history = conn.execute(select(rating_history)).all()
        assert ratings.rebuild(store) == len(game_ids)
        with store.engine.connect() as conn:
            seen["ratings"] = conn.execute(
                select(rating_rows).order_by(rating_rows.c.player_id)
            ).all()
            assert conn.execute(select(rating_history)).all() == history
        assert seen["ratings"] == before and before  # a rebuild gives them again
    finally:
        close_app(app)
    return seen


def _resumed(url: str, who: Account) -> list[Any]:
    """Ann's stream resumed from its very start (a fresh server: no rows in memory)."""
    app = make_app(url, stream_seconds=1)
    try:
        plain = FlaskClient(app, app.response_class)
        return _lines(plain.get("/v1/me/stream?since=0", headers=who.auth, buffered=False))
    finally:
        close_app(app)


@pytest.fixture
def finished(app: Flask) -> Iterator[tuple[list[str], Account, Account]]:
    """ada v bob, twice: a game of a given order where ada places five tiles and ends her
    turn, and a rated game of a secret order where each passes; bob resigns both. And a
    game still running between them."""
    client = app.test_client()
    ada, bob = register(client, "ada"), register(client, "bob")
    placed = started_game(client, ada, bob, tiles=example_tiles(6))["id"]
    for square, tile in PLAYER_1:
        _play(client, ada, placed, type="place", square=square, tile=tile)
    _play(client, ada, placed, type="end_turn")
    rated = started_game(client, ada, bob, rated=True)["id"]
    for _ in range(2):  # whoever begins (the order is secret), then the other
        seat = client.get(f"/v1/games/{rated}").json["turn"]["seat"]  # type: ignore[index]
        _play(client, (ada, bob)[seat], rated, type="pass")
    for game_id in (placed, rated):
        _play(client, bob, game_id, type="resign")
    started_game(client, ada, bob, tiles=example_tiles(7))
    yield [placed, rated], ada, bob


def test_every_read_of_a_compacted_game_says_what_it_said_before(
    app: Flask, store_url: str, finished: tuple[list[str], Account, Account]
) -> None:
    game_ids, ada, bob = finished
    before = _reads(store_url, game_ids, ada, bob)
    assert all(before[f"view {g} anyone"]["status"] == "ended" for g in game_ids)
    store: Store = app.extensions["mathable"].store
    done = Compactor(store.engine, lambda: 4_102_444_800_000).run_all()
    assert done.games == 2 and done.skipped == 0
    with store.engine.connect() as conn:
        left = conn.execute(select(func.count()).where(events.c.game_id.in_(game_ids))).scalar()
        assert left == 0
        assert sorted(conn.execute(select(event_archive.c.game_id)).scalars()) == sorted(game_ids)
    after = _reads(store_url, game_ids, ada, bob)
    assert after.keys() == before.keys()
    for key in before:
        assert after[key] == before[key], key


def test_a_stream_resumed_from_before_the_compaction_is_told_the_end_once(
    app: Flask, store_url: str, finished: tuple[list[str], Account, Account]
) -> None:
    game_ids, ada, _bob = finished
    game_id = game_ids[0]
    before = [line for line in _resumed(store_url, ada) if line.get("game_id") == game_id]
    store: Store = app.extensions["mathable"].store
    with store.engine.connect() as conn:
        final = conn.execute(
            select(func.max(player_feed.c.version)).where(player_feed.c.game_id == game_id)
        ).scalar()
    Compactor(store.engine, lambda: 4_102_444_800_000).run_all()
    after = [line for line in _resumed(store_url, ada) if line.get("game_id") == game_id]
    assert len(after) < len(before)
    # What is left is the stream's own end of the game, cursors and all.
    assert after == [line for line in before if line["version"] == final]
    assert [line["type"] for line in after][-1] == "game_finished"
    assert {line["version"] for line in after} == {final}
