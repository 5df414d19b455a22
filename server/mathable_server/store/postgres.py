"""What the store does its own way on PostgreSQL (see ``mathable_server.store.sqlite``)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Engine, Select, text
from sqlalchemy.exc import IntegrityError

from mathable.core.events import SCHEMA_VERSION
from mathable_server.store import feed
from mathable_server.store.records import Conflict


class PostgresDialect:
    """PostgreSQL: row locks, advisory locks and statements that write several tables."""

    name = "postgresql"
    #: The version read of ``EventRecorder.head``, in the driver's parameter style.
    version_sql = "SELECT version, due_at FROM games WHERE id = %s"

    def read_one(self, driver: Any, sql: str, params: tuple[Any, ...]) -> Any:
        """One row of ``sql`` on a raw driver connection, in autocommit (no BEGIN and
        ROLLBACK round trips); the connection goes back out of autocommit, so that
        writers still get their transactions."""
        driver.autocommit = True
        try:
            return driver.execute(sql, params).fetchone()
        finally:
            driver.autocommit = False

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
        """The events of a move (not a creation: False, nothing written), the game's
        ``row`` (its projection and clock) and the feed rows ``told`` in one statement,
        the transaction's first: a tile placed is BEGIN, that statement and COMMIT.

        The statement runs in the order of the recorder's own steps and
        ``feed.write``, each step reading the result of the one before: the events
        are inserted first (a writer that came second waits there, before it holds
        the game's row: no deadlock with the sweeper's transactions), then the game's
        row is updated, then the feed's lock is taken, before any ``seq`` is drawn,
        and only if the game was at ``expected_version``. A duplicate event (another
        writer came first) fails the whole statement: ``Conflict``.
        """
        if expected_version == 0:
            return False
        params: dict[str, Any] = {
            "game_id": game_id,
            "expected": expected_version,
            "schema": SCHEMA_VERSION,
            "now": now,
            "at": rows[0]["at"],
            "lock": feed.FEED_LOCK,
            "channel": feed.CHANNEL,
            "notice": feed.notice(told),
            **row,
        }
        for index, event in enumerate(rows):
            params[f"v{index}"] = event["version"]
            params[f"t{index}"] = event["type"]
            params[f"d{index}"] = event["data"]
        for index, line in enumerate(told):
            params[f"p{index}"] = line["player_id"]
            params[f"k{index}"] = line["kinds"]
        sql = _told_at_once(len(rows), len(told))
        try:
            moved = conn.exec_driver_sql(sql, params).scalar_one()
        except IntegrityError:
            raise Conflict() from None
        if moved != 1:
            raise Conflict()
        return True

    def lock_player(self, conn: Connection, player_id: str) -> None:
        """Serialise the transactions about one player (an advisory lock until the commit)."""
        conn.exec_driver_sql("SELECT pg_advisory_xact_lock(hashtext(%s))", (player_id,))

    def skip_locked(self, query: Select[Any]) -> Select[Any]:
        """A claim's read of due rows: rows another worker is claiming are skipped, not
        waited for."""
        return query.with_for_update(skip_locked=True)

    # --- transactions -------------------------------------------------------------------

    def reader(self, engine: Engine) -> Engine:
        """``engine`` for reads of one statement: in autocommit (no BEGIN and ROLLBACK round
        trips around it). Make it once and keep it: each call makes a new one."""
        return engine.execution_options(isolation_level="AUTOCOMMIT")

    def lock_transaction(self, conn: Connection, lock_id: int) -> None:
        """Serialise the transactions that name ``lock_id``: that advisory lock, held until
        the commit."""
        conn.execute(_TRANSACTION_LOCK, {"id": lock_id})

    def snapshot_options(self) -> dict[str, Any]:
        """What a read transaction that sees one moment adds to its connection's options."""
        return {"isolation_level": "REPEATABLE READ"}


POSTGRES = PostgresDialect()

#: ``write_transaction``'s lock: held until the transaction ends.
_TRANSACTION_LOCK = text("SELECT pg_advisory_xact_lock(:id)")


@functools.cache
def _told_at_once(events_count: int, told_count: int) -> str:
    """The statement of ``PostgresDialect.append_told`` for so many events and feed rows
    (the same text each time, so that the driver prepares it)."""
    values = ", ".join(
        f"(%(game_id)s, %(v{i})s, %(t{i})s, %(schema)s, %(d{i})s, %(now)s, %(at)s)"
        for i in range(events_count)
    )
    # Each step reads the one before, which orders them as every other writer does:
    # the events first (a second writer waits there), then the game's row, then the lock.
    sql = f"""WITH appended AS (
    INSERT INTO events (game_id, version, type, schema_version, data, created_at, at)
    VALUES {values}
    RETURNING 1
), moved AS (
    UPDATE games SET ruleset = %(ruleset)s, status = %(status)s, players = %(players)s,
        referee = %(referee)s, version = %(version)s, to_move = %(to_move)s,
        updated_at = %(now)s, deadline = %(deadline)s, due_at = %(due_at)s
    WHERE id = %(game_id)s AND version = %(expected)s
        AND (SELECT count(*) FROM appended) = {events_count}
    RETURNING 1
)"""
    if told_count:
        told = ", ".join(f"(%(p{i})s, %(k{i})s)" for i in range(told_count))
        sql += f""", locked AS MATERIALIZED (
    SELECT pg_advisory_xact_lock(%(lock)s), pg_notify(%(channel)s, %(notice)s) FROM moved
), told AS (
    INSERT INTO player_feed (player_id, game_id, version, kinds, at)
    SELECT f.player_id, %(game_id)s, %(version)s::integer, f.kinds, %(at)s::bigint
    FROM locked, (VALUES {told}) AS f (player_id, kinds)
)"""
    return sql + "\nSELECT count(*) FROM moved"
