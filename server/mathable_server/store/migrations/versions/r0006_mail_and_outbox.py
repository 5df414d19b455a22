"""Play by email: the outbox, email addresses, notification settings, play addresses.

Revision ID: 0006_mail_and_outbox
Revises: 0005_player_feed
Create Date: 2026-11-30

New tables only: nothing existing changes, and going back drops them (with any
notification not yet sent).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_mail_and_outbox"
down_revision = "0005_player_feed"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("recipient", sa.String(32), nullable=False),
        sa.Column("message_id", sa.String(200), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("next_try", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("sent_at", sa.BigInteger, nullable=True),
        sa.Column("last_error", sa.Text, nullable=True),
    )
    op.create_index("ix_outbox_due", "outbox", ["state", "next_try"])
    op.create_table(
        "email_addresses",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("verified_at", sa.BigInteger, nullable=True),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("code_expires_at", sa.BigInteger, nullable=False),
        sa.Column("code_tries", sa.Integer, nullable=False),
    )
    op.create_table(
        "notification_settings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("email", sa.String(16), nullable=False),
        sa.Column("webhook_url", sa.String(2000), nullable=True),
        sa.Column("webhook_secret", sa.String(200), nullable=True),
    )
    op.create_table(
        "play_addresses",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("revoked_at", sa.BigInteger, nullable=True),
    )
    op.create_table(
        "inbound_messages",
        sa.Column("message_hash", sa.String(64), primary_key=True),
        sa.Column("received_at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("inbound_messages")
    op.drop_table("play_addresses")
    op.drop_table("notification_settings")
    op.drop_table("email_addresses")
    op.drop_index("ix_outbox_due", "outbox")
    op.drop_table("outbox")
