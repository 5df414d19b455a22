"""The language a player reads: ``player_settings.language``.

Revision ID: 0012_player_language
Revises: 0011_between_players
Create Date: 2026-12-02

One nullable column (``en``, ``fr``, ``nb``, ``it``; null: the request's
``Accept-Language``, else English). No row changes; a server before it ignores
the column, so this upgrade is rolling. Going back drops the column.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_player_language"
down_revision = "0011_between_players"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("player_settings") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("player_settings") as batch:
        batch.drop_column("language")
