"""Web Push: the players' push subscriptions, each push service's circuit breaker, the
play pages open and visible, the nudges sent, and the channels per kind of news.

Revision ID: 0018_i45_push
Revises: 0014_signin_links_by_player
Create Date: 2026-12-06

New tables ``push_subscriptions``, ``push_services``, ``page_views`` and ``nudges``; a
nullable column ``notification_settings.channels`` (None: every kind by mail and push, as
before mail alone). No row changes. Going back drops them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_i45_push"
down_revision = "0015_i47_finished_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("endpoint", sa.String(2000), nullable=False),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_push_subscriptions_player", "push_subscriptions", ["player_id"])
    op.create_table(
        "push_services",
        sa.Column("origin", sa.String(300), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False, server_default="0"),
        sa.Column("paused_until", sa.BigInteger, nullable=True),
        sa.Column("last_error", sa.String(300), nullable=True),
    )
    op.create_table(
        "page_views",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seen_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "nudges",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    with op.batch_alter_table("notification_settings") as batch:
        batch.add_column(sa.Column("channels", sa.String(400), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("notification_settings") as batch:
        batch.drop_column("channels")
    op.drop_table("nudges")
    op.drop_table("page_views")
    op.drop_table("push_services")
    op.drop_index("ix_push_subscriptions_player", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
