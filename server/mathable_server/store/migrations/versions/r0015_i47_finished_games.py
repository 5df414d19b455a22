"""Finished games kept as the lists show them: ``finished_games`` (issue 47).

Revision ID: 0015_i47_finished_games
Revises: 0014_signin_links_by_player
Create Date: 2026-12-06

A table. The finished games there are are written into it from their events once
this revision's transaction is committed (``store.migrations.upgrade`` calls
``store.finished.backfill``: batches of 200 games, each a short transaction of its
own), so a server still running the revision before goes on meanwhile; a game it
ends after the batches is written when a list first finds it missing. Going back
drops the table.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_i47_finished_games"
down_revision = "0014_signin_links_by_player"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "finished_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("body", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("finished_games")
