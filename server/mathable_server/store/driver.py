"""Statements of the move path run on the driver's connection, inside a SQLAlchemy
transaction: no statement to build, compile or key for the cache, no execution context.

A move is a handful of short statements; SQLAlchemy's Core spent a third of a move's
CPU making and keying them (issue 47). The few statements every move runs are written
once as text in the driver's parameter style (``?`` for sqlite3, ``%s`` for psycopg)
and run here on the transaction's own connection. What the driver raises comes out
as SQLAlchemy raises it (``IntegrityError``, ``OperationalError``: a 503), its
parameters hidden as the engines hide them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError


class DriverWrite:
    """A write transaction held on a pooled driver connection alone, with no SQLAlchemy
    ``Connection`` around it (``engine.driver_write``): what a move that writes only
    these statements runs in (issue 47: SQLAlchemy's connection, its transaction and
    their events were a twentieth of a move's CPU)."""

    __slots__ = ("dbapi", "driver")

    def __init__(self, driver: Any, dbapi: Any) -> None:
        self.driver = driver
        self.dbapi = dbapi


def run(
    conn: Connection | DriverWrite, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
) -> Any:
    """Run ``sql`` with ``params`` on ``conn``'s driver connection; its cursor."""
    driver: Any
    if isinstance(conn, DriverWrite):
        driver, dbapi = conn.driver, conn.dbapi
    else:
        driver = conn.connection.driver_connection
        dbapi = conn.dialect.loaded_dbapi
    try:
        return driver.execute(sql, params)
    except dbapi.Error as err:
        raise DBAPIError.instance(sql, None, err, dbapi.Error, hide_parameters=True) from err


@functools.cache
def insert_sql(table: str, columns: tuple[str, ...], count: int, mark: str) -> str:
    """``INSERT INTO table (columns) VALUES (...), (...)`` for ``count`` rows, each value a
    positional ``mark`` (the same text each time: the driver keeps it prepared)."""
    row = "(" + ", ".join([mark] * len(columns)) + ")"
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES " + ", ".join([row] * count)


def insert_rows(
    conn: Connection | DriverWrite,
    table: str,
    columns: tuple[str, ...],
    rows: Sequence[dict[str, Any]],
    mark: str,
    chunk: int = 200,
) -> None:
    """Insert ``rows`` (dicts with at least ``columns``) into ``table``: one statement
    for up to ``chunk`` rows."""
    for start in range(0, len(rows), chunk):
        part = rows[start : start + chunk]
        values = [row[column] for row in part for column in columns]
        run(conn, insert_sql(table, columns, len(part), mark), values)
