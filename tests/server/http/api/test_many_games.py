"""One player with 2,000 games: GET /v1/me pages through every one exactly once, in order.

The games are written straight into the store in one transaction (the events
of a few real games, under 2,000 ids); the listing is read over HTTP.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event as sqlalchemy_event
from sqlalchemy import insert

from mathable import Create, Event, GameState, Join, Resign, apply, check
from mathable_server.store import encode_event, memberships, projection
from mathable_server.store.engine import events, game_members, games
from tests.server.apps import make_app
from tests.server.helpers import EXAMPLE_TILES, Account, register

pytestmark = pytest.mark.both_databases

GAMES = 2000
PAGE = 100


def _played(*commands: Any) -> tuple[GameState, list[Event]]:
    state, log = GameState(), []
    for command in commands:
        for event in check(state, command):
            state = apply(state, event)
            log.append(event)
    return state, log


def _kinds(ada: str, bob: str, cy: str) -> dict[str, tuple[tuple[GameState, list[Event]], bool]]:
    """Game states ada may be in, with whether each waits on her."""
    tiles = tuple(EXAMPLE_TILES)
    return {
        "her turn": (_played(Create(ada, tiles=tiles), Join(bob)), True),
        "bob's turn": (_played(Create(bob, tiles=tiles), Join(ada)), False),
        "invited": (_played(Create(cy, invited=(ada,))), True),
        "waiting for players": (_played(Create(ada, players=3), Join(bob)), False),
        "ended": (_played(Create(ada, tiles=tiles), Join(bob), Resign(0)), False),
    }


def write_games(app: Flask, ada: Account, bob: Account, cy: Account) -> dict[str, bool]:
    """GAMES games of ada's, in one transaction; returns whether each waits on her, by id."""
    rng = random.Random(7)
    kinds = list(_kinds(ada.id, bob.id, cy.id).values())
    start = datetime(2026, 1, 1, tzinfo=UTC)
    event_rows, game_rows, member_rows = [], [], []
    waiting: dict[str, bool] = {}
    for n in range(GAMES):
        (state, log), waits = rng.choice(kinds)
        game_id = f"g{n:05d}"
        # some games changed at the same moment: ties are broken by id
        at = (start + timedelta(seconds=rng.randrange(GAMES // 2))).strftime(
            "%Y-%m-%dT%H:%M:%S.%fZ"
        )
        waiting[game_id] = waits
        event_rows += [
            {"game_id": game_id, "version": v, "type": e.type, "schema_version": 1,
             "data": encode_event(e), "created_at": at, "at": 0}
            for v, e in enumerate(log, 1)
        ]  # fmt: skip
        game_rows.append({"id": game_id, "created_at": at, "updated_at": at, **projection(state)})
        member_rows += [
            {"game_id": game_id, "player_id": p, "seat": s} for p, s in memberships(state).items()
        ]
    engine = app.extensions["mathable"].store.engine
    with engine.connect().execution_options(sqlite_write=True) as conn, conn.begin():
        conn.execute(insert(events), event_rows)
        conn.execute(insert(games), game_rows)
        conn.execute(insert(game_members), member_rows)
    return waiting


@pytest.fixture
def crowded(database_url: str) -> Any:
    app = make_app(database_url)
    client = app.test_client()
    ada, bob, cy = (register(client, n) for n in ("ada", "bob", "cy"))
    waiting = write_games(app, ada, bob, cy)
    yield client, ada, waiting
    app.extensions["mathable"].store.engine.dispose()


def test_every_game_is_listed_once_those_waiting_on_the_players_move_first(crowded: Any) -> None:
    client, ada, waiting = crowded
    listed: list[dict[str, Any]] = []
    offset: int | None = 0
    pages = 0
    while offset is not None:
        page = client.get(f"/v1/me?limit={PAGE}&offset={offset}", headers=ada.auth).json
        assert len(page["games"]) == PAGE or page["next_offset"] is None
        listed += page["games"]
        offset = page["next_offset"]
        pages += 1
    assert pages == GAMES // PAGE
    ids = [g["id"] for g in listed]
    assert Counter(ids).most_common(1)[0][1] == 1 and set(ids) == set(waiting)
    flags = [g["waiting_on_you"] for g in listed]
    assert flags == sorted(flags, reverse=True)  # every True before every False
    assert flags == [waiting[i] for i in ids]
    # games waiting on her move, then invitations (a flood of them buries nothing), then the rest
    groups = [0 if g["your_turn"] else 1 if g["waiting_on_you"] else 2 for g in listed]
    assert groups == sorted(groups) and set(groups) == {0, 1, 2}
    for group in (0, 1, 2):
        keys = [
            (g["updated_at"], g["id"])
            for g, n in zip(listed, groups, strict=True)
            if n == group
        ]
        assert keys == sorted(keys, key=lambda k: (_reversed(k[0]), k[1]))


def _reversed(stamp: str) -> float:
    return -datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp()


def test_a_page_holds_at_most_100_games(crowded: Any) -> None:
    client, ada, _waiting = crowded
    assert len(client.get("/v1/me", headers=ada.auth).json["games"]) == 20
    assert len(client.get("/v1/me?limit=100", headers=ada.auth).json["games"]) == 100
    for limit in (101, 1000, 0, -1):
        response = client.get(f"/v1/me?limit={limit}", headers=ada.auth)
        assert response.status_code == 400
        assert response.json["error"]["code"] == "validation_error"
        assert "limit" in response.json["error"]["fields"]


def test_the_last_page_reads_no_more_than_the_first(crowded: Any) -> None:
    """A page costs the same wherever it is: the same statements, each game of the page
    read once, none of the 1,900 before it (the figures of a timed run are bench's)."""
    client, ada, _waiting = crowded
    engine = client.application.extensions["mathable"].store.engine
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    def read(offset: int) -> list[str]:
        statements.clear()
        sqlalchemy_event.listen(engine, "before_cursor_execute", count)
        try:
            response = client.get(f"/v1/me?limit={PAGE}&offset={offset}", headers=ada.auth)
        finally:
            sqlalchemy_event.remove(engine, "before_cursor_execute", count)
        assert response.status_code == 200 and len(response.json["games"]) == PAGE
        return list(statements)

    read(0)  # the first read of a game fills the cache: compare warm pages
    read(GAMES - PAGE)
    first, last = read(0), read(GAMES - PAGE)
    assert len(last) == len(first) and len(first) < PAGE
