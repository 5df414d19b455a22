"""Accounts and abuse: token issue times, the server secret, shared rate counters, held polls.

Revision ID: 0004_accounts_and_abuse
Revises: 0003_clocks
Create Date: 2026-11-30

Existing tokens keep working: their issue time is the time of the upgrade, so
they expire (``MATHABLE_TOKEN_DAYS``) counted from then.
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0004_accounts_and_abuse"
down_revision = "0003_clocks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("token_issued_at", sa.BigInteger, nullable=True))
    op.execute(
        sa.text("UPDATE players SET token_issued_at = :now").bindparams(
            now=int(time.time() * 1000)
        )
    )
    with op.batch_alter_table("players") as batch:
        batch.alter_column("token_issued_at", existing_type=sa.BigInteger, nullable=False)
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.create_table(
        "rate_counters",
        sa.Column("key", sa.String(250), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_rate_counters_expires_at", "rate_counters", ["expires_at"])
    op.create_table(
        "held_polls",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("caller", sa.String(250), nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_held_polls_caller", "held_polls", ["caller"])


def downgrade() -> None:
    op.drop_index("ix_held_polls_caller", "held_polls")
    op.drop_table("held_polls")
    op.drop_index("ix_rate_counters_expires_at", "rate_counters")
    op.drop_table("rate_counters")
    op.drop_table("server_secrets")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("token_issued_at")
