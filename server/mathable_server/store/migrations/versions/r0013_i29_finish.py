"""Bot accounts: which players said they are bots (a game is rated by default only when
none of its known seats is one).

Revision ID: 0013_i29_finish
Revises: 0012_player_language
Create Date: 2026-12-02

A new table, empty: ``bot_accounts`` (a player id and when it said so). No existing
row changes; every existing account is a person until it says otherwise. Going back
drops it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_i29_finish"
down_revision = "0012_player_language"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_accounts",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bot_accounts")
