"""Baseline: the schema the server made with ``create_all`` before migrations existed.

Revision ID: 0001_baseline
Revises:
Create Date: 2026-11-30

A database made by that server has these tables and no ``alembic_version``;
``mathable_server.store.migrations`` stamps it with this revision before upgrading.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from mathable_server.store.migrations.errors import IrreversibleMigration

revision = "0001_baseline"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("referee", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("to_move", sa.String(32), nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("updated_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "game_members",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("ix_game_members_player", "game_members", ["player_id"])
    op.create_table(
        "events",
        sa.Column("game_id", sa.String(32), primary_key=True, autoincrement=False),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("schema_version", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "idempotency_keys",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("status", sa.Integer, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "registration_keys",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    raise IrreversibleMigration("the baseline cannot be undone: it would drop every game")
