"""The one place the store asks which database an engine is on: ``dialect_of``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from sqlalchemy import Connection, Engine, Select

from mathable_server.store.postgres import POSTGRES
from mathable_server.store.sqlite import SQLITE


class Dialect(Protocol):
    """What differs between the databases, as the recorders ask it."""

    name: str
    version_sql: str

    def read_one(self, driver: Any, sql: str, params: tuple[Any, ...]) -> Any: ...

    def append_told(
        self,
        conn: Connection,
        game_id: str,
        expected_version: int,
        rows: Sequence[dict[str, Any]],
        row: dict[str, Any],
        now: str,
        told: Sequence[dict[str, Any]],
    ) -> bool: ...

    def lock_player(self, conn: Connection, player_id: str) -> None: ...

    def skip_locked(self, query: Select[Any]) -> Select[Any]: ...


def dialect_of(engine: Engine) -> Dialect:
    """The store's dialect for ``engine``: PostgreSQL's, or SQLite's for any other."""
    return POSTGRES if engine.dialect.name == "postgresql" else SQLITE
