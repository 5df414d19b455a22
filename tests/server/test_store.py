"""The event store, the same suite on SQLite and on PostgreSQL."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from mathable import Create, GameState, Join, Pass, apply, check
from mathable.core.events import Event, Passed
from mathable_server.store import (
    IdempotentAnswer,
    KeyTaken,
    NameTaken,
    Store,
    VersionConflict,
)
from mathable_server.store.engine import events, game_members, games, make_engine
from mathable_server.store.migrations import init_schema

#: When the test events are written (ms since 1970 UTC).
AT = 1_790_000_000_000


@pytest.fixture
def store(database_url: str) -> Store:
    engine = make_engine(database_url, pool_size=4)
    init_schema(engine)
    yield Store(engine)  # type: ignore[misc]
    engine.dispose()


def run(state: GameState, command: object) -> tuple[list[Event], GameState]:
    new = check(state, command)  # type: ignore[arg-type]
    for event in new:
        state = apply(state, event)
    return new, state


def started(store: Store, game_id: str = "g1") -> GameState:
    """A two-player game p0 v p1, stored: versions 1 (created), 2 (joined), 3 (started)."""
    created, state = run(GameState(), Create("p0", seed=5))
    store.append(game_id, 0, created, state, at=AT)
    joined, after = run(state, Join("p1"))
    store.append(game_id, 1, joined, after, at=AT)
    return after


def test_appended_events_load_back_in_order(store: Store) -> None:
    state = started(store)
    loaded = store.events_after("g1")
    assert [s.version for s in loaded] == [1, 2, 3]
    assert [s.event.type for s in loaded] == ["game_created", "player_joined", "game_started"]
    replayed = GameState()
    for stored in loaded:
        replayed = apply(replayed, stored.event)
    assert replayed == state
    assert [s.version for s in store.events_after("g1", after=2)] == [3]
    assert [s.version for s in store.events_after("g1", after=0, limit=2)] == [1, 2]
    assert store.events_after("nothing") == []


def test_events_are_stored_as_json_with_their_schema_version(store: Store) -> None:
    started(store)
    with store.engine.connect() as conn:
        rows = conn.execute(select(events).order_by(events.c.version)).mappings().all()
    assert [r["schema_version"] for r in rows] == [1, 1, 1]
    first = json.loads(rows[0]["data"])
    assert first["type"] == rows[0]["type"] == "game_created" and first["v"] == 1


def test_a_second_writer_at_the_same_version_gets_a_conflict_and_writes_nothing(
    store: Store,
) -> None:
    state = started(store)
    passed, after = run(state, Pass(state.turn.seat))  # type: ignore[union-attr]
    store.append("g1", 3, passed, after, at=AT)
    with pytest.raises(VersionConflict) as raised:
        store.append("g1", 3, passed, after, at=AT)
    assert raised.value.current == 4
    assert [s.version for s in store.events_after("g1")] == [1, 2, 3, 4]
    assert store.version("g1") == store.log_version("g1") == 4


def test_a_failed_append_leaves_no_event_of_the_command(store: Store) -> None:
    state = started(store)
    seat = state.turn.seat  # type: ignore[union-attr]
    passed, after = run(state, Pass(seat))
    store.append("g1", 3, passed, after, at=AT)
    # Two events where the first would be version 4 again: neither may land.
    two = [Passed(seat), Passed(1 - seat)]
    with pytest.raises(VersionConflict):
        store.append("g1", 3, two, after, at=AT)
    assert store.log_version("g1") == 4


def test_the_projection_follows_the_log_in_the_same_transaction(store: Store) -> None:
    state = started(store)
    with store.engine.connect() as conn:
        row = conn.execute(select(games)).mappings().one()
        members = conn.execute(select(game_members)).mappings().all()
    assert (row["id"], row["version"], row["status"]) == ("g1", 3, "playing")
    assert row["to_move"] == state.seats[state.turn.seat].player  # type: ignore[union-attr]
    assert {(m["player_id"], m["seat"]) for m in members} == {("p0", 0), ("p1", 1)}


def test_games_of_lists_games_waiting_on_the_player_first(store: Store) -> None:
    state = started(store, "g1")
    to_move = state.seats[state.turn.seat].player  # type: ignore[union-attr]
    other = "p1" if to_move == "p0" else "p0"
    created, waiting = run(GameState(), Create(other, invited=(to_move,)))  # type: ignore[arg-type]
    store.append("g2", 0, created, waiting, at=AT + 1000)
    listed = store.games_of(to_move, limit=10, offset=0)  # type: ignore[arg-type]
    assert {g.id for g in listed} == {"g1", "g2"}
    assert all(g.to_move == to_move or g.seat is None for g in listed)
    assert store.games_of(other, limit=10, offset=0)[-1].id == "g1"
    assert [g.id for g in store.games_of(other, limit=1, offset=1)] == ["g1"]


def test_idempotency_answers_are_stored_with_the_events(store: Store) -> None:
    state = started(store)
    passed, after = run(state, Pass(state.turn.seat))  # type: ignore[union-attr]
    answer = IdempotentAnswer("fp", "g1", 200, '{"version": 4}')
    store.append("g1", 3, passed, after, idempotency=("p0", "key", answer), at=AT)
    assert store.idempotent_answer("p0", "key") == answer
    assert store.idempotent_answer("p1", "key") is None
    # The same key again rolls the whole command back, events included.
    again, later = run(after, Pass(after.turn.seat))  # type: ignore[union-attr]
    with pytest.raises(KeyTaken):
        store.append("g1", 4, again, later, idempotency=("p0", "key", answer), at=AT)
    assert store.log_version("g1") == 4


def test_player_names_are_unique_regardless_of_case(store: Store) -> None:
    store.create_player("pa", "Ada", None, "h" * 64)
    with pytest.raises(NameTaken):
        store.create_player("pb", "ADA", "a@b.c", "h" * 64)
    record = store.player("pa")
    assert record is not None and record.name == "Ada"
    assert store.players_named(["ada", "nobody"]) == {"ada": record}
    assert store.names(["pa", "zz"]) == {"pa": "Ada"}


def test_schema_creation_is_idempotent(store: Store) -> None:
    started(store)
    init_schema(store.engine)
    assert store.log_version("g1") == 3


def test_version_reads_hand_their_connection_back_ready_for_transactions(
    database_url: str,
) -> None:
    # One pooled connection: the version reads and the appends below share it.
    engine = make_engine(database_url, pool_size=1)
    init_schema(engine)
    store = Store(engine)
    state = started(store)
    assert store.version("g1") == 3 and store.version("nope") is None
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            assert conn.connection.driver_connection.autocommit is False  # type: ignore[union-attr]
    seat = state.turn.seat  # type: ignore[union-attr]
    passed, after = run(state, Pass(seat))
    store.append("g1", 3, passed, after, at=AT)
    assert store.version("g1") == 4
    # Two events where the first would be version 4 again: the transaction takes neither.
    with pytest.raises(VersionConflict):
        store.append("g1", 3, [Passed(seat), Passed(1 - seat)], after, at=AT)
    assert store.log_version("g1") == 4 and store.version("g1") == 4
    engine.dispose()
