"""Clocks: each game's next deadline (an indexed column for the sweeper) and vacations.

Revision ID: 0003_clocks
Revises: 0002_event_times
Create Date: 2026-11-30

``games.deadline`` is when the player to move runs out of time and
``games.due_at`` when the server must act on its own; both are projections of
the events. Games made before clocks existed have none: both stay NULL.
``vacations`` records the days each player has taken (the allowance is per
calendar year).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_clocks"
down_revision = "0002_event_times"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("deadline", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("due_at", sa.BigInteger, nullable=True))
    op.create_index("ix_games_due_at", "games", ["due_at"])
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("starts_at", sa.BigInteger, nullable=False),
        sa.Column("ends_at", sa.BigInteger, nullable=False),
        sa.Column("days", sa.Integer, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_vacations_player", "vacations", ["player_id", "starts_at"])


def downgrade() -> None:
    op.drop_index("ix_vacations_player", table_name="vacations")
    op.drop_table("vacations")
    op.drop_index("ix_games_due_at", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("due_at")
        batch.drop_column("deadline")
