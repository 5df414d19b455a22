"""Events carry the time they were written as a number: ``events.at``, milliseconds since 1970 UTC.

Revision ID: 0002_event_times
Revises: 0001_baseline
Create Date: 2026-11-30

Clocks are derived from these times; the ISO text in ``created_at`` stays as it was.
Existing events get the time their ``created_at`` says.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_event_times"
down_revision = "0001_baseline"
branch_labels = None
depends_on = None

_BACKFILL = {
    # julianday() reads ISO 8601 with fractions of a second and a final Z.
    "sqlite": "UPDATE events SET at = "
    "CAST(ROUND((julianday(created_at) - 2440587.5) * 86400000.0) AS INTEGER)",
    "postgresql": "UPDATE events SET at = "
    "ROUND(EXTRACT(EPOCH FROM CAST(created_at AS timestamptz)) * 1000)",
}


def upgrade() -> None:
    op.add_column("events", sa.Column("at", sa.BigInteger, nullable=True))
    op.execute(_BACKFILL[op.get_bind().dialect.name])
    with op.batch_alter_table("events") as batch:
        batch.alter_column("at", existing_type=sa.BigInteger, nullable=False)


def downgrade() -> None:
    # Nothing is lost: created_at still holds every event's time.
    with op.batch_alter_table("events") as batch:
        batch.drop_column("at")
