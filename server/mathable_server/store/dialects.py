"""The one place the store asks which database an engine is on: ``dialect_of``.

Everything the store does differently on SQLite and on PostgreSQL is a member
of ``Dialect``, written once in ``mathable_server.store.sqlite`` and once in
``mathable_server.store.postgres``. The rest of the store asks the dialect
(``Recorder.dialect``, or ``dialect_of(engine)``) and never the engine's name.
The one other place that tells the databases apart is ``engine.make_engine``,
which reads a URL before there is an engine to ask about.

The dialects' modules sit below ``engine`` (which asks them) and above
``feed`` (whose rows they lock and announce): the feed is handed its dialect
(``feed.write``), and a dialect's loop its follower (``Dialect.follow``,
``feed.Follower``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from sqlalchemy import Connection, Engine, Select, Table

from mathable_server.store.driver import DriverWrite
from mathable_server.store.feed import Follower
from mathable_server.store.postgres import POSTGRES
from mathable_server.store.sqlite import SQLITE


class Dialect(Protocol):
    """What differs between the databases, as the store asks it."""

    name: str
    version_sql: str
    #: The driver's parameter mark: ``?`` (sqlite3) or ``%s`` (psycopg).
    mark: str

    # --- the recorders ------------------------------------------------------------------

    def read_one(self, driver: Any, sql: str, params: tuple[Any, ...]) -> Any: ...

    def append_told(
        self,
        conn: Connection | DriverWrite,
        game_id: str,
        expected_version: int,
        rows: Sequence[dict[str, Any]],
        row: dict[str, Any],
        now: str,
        told: Sequence[dict[str, Any]],
    ) -> bool: ...

    def lock_player(self, conn: Connection, player_id: str) -> None: ...

    def skip_locked(self, query: Select[Any]) -> Select[Any]: ...

    # --- transactions (``engine.reader``, ``write_transaction``, ``snapshot``) ----------

    def reader(self, engine: Engine) -> Engine: ...

    def lock_transaction(self, conn: Connection, lock_id: int) -> None: ...

    def snapshot_options(self) -> dict[str, Any]: ...

    def follow_explicit_ids(self, conn: Connection, table: Table, column: str) -> None: ...

    # --- the feed and its followers -----------------------------------------------------

    def lock_feed_and_notify(self, conn: Connection, told: Sequence[dict[str, Any]]) -> None: ...

    def follow(self, follower: Follower) -> None: ...

    # --- the shared counters ------------------------------------------------------------

    def insert_on_conflict(self, table: Table) -> Any: ...

    def counter_engine(self, engine: Engine, own: Callable[[], Engine]) -> Engine: ...

    def rate_counter_engine(self, engine: Engine, own: Callable[[], Engine]) -> Engine: ...

    def counters_in_memory(self, single_process: bool) -> bool: ...


def dialect_of(engine: Engine) -> Dialect:
    """The store's dialect for ``engine``: PostgreSQL's, or SQLite's for any other."""
    return POSTGRES if engine.dialect.name == "postgresql" else SQLITE
