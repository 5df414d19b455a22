"""The schema as the server made it before migrations (``db.py`` of main at af924e6), frozen.

The baseline revision must build exactly this; ``test_upgrade.py`` compares the two,
so an edit to the baseline revision cannot go unnoticed.
"""

from __future__ import annotations

from sqlalchemy import Column, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(40), nullable=False),
    #: The name folded to lower case: names are unique regardless of case.
    Column("name_key", String(40), nullable=False, unique=True),
    Column("email", String(254), nullable=True),
    #: SHA-256 of the token, hex; the token itself is never stored.
    Column("token_hash", String(64), nullable=False),
    Column("created_at", String(32), nullable=False),
)

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("ruleset", String(32), nullable=False),
    Column("status", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("referee", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    #: The player whose turn it is, if any: "the games waiting on me" reads this.
    Column("to_move", String(32), nullable=True),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
)

game_members = Table(
    "game_members",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    #: None while an invited player has not joined yet.
    Column("seat", Integer, nullable=True),
    Index("ix_game_members_player", "player_id"),
)

events = Table(
    "events",
    metadata,
    Column("game_id", String(32), primary_key=True, autoincrement=False),
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("type", String(32), nullable=False),
    Column("schema_version", Integer, nullable=False),
    Column("data", Text, nullable=False),
    Column("created_at", String(32), nullable=False),
)

idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("key", String(200), primary_key=True),
    Column("fingerprint", String(64), nullable=False),
    Column("game_id", String(32), nullable=False),
    Column("status", Integer, nullable=False),
    Column("body", Text, nullable=False),
    Column("created_at", String(32), nullable=False),
)

registration_keys = Table(
    "registration_keys",
    metadata,
    #: SHA-256 of the Idempotency-Key a registration came with: during the retry window
    #: the key is as good as a token, so it is stored like one.
    Column("key_hash", String(64), primary_key=True),
    Column("player_id", String(32), nullable=False),
    Column("fingerprint", String(64), nullable=False),
    Column("created_at", String(32), nullable=False),
)
