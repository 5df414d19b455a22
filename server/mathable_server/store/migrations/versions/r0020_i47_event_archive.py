"""Finished games' logs compacted into one row each: ``event_archive`` (issue 47).

Revision ID: 0020_i47_event_archive
Revises: 0019_i46_tournaments
Create Date: 2026-12-06

A table, nothing more: no row of another table changes here. The new server's
periodic job (and ``mathable-server compact``) then moves the events of games finished
a day ago into it, a bounded batch at a time (``store.archive``); a server of the
revision before refuses to start on this revision, so none reads a compacted log.
Going back writes every archived game's events into ``events`` again (exactly as they
were) and drops the table: the old server reads every log. The feed rows and kept
answers that compaction dropped stay dropped (nothing of the old server needs them).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020_i47_event_archive"
down_revision = "0019_i46_tournaments"
branch_labels = None
depends_on = None

#: Archived games written back into ``events`` per statement on the way down.
_BATCH = 200


def upgrade() -> None:
    op.create_table(
        "event_archive",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("ended_at", sa.BigInteger, nullable=True),
        sa.Column("body", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    # deferred: the codec, only on the way down
    from mathable_server.store.archive import unpack

    conn = op.get_bind()
    events = sa.table(
        "events",
        sa.column("game_id", sa.String),
        sa.column("version", sa.Integer),
        sa.column("type", sa.String),
        sa.column("schema_version", sa.Integer),
        sa.column("data", sa.Text),
        sa.column("created_at", sa.String),
        sa.column("at", sa.BigInteger),
    )
    archive = sa.table(
        "event_archive",
        sa.column("game_id", sa.String),
        sa.column("version", sa.Integer),
        sa.column("body", sa.LargeBinary),
    )
    after = ""
    while True:
        rows = conn.execute(
            sa.select(archive.c.game_id, archive.c.body)
            .where(archive.c.game_id > after)
            .order_by(archive.c.game_id)
            .limit(_BATCH)
        ).all()
        if not rows:
            break
        for game_id, body in rows:
            # Rows written after the compaction (none today) stay where they are: the
            # archive holds the versions before them.
            log = [{"game_id": game_id, **row._asdict()} for row in unpack(body)]
            conn.execute(sa.insert(events), log)
        after = rows[-1][0]
    op.drop_table("event_archive")
