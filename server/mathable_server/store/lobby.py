"""The lobby's candidates: games waiting for players with a seat nobody holds yet.

Whether a free seat is open to anyone (not reserved for an invitee by name or by a
mailed link, not closed by a declined invitation) is the game's own rule: the lobby
(``http.api.lobby``) reads each candidate's state. This module lists the candidates,
newest first, paged by the last game shown.
"""

from __future__ import annotations

from sqlalchemy import and_, func, select

from mathable_server.store.base import Recorder
from mathable_server.store.engine import game_members, games


class LobbyRecorder(Recorder):
    """Games waiting for players with fewer seated players than seats."""

    def lobby_candidates(self, limit: int, before: str | None = None) -> list[str]:
        """Ids of the games waiting with a free seat, newest first (then by id), after the
        game ``before`` in that order; at most ``limit``."""
        seated = (
            select(func.count())
            .where(and_(game_members.c.game_id == games.c.id, game_members.c.seat.is_not(None)))
            .scalar_subquery()
        )
        query = select(games.c.id).where(and_(games.c.status == "waiting",
                                              seated < games.c.players))  # fmt: skip
        if before is not None:
            at = select(games.c.created_at).where(games.c.id == before).scalar_subquery()
            query = query.where(
                (games.c.created_at < at) | and_(games.c.created_at == at, games.c.id < before)
            )
        query = query.order_by(games.c.created_at.desc(), games.c.id.desc()).limit(limit)
        with self._reader.connect() as conn:
            return [row.id for row in conn.execute(query)]
