"""What differs between SQLite and PostgreSQL is the dialects' (``store.dialects``).

Only ``store/dialects.py``, ``store/sqlite.py`` and ``store/postgres.py`` ask which
database an engine is on; the one place elsewhere is ``engine.make_engine``, which
reads a URL before there is an engine to ask about, and says so. The rest of the
store asks the dialect. Then, on every backend, what each dialect decides: the
reads, transactions, feed, followers and counters that go through it.
"""

from __future__ import annotations

import ast
import random
import re
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from limits.storage import MemoryStorage
from sqlalchemy import func, insert, select, text

from mathable import Create, GameState, apply, check
from tests.server.store.conftest import Backend, counters, db, dialects, feed, wakeups

STORE = Path(__file__).resolve().parents[3] / "server" / "mathable_server" / "store"
#: What asks an engine, a connection or a URL which database it is on.
ASKS = re.compile(
    r"dialect\s*\.\s*name\b|get_backend_name|getattr\(\s*[\w.]*dialect\s*,\s*[\"']name[\"']"
)
#: The modules that may ask: the dialects' own.
DIALECTS = {Path("dialects.py"), Path("sqlite.py"), Path("postgres.py")}
#: Outside them, the one function (by module) that may: making an engine from a URL.
MAY_ASK = {Path("engine.py"): "make_engine"}
#: Migration revisions are history: each runs as it was written, on the connection
#: Alembic hands it (``op.get_bind()``), whatever the store becomes.
REVISIONS = Path("migrations") / "versions"

#: When the test events are written (ms since 1970 UTC).
AT = 1_790_000_000_000


def asking(source: str, spared_function: str | None = None) -> list[int]:
    """The lines of ``source`` that ask which database, outside ``spared_function``."""
    spared: set[int] = set()
    if spared_function is not None:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef) and node.name == spared_function:
                spared.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    lines = [source.count("\n", 0, found.start()) + 1 for found in ASKS.finditer(source)]
    return sorted(set(lines) - spared)


def test_only_the_dialects_ask_which_database_an_engine_is_on() -> None:
    found = []
    for path in sorted(STORE.rglob("*.py")):
        module = path.relative_to(STORE)
        if module in DIALECTS or REVISIONS in module.parents:
            continue
        source = path.read_text()
        lines = source.splitlines()
        found += [
            f"store/{module}:{number}: {lines[number - 1].strip()}"
            for number in asking(source, MAY_ASK.get(module))
        ]
    assert found == [], "ask the dialect (store.dialects.Dialect) instead:\n" + "\n".join(found)


def test_make_engine_asks_once_and_says_why() -> None:
    source = (STORE / "engine.py").read_text()
    everywhere = asking(source)
    assert len(everywhere) == 1, everywhere
    assert asking(source, "make_engine") == []
    assert source.splitlines()[everywhere[0] - 2].strip().startswith("#")  # the why, above


def test_the_check_finds_every_way_of_asking() -> None:
    source = (
        "def f(engine, conn, url, self):\n"
        '    if engine.dialect.name == "sqlite":\n'
        "        pass\n"
        "    a = conn.dialect .name\n"
        "    b = url.get_backend_name()\n"
        '    c = getattr(engine.dialect, "name")\n'
        "    d = (self._dialect\n"
        "         .name)\n"
        "    e = engine.dialect.named  # not a question\n"
    )
    assert asking(source) == [2, 4, 5, 6, 7]
    assert asking(source, "f") == []


# --- what each dialect decides, on every backend ------------------------------------------


def test_a_read_of_one_statement_runs_in_autocommit(backend: Backend) -> None:
    with db.reader(backend.engine).connect() as conn:
        assert conn.execute(select(1)).scalar() == 1
        driver = conn.connection.driver_connection
        if backend.name == "postgres":
            assert driver.autocommit is True  # type: ignore[union-attr]
        else:
            assert driver.in_transaction is False  # type: ignore[union-attr]


def test_a_snapshot_sees_one_moment(backend: Backend) -> None:
    count = select(func.count()).select_from(db.server_secrets)
    with db.snapshot(backend.engine) as conn:
        before = conn.execute(count).scalar_one()
        with db.write_transaction(backend.another_engine()) as other:  # another process
            other.execute(insert(db.server_secrets).values(name="later", value="x"))
        assert conn.execute(count).scalar_one() == before
    with backend.engine.connect() as conn:
        assert conn.execute(count).scalar_one() == before + 1


def test_write_transactions_that_name_a_lock_run_one_at_a_time(backend: Backend) -> None:
    other = backend.another_engine()
    inside = threading.Event()
    order = []

    def second() -> None:
        inside.wait(10)
        with db.write_transaction(other, 4242):
            order.append("second")

    thread = threading.Thread(target=second)
    thread.start()
    with db.write_transaction(backend.engine, 4242):
        inside.set()
        time.sleep(0.3)  # the other transaction waits all this time
        order.append("first")
    thread.join(10)
    assert order == ["first", "second"]


def test_feed_rows_are_written_under_the_feeds_lock_until_the_commit(backend: Backend) -> None:
    dialect = dialects.dialect_of(backend.engine)
    row = {"player_id": "p1", "game_id": "g1", "version": 1, "kinds": "invited", "at": AT}
    held = text(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
        " AND objid = :lock AND pid = :pid"
    )
    with db.write_transaction(backend.engine) as conn:
        feed.write(conn, dialect, [row])
        if backend.name == "postgres":
            pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
            with backend.another_engine().connect() as look:
                assert look.execute(held, {"lock": feed.FEED_LOCK, "pid": pid}).scalar() == 1
    assert [c.kinds for c in feed.changes_after(backend.engine, 0)] == [("invited",)]


def test_a_follower_wakes_the_waiter_of_a_player_another_process_wrote_for(
    backend: Backend,
) -> None:
    hub = wakeups.Wakeups()
    follower = wakeups.FeedFollower(
        backend.another_engine(), hub, sqlite_poll=0.01, listen_check=0.2
    )
    follower.ensure_started()
    try:
        with hub.watch(players=["p1"]) as waiter:
            created = check(GameState(), Create("p0", invited=("p1",), seed=5))
            state = GameState()
            for event in created:
                state = apply(state, event)
            backend.store().append("g1", 0, created, state, at=AT)  # nobody kicks it
            assert waiter.wait(10)
            assert [c.kinds for c in waiter.take()] == [("invited",)]
    finally:
        follower.stop()
        if follower._thread is not None:
            follower._thread.join(10)


def _created(creator: str, invited: str) -> tuple[list, GameState]:  # type: ignore[type-arg]
    created = check(GameState(), Create(creator, invited=(invited,), seed=5))
    state = GameState()
    for event in created:
        state = apply(state, event)
    return created, state


def _reads_after(follower: wakeups.FeedFollower, before: int, seconds: float) -> int:
    deadline = time.monotonic() + seconds
    while follower.reads == before and time.monotonic() < deadline:
        time.sleep(0.01)
    return follower.reads


def test_a_commit_reads_the_feed_at_once_only_for_a_waiter_here_or_a_revocation(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 47: a move nobody in this process waits for costs it no read of the feed (on
    SQLite, the poll reads it later; on PostgreSQL, the notification is put off); one a
    waiter here watches, or a token's revocation, is read at once (the poll here is 30 s)."""
    # A channel of this test's own: the other test workers' schemas notify on the shared
    # one, and a notification of theirs would make this follower read within MAX_PUT_OFF.
    monkeypatch.setattr(feed, "CHANNEL", f"mathable_feed_{uuid.uuid4().hex}")
    hub = wakeups.Wakeups()
    follower = wakeups.FeedFollower(
        backend.another_engine(), hub, sqlite_poll=30, listen_check=30
    )
    store = backend.store()
    store.on_commit.append(follower.kick)
    follower.ensure_started()
    try:
        time.sleep(0.2)  # the follower's first look at the database
        before = follower.reads
        store.append("g2", 0, *_created("p7", "p8"), at=AT)  # nobody here waits for it
        assert _reads_after(follower, before, 0.3) == before
        with hub.watch(players=["p1"]) as waiter:
            store.append("g1", 0, *_created("p0", "p1"), at=AT)
            assert waiter.wait(10)
            assert [c.kinds for c in waiter.take()] == [("invited",)]
        before = follower.reads
        store.create_player("p9", "nine", None, "hash-of-a-token")
        store.replace_token("p9", "hash-of-another")  # a revocation row: read at once
        assert _reads_after(follower, before, 10) > before
    finally:
        follower.stop()
        if backend.name == "postgres":  # wakes the follower's LISTEN to see it must stop
            with backend.engine.begin() as conn:
                conn.execute(text(f"NOTIFY {feed.CHANNEL}"))
        if follower._thread is not None:
            follower._thread.join(10)


def test_counters_write_through_engines_whose_commits_need_not_wait_for_the_disk(
    backend: Backend,
) -> None:
    game = backend.engine
    held = counters.counter_engine(game)
    counts = counters.rate_counter_engine(game)
    try:
        if backend.name == "sqlite":
            assert len({id(game), id(held), id(counts)}) == 3
            for engine, level in ((game, 2), (held, 1), (counts, 1)):  # FULL, NORMAL, NORMAL
                with engine.connect() as conn:
                    assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == level
        else:
            assert held is game and counts is not game
            with counts.connect() as conn:
                assert conn.exec_driver_sql("SHOW synchronous_commit").scalar() == "off"
                assert conn.connection.driver_connection.autocommit is True  # type: ignore[union-attr]
            with game.connect() as conn:
                assert conn.exec_driver_sql("SHOW synchronous_commit").scalar() == "on"
    finally:
        for engine in (held, counts):
            if engine is not game:
                engine.dispose()


def test_counters_live_in_memory_only_for_a_single_process_on_sqlite(backend: Backend) -> None:
    alone = counters.shared_storage(backend.engine, None, single_process=True)
    shared = counters.shared_storage(backend.engine, None, single_process=False)
    assert isinstance(shared, counters.SqlCounters)
    assert isinstance(alone, MemoryStorage if backend.name == "sqlite" else counters.SqlCounters)
    polls_alone = counters.shared_polls(backend.engine, None, single_process=True)
    polls_shared = counters.shared_polls(backend.engine, None, single_process=False)
    try:
        assert isinstance(polls_shared, counters.SqlHeldPolls)
        kind = counters.MemoryHeldPolls if backend.name == "sqlite" else counters.SqlHeldPolls
        assert isinstance(polls_alone, kind)
    finally:
        polls_alone.stop()
        polls_shared.stop()


def test_the_rows_a_commit_names_are_those_its_notification_names() -> None:
    """``feed.named`` (what ``FeedFollower.kick`` asks after every commit, issue 47) is
    ``noticed(notice(rows))`` without the payload written and read back: the same games
    and players, and None alike for no row, a revocation among them, or a payload over
    ``NOTICE_LIMIT`` (by a character or more, or just within it)."""
    rng = random.Random(47)
    cases: list[list[dict[str, Any]]] = [[]]
    for _ in range(400):
        rows = [
            {"game_id": rng.choice(["g1", "g2", "gxyz"]), "player_id": rng.choice(["p1", "p22"]),
             "kinds": rng.choice(["moved", "your_turn", "moved your_turn"])}
            for _ in range(rng.randint(1, 4))
        ]  # fmt: skip
        if rng.random() < 0.1:
            rows.append(feed.revocation("p9", 0))
        cases.append(rows)
    for size in range(feed.NOTICE_LIMIT - 3, feed.NOTICE_LIMIT + 3):  # about the limit
        long_game = "g" * (size - len(" p1"))
        cases.append([{"game_id": long_game, "player_id": "p1", "kinds": "moved"}])
        cases.append([{"game_id": "g1", "player_id": "p1", "kinds": "moved"},
                      {"game_id": "g" * (size - len("g1, p1")), "player_id": "p1",
                       "kinds": "moved"}])  # fmt: skip
    for rows in cases:
        expected = feed.noticed(feed.notice(rows))
        found = feed.named(rows)
        if expected is None:
            assert found is None, rows
        else:
            assert found is not None, rows
            assert sorted(found[0]) == expected[0] and sorted(found[1]) == expected[1]
