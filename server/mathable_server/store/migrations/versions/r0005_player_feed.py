"""The player feed: what each player is told about their games, in one global order.

Revision ID: 0005_player_feed
Revises: 0004_accounts_and_abuse
Create Date: 2026-11-30

``GET /v1/me/stream`` resumes from a cursor into it, and every server process
follows it to wake its waiting requests. It starts empty: games stored before
the upgrade appear in it from their next move on.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_player_feed"
down_revision = "0004_accounts_and_abuse"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_feed",
        sa.Column(
            "seq",
            sa.BigInteger().with_variant(sa.Integer, "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("kinds", sa.String(120), nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_player_feed_player", "player_feed", ["player_id", "seq"])


def downgrade() -> None:
    op.drop_index("ix_player_feed_player", "player_feed")
    op.drop_table("player_feed")
