"""The engine on SQLite (``store/engine.py``): a new database and its ``-wal`` and
``-shm`` files are private whatever the umask; an existing one others can read is left as
it is and logged with the advice to ``chmod 600``.

Pinned since the second security review (issue 27), its file findings.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import IntegrityError, OperationalError

from mathable_server.store import migrations
from mathable_server.store.driver import run
from mathable_server.store.engine import driver_write, make_engine


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_sqlite_database_and_its_wal_files_are_private(
    tmp_path: Path, umask_022: None
) -> None:
    """Second security review (issue 27), file modes: a new database was made as the umask
    said, world-readable under the common 022."""
    path = tmp_path / "new" / "mathable.db"
    engine = make_engine(f"sqlite:///{path}")
    try:
        migrations.init_schema(engine)
        with engine.connect() as conn:  # held open: the -wal and -shm files are there
            conn.execute(text("SELECT count(*) FROM server_secrets"))
            found = {p.name: _mode(p) for p in path.parent.iterdir()}
    finally:
        engine.dispose()
    assert {"mathable.db", "mathable.db-wal", "mathable.db-shm"} <= set(found), found
    assert all(mode == 0o600 for mode in found.values()), {n: oct(m) for n, m in found.items()}


def test_an_existing_readable_database_is_logged_and_left_as_it_is(
    tmp_path: Path, umask_022: None, caplog: pytest.LogCaptureFixture
) -> None:
    """Second security review (issue 27), file modes."""
    path = tmp_path / "mathable.db"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)
    with caplog.at_level(logging.WARNING, logger="mathable_server.store.engine"):
        make_engine(f"sqlite:///{path}").dispose()
    assert _mode(path) == 0o644
    assert "can be read by others" in caplog.text and "chmod 600" in caplog.text


def test_a_write_on_the_driver_alone_begins_commits_and_rolls_back_as_sqlalchemy_would(
    tmp_path: Path,
) -> None:
    """``driver_write`` (issue 47, the move path): ``BEGIN IMMEDIATE`` as every writer
    begins on SQLite, ``COMMIT`` at the end; a block that raises is rolled back and its
    connection given back to the pool in autocommit; the driver's errors come out as
    SQLAlchemy's (an ``OperationalError`` is a 503)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'w.db'}", pool_size=1)
    statements: list[str] = []

    def trace(dbapi: Any, _record: Any) -> None:
        dbapi.set_trace_callback(statements.append)

    event.listen(engine, "connect", trace)
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("CREATE TABLE t (x INTEGER PRIMARY KEY)")
            conn.commit()
        statements.clear()
        with driver_write(engine) as write:
            run(write, "INSERT INTO t (x) VALUES (?)", (1,))
        # The connection's first writer sets its busy timeout to 0, once (as for SQLAlchemy's).
        begin = ["PRAGMA busy_timeout = 0", "BEGIN IMMEDIATE"]
        assert statements == [*begin, "INSERT INTO t (x) VALUES (1)", "COMMIT"]
        statements.clear()
        with driver_write(engine) as write:
            run(write, "DELETE FROM t WHERE x = ?", (4,))
        assert statements == ["BEGIN IMMEDIATE", "DELETE FROM t WHERE x = 4", "COMMIT"]
        with pytest.raises(IntegrityError), driver_write(engine) as write:
            run(write, "INSERT INTO t (x) VALUES (?)", (2,))
            run(write, "INSERT INTO t (x) VALUES (?)", (1,))
        with pytest.raises(OperationalError), driver_write(engine) as write:
            run(write, "INSERT INTO nowhere (x) VALUES (?)", (3,))
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT x FROM t").scalars().all() == [1]
            assert conn.connection.driver_connection.in_transaction is False  # type: ignore[union-attr]
    finally:
        engine.dispose()


def test_a_write_on_the_driver_that_cannot_roll_back_gives_its_connection_up(
    tmp_path: Path,
) -> None:
    """A connection lost in a ``driver_write`` (it cannot even be rolled back) is
    invalidated: the pool opens another for the next writer."""
    engine = make_engine(f"sqlite:///{tmp_path / 'lost.db'}", pool_size=1)
    try:
        with pytest.raises(RuntimeError), driver_write(engine) as write:
            lost = write.driver
            lost.close()
            raise RuntimeError("the connection went away")
        with driver_write(engine) as write:
            assert write.driver is not lost
            run(write, "CREATE TABLE t (x INTEGER)")
    finally:
        engine.dispose()


def test_a_write_on_the_driver_gives_its_connection_back_as_sqlalchemy_does(
    tmp_path: Path,
) -> None:
    """Its transaction ended (committed, or rolled back after an error), a ``driver_write``
    gives its connection back to the pool without the pool's own rollback on return (the
    pool is told so), as SQLAlchemy's ``Connection`` does when it is closed with its
    transaction open; one closed after its ``begin()`` block is rolled back once more."""
    engine = make_engine(f"sqlite:///{tmp_path / 'reset.db'}", pool_size=1)
    resets: list[bool] = []

    def reset(_dbapi: Any, _record: Any, state: Any) -> None:
        resets.append(state.transaction_was_reset)

    event.listen(engine, "reset", reset)
    try:
        with driver_write(engine) as write:
            run(write, "CREATE TABLE t (x INTEGER PRIMARY KEY)")
        with pytest.raises(IntegrityError), driver_write(engine) as write:
            run(write, "INSERT INTO t (x) VALUES (?), (?)", (1, 1))
        with engine.connect() as conn, conn.begin():  # SQLAlchemy's own, for comparison
            conn.exec_driver_sql("INSERT INTO t (x) VALUES (2)")
        assert resets == [True, True, False]
    finally:
        engine.dispose()
