"""What the store does its own way on PostgreSQL (see ``mathable_server.store.sqlite``)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Connection, Engine, Select, Table, create_engine, text
from sqlalchemy.dialects.postgresql import Insert, insert
from sqlalchemy.event import listens_for
from sqlalchemy.exc import IntegrityError

from mathable_server.store import feed
from mathable_server.store.driver import DriverWrite, run
from mathable_server.store.feed import Follower
from mathable_server.store.rows import Conflict

#: The longest pause between two attempts to reconnect the ``LISTEN`` connection.
MAX_RECONNECT_PAUSE = 5.0


class PostgresDialect:
    """PostgreSQL: row locks, advisory locks and statements that write several tables."""

    name = "postgresql"
    #: The version read of ``EventRecorder.head``, in the driver's parameter style.
    version_sql = "SELECT version, due_at FROM games WHERE id = %s"
    #: The driver's parameter mark (``store.driver``).
    mark = "%s"

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
        conn: Connection | DriverWrite,
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
            params[f"s{index}"] = event["schema_version"]
        for index, line in enumerate(told):
            params[f"p{index}"] = line["player_id"]
            params[f"k{index}"] = line["kinds"]
        sql = _told_at_once(len(rows), len(told))
        try:
            moved = run(conn, sql, params).fetchone()[0]  # one row: the count
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

    def follow_explicit_ids(self, conn: Connection, table: Table, column: str) -> None:
        """After rows were written with their own ``column`` numbers (``load``), the
        column's sequence goes on after the highest: the next insert takes no used number."""
        conn.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column}'), "
                f"max({column})) FROM {table.name} HAVING max({column}) IS NOT NULL"
            )
        )

    def snapshot_options(self) -> dict[str, Any]:
        """What a read transaction that sees one moment adds to its connection's options."""
        return {"isolation_level": "REPEATABLE READ"}

    # --- the feed and its followers -----------------------------------------------------

    def lock_feed_and_notify(self, conn: Connection, told: Sequence[dict[str, Any]]) -> None:
        """Take the feed's advisory lock, held until the commit (rows become visible in
        the order of their ``seq``), and queue the notification of ``told`` that the
        commit sends (``feed.notice``): one round trip."""
        conn.execute(
            _LOCK_AND_NOTIFY,
            {"id": feed.FEED_LOCK, "channel": feed.CHANNEL, "notice": feed.notice(told)},
        )

    def follow(self, follower: Follower) -> None:
        """Follow the feed until stopped: ``LISTEN`` on one connection of its own (whatever
        the number of waiters), reading the feed after each notification, and every
        ``notice_wait`` seconds anyway. A dropped connection is noticed, reconnected with
        a growing pause, and the rows missed meanwhile are read (the feed is the truth, a
        notification only says "look"); rows the follower may put off are read later.
        """
        pause = 0.1
        conn: Any = None
        while not follower.stopped():
            if conn is None:
                try:
                    conn = _listen(follower)
                except Exception as err:
                    follower.log.warning("mathable: LISTEN connection failed: %s", err)
                    follower.pause(pause)
                    pause = min(pause * 2, MAX_RECONNECT_PAUSE)
                    continue
                pause = 0.1
                follower.catch_up_safely()  # whatever was missed while not listening
            try:
                # psycopg waits cooperatively under gevent (psycopg >= 3.1.14).
                told = list(conn.notifies(timeout=follower.notice_wait(), stop_after=1))
                if not told:
                    conn.execute("SELECT 1")  # notices a connection gone quietly
                elif follower.may_put_off([n.payload for n in told]):
                    continue
            except Exception as err:
                follower.log.warning("mathable: LISTEN connection lost (%s); reconnecting", err)
                try:
                    conn.close()
                except Exception:
                    pass
                conn = None
                continue
            follower.catch_up_safely()
        if conn is not None:
            conn.close()

    # --- the shared counters ------------------------------------------------------------

    def insert_on_conflict(self, table: Table) -> Insert:
        """An ``INSERT`` into ``table`` that says what a conflict does
        (``on_conflict_do_update``, ``on_conflict_do_nothing``, ``excluded``)."""
        return insert(table)

    def counter_engine(self, engine: Engine, own: Callable[[], Engine]) -> Engine:
        """The engine held polls write through: ``engine`` itself (their leases are
        written in batches, one transaction a flush; ``own`` is not needed)."""
        return engine

    def rate_counter_engine(self, engine: Engine, own: Callable[[], Engine]) -> Engine:
        """The engine request counts go through: one of their own whose connections count
        in autocommit without waiting for the disk.

        A count is one statement: in autocommit it is one round trip (no BEGIN and
        COMMIT around it), and with ``synchronous_commit`` off its commit does not wait
        for the WAL to reach the disk (a crash may forget the last fraction of a
        second's counts, as on SQLite; a move's commit still waits: other connections).
        """
        counters = create_engine(
            engine.url,
            pool_size=4,
            max_overflow=4,  # at most 8 more connections a process (docs/server.md)
            pool_recycle=1800,
            isolation_level="AUTOCOMMIT",
            hide_parameters=True,
        )

        @listens_for(counters, "connect")
        def _on_connect(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.autocommit = True
            dbapi_connection.execute("SET synchronous_commit TO off")

        @listens_for(engine, "engine_disposed")
        def _on_dispose(_engine: Engine) -> None:
            counters.dispose()  # its connections go with the game engine's

        return counters

    def counters_in_memory(self, single_process: bool) -> bool:
        """Whether counters may live in this process's memory: never; they are kept in the
        database, one process or many."""
        return False


POSTGRES = PostgresDialect()

#: ``write_transaction``'s lock: held until the transaction ends.
_TRANSACTION_LOCK = text("SELECT pg_advisory_xact_lock(:id)")
#: One round trip: the feed's lock, and the notification sent when the transaction commits.
_LOCK_AND_NOTIFY = text("SELECT pg_advisory_xact_lock(:id), pg_notify(:channel, :notice)")


def _listen(follower: Follower) -> Any:
    """A connection of the follower's own, listening on the feed's channel."""
    # deferred: the optional 'postgres' extra (psycopg); SQLite servers run without it
    import psycopg

    url = follower.engine.url.set(drivername="postgresql")
    conn = psycopg.connect(
        url.render_as_string(hide_password=False),
        autocommit=True,
        connect_timeout=5,
        application_name="mathable-listen",
    )
    try:
        conn.execute(f"LISTEN {feed.CHANNEL}")
    except BaseException:
        conn.close()  # not left for the collector to find open
        raise
    follower.listens += 1
    return conn


@functools.cache
def _told_at_once(events_count: int, told_count: int) -> str:
    """The statement of ``PostgresDialect.append_told`` for so many events and feed rows
    (the same text each time, so that the driver prepares it)."""
    values = ", ".join(
        f"(%(game_id)s, %(v{i})s, %(t{i})s, %(s{i})s, %(d{i})s, %(now)s, %(at)s)"
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
