"""Sign-in links found by their player: withdrawn together when the player signs out
everywhere or replaces their token, and counted against the player's sign-in mails.

Revision ID: 0014_signin_links_by_player
Revises: 0013_i29_finish
Create Date: 2026-12-06

An index on ``browser_links (player_id, kind, created_at)``; no row changes. Going
back drops it.
"""

from __future__ import annotations

from alembic import op

revision = "0014_signin_links_by_player"
down_revision = "0013_i29_finish"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_browser_links_player", "browser_links", ["player_id", "kind", "created_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_browser_links_player", table_name="browser_links")
