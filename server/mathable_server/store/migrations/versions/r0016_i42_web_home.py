"""The web as a home (issue 42): each player's rating history, and when a browser
session was last used.

Revision ID: 0016_i42_web_home
Revises: 0018_i45_push
Create Date: 2026-12-06

A table ``rating_history`` (a rated game's ratings after it, per player and ruleset),
empty at first: ``mathable-server rebuild-ratings`` fills it for the games before; and
a column ``browser_sessions.last_used_at`` (null until next used). Going back drops both.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_i42_web_home"
down_revision = "0017_i44_computers"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_history",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("ruleset", sa.String(32), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
    )
    op.create_index(
        "ix_rating_history_player", "rating_history", ["player_id", "ruleset", "at"]
    )
    with op.batch_alter_table("browser_sessions") as batch:
        batch.add_column(sa.Column("last_used_at", sa.BigInteger, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("browser_sessions") as batch:
        batch.drop_column("last_used_at")
    op.drop_index("ix_rating_history_player", table_name="rating_history")
    op.drop_table("rating_history")
