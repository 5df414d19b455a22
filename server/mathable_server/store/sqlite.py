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

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Engine, Select


class SqliteDialect:
    """SQLite: one writer at a time (``BEGIN IMMEDIATE``), readers in autocommit."""

    name = "sqlite"
    #: The version read of ``EventRecorder.head``, in the driver's parameter style.
    version_sql = "SELECT version, due_at FROM games WHERE id = ?"

    # --- the recorders ------------------------------------------------------------------

    def read_one(self, driver: Any, sql: str, params: tuple[Any, ...]) -> Any:
        """One row of ``sql`` on a raw driver connection (already in autocommit)."""
        return driver.execute(sql, params).fetchone()

    def append_told(
        self,
        conn: Connection,
        game_id: str,
        expected_version: int,
        rows: Sequence[dict[str, Any]],
        row: dict[str, Any],
        now: str,
        told: Sequence[dict[str, Any]],
    ) -> bool:
        """Events, projection and feed rows in one statement: not here (False); the
        recorder writes them one after the other, under the write lock."""
        return False

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

    def snapshot_options(self) -> dict[str, Any]:
        """What a read transaction that sees one moment adds to its connection's options:
        nothing (the engine's ``sqlite_snapshot`` says ``BEGIN DEFERRED``; in WAL mode
        its first read fixes the snapshot)."""
        return {}


SQLITE = SqliteDialect()
