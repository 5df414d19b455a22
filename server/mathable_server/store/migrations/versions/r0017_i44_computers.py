"""The computer's players (issue 44): the accounts the server plays itself, one per level.

Revision ID: 0017_i44_computers
Revises: 0014_signin_links_by_player
Create Date: 2026-12-06

A new table, empty: ``computer_players`` (a player id, its level, its engine, when made).
The server makes the accounts when it starts; no existing row changes. Going back drops
the table (the accounts stay, as bots' accounts nobody plays).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_i44_computers"
down_revision = "0018_i45_push"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "computer_players",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("level", sa.String(32), nullable=False, unique=True),
        sa.Column("engine", sa.String(64), nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("computer_players")
