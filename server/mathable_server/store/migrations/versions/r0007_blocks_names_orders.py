"""Blocks between players, look-alike name keys, the key of a shared bag order.

Revision ID: 0007_blocks_names_orders
Revises: 0006_mail_and_outbox
Create Date: 2026-12-02

- ``blocks``: a new table, empty.
- ``players.name_skeleton``: each player's look-alike key
  (``mathable_server.store.names.name_key``), unique. Players whose names
  already look alike keep them: the oldest of them holds the key, the others
  none (NULL), and no new name may take it.
- ``games.order_key``: a hash of the bag order of each game made with a seed or
  a given order, read from its ``game_created`` event, so that games running at
  the upgrade are counted when a finished game of their order is shown.

Going back drops all three.
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

from mathable.core.events import Event
from mathable_server.store.events import order_key
from mathable_server.store.names import name_key

revision = "0007_blocks_names_orders"
down_revision = "0006_mail_and_outbox"
branch_labels = None
depends_on = None


class _Created:
    """Just enough of a game's state for ``order_key``: its options at creation."""

    def __init__(self, event: Event) -> None:
        self.options = event


def upgrade() -> None:
    op.create_table(
        "blocks",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("blocked_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked_id"])

    conn = op.get_bind()
    op.add_column("players", sa.Column("name_skeleton", sa.String(80), nullable=True))
    rows = conn.execute(sa.text("SELECT id, name FROM players ORDER BY created_at, id")).all()
    taken: set[str] = set()
    for player_id, name in rows:
        key = name_key(name)
        if key in taken:
            continue  # looks like an older player's name: kept, without the key
        taken.add(key)
        conn.execute(
            sa.text("UPDATE players SET name_skeleton = :key WHERE id = :id").bindparams(
                key=key, id=player_id
            )
        )
    op.create_index("ux_players_name_skeleton", "players", ["name_skeleton"], unique=True)

    op.add_column("games", sa.Column("order_key", sa.String(64), nullable=True))
    created = conn.execute(
        sa.text("SELECT game_id, data FROM events WHERE version = 1 AND type = 'game_created'")
    ).all()
    for game_id, data in created:
        event = Event.from_dict(json.loads(data))
        shared = order_key(_Created(event))  # type: ignore[arg-type]
        if shared is not None:
            conn.execute(
                sa.text("UPDATE games SET order_key = :key WHERE id = :id").bindparams(
                    key=shared, id=game_id
                )
            )
    op.create_index("ix_games_order_key", "games", ["order_key"])


def downgrade() -> None:
    op.drop_index("ix_games_order_key", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("order_key")
    op.drop_index("ux_players_name_skeleton", "players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("name_skeleton")
    op.drop_index("ix_blocks_blocked", "blocks")
    op.drop_table("blocks")
