"""A gevent worker waiting for SQLite's write lock goes on serving its other requests.

Under ``serve`` a worker is one OS thread running many green threads. SQLite's
own busy handler waits for another process's write lock inside the C library,
which would freeze every connection of the worker until the lock is free; the
server waits for the lock in Python instead, where a sleep lets the worker run
its other requests.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest
import requests

from tests.server.live import live_server

pytestmark = pytest.mark.e2e

ENV = {"MATHABLE_RATE_LIMIT": "off", "MATHABLE_ADDRESS_RATE_LIMIT": "off"}
#: How long the test holds the write lock from outside the server.
HELD = 6.0


def test_a_worker_waiting_for_the_sqlite_write_lock_still_answers_reads(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    with live_server(f"sqlite:///{path}", workers=1, worker_class="gevent", env=ENV) as url:
        first = requests.post(f"{url}/v1/players", json={"name": "ann"}, timeout=10)
        assert first.status_code == 201
        token = first.json()["token"]

        other = sqlite3.connect(path, isolation_level=None, timeout=10, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        taken = time.monotonic()
        release = threading.Timer(HELD, lambda: other.execute("ROLLBACK"))
        release.start()
        answers: dict[str, requests.Response] = {}

        def register() -> None:  # a write: it must wait for the lock
            answers["write"] = requests.post(
                f"{url}/v1/players", json={"name": "bob"}, timeout=60
            )

        writer = threading.Thread(target=register)
        writer.start()
        try:
            time.sleep(0.5)  # the write is waiting for the lock by now
            assert "write" not in answers
            read = requests.get(
                f"{url}/v1/me", headers={"Authorization": f"Bearer {token}"}, timeout=60
            )
            answered = time.monotonic() - taken
            assert read.status_code == 200
            assert read.json()["name"] == "ann"
            # Answered while the lock is still held, not once it is given back.
            assert answered < HELD - 1, f"the read was answered {answered:.1f} s after the lock"
            assert "write" not in answers
        finally:
            release.join()
            writer.join(timeout=60)
            other.close()
        assert answers["write"].status_code == 201  # the waiting write went through after


def test_a_write_lock_not_given_back_in_time_is_a_database_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the wait, the writer gets SQLAlchemy's OperationalError (answered 503)."""
    from sqlalchemy.exc import OperationalError

    from mathable_server.store import engine as db

    monkeypatch.setattr(db, "SQLITE_LOCK_WAIT", 0.3)
    path = tmp_path / "locked.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    waiter = sqlite3.connect(path, isolation_level=None, timeout=30)
    started = time.monotonic()
    info: dict[str, bool] = {}
    with pytest.raises(OperationalError, match="locked"):
        db._begin_immediate(waiter, info)
    assert 0.2 < time.monotonic() - started < 5  # it waited, in Python, not SQLite's 30 s
    assert waiter.execute("PRAGMA busy_timeout").fetchone() == (300,)  # put back
    holder.execute("ROLLBACK")
    db._begin_immediate(waiter, info)  # free now: taken at once
    assert waiter.in_transaction
    waiter.execute("ROLLBACK")
    # A writer's connection stays at 0 for the next writer (no statement to set it), and
    # is given its wait back when a reader takes it.
    assert waiter.execute("PRAGMA busy_timeout").fetchone() == (0,)
    db._wait_for_locks(waiter, info)
    assert waiter.execute("PRAGMA busy_timeout").fetchone() == (300,)


def test_the_shared_counters_take_the_write_lock_the_same_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rate counters on SQLite wait for the lock in Python too, in one transaction."""
    from sqlalchemy.exc import OperationalError

    from mathable_server.store import engine as db
    from mathable_server.store.counters import SqlCounters
    from mathable_server.store.migrations import init_schema

    path = tmp_path / "counters.db"
    engine = db.make_engine(f"sqlite:///{path}")
    init_schema(engine)
    counters = SqlCounters(engine)
    assert counters.incr("k", 60) == 1
    monkeypatch.setattr(db, "SQLITE_LOCK_WAIT", 0.3)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    with pytest.raises(OperationalError, match="locked"):
        counters.incr("k", 60)
    assert time.monotonic() - started < 5  # the Python wait's 0.3 s, not SQLite's 30 s
    holder.execute("ROLLBACK")
    assert counters.incr("k", 60) == 2
    engine.dispose()
