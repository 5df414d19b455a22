"""Engines for SQLite and PostgreSQL, the transactions the store opens on them, and the
schema (``mathable_server.store.schema``) under this module's name as well.

What the two databases do differently inside a transaction is the dialects'
(``mathable_server.store.dialects``): ``reader``, ``write_transaction`` and
``snapshot`` ask ``dialect_of``. Making an engine comes before any dialect:
``make_engine`` reads the URL, and SQLite's engines are set up here (their write
lock waited for in Python, ``_begin_immediate``), since the dialects' modules
sit below this one.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    create_engine,
    event,
    make_url,
)
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import ConnectionPoolEntry

from mathable_server.store.dialects import dialect_of
from mathable_server.store.driver import DriverWrite
from mathable_server.store.schema import (
    blocks,
    email_addresses,
    events,
    game_members,
    games,
    held_polls,
    idempotency_keys,
    inbound_messages,
    metadata,
    notification_settings,
    outbox,
    play_addresses,
    player_feed,
    players,
    rate_counters,
    registration_keys,
    server_secrets,
    vacations,
)

__all__ = [
    # The schema, as it was always imported from here.
    "blocks",
    "email_addresses",
    "events",
    "game_members",
    "games",
    "held_polls",
    "idempotency_keys",
    "inbound_messages",
    "metadata",
    "notification_settings",
    "outbox",
    "play_addresses",
    "player_feed",
    "players",
    "rate_counters",
    "registration_keys",
    "server_secrets",
    "vacations",
    # Engines and transactions.
    "SQLITE_LOCK_WAIT",
    "make_engine",
    "normalize_url",
    "reader",
    "snapshot",
    "sqlite_engine",
    "write_transaction",
]


def normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` URLs use psycopg 3; others are left alone.

    >>> normalize_url("postgresql://u@h/db")
    'postgresql+psycopg://u@h/db'
    >>> normalize_url("postgres://u@h/db")
    'postgresql+psycopg://u@h/db'
    >>> normalize_url("sqlite:////tmp/x.db")
    'sqlite:////tmp/x.db'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def reader(engine: Engine) -> Engine:
    """``engine`` for reads of one statement: in autocommit on PostgreSQL (no BEGIN and
    ROLLBACK round trips around it); SQLite readers run in autocommit already. Make it
    once and keep it: each call makes a new one."""
    return dialect_of(engine).reader(engine)


def make_engine(database_url: str | URL, pool_size: int = 8, *, durable: bool = True) -> Engine:
    """An engine for ``database_url``, set up for many short transactions from many threads.

    ``durable=False``: an engine of the counters' own (``Dialect.counter_engine``),
    whose commits need not survive a power cut: SQLite syncs less
    (``synchronous=NORMAL``); PostgreSQL's engine is the same either way.
    """
    url = database_url if isinstance(database_url, URL) else make_url(normalize_url(database_url))
    # The one place outside store.dialects that tells the databases apart: there is no
    # engine yet for dialect_of to ask, and SQLite's engine is made here (sqlite_engine:
    # its write lock is waited for by _begin_immediate, below the dialects' modules).
    if url.get_backend_name() == "sqlite":
        return sqlite_engine(url, pool_size, "FULL" if durable else "NORMAL")
    return create_engine(
        url,
        # What a statement carried (a rack, say) never reaches an error's text or a log.
        hide_parameters=True,
        pool_size=pool_size,
        max_overflow=pool_size,
        # No pre-ping (a round trip per checkout): a dropped connection fails one request
        # with 503, SQLAlchemy then discards the pool and the next request reconnects.
        pool_recycle=1800,
    )


def sqlite_engine(url: URL, pool_size: int, synchronous: str = "FULL") -> Engine:
    """A SQLite engine: WAL, ``synchronous`` (FULL: an acknowledged move survives a power
    cut, not only a crash), reads in autocommit, writes (``write_transaction``) behind
    ``BEGIN IMMEDIATE`` taken by ``_begin_immediate``."""
    if url.database and url.database != ":memory:" and not url.database.startswith("file:"):
        private_sqlite_file(Path(url.database).expanduser())
    engine = create_engine(
        url,
        hide_parameters=True,
        pool_size=pool_size,
        max_overflow=pool_size,
        # The connection used last is used next: its pages are in its cache, and it is
        # already set up for what it did (a writer's busy timeout: _begin_immediate).
        pool_use_lifo=True,
        # A statement meeting a lock waits up to this many seconds (writers wait for
        # each other in ``_begin_immediate``, outside SQLite's busy handler).
        connect_args={"timeout": SQLITE_LOCK_WAIT, "check_same_thread": False},
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
        # Take transaction control from the driver so that BEGIN is ours to emit.
        dbapi_connection.isolation_level = None
        # A write on the driver alone (``driver_write``) begins as ``_on_begin`` does.
        record.info[_BEGIN_WRITE] = _begin_immediate
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # Writers take the write lock up front: a read-then-write transaction in WAL
        # mode could otherwise fail with SQLITE_BUSY_SNAPSHOT instead of waiting.
        # Readers run each (single) statement in autocommit: no BEGIN round trip.
        options = conn.get_execution_options()
        if options.get("sqlite_write", False):
            _begin_immediate(conn.connection.driver_connection, conn.connection.info)
            return
        _wait_for_locks(conn.connection.driver_connection, conn.connection.info)
        if options.get("sqlite_snapshot", False):
            # A reader that needs one snapshot across several statements (a dump).
            conn.exec_driver_sql("BEGIN DEFERRED")

    return engine


log = logging.getLogger(__name__)


def private_sqlite_file(path: Path) -> None:
    """Make ``path`` an empty file only its owner may read (0600) if it is not there yet.

    The database holds the server's secret, from which every play address can be
    derived. SQLite gives its ``-wal`` and ``-shm`` files the database's mode, so
    they are private too. An existing database keeps its mode: one that others may
    read is logged (a warning), not changed behind the operator's back.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            log.warning(
                "%s can be read by others (mode %o): it holds the server's secret; "
                "chmod 600 it and its -wal and -shm files",
                path,
                mode,
            )
        return
    os.close(fd)


#: How long a writer waits for SQLite's write lock (and a statement for any lock).
SQLITE_LOCK_WAIT = 30.0


#: A pooled connection's ``info`` key: set while its busy timeout is 0 (a writer's).
_NO_BUSY_WAIT = "mathable_no_busy_wait"
#: A pooled connection's ``info`` key: how a write transaction begins on its driver
#: (``driver_write``), when it is not by the driver's first statement (SQLite's
#: ``BEGIN IMMEDIATE``; PostgreSQL's driver begins by itself).
_BEGIN_WRITE = "mathable_begin_write"


def _begin_immediate(driver: sqlite3.Connection, info: dict[Any, Any] | None = None) -> None:
    """Take SQLite's write lock, waiting for another writer in Python, not in SQLite.

    SQLite's busy handler sleeps inside the C library: under ``serve``'s gevent
    workers that would freeze every connection of the worker while another process
    writes. Here the lock is asked for without waiting and ``time.sleep`` (green
    under gevent) separates the tries, so the worker serves its other requests.

    The connection's busy timeout is set to 0 once and left so while writers use it
    (``info`` remembers): holding the write lock, a writer's statements never wait
    (WAL: readers do not block a writer). A reader given the connection next sets
    it back first (``_wait_for_locks``); the one-row reads of ``EventRecorder.head``,
    on the driver itself, need none (a WAL reader takes no lock a writer holds).
    Before issue 47 every write transaction set it to 0 and back: two statements
    more per move.
    """
    info = {} if info is None else info
    if not info.get(_NO_BUSY_WAIT):
        driver.execute("PRAGMA busy_timeout = 0")
        info[_NO_BUSY_WAIT] = True
    deadline = time.monotonic() + SQLITE_LOCK_WAIT
    pause = 0.001
    while True:
        try:
            driver.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.Error as error:
            if "locked" not in str(error) or time.monotonic() + pause > deadline:
                _wait_for_locks(driver, info)  # a failed writer's connection: as it was
                # As SQLAlchemy would have raised it: OperationalError answers 503.
                raise DBAPIError.instance("BEGIN IMMEDIATE", None, error, sqlite3.Error) from error
        time.sleep(pause)
        pause = min(pause * 2, 0.016)


def _wait_for_locks(driver: sqlite3.Connection, info: dict[Any, Any]) -> None:
    """Give a connection a writer left at busy timeout 0 its timeout back: any other
    statement meeting a lock waits for it (``SQLITE_LOCK_WAIT``)."""
    if info.pop(_NO_BUSY_WAIT, False):
        driver.execute(f"PRAGMA busy_timeout = {int(SQLITE_LOCK_WAIT * 1000)}")


@contextmanager
def write_transaction(engine: Engine, lock_id: int | None = None) -> Iterator[Connection]:
    """One write transaction (SQLite: ``BEGIN IMMEDIATE``); with ``lock_id``, such
    transactions run one at a time (``Dialect.lock_transaction``: PostgreSQL takes that
    advisory lock)."""
    with engine.connect().execution_options(sqlite_write=True) as conn, conn.begin():
        if lock_id is not None:
            dialect_of(engine).lock_transaction(conn, lock_id)
        yield conn


@contextmanager
def driver_write(engine: Engine) -> Iterator[DriverWrite]:
    """One write transaction on a pooled connection's driver, without SQLAlchemy's
    ``Connection`` (``store.driver``): begun as ``write_transaction`` begins one (SQLite:
    ``BEGIN IMMEDIATE``, ``_BEGIN_WRITE``), committed when the block ends, rolled back
    when it raises. The driver's errors come out as SQLAlchemy raises them (``run``; the
    commit's too). A connection that cannot even be rolled back is invalidated (one
    that lost its server, say): the pool replaces it, as it replaces a reader's
    (``EventRecorder._read_raw``)."""
    dbapi = engine.dialect.loaded_dbapi
    try:
        pooled = engine.raw_connection()
    except dbapi.Error as err:  # no connection to be had: the database is down
        raise DBAPIError.instance("BEGIN", None, err, dbapi.Error) from err
    ended = False  # committed or rolled back: the pool need not roll back again
    try:
        driver = pooled.driver_connection
        begin = pooled.info.get(_BEGIN_WRITE)
        if begin is not None:
            begin(driver, pooled.info)
        yield DriverWrite(driver, dbapi)
        try:
            driver.commit()  # type: ignore[union-attr]
        except dbapi.Error as err:
            raise DBAPIError.instance("COMMIT", None, err, dbapi.Error) from err
        ended = True
    except BaseException:
        try:
            driver.rollback()  # type: ignore[union-attr]
            ended = True
        except Exception:
            pooled.invalidate()
        raise
    finally:
        # As SQLAlchemy's own Connection gives back a connection whose transaction it
        # ended: without the pool's rollback on return (a round of the driver's machinery
        # for nothing); any other way, as the pool gives one back.
        close_ended = getattr(pooled, "_close_special", None) if ended else None
        if close_ended is not None:
            close_ended(transaction_reset=True)
        else:
            pooled.close()


@contextmanager
def snapshot(engine: Engine) -> Iterator[Connection]:
    """One read transaction whose statements all see the same moment (SQLite: ``BEGIN
    DEFERRED``; the dialect adds its own options, ``Dialect.snapshot_options``)."""
    options: dict[str, Any] = {"sqlite_snapshot": True, **dialect_of(engine).snapshot_options()}
    with engine.connect().execution_options(**options) as conn, conn.begin():
        yield conn
