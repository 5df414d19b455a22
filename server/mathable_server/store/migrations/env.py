"""Alembic's entry point: migrations run on the connection (and transaction) the caller opened.

``mathable_server.store.migrations.upgrade`` opens one transaction (holding PostgreSQL's
advisory lock, or SQLite's write lock), so a whole upgrade commits or not at all.
"""

from __future__ import annotations

from alembic import context

from mathable_server.store.engine import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    version_table=context.config.attributes["version_table"],
    target_metadata=metadata,
    # SQLite changes columns by copying the table: batch mode does that for us.
    render_as_batch=True,
    transactional_ddl=True,
)
with context.begin_transaction():
    context.run_migrations()
