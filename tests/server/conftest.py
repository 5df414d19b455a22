"""Fixtures for the server tests: apps on SQLite, PostgreSQL schemas, live servers."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text
from werkzeug.test import TestResponse

from mathable_server import Settings, create_app
from mathable_server.store.engine import normalize_url
from tests.server.contract import check_response
from tests.server.helpers import Table
from tests.server.live import live_server

POSTGRES_ENV = "MATHABLE_TEST_POSTGRES_URL"


def postgres_base_url() -> str | None:
    return os.environ.get(POSTGRES_ENV) or None


def _with_search_path(url: str, schema: str) -> str:
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}options={quote(f'-csearch_path={schema}')}"


def fresh_postgres_schema(base: str) -> tuple[str, Any]:
    """A new, empty schema in the test database: (URL using it, drop function)."""
    schema = f"mt_{os.getpid()}_{secrets.token_hex(4)}"
    admin = create_engine(normalize_url(base), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))

    def drop() -> None:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()

    return _with_search_path(base, schema), drop


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL URL on a schema of its own, dropped afterwards; skips without one."""
    base = postgres_base_url()
    if base is None:
        pytest.skip(f"{POSTGRES_ENV} is not set: PostgreSQL tests skipped")
    url, drop = fresh_postgres_schema(base)
    try:
        yield url
    finally:
        drop()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'mathable.db'}"


#: The two databases, as the parametrized fixtures name them.
DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``store_url`` (so ``app``, ``client``, ``table``, ``unchanged``) runs each test marked
    ``both_databases`` on SQLite and on PostgreSQL: the modules whose requests reach the
    store, where the databases differ (``mathable_server.store.sqlite`` and ``.postgres``),
    say so with ``pytestmark = pytest.mark.both_databases`` (a test or class may carry it
    too). The others (the spec, error shapes, pictures, SQLite's own write lock) build their
    app on SQLite alone."""
    marked = metafunc.definition.get_closest_marker("both_databases") is not None
    if marked and "store_url" in metafunc.fixturenames:
        metafunc.parametrize("store_url", DATABASES, indirect=True)


@pytest.fixture
def store_url(request: pytest.FixtureRequest, sqlite_url: str) -> str:
    """The database ``app`` runs on: SQLite, and for tests marked ``both_databases`` also
    PostgreSQL."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return sqlite_url
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each test using this runs on SQLite and on PostgreSQL (skipped without it)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'mathable.db'}"
    else:
        yield request.getfixturevalue("postgres_url")


class ContractClient(FlaskClient):
    """A test client that checks every answer against openapi.yaml."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        response = super().open(*args, **kwargs)
        request = response.request
        check_response(
            request.method,
            request.path,
            response.status_code,
            response.get_data(),
            response.content_type,
        )
        return response


#: The apps a test made and has not closed: ``_close_apps`` closes them after it.
_OPEN_APPS: list[Flask] = []


def make_app(database_url: str, **settings: Any) -> Flask:
    # Most tests set up games with a given bag order: the server must allow it.
    settings.setdefault("allow_given_tiles", True)
    settings.setdefault("allow_seeds", True)
    # Fewer connections than a server's default: the test workers share PostgreSQL's 100.
    settings.setdefault("pool_size", 4)
    app = create_app(Settings(database_url=database_url, **settings))
    app.test_client_class = ContractClient
    _OPEN_APPS.append(app)
    return app


def close_app(app: Flask) -> None:
    """End what an app runs in the background, then its engine: the feed follower first
    (on PostgreSQL it would go on reading a dropped schema), and the held polls' flusher
    (it would go on writing leases into it); connections left open fail the suite."""
    if app in _OPEN_APPS:
        _OPEN_APPS.remove(app)
    services = app.extensions["mathable"]
    services.follower.stop()
    services.held_polls.stop()
    services.store.engine.dispose()


@pytest.fixture(autouse=True)
def _close_apps() -> Iterator[None]:
    """Every app a test made is closed after it, whether or not the test closed it (a
    background thread's connection left open would be collected during a later test)."""
    yield
    while _OPEN_APPS:
        close_app(_OPEN_APPS[-1])


@pytest.fixture
def app(store_url: str) -> Iterator[Flask]:
    app = make_app(store_url)
    yield app
    close_app(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def table(client: FlaskClient) -> Table:
    """A started game (ada to move, bob) with eve registered but not seated."""
    return Table(client)


@pytest.fixture
def unchanged(table: Table) -> Iterator[None]:
    """Asserts that whatever the test does leaves the game exactly as it was."""
    before = table.observed()
    yield
    assert table.observed() == before


@pytest.fixture(scope="session")
def live_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One single-process server on SQLite for the whole session."""
    db = tmp_path_factory.mktemp("live") / "live.db"
    with live_server(f"sqlite:///{db}") as base_url:
        yield base_url
