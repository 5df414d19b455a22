"""Tournaments: round robins, Swiss, duplicate events and leagues (issue 46).

Revision ID: 0019_i46_tournaments
Revises: 0018_i45_push
Create Date: 2026-12-06

Three new tables: ``tournaments``, ``tournament_players`` and ``tournament_games`` (a
tournament's boards: which game, its players, its result once it ends). No row of
another table changes; going back drops the three.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_i46_tournaments"
down_revision = "0016_i42_web_home"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("clock", sa.Text, nullable=True),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("max_players", sa.Integer, nullable=False),
        sa.Column("starts_at", sa.BigInteger, nullable=True),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("creator", sa.String(32), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("division_size", sa.Integer, nullable=True),
        sa.Column("season_break_hours", sa.Integer, nullable=True),
        sa.Column("close_after_hours", sa.Integer, nullable=True),
        sa.Column("next_at", sa.BigInteger, nullable=True),
        sa.Column("closes_at", sa.BigInteger, nullable=True),
        sa.Column("secret", sa.String(64), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status", "starts_at"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("joined_at", sa.BigInteger, nullable=False),
        sa.Column("left_at", sa.BigInteger, nullable=True),
        sa.Column("division", sa.Integer, nullable=False),
    )
    op.create_index("ix_tournament_players_player", "tournament_players", ["player_id"])
    op.create_table(
        "tournament_games",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String(32), nullable=True, unique=True),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("division", sa.Integer, nullable=False),
        sa.Column("created", sa.Integer, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("ended_at", sa.BigInteger, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_index("ix_tournament_players_player", table_name="tournament_players")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
