"""What the store does its own way on SQLite: the statements the recorders leave to it.

The recorders ask ``Recorder.dialect`` (this module's ``SQLITE`` or
``mathable_server.store.postgres.POSTGRES``, picked once per engine by
``dialect_of``) wherever the two databases differ; nothing else in the store asks
which database it is on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Select


class SqliteDialect:
    """SQLite: one writer at a time (``BEGIN IMMEDIATE``), readers in autocommit."""

    name = "sqlite"
    #: The version read of ``EventRecorder.head``, in the driver's parameter style.
    version_sql = "SELECT version, due_at FROM games WHERE id = ?"

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


SQLITE = SqliteDialect()
