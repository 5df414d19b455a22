"""What can stop a migration, each with a message that says what to do."""

from __future__ import annotations


class MigrationError(Exception):
    """The schema cannot be brought where it was asked to go; the database is unchanged."""


class IrreversibleMigration(MigrationError):
    """A revision that cannot be undone was asked to go back."""


class SchemaTooNew(MigrationError):
    """The database was migrated by a newer server than this one."""


class SchemaOutdated(MigrationError):
    """The database needs ``mathable-server migrate`` before this server may serve it."""
