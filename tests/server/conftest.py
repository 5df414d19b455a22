"""Fixtures for the server tests: apps on SQLite, PostgreSQL schemas, live servers."""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError

from mathable_server.store.engine import normalize_url
from tests.server.apps import close_app, close_open_apps, make_app
from tests.server.helpers import Table
from tests.server.live import live_server
from tests.server.mailbox import Mailbox
from tests.server.mailing import ADA_MAIL, BOB_MAIL, mailing_app, verify

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
            # A session a test left behind (a server process's connection that outlived
            # it) must not hold the drop for ever: after 20 s its holders are named on
            # stderr, ended, and the drop tried again.
            conn.execute(text("SET lock_timeout = '20s'"))
            try:
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            except DBAPIError:
                holders = conn.execute(
                    text(
                        "SELECT DISTINCT a.pid, a.state, left(a.query, 120) AS query"
                        " FROM pg_locks l JOIN pg_class c ON c.oid = l.relation"
                        " JOIN pg_namespace n ON n.oid = c.relnamespace"
                        " JOIN pg_stat_activity a ON a.pid = l.pid"
                        " WHERE n.nspname = :schema AND l.pid <> pg_backend_pid()"
                    ),
                    {"schema": schema},
                ).all()
                print(f"schema {schema} held at its drop by {holders}", file=sys.stderr)
                for holder in holders:
                    conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": holder.pid})
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


@pytest.fixture(autouse=True)
def _close_apps() -> Iterator[None]:
    """Every app a test made is closed after it, whether or not the test closed it (a
    background thread's connection left open would be collected during a later test)."""
    yield
    close_open_apps()


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


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    """A local SMTP relay (aiosmtpd on a free loopback port) keeping what it is sent."""
    box = Mailbox()
    box.start()
    try:
        yield box
    finally:
        box.stop()


@pytest.fixture
def mail_app(database_url: str, mailbox: Mailbox) -> Iterator[Flask]:
    """An app sending mail through ``mailbox``, on SQLite and on PostgreSQL."""
    app = mailing_app(database_url, mailbox)
    yield app
    app.extensions["mathable"].store.engine.dispose()


@pytest.fixture
def mail_table(mail_app: Flask, mailbox: Mailbox) -> Table:
    """The worked-example game with both players' addresses verified; ada to move."""
    client = mail_app.test_client()
    table = Table(client)
    verify(client, mail_app, mailbox, table.ada, ADA_MAIL)
    verify(client, mail_app, mailbox, table.bob, BOB_MAIL)
    return table


@pytest.fixture
def umask_022() -> Iterator[None]:
    """The umask most systems give a service: files are made world-readable unless told."""
    before = os.umask(0o022)
    yield
    os.umask(before)
