"""A circuit breaker per webhook: its failures in a row, until when it is paused, why.

Revision ID: 0008_webhook_breaker
Revises: 0007_blocks_names_orders
Create Date: 2026-12-02

Three columns added to ``notification_settings``; existing webhooks start with
no failures and not paused. Going back drops them (a paused webhook is then
called again at once).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_webhook_breaker"
down_revision = "0007_blocks_names_orders"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("notification_settings") as batch:
        batch.add_column(
            sa.Column("webhook_failures", sa.Integer, nullable=False, server_default="0")
        )
        batch.add_column(sa.Column("webhook_paused_until", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("webhook_last_error", sa.String(300), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("notification_settings") as batch:
        batch.drop_column("webhook_last_error")
        batch.drop_column("webhook_paused_until")
        batch.drop_column("webhook_failures")
