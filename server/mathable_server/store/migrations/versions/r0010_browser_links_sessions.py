"""Playing in the browser: one-time links (invitations, sign-in) and browser sessions.

Revision ID: 0010_browser_links_sessions
Revises: 0009_play_address_generations
Create Date: 2026-12-02

Two new tables. ``browser_links``: the hash of each one-time link's secret, its kind
(``invite`` or ``signin``), whom and what it is for, when it expires and when it was
spent. ``browser_sessions``: the hash of each browser's session cookie and whose it is.
Going back drops both: every open link stops working and every browser is signed out.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_browser_links_sessions"
down_revision = "0009_play_address_generations"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "browser_links",
        sa.Column("secret_hash", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("address", sa.String(254), nullable=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
        sa.Column("used_at", sa.BigInteger, nullable=True),
        sa.Column("outcome", sa.String(8), nullable=True),
    )
    op.create_index("ix_browser_links_game", "browser_links", ["game_id"])
    op.create_table(
        "browser_sessions",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("secret_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
        sa.Column("user_agent", sa.String(200), nullable=True),
    )
    op.create_index("ix_browser_sessions_player", "browser_sessions", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_browser_sessions_player", table_name="browser_sessions")
    op.drop_table("browser_sessions")
    op.drop_index("ix_browser_links_game", table_name="browser_links")
    op.drop_table("browser_links")
