"""What a game view and a move cost on PostgreSQL: the statements sent, read off the wire.

libpq's trace of every pooled connection lists the messages the server was
sent: a statement is a ``Query`` (BEGIN, COMMIT) or an ``Execute`` (with
parameters, prepared or not), and each waits for its answer.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from mathable_server.games.service import StateCache
from tests.server.apps import make_app
from tests.server.helpers import Table

pytestmark = pytest.mark.postgres


class Wire:
    """The messages sent to PostgreSQL by the app's connections, from libpq's trace."""

    def __init__(self, app: Flask) -> None:
        import psycopg.pq as pq

        self._file = tempfile.NamedTemporaryFile("w+", prefix="pqtrace-")  # noqa: SIM115
        services = app.extensions["mathable"]
        for engine in {services.store.engine, getattr(services.limiter.storage, "_engine", None)}:
            if engine is not None:
                self._trace(engine, pq)

    def _trace(self, engine: Any, pq: Any) -> None:

        def trace(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.pgconn.trace(self._file.fileno())
            dbapi_connection.pgconn.set_trace_flags(
                pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE
            )

        event.listen(engine, "connect", trace)
        engine.dispose()  # every connection from now on is traced

    def statements(self, action: Callable[[], Any]) -> list[str]:
        """The statements ``action`` sent: ``Query`` texts, and ``Execute`` for each other."""
        start = os.path.getsize(self._file.name)
        action()
        with open(self._file.name) as trace:
            trace.seek(start)
            lines = [line.split("\t") for line in trace.read().splitlines()]
        sent = []
        for fields in lines:
            if fields[0] != "F" or len(fields) < 3:
                continue
            if fields[2] == "Query":
                # BEGIN, or BEGIN ISOLATION LEVEL ... after a connection read in autocommit.
                sent.append(fields[3].strip('" ').split()[0])
            elif fields[2] == "Execute":
                sent.append("Execute")
        return sent

    def close(self) -> None:
        self._file.close()


@pytest.fixture(params=["unlimited"])
def wired(postgres_url: str, request: pytest.FixtureRequest) -> Iterator[tuple[Table, Wire]]:
    limits = {} if request.param == "limited" else {"rate_limit": None, "address_rate_limit": None}
    app = make_app(postgres_url, **limits)
    wire = Wire(app)
    table = Table(app.test_client())
    try:
        yield table, wire
    finally:
        wire.close()
        app.extensions["mathable"].store.engine.dispose()


def test_a_game_view_is_one_statement(wired: tuple[Table, Wire]) -> None:
    table, wire = wired
    view = lambda: table.client.get(f"/v1/games/{table.id}", headers=table.ada.auth)  # noqa: E731
    view()  # the names are read once per process
    assert wire.statements(view) == ["Execute"]


def test_a_tile_placed_on_the_cached_game_is_one_statement_in_a_transaction(
    wired: tuple[Table, Wire],
) -> None:
    table, wire = wired
    for square, tile in (("I8", 12), ("H6", 8), ("G9", 2)):
        sent = wire.statements(lambda s=square, t=tile: table.ok(table.ada, type="place",
                                                                  square=s, tile=t))  # fmt: skip
        # No version read first (``Games._on_cached``: the append checks it); the events,
        # projection and feed rows in one statement.
        assert sent == ["BEGIN", "Execute", "COMMIT"]


def test_reads_the_process_has_not_cached_are_one_statement_each(
    wired: tuple[Table, Wire],
) -> None:
    """A player's token and a game's events not seen yet here: no transaction around them."""
    table, wire = wired
    services = table.client.application.extensions["mathable"]
    view = lambda: table.client.get(f"/v1/games/{table.id}", headers=table.ada.auth)  # noqa: E731
    view()
    services.auth.forget(table.ada.id)
    services.games.cache = StateCache(10)
    # The player, the game's version, its events.
    assert wire.statements(view) == ["Execute", "Execute", "Execute"]


@pytest.mark.parametrize("wired", ["limited"], indirect=True)
def test_request_counts_are_one_statement_each_without_a_transaction(
    wired: tuple[Table, Wire],
) -> None:
    """Two limits (the address's, the token's) counted by one upsert in autocommit: no
    BEGIN and COMMIT round trips, and its commit does not wait for the disk."""
    table, wire = wired
    view = lambda: table.client.get(f"/v1/games/{table.id}", headers=table.ada.auth)  # noqa: E731
    view()
    # The counts, the game's version.
    assert wire.statements(view) == ["Execute", "Execute"]
    storage = table.client.application.extensions["mathable"].limiter.storage
    with storage._engine.connect() as conn:
        assert conn.exec_driver_sql("SHOW synchronous_commit").scalar() == "off"
    with table.client.application.extensions["mathable"].store.engine.connect() as conn:
        assert conn.exec_driver_sql("SHOW synchronous_commit").scalar() == "on"


@pytest.mark.postgres
def test_a_key_reused_by_a_creation_during_a_move_is_taken_not_a_deadlock(
    postgres_url: str,
) -> None:
    """A move holds the feed's lock from its first statement, a creation takes it last:
    the idempotency key is written before either, so a creation reusing the key of a
    move under way waits for that key and gets the key's answer (422), not a deadlock
    (503 after PostgreSQL's ``deadlock_timeout``)."""
    import threading
    import time

    from tests.server.apps import make_app
    from tests.server.helpers import EXAMPLE_TILES, register, started_game

    app = make_app(postgres_url)
    client = app.test_client()
    ann, bob = register(client, "ann"), register(client, "bob")
    game = started_game(client, ann, bob, tiles=EXAMPLE_TILES)
    store = app.extensions["mathable"].store
    in_move = threading.Event()

    def slow_hook(conn: Any, game_id: str, *_: Any) -> None:
        if game_id == game["id"]:
            in_move.set()
            time.sleep(1.5)  # the move holds the feed's lock here

    store.on_append.append(slow_hook)
    key = {"Idempotency-Key": "reused-key-0123456789"}
    answers: dict[str, Any] = {}

    def move() -> None:
        answers["move"] = app.test_client().post(
            f"/v1/games/{game['id']}/moves",
            json={"type": "turn", "expected_version": game["version"],
                  "placements": [{"square": "I8", "tile": 12}, {"square": "H6", "tile": 8}]},
            headers={**ann.auth, **key},
        )  # fmt: skip

    mover = threading.Thread(target=move)
    mover.start()
    try:
        assert in_move.wait(10)
        created = client.post(
            "/v1/games", json={"invite": [bob.name]}, headers={**ann.auth, **key}
        )
    finally:
        mover.join(30)
        store.engine.dispose()
    assert answers["move"].status_code == 200, answers["move"].json
    assert created.status_code == 422, created.json
    assert created.json["error"]["code"] == "idempotency_key_reused"
