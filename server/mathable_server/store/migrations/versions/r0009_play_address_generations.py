"""Play addresses a player can close: a generation and who closed each.

Revision ID: 0009_play_address_generations
Revises: 0008_webhook_breaker
Create Date: 2026-12-02

Two columns on ``play_addresses``: ``generation`` (0 for every existing row: its
address, made without one, keeps working) and ``closed_by`` (``seat`` or
``player``; None for the rows closed before: they stay closed, as a seat's).
Going back drops them; addresses a player closed then read as closed for good.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_play_address_generations"
down_revision = "0008_webhook_breaker"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("play_addresses") as batch:
        batch.add_column(
            sa.Column("generation", sa.Integer, nullable=False, server_default="0")
        )
        batch.add_column(sa.Column("closed_by", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("play_addresses") as batch:
        batch.drop_column("closed_by")
        batch.drop_column("generation")
