"""Finished games' logs compacted into one row (``store.archive``, issue 47) on every
backend: the same events read back, every column of every row; every reader of a log
(the game, the lists' backfill, the ratings' rebuild, the dump) reads the same before
and after; a compaction racing readers never hides an event from them; the feed keeps
each player's last row of the game, and the kept answers of its keyed commands go."""

from __future__ import annotations

import io
import json
import threading
from typing import Any

import pytest
from sqlalchemy import delete, func, insert, select

from mathable import Create, GameState, Join, Resign, apply, check
from mathable.core.events import Event, Passed
from mathable_server.store import IdempotentAnswer, Store
from mathable_server.store import archive as archived
from mathable_server.store.archive import Compactor, RawEvent, pack, unpack
from mathable_server.store.dumps import dump, load
from mathable_server.store.finished import backfill
from mathable_server.store.ratings import ended_games
from mathable_server.store.schema import event_archive, finished_games, idempotency_keys
from tests.server.store.conftest import Backend, db, init_schema

events, player_feed = db.events, db.player_feed

#: When the test games are played (ms since 1970 UTC), a minute an event.
AT = 1_790_000_000_000
#: A "now" long after every test game ended.
LATER = AT + 10 * 86_400_000


def run(state: GameState, command: object) -> tuple[list[Event], GameState]:
    new = check(state, command)  # type: ignore[arg-type]
    for event in new:
        state = apply(state, event)
    return new, state


def finished_game(store: Store, game_id: str, keyed: bool = True) -> GameState:
    """p0 v p1: created, joined (started), p1 resigns (ended); each command keyed."""
    state = GameState()
    at = AT
    for number, command in enumerate((Create("p0", seed=5), Join("p1"), Resign(1)), 1):
        new, after = run(state, command)
        player = ("p0", "p1", "p1")[number - 1]
        answer = IdempotentAnswer("f" * 64, game_id, 200, json.dumps({"version": after.version}))
        store.append(
            game_id, state.version, new, after, at=at,
            idempotency=(player, f"{game_id}-{number}", answer) if keyed else None,
        )  # fmt: skip
        state, at = after, at + 60_000
    assert state.status == "ended"
    return state


def playing_game(store: Store, game_id: str) -> GameState:
    state = GameState()
    for command in (Create("p0", seed=7), Join("p1")):
        new, after = run(state, command)
        store.append(game_id, state.version, new, after, at=AT)
        state = after
    return state


def raw(store: Store, game_id: str) -> list[RawEvent]:
    with store.engine.connect() as conn:
        return archived.raw_logs(conn, [game_id])[game_id]


def compact_all(store: Store, now: int = LATER) -> archived.Compacted:
    return Compactor(store.engine, lambda: now, chunk=2).run_all()


def test_pack_gives_back_every_column_of_every_row_exactly() -> None:
    rows = [
        RawEvent(1, "game_created", 1, '{"type":"game_created","v":1,"x":[1,2]}',
                 "2026-12-06T10:00:00.000000Z", 1_796_551_200_000),
        # Not as the server writes them: a space in the JSON, a created_at of its own, a
        # type column that is not the data's, an older schema version.
        RawEvent(2, "passed", 1, '{"type": "passed", "v": 1, "seat": 0}',
                 "2020-01-01T00:00:00Z", 1_796_551_260_001),
        RawEvent(3, "renamed", 2, '{"type":"passed","v":1,"seat":1,"é":"\\u00e9"}',
                 "2026-12-06T10:01:00.002000Z", 1_796_551_260_002),
        RawEvent(4, "passed", 1, '{"type":"passed","v":1,"seat":0}',
                 "2026-12-06T10:00:59.999000Z", 1_796_551_259_999),  # a clock set back
    ]  # fmt: skip
    assert unpack(pack(rows)) == rows
    with pytest.raises(ValueError):
        pack(rows[1:])  # versions 1 to N only


def test_a_compacted_game_reads_back_the_same_events(store: Store) -> None:
    finished_game(store, "g1")
    before = raw(store, "g1")
    loaded = store.events_after("g1")
    reads = {(a, n): store.events_after("g1", a, n) for a in range(5) for n in (None, 1, 2, 9)}
    done = compact_all(store)
    assert (done.games, done.events, done.skipped) == (1, len(before), 0)
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).where(events.c.game_id == "g1")).scalar() == 0
        assert conn.execute(select(event_archive.c.version)).scalar() == len(before)
    assert raw(store, "g1") == before  # every column of every row
    assert store.events_after("g1") == loaded
    assert {(a, n): store.events_after("g1", a, n) for a, n in reads} == reads
    assert store.log_version("g1") == store.version("g1") == len(before)
    assert compact_all(store).games == 0  # nothing left to do


def test_only_games_finished_long_enough_ago_are_compacted(store: Store) -> None:
    finished_game(store, "g1")
    playing_game(store, "g2")
    # The game ended at AT + 2 minutes: a day later it is not due yet.
    assert compact_all(store, now=AT + 86_400_000).games == 0
    assert compact_all(store, now=AT + 86_400_000 + 180_000).games == 1
    assert compact_all(store, now=LATER * 2).games == 0  # the running game never
    assert len(store.events_after("g2")) == 3
    with store.engine.connect() as conn:
        assert conn.execute(select(event_archive.c.game_id)).scalars().all() == ["g1"]


def test_the_feed_keeps_each_players_last_row_and_the_keyed_answers_go(store: Store) -> None:
    finished_game(store, "g1")
    finished_game(store, "g2")
    with store.engine.connect() as conn:
        rows = conn.execute(select(player_feed).order_by(player_feed.c.seq)).all()
    last = {}
    for row in rows:
        if row.game_id == "g1":
            last[row.player_id] = row
    assert len([r for r in rows if r.game_id == "g1"]) > len(last) == 2
    # g1 alone: g2's rows and answers stay.
    done = archived.compact(store.engine, ["g1"])
    assert done.answers == 3 and done.feed_rows > 0
    with store.engine.connect() as conn:
        kept = conn.execute(select(player_feed).order_by(player_feed.c.seq)).all()
        keys = conn.execute(select(idempotency_keys.c.game_id)).scalars().all()
    assert [r for r in kept if r.game_id == "g1"] == sorted(last.values(), key=lambda r: r.seq)
    assert all("game_finished" in r.kinds for r in last.values())
    assert [r for r in kept if r.game_id == "g2"] == [r for r in rows if r.game_id == "g2"]
    assert sorted(keys) == ["g2"] * 3
    assert store.idempotent_answer("p1", "g2-3") is not None
    assert store.idempotent_answer("p1", "g1-3") is None


def test_an_event_appended_after_the_compaction_follows_the_archive(store: Store) -> None:
    """No rule appends to a finished game; were one to, nothing would be lost: the key
    ``(game_id, version)`` and the game's version still order the appends, the reads
    put the rows after the archive, and a second compaction takes them in."""
    state = finished_game(store, "g1", keyed=False)
    compact_all(store)
    store.append("g1", state.version, [Passed(0)], apply(state, Passed(0)), at=AT + 10**6)
    last = state.version + 1
    assert [s.version for s in store.events_after("g1")] == list(range(1, last + 1))
    assert [s.version for s in store.events_after("g1", last - 2)] == [last - 1, last]
    assert store.events_after("g1", last - 1)[-1].event == Passed(0)
    assert [s.version for s in store.events_after("g1", last - 3, 2)] == [last - 2, last - 1]
    whole = raw(store, "g1")
    assert compact_all(store, LATER * 2).games == 1
    assert raw(store, "g1") == whole


def test_compaction_racing_readers_never_hides_an_event(backend: Backend) -> None:
    store = backend.store()
    finished_game(store, "g1", keyed=False)
    whole = store.events_after("g1")
    reader = Store(backend.another_engine())
    stop = threading.Event()
    seen: list[Any] = []

    def read() -> None:
        while not stop.is_set():
            found = reader.events_after("g1")
            if found != whole:
                seen.append(found)

    threads = [threading.Thread(target=read) for _ in range(2)]
    for thread in threads:
        thread.start()
    try:
        for _ in range(15):
            assert archived.compact(store.engine, ["g1"]).games == 1
            # Back as it was, in one transaction: the next compaction races again.
            rows = raw(store, "g1")
            with store.engine.connect().execution_options(sqlite_write=True) as conn:
                with conn.begin():
                    conn.execute(insert(events), [{"game_id": "g1", **r._asdict()} for r in rows])
                    conn.execute(delete(event_archive))
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert seen == []
    assert store.events_after("g1") == whole


def test_the_lists_backfill_and_the_ratings_rebuild_read_compacted_logs(store: Store) -> None:
    finished_game(store, "g1")
    finished_game(store, "g2")
    with store.engine.connect() as conn:
        ended = ended_games(conn)
    assert backfill(store.engine) == 2
    with store.engine.connect() as conn:
        bodies = {r.game_id: r.body for r in conn.execute(select(finished_games))}
    archived.compact(store.engine, ["g1"])
    with store.engine.begin() as conn:
        assert ended_games(conn) == ended
        conn.execute(delete(finished_games))
    assert backfill(store.engine) == 2
    with store.engine.connect() as conn:
        assert {r.game_id: r.body for r in conn.execute(select(finished_games))} == bodies


def _game_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith('{"game"')]


def test_a_dump_writes_a_compacted_game_line_by_line_as_before_and_it_loads(
    backend: Backend, tmp_path: Any
) -> None:
    store = backend.store()
    finished_game(store, "g1")
    playing_game(store, "g2")
    finished_game(store, "g3")
    store.create_player("p0", "ada", None, "a" * 64)
    store.create_player("p1", "bob", None, "b" * 64)
    before = io.StringIO()
    dump(store.engine, before)
    assert compact_all(store).games == 2
    after = io.StringIO()
    dump(store.engine, after)
    assert _game_lines(after.getvalue()) == _game_lines(before.getvalue())
    assert len(_game_lines(before.getvalue())) == 3
    # Into a new database: every event back in its table, every column as it was.
    other = db.make_engine(f"sqlite:///{tmp_path / 'loaded.db'}", pool_size=2)
    init_schema(other)
    try:
        load(other, io.StringIO(after.getvalue()))
        loaded = Store(other)
        for game_id in ("g1", "g2", "g3"):
            with other.connect() as conn:
                assert archived.raw_logs(conn, [game_id])[game_id] == raw(store, game_id)
        assert loaded.events_after("g1") == store.events_after("g1")
    finally:
        other.dispose()


def test_the_periodic_job_walks_the_games_a_chunk_a_run_and_compacts_a_batch(
    store: Store,
) -> None:
    for number in range(5):
        finished_game(store, f"g{number}", keyed=False)
    playing_game(store, "g9")
    job = Compactor(store.engine, lambda: LATER, chunk=2, batch=1)
    assert [job.run().games for _ in range(6)] == [1, 1, 1, 1, 1, 0]
    assert job.cursor == ""  # the end of the table: round again from the start
    assert [job.run().games for _ in range(2)] == [0, 0] and job.cursor == "g3"
    with store.engine.connect() as conn:
        kept = sorted(conn.execute(select(event_archive.c.game_id)).scalars())
    assert kept == [f"g{number}" for number in range(5)]
