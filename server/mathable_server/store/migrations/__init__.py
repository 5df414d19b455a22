"""Schema migrations (Alembic): one chain of revisions for SQLite and PostgreSQL.

``upgrade(engine)`` brings any database to the newest revision in one
transaction that holds the database's write lock (PostgreSQL: an advisory
lock, so a second ``migrate`` waits and then finds nothing to do; SQLite:
``BEGIN IMMEDIATE``). A process killed half way leaves the database as it was:
the revision table and the schema always agree.

- An empty database gets the newest schema at once (``create_all``) and is
  stamped with the newest revision; a test checks that this equals running
  every revision.
- A database made before migrations existed (tables, no ``alembic_version``)
  is taken to be at the baseline revision, then upgraded.
- A database stamped by a newer server is refused (``SchemaTooNew``).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect

from mathable_server.store.engine import metadata, write_transaction
from mathable_server.store.migrations.errors import (
    IrreversibleMigration,
    MigrationError,
    SchemaOutdated,
    SchemaTooNew,
)

__all__ = [
    "BASE",
    "BASELINE",
    "LOCK_ID",
    "VERSION_TABLE",
    "IrreversibleMigration",
    "MigrationError",
    "Migration",
    "SchemaOutdated",
    "SchemaTooNew",
    "backup_sqlite",
    "check_current",
    "context",
    "current_revision",
    "downgrade",
    "head",
    "migrate_to",
    "revisions",
    "upgrade",
]

#: The revision of a database made before migrations existed.
BASELINE = "0001_baseline"
_FOLDER = Path(__file__).resolve().parent
#: Serialises migrations (and first starts) between processes on PostgreSQL.
LOCK_ID = 0x6D617468
#: Our own name for Alembic's revision table: a database shared with another
#: Alembic-managed application keeps the two apart.
VERSION_TABLE = "mathable_schema_version"
#: ``migrate --to base``: before the baseline (refused: it would drop every game).
BASE = "base"


@dataclass(frozen=True)
class Migration:
    """What ``upgrade`` or ``downgrade`` did: from which revision to which (None: empty)."""

    before: str | None
    after: str

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def __str__(self) -> str:
        if not self.changed:
            return f"already at revision {self.after}"
        if self.before is None:
            return f"created the schema at revision {self.after}"
        return f"migrated from revision {self.before} to {self.after}"


def _config(conn: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(_FOLDER))
    config.attributes["version_table"] = VERSION_TABLE
    if conn is not None:
        config.attributes["connection"] = conn
    return config


@lru_cache(maxsize=1)
def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


def head() -> str:
    """The newest revision this server knows."""
    found = _scripts().get_current_head()
    assert found is not None
    return found


def revisions() -> list[str]:
    """Every revision, oldest first."""
    return [r.revision for r in reversed(list(_scripts().walk_revisions()))]


def context(conn: Connection) -> MigrationContext:
    """Alembic's view of the database on ``conn`` (our revision table)."""
    return MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE})


def _revision_in(conn: Connection) -> str | None:
    stamped = context(conn).get_current_revision()
    if stamped is not None:
        return stamped
    # Tables but no revision table: made by the server before migrations existed.
    return BASELINE if inspect(conn).has_table("events") else None


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at; None for an empty database."""
    with engine.connect() as conn:
        return _revision_in(conn)


#: The revision after which the finished games ended before it are written
#: (``store.finished.backfill``), outside its transaction.
FINISHED_GAMES = "0015_i47_finished_games"


def upgrade(engine: Engine, target: str = "head") -> Migration:
    """Bring the database to ``target`` (default: the newest revision) in one transaction.

    Through revision 0015, the finished games there are are then written into
    ``finished_games`` in transactions of their own (``store.finished.backfill``):
    the schema's transaction stays short, and a server still running writes between
    the batches."""
    migration = _upgrade(engine, target)
    before, after = migration.before, migration.after
    if (
        before is not None
        and before != after
        and _is_ancestor(before, FINISHED_GAMES)
        and not _is_ancestor(after, FINISHED_GAMES)
    ):
        # deferred: the rules package, only for an upgrade through 0015
        from mathable_server.store.finished import backfill

        backfill(engine)
    return migration


def _upgrade(engine: Engine, target: str) -> Migration:
    target = head() if target == "head" else target
    with write_transaction(engine, LOCK_ID) as conn:
        before = _revision_in(conn)
        if before is None:
            if target == head():
                # An empty database: the newest schema at once, stamped as such.
                metadata.create_all(conn)
                context(conn).stamp(_scripts(), target)
                return Migration(None, target)
        elif before not in revisions():
            raise SchemaTooNew(
                f"the database is at revision {before}, which this server does not know "
                f"(its newest is {head()}): it was migrated by a newer version; "
                "run that version, or restore the backup taken before the upgrade"
            )
        elif before == target:
            return Migration(before, target)
        elif _is_ancestor(target, before):
            raise MigrationError(
                f"the database is at revision {before}, after {target}: going back is "
                f"`mathable-server migrate --to {target}` only where a revision supports it"
            )
        if before == BASELINE and context(conn).get_current_revision() is None:
            context(conn).stamp(_scripts(), BASELINE)
        command.upgrade(_config(conn), target)
        return Migration(before, target)


def downgrade(engine: Engine, target: str) -> Migration:
    """Take the database back to ``target`` (or ``base``), if every revision on the way
    can be undone; IrreversibleMigration (and nothing changed) where one cannot."""
    if target != BASE and target not in revisions():
        raise MigrationError(f"no revision {target!r}; known: {', '.join(revisions())}")
    try:
        with write_transaction(engine, LOCK_ID) as conn:
            before = _revision_in(conn)
            if before is None or before not in revisions() or not _is_ancestor(target, before):
                raise MigrationError(f"the database is at revision {before}, not after {target}")
            if context(conn).get_current_revision() is None:
                context(conn).stamp(_scripts(), before)
            command.downgrade(_config(conn), target)
            return Migration(before, target)
    except IrreversibleMigration as err:
        raise IrreversibleMigration(f"refused, nothing changed: {err}") from None


def migrate_to(engine: Engine, target: str = "head") -> Migration:
    """Upgrade to ``target``, or go back to it (or to ``base``) when the database is past it."""
    found = current_revision(engine)
    if target not in (BASE, "head") and target not in revisions():
        raise MigrationError(f"no revision {target!r}; known: {', '.join(revisions())}")
    if found is not None and found in revisions() and _is_ancestor(target, found):
        return downgrade(engine, target)
    return upgrade(engine, target)


def _is_ancestor(older: str, newer: str) -> bool:
    if older == BASE:
        return True
    if older == "head":
        return False
    order = revisions()
    return order.index(older) < order.index(newer)


def check_current(engine: Engine) -> None:
    """Raise unless the database is at the newest revision (or empty, to be created)."""
    found = current_revision(engine)
    if found is None or found == head():
        return
    if found not in revisions():
        raise SchemaTooNew(
            f"the database is at revision {found}, newer than this server ({head()}): "
            "upgrade the server"
        )
    raise SchemaOutdated(
        f"the database schema is at revision {found} and this server needs {head()}: "
        "run `mathable-server migrate` (after a backup)"
    )


def backup_sqlite(database: str | Path, before: str) -> Path:
    """Copy a SQLite database with SQLite's online backup, beside it; the copy's path."""
    source_path = Path(database)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target_path = source_path.with_name(f"{source_path.name}.{before}.{stamp}.bak")
    # The copy holds the server's secret as the database does: only its owner reads it.
    os.close(os.open(target_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    source = sqlite3.connect(source_path)
    try:
        target = sqlite3.connect(target_path)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()
    return target_path


def init_schema(engine: Engine) -> None:
    """Create or upgrade the schema to the newest revision; safe from several processes at once."""
    upgrade(engine)
