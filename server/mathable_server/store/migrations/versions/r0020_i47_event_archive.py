"""Finished games' logs compacted into one row each: ``event_archive`` (issue 47).

Revision ID: 0020_i47_event_archive
Revises: 0019_i46_tournaments
Create Date: 2026-12-06

A table, and an index on ``player_feed.game_id`` and ``idempotency_keys.game_id`` (a
compacted game's rows there are found by its id); no row of another table changes here.
The new server's
periodic job (and ``mathable-server compact``) then moves the events of games finished
a day ago into it, a bounded batch at a time (``store.archive``); a server of the
revision before refuses to start on this revision, so none reads a compacted log.
Going back writes every archived game's events into ``events`` again (exactly as they
were) and drops the table and the indexes: the old server reads every log. The feed rows and kept
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
    # A game's feed rows and kept answers, found by the game when it is compacted: without
    # these a compaction read every row of each of its players (issue 47's measure).
    op.create_index("ix_player_feed_game", "player_feed", ["game_id"])
    op.create_index("ix_idempotency_keys_game", "idempotency_keys", ["game_id"])


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
    op.drop_index("ix_idempotency_keys_game", table_name="idempotency_keys")
    op.drop_index("ix_player_feed_game", table_name="player_feed")
