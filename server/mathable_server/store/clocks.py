"""Games whose clocks need the server."""

from __future__ import annotations

from sqlalchemy import (
    and_,
    select,
    update,
)

from mathable_server.store.base import Recorder
from mathable_server.store.engine import (
    game_members,
    games,
)


class ClockRecorder(Recorder):
    """When the server must next act on a game (``due_at``): the sweeper's work list."""

    def due_games(self, now: int, limit: int) -> list[str]:
        """Games whose ``due_at`` has come, soonest first: an index range, not a scan."""
        query = (
            select(games.c.id)
            .where(and_(games.c.due_at.is_not(None), games.c.due_at <= now))
            .order_by(games.c.due_at)
            .limit(limit)
        )
        with self._reader.connect() as conn:
            return [row.id for row in conn.execute(query)]

    def due_games_of(self, player_id: str, now: int) -> list[str]:
        """The games of ``player_id`` whose ``due_at`` has come."""
        query = (
            select(games.c.id)
            .join(game_members, games.c.id == game_members.c.game_id)
            .where(
                and_(
                    game_members.c.player_id == player_id,
                    games.c.due_at.is_not(None),
                    games.c.due_at <= now,
                )
            )
        )
        with self._reader.connect() as conn:
            return [row.id for row in conn.execute(query)]

    def clear_due(self, game_id: str, version: int) -> None:
        """Nothing is due on the game at ``version`` (a claim-mode timeout waits for a claim)."""
        with self._writer() as conn, conn.begin():
            conn.execute(
                update(games)
                .where(and_(games.c.id == game_id, games.c.version == version))
                .values(due_at=None)
            )
