"""The store's tests (``mathable_server.store``). Its contract suite, every test taking
``backend`` or ``store``, runs against every backend; ``test_engine.py`` and
``test_sqlite_write_lock.py`` are SQLite's own.

``backend`` is parametrized over SQLite and PostgreSQL (skipped, saying why, when
MATHABLE_TEST_POSTGRES_URL is unset); each PostgreSQL test gets a schema of its own.

The one place the contract suite imports the engine, the schema and the store's modules
that live outside ``mathable_server.store`` (``db``, ``migrations``, ``feed``,
``counters``, ``dialects``, ``wakeups``): its modules take them from here, so a move of
any of them is a one-line change below.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy import Engine

from mathable_server.store import Store, counters, dialects, feed, wakeups
from mathable_server.store import engine as db
from mathable_server.store.migrations import init_schema, upgrade
from tests.server.conftest import POSTGRES_ENV, fresh_postgres_schema, postgres_base_url

__all__ = [
    "init_schema", "Backend", "counters", "db", "dialects", "feed", "upgrade", "wakeups"]


@dataclass
class Backend:
    """One database with the newest schema: its URL, an engine on it and the engines made."""

    name: str
    url: str
    engine: Engine
    _engines: list[Engine] = field(default_factory=list)

    def store(self) -> Store:
        """A ``Store`` on this backend's engine."""
        return Store(self.engine)

    def another_engine(self, pool_size: int = 4) -> Engine:
        """A second engine on the same database: another server process, say."""
        engine = db.make_engine(self.url, pool_size=pool_size)
        self._engines.append(engine)
        return engine

    def dispose(self) -> None:
        for engine in [self.engine, *self._engines]:
            engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """Each contract test runs on SQLite and on PostgreSQL."""
    drop = None
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'store.db'}"
    else:
        base = postgres_base_url()
        if base is None:
            pytest.skip(f"{POSTGRES_ENV} is not set: PostgreSQL tests skipped")
        url, drop = fresh_postgres_schema(base)
    engine = db.make_engine(url, pool_size=4)
    upgrade(engine)
    found = Backend(request.param, url, engine)
    try:
        yield found
    finally:
        found.dispose()
        if drop is not None:
            drop()


@pytest.fixture
def store(backend: Backend) -> Store:
    return backend.store()
