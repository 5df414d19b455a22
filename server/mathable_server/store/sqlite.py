"""What the store does its own way on SQLite: the statements the recorders leave to it.

The store asks ``Recorder.dialect`` or ``dialect_of(engine)`` (this module's
``SQLITE`` or ``mathable_server.store.postgres.POSTGRES``, picked by
``mathable_server.store.dialects.dialect_of``) wherever the two databases
differ; nothing else in the store asks which database it is on.

SQLite's engines themselves (WAL, ``synchronous``, ``BEGIN IMMEDIATE`` waited
for in Python) are made in ``mathable_server.store.engine``, with the others:
this module sits below it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Connection, Engine, Select, Table
from sqlalchemy.dialects.sqlite import Insert, insert
from sqlalchemy.exc import IntegrityError

from mathable_server.store.driver import DriverWrite, insert_rows, run
from mathable_server.store.feed import Follower
from mathable_server.store.rows import Conflict

#: The columns of an event row and of a feed row, as ``EventRecorder.append`` gives them.
EVENT_COLUMNS = ("game_id", "version", "type", "schema_version", "data", "created_at", "at")
FEED_COLUMNS = ("player_id", "game_id", "version", "kinds", "at")
#: A move's update of its game's row: only if the game is where the move found it.
_MOVED = (
    "UPDATE games SET ruleset = ?, status = ?, players = ?, referee = ?, version = ?, "
    "to_move = ?, order_key = ?, updated_at = ?, deadline = ?, due_at = ? "
    "WHERE id = ? AND version = ?"
)


class SqliteDialect:
    """SQLite: one writer at a time (``BEGIN IMMEDIATE``), readers in autocommit."""

    name = "sqlite"
    #: The version read of ``EventRecorder.head``, in the driver's parameter style.
    version_sql = "SELECT version, due_at FROM games WHERE id = ?"
    #: The driver's parameter mark (``store.driver``).
    mark = "?"

    # --- the recorders ------------------------------------------------------------------

    def read_one(self, driver: Any, sql: str, params: tuple[Any, ...]) -> Any:
        """One row of ``sql`` on a raw driver connection (already in autocommit)."""
        return driver.execute(sql, params).fetchone()

    def append_told(
        self,
        conn: Connection | DriverWrite,
        game_id: str,
        expected_version: int,
        rows: Sequence[dict[str, Any]],
        row: dict[str, Any],
        now: str,
        told: Sequence[dict[str, Any]],
    ) -> bool:
        """The events of a move (not a creation: False, nothing written) in one statement,
        the game's ``row`` (its projection and clock) in a second, and the feed rows
        ``told`` in a third, under the write lock the transaction holds: each a statement
        written once, run on the driver (``store.driver``). ``Conflict`` if another
        writer moved the game first."""
        if expected_version == 0:
            return False
        try:
            insert_rows(conn, "events", EVENT_COLUMNS, rows, self.mark)
        except IntegrityError:
            raise Conflict() from None
        moved = run(
            conn,
            _MOVED,
            (
                row["ruleset"], row["status"], row["players"], row["referee"], row["version"],
                row["to_move"], row["order_key"], now, row["deadline"], row["due_at"],
                game_id, expected_version,
            ),
        )  # fmt: skip
        if moved.rowcount != 1:
            raise Conflict()
        if told:
            insert_rows(conn, "player_feed", FEED_COLUMNS, told, self.mark)
        return True

    def lock_player(self, conn: Connection, player_id: str) -> None:
        """Serialise transactions about one player: the write lock does that already."""

    def skip_locked(self, query: Select[Any]) -> Select[Any]:
        """A claim's read of due rows: as it is (one claim at a time holds the write lock)."""
        return query

    # --- transactions -------------------------------------------------------------------

    def reader(self, engine: Engine) -> Engine:
        """``engine`` for reads of one statement: itself (SQLite readers run each statement
        in autocommit already: no BEGIN)."""
        return engine

    def lock_transaction(self, conn: Connection, lock_id: int) -> None:
        """Serialise the transactions that name ``lock_id``: ``BEGIN IMMEDIATE`` (the write
        lock every write transaction takes) does that already."""

    def follow_explicit_ids(self, conn: Connection, table: Table, column: str) -> None:
        """Nothing to do: SQLite numbers a new row after the highest there is."""

    def snapshot_options(self) -> dict[str, Any]:
        """What a read transaction that sees one moment adds to its connection's options:
        nothing (the engine's ``sqlite_snapshot`` says ``BEGIN DEFERRED``; in WAL mode
        its first read fixes the snapshot)."""
        return {}

    # --- the feed and its followers -----------------------------------------------------

    def lock_feed_and_notify(self, conn: Connection, told: Sequence[dict[str, Any]]) -> None:
        """Nothing: the write lock orders the feed's rows already, and followers poll
        (``follow``) rather than listen."""

    def follow(self, follower: Follower) -> None:
        """Follow the feed until stopped: ``PRAGMA data_version``, on a connection of its
        own, changes when any other connection (of any process) commits; a cheap poll
        every ``follower.sqlite_poll`` seconds, or at once when this process committed."""
        seen: int | None = None
        conn: Any = None
        while not follower.stopped():
            kicked = follower.kicked(follower.sqlite_poll)
            try:
                if conn is None:
                    conn = follower.engine.raw_connection()
                version = conn.driver_connection.execute("PRAGMA data_version").fetchone()[0]
            except Exception as err:
                follower.log.warning("mathable: watching the database failed: %s", err)
                if conn is not None:
                    conn.invalidate()
                conn = None
                time.sleep(follower.sqlite_poll)
                continue
            if kicked or version != seen or follower.last is None:
                if follower.catch_up_safely():
                    seen = version
        if conn is not None:
            conn.close()

    # --- the shared counters ------------------------------------------------------------

    def insert_on_conflict(self, table: Table) -> Insert:
        """An ``INSERT`` into ``table`` that says what a conflict does
        (``on_conflict_do_update``, ``on_conflict_do_nothing``, ``excluded``)."""
        return insert(table)

    def counter_engine(self, engine: Engine, own: Callable[[], Engine]) -> Engine:
        """The engine held polls write through: ``own()``, an engine of their own.

        Every commit of the game engine syncs to disk (``synchronous=FULL``): a
        counter is not worth a sync, so counters get their own connections, whose
        commits do not wait for it (``synchronous=NORMAL``: in WAL mode a crash may
        forget the last counts).
        """
        return own()

    def rate_counter_engine(self, engine: Engine, own: Callable[[], Engine]) -> Engine:
        """The engine request counts go through: one of their own, as ``counter_engine``."""
        return self.counter_engine(engine, own)

    def counters_in_memory(self, single_process: bool) -> bool:
        """Whether counters may live in this process's memory: when it is the only process
        on the database's file (``mathable-server run``)."""
        return single_process


SQLITE = SqliteDialect()
