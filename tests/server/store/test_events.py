"""The event recorder on every backend: append, conflicts, reads after a version, the
projections, idempotency keys, players."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.event import listen, remove

from mathable import Create, GameState, Join, Pass, apply, check
from mathable.core.events import Event, Passed
from mathable_server.store import (
    Append,
    IdempotentAnswer,
    KeyTaken,
    NameTaken,
    Store,
    VersionConflict,
)
from tests.server.store.conftest import Backend, db, feed, init_schema

events, game_members, games = db.events, db.game_members, db.games

#: When the test events are written (ms since 1970 UTC).
AT = 1_790_000_000_000


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
    backend: Backend,
) -> None:
    # One pooled connection: the version reads and the appends below share it.
    engine = backend.another_engine(pool_size=1)
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


def test_a_game_moved_on_behind_the_writer_is_a_conflict_even_without_its_events(
    store: Store,
) -> None:
    # The projection says version 7 while the log stops at 3: the append at 3 finds the
    # events' keys free but the game's row elsewhere, and writes nothing.
    state = started(store)
    told = feed.changes_after(store.engine, 0)
    with store.engine.begin() as conn:
        conn.execute(games.update().where(games.c.id == "g1").values(version=7))
    passed, after = run(state, Pass(state.turn.seat))  # type: ignore[union-attr]
    with pytest.raises(VersionConflict) as raised:
        store.append("g1", 3, passed, after, at=AT)
    assert raised.value.current == 7
    assert store.log_version("g1") == 3
    assert feed.changes_after(store.engine, 0) == told


def test_creating_a_game_twice_is_a_conflict(store: Store) -> None:
    created, state = run(GameState(), Create("p0", seed=5))
    store.append("g1", 0, created, state, at=AT)
    with pytest.raises(VersionConflict) as raised:
        store.append("g1", 0, created, state, at=AT)
    assert raised.value.current == 1
    assert store.log_version("g1") == 1


def test_a_conflicting_append_holds_one_pooled_connection_at_a_time(backend: Backend) -> None:
    # The current version, for the conflict, is read once the writer's connection is back:
    # a request holding one while it waits for another hung for the pool's whole timeout
    # when every connection was held by requests doing the same (readers of a timed-out
    # game all writing its timeout under ``serve``).
    engine = backend.another_engine(pool_size=1)
    store = Store(engine)
    state = started(store)
    passed, after = run(state, Pass(state.turn.seat))  # type: ignore[union-attr]
    store.append("g1", 3, passed, after, at=AT)
    held: list[int] = []
    checkout = (engine.pool, "checkout", lambda *_: held.append(engine.pool.checkedout()))
    listen(*checkout)
    try:
        with pytest.raises(VersionConflict) as raised:
            store.append("g1", 3, passed, after, at=AT)
    finally:
        remove(*checkout)
    assert raised.value.current == 4
    assert held and max(held) == 1


def test_an_append_tells_each_player_in_the_feed_in_commit_order(store: Store) -> None:
    state = started(store)
    mover = state.seats[state.turn.seat].player  # type: ignore[union-attr]
    passed, after = run(state, Pass(state.turn.seat))  # type: ignore[union-attr]
    store.append("g1", 3, passed, after, at=AT + 5)
    changes = feed.changes_after(store.engine, 0)
    seqs = [c.seq for c in changes]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert feed.head(store.engine) == seqs[-1]
    last = [c for c in changes if c.version == 4]
    assert {c.player_id for c in last} == {"p0", "p1"}
    assert all(c.game_id == "g1" and c.at == AT + 5 for c in last)
    next_up = after.seats[after.turn.seat].player  # type: ignore[union-attr]
    kinds = {c.player_id: c.kinds for c in last}
    assert "your_turn" in kinds[next_up] and "your_turn" not in kinds[mover]
    assert [c.version for c in feed.changes_of(store.engine, "p1", seqs[0])] == [
        c.version for c in changes[1:] if c.player_id == "p1"
    ]
    # A conflicting append tells nobody.
    with pytest.raises(VersionConflict):
        store.append("g1", 3, passed, after, at=AT + 6)
    assert feed.changes_after(store.engine, 0) == changes


def test_the_hooks_write_in_the_append_and_roll_back_with_it(store: Store) -> None:
    seen: list[tuple[str, int]] = []
    commits: list[Any] = []

    def hook(conn: Any, game_id: str, new: Any, state: GameState, at: int) -> None:
        seen.append((game_id, state.version))
        conn.execute(db.server_secrets.insert().values(name=f"v{state.version}", value="x"))

    store.on_append.append(hook)
    store.on_commit.append(commits.append)  # each commit's feed rows (``feed.rows``)
    state = started(store)
    assert seen == [("g1", 1), ("g1", 3)] and len(commits) == 2
    passed, after = run(state, Pass(state.turn.seat))  # type: ignore[union-attr]
    store.append("g1", 3, passed, after, at=AT)
    with pytest.raises(VersionConflict):
        store.append("g1", 3, passed, after, at=AT)
    assert len(commits) == 3
    # The pass's rows, as the feed has them: the listeners are told what was written.
    assert commits[-1] and {r["game_id"] for r in commits[-1]} == {"g1"}
    assert {r["version"] for r in commits[-1]} == {4}
    with store.engine.connect() as conn:
        names = sorted(conn.execute(select(db.server_secrets.c.name)).scalars())
    assert names == ["v1", "v3", "v4"]


@pytest.mark.postgres
def test_the_feeds_lock_is_not_held_while_a_hook_writes(backend: Backend) -> None:
    """Every writer of every game waits for the feed's lock (PostgreSQL): a move's hooks
    (its turn mail) write before it is taken, and the feed is still written."""
    if backend.name != "postgres":
        pytest.skip("the feed's advisory lock is PostgreSQL's")
    store = backend.store()
    other = backend.another_engine()
    free: list[bool] = []

    class Hook:
        def concerns(self, new: Any, state: GameState) -> bool:
            return any(e.type == "passed" for e in new)

        def __call__(self, conn: Any, game_id: str, new: Any, state: GameState, at: int) -> None:
            if not self.concerns(new, state):
                return
            with other.connect() as probe:  # another process trying to write the feed
                took = probe.execute(
                    text("SELECT pg_try_advisory_xact_lock(:id)"), {"id": feed.FEED_LOCK}
                ).scalar()
                probe.rollback()
            free.append(bool(took))

    store.on_append.append(Hook())
    state = started(store)
    passed, after = run(state, Pass(state.turn.seat))  # type: ignore[union-attr]
    store.append("g1", 3, passed, after, at=AT)
    assert free == [True]
    assert {c.player_id for c in feed.changes_after(store.engine, 0) if c.version == 4} == {
        "p0",
        "p1",
    }


def test_append_each_writes_the_games_still_where_they_were(store: Store) -> None:
    one, two = started(store, "g1"), started(store, "g2")
    p1, after1 = run(one, Pass(one.turn.seat))  # type: ignore[union-attr]
    p2, after2 = run(two, Pass(two.turn.seat))  # type: ignore[union-attr]
    store.append("g2", 3, p2, after2, at=AT)  # g2 moved on before the sweep
    written = store.append_each(
        [
            Append("g1", 3, p1, after1, at=AT + 1, deadline=AT + 50, due_at=AT + 50),
            Append("g2", 3, p2, after2, at=AT + 1, deadline=None, due_at=None),
        ]
    )
    assert written == [True, False]
    assert store.log_version("g1") == 4 and store.log_version("g2") == 4
    assert store.head("g1") == (4, AT + 50)
    assert [c.version for c in feed.changes_after(store.engine, 0) if c.game_id == "g1"][-1] == 4


def _a_writer_waits(backend: Backend) -> None:
    """Until another transaction waits for a lock to insert events (PostgreSQL; SQLite's
    writers wait for its one write lock: a moment is enough), at most 10 s."""
    if backend.name != "postgres":
        time.sleep(0.5)
        return
    waiting = text(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        " AND query LIKE 'INSERT INTO events%' AND datname = current_database()"
    )
    deadline = time.monotonic() + 10
    with backend.engine.connect() as conn:
        while conn.execute(waiting).scalar_one() == 0 and time.monotonic() < deadline:
            conn.rollback()
            time.sleep(0.05)


def test_a_sweep_and_a_move_in_one_of_its_games_at_once_do_not_deadlock(
    backend: Backend,
) -> None:
    """A move holds its game's new events, then takes the feed's lock; the sweeper writes
    several games in one transaction. It locked the feed after its first game and then
    waited for the move's events of the next: each waited for the other (PostgreSQL:
    "deadlock detected", a 503 and a failed sweep)."""
    store = backend.store()
    one, two = started(store, "g1"), started(store, "g2")
    p1, after1 = run(one, Pass(one.turn.seat))  # type: ignore[union-attr]
    p2, after2 = run(two, Pass(two.turn.seat))  # type: ignore[union-attr]
    outcome: list[object] = []

    def sweep() -> None:
        try:
            outcome.append(
                Store(backend.another_engine()).append_each(
                    [
                        Append("g1", 3, p1, after1, at=AT + 1, deadline=None, due_at=None),
                        Append("g2", 3, p2, after2, at=AT + 1, deadline=None, due_at=None),
                    ]
                )
            )
        except Exception as error:  # the deadlock's loser
            outcome.append(error)

    sweeper = threading.Thread(target=sweep)
    with db.write_transaction(store.engine) as move:
        # The move in g2, as a move's transaction writes it: its events first...
        move.execute(
            events.insert().values(
                game_id="g2", version=4, type="passed", schema_version=1,
                data=json.dumps({"type": "passed"}), created_at="now", at=AT,
            )
        )  # fmt: skip
        sweeper.start()
        _a_writer_waits(backend)
        # ...then the feed's lock, held until the commit.
        store.dialect.lock_feed_and_notify(move, [{"game_id": "g2", "player_id": "p0"}])
    sweeper.join(timeout=60)
    assert outcome == [[True, False]]
    assert store.log_version("g1") == 4


def test_due_games_follow_the_clock_columns(store: Store) -> None:
    store.create_player("p0", "Ada", None, "h" * 64)
    store.create_player("p1", "Bob", None, "h" * 64)
    state = started(store)
    passed, after = run(state, Pass(state.turn.seat))  # type: ignore[union-attr]
    store.append("g1", 3, passed, after, at=AT, deadline=AT + 100, due_at=AT + 100)
    assert store.due_games(AT + 99, 10) == []
    assert store.due_games(AT + 100, 10) == ["g1"]
    assert store.due_games_of("p0", AT + 100) == ["g1"] and store.due_games_of("zz", AT + 100) == []
    store.clear_due("g1", 3)  # a stale version changes nothing
    assert store.head("g1") == (4, AT + 100)
    store.clear_due("g1", 4)
    assert store.head("g1") == (4, None) and store.due_games(AT + 100, 10) == []
    assert store.playing_games("p0") == ["g1"]
    assert {(m.game_id, m.name, m.seat) for m in store.members(["g1", "zz"])} == {
        ("g1", "Ada", 0),
        ("g1", "Bob", 1),
    }


def test_secrets_are_the_first_writers_for_every_process(backend: Backend) -> None:
    first, second = backend.store(), Store(backend.another_engine())
    made: list[str] = []

    def make(value: str) -> Any:
        return lambda: made.append(value) or value

    assert first.secret("signing", make("a")) == "a"
    assert second.secret("signing", make("b")) == "a"
    assert made == ["a"]
    # Made at the same moment by several processes: they all end up with one value.
    found: list[str] = []
    threads = [
        threading.Thread(target=lambda s=s, v=v: found.append(s.secret("race", make(v))))
        for s, v in ((first, "x"), (second, "y"), (first, "z"))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(found)) == 1 and len(found) == 3


def _passes(state: GameState) -> tuple[list[Event], GameState]:
    return run(state, Pass(state.turn.seat))  # type: ignore[union-attr]


def test_a_move_no_hook_concerns_runs_on_the_driver_alone(backend: Backend) -> None:
    """Issue 47 (the move path): a move whose status before is known and that concerns no
    hook (no mail, no seat, no vacation) is written on the driver's connection alone, with
    no SQLAlchemy ``Connection`` nor transaction around it (none begins), and no hook is
    called, nor any ``after_all``: the same rows as the other way, the same answer kept,
    the same feed rows told to the process."""
    store = backend.store()
    called: list[str] = []

    class Quiet:
        def concerns(self, new: Any, state: GameState) -> bool:
            return False

        def __call__(self, conn: Any, game_id: str, new: Any, state: GameState, at: int) -> None:
            called.append("call")

        def after_all(self, conn: Any, done: Any) -> None:
            called.append("after_all")

    store.on_append.append(Quiet())
    commits: list[Any] = []
    store.on_commit.append(commits.append)
    state = started(store)
    begun: list[Any] = []

    def began(conn: Any) -> None:
        begun.append(conn)

    listen(backend.engine, "begin", began)
    try:
        passed, after = _passes(state)
        answer = IdempotentAnswer("f" * 64, "g1", 200, '{"id":"g1"}')
        key = ("p0", "k" * 20, answer)
        store.append("g1", 3, passed, after, at=AT + 5, deadline=AT + 50, due_at=AT + 60,
                     idempotency=key, before=feed.before_of(state))  # fmt: skip
    finally:
        remove(backend.engine, "begin", began)
    assert begun == [] and called == []
    assert [s.version for s in store.events_after("g1", after=3)] == [4]
    assert store.head("g1") == (4, AT + 60)
    assert store.idempotent_answer("p0", "k" * 20) == answer
    # The feed rows of the pass (the turn changed hands): written, and told at the commit.
    assert {r["version"] for r in commits[-1]} == {4}
    written = [c for c in feed.changes_after(store.engine, 0) if c.version == 4]
    assert {c.player_id for c in written} == {r["player_id"] for r in commits[-1]} == {"p0", "p1"}


def test_a_move_on_the_driver_that_comes_second_writes_nothing(backend: Backend) -> None:
    """A conflict (or a key used already) on the driver's own transaction rolls it back
    whole (the key of the loser is not kept) and gives its connection back as it was:
    the next moves on it are written."""
    store = Store(db.make_engine(backend.url, pool_size=1))  # one connection, used again
    try:
        state = started(store)
        passed, after = _passes(state)
        before = feed.before_of(state)
        first = IdempotentAnswer("a" * 64, "g1", 200, "{}")
        store.append("g1", 3, passed, after, at=AT, before=before,
                     idempotency=("p0", "first-key-0123456", first))  # fmt: skip
        second = IdempotentAnswer("b" * 64, "g1", 200, "{}")
        with pytest.raises(VersionConflict) as conflict:
            store.append("g1", 3, passed, after, at=AT, before=before,
                         idempotency=("p0", "second-key-012345", second))  # fmt: skip
        assert conflict.value.current == 4
        assert store.idempotent_answer("p0", "second-key-012345") is None
        again, later = _passes(after)
        with pytest.raises(KeyTaken):  # the first key again: nothing of this move written
            store.append("g1", 4, again, later, at=AT, before=feed.before_of(after),
                         idempotency=("p0", "first-key-0123456", second))  # fmt: skip
        assert store.head("g1") == (4, None)
        store.append("g1", 4, again, later, at=AT, before=feed.before_of(after))
        assert [s.version for s in store.events_after("g1", after=3)] == [4, 5]
    finally:
        store.engine.dispose()
