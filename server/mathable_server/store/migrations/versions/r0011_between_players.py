"""Between players: messages, mutes, rematches, a player's time zone, ratings.

Revision ID: 0011_between_players
Revises: 0009_play_address_generations
Create Date: 2026-12-02

New tables, empty: ``game_messages`` (what the seats of a game write to each
other, kept out of the event log), ``message_mutes`` (whose messages a player
does not want), ``rematches`` (the game a finished game's rematch made) and
``player_settings`` (the time zone deadlines are told in, how long before one a
reminder goes), ``reminders`` (those sent: one a turn), ``rated_games``
(whether a game is rated), ``game_results`` and ``ratings`` (records and
ratings: ``mathable-server rebuild-ratings`` fills them from the finished
games' logs). No existing row changes. Going back drops them (and the messages
with them).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_between_players"
down_revision = "0010_browser_links_sessions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_messages",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True,
                  autoincrement=True),  # fmt: skip
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("request_key", sa.String(120), nullable=True),
    )
    op.create_index("ix_game_messages_game", "game_messages", ["game_id", "id"])
    op.create_index(
        "ux_game_messages_key", "game_messages", ["player_id", "request_key"], unique=True
    )
    op.create_table(
        "message_mutes",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("muted_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "rematches",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("rematch_id", sa.String(32), nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "player_settings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("time_zone", sa.String(64), nullable=True),
        sa.Column("remind_before", sa.Integer, nullable=True),
    )
    op.create_table(
        "reminders",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("deadline", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )


    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
    )
    op.create_table(
        "game_results",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
        sa.Column("winners", sa.Integer, nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_game_results_player", "game_results", ["player_id", "at"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("ruleset", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["ruleset", "rating"])


def downgrade() -> None:
    op.drop_table("reminders")
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_game_results_player", table_name="game_results")
    op.drop_table("game_results")
    op.drop_table("rated_games")
    op.drop_table("player_settings")
    op.drop_table("rematches")
    op.drop_table("message_mutes")
    op.drop_index("ux_game_messages_key", table_name="game_messages")
    op.drop_index("ix_game_messages_game", table_name="game_messages")
    op.drop_table("game_messages")
